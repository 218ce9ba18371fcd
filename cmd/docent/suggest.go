package main

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/store/postgres"
)

// command renders a docent command to copy and paste: the subcommand, the
// store this session used (--db when it was given on the command line,
// without its password; --docs for the embedded store) and the given
// arguments, each quoted for a POSIX shell. Names come from file names, so
// a doc called `z$(touch pwned).md` must not run anything when pasted.
func (e *env) command(sub string, args ...string) string {
	words := []string{"docent", sub}
	switch {
	case e.cfg.dbURL != "" && e.dbFromFlag:
		if url := postgres.WithoutPassword(e.cfg.dbURL); url != "" {
			words = append(words, flagWord("db", url))
		}
	case e.cfg.dbURL == "" && e.cfg.docsDir != "":
		words = append(words, flagWord("docs", e.cfg.docsDir))
	}
	for i := 0; i < len(args); i++ {
		if strings.HasPrefix(args[i], "--") && i+1 < len(args) {
			words = append(words, flagWord(strings.TrimPrefix(args[i], "--"), args[i+1]))
			i++
			continue
		}
		words = append(words, shellQuote(args[i]))
	}
	return strings.Join(words, " ")
}

// flagWord renders a flag and its value; a value that starts with a dash
// is attached with "=" so it cannot be read as another flag.
func flagWord(name, value string) string {
	if strings.HasPrefix(value, "-") {
		return "--" + name + "=" + shellQuote(value)
	}
	return "--" + name + " " + shellQuote(value)
}

// plainWord is what a shell reads as itself, unquoted.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes s for a POSIX shell: as is when it is plain, in single
// quotes otherwise (nothing is special inside them but the quote itself).
// Text with control characters or invalid UTF-8 cannot be shown raw on a
// terminal, so it gets bash's $'…' form with escapes.
func shellQuote(s string) string {
	switch {
	case s == "":
		return "''"
	case plainWord.MatchString(s):
		return s
	case utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) < 0:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
