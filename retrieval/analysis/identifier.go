package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// AppendIdentifiers appends the compound identifiers s writes, lower-cased:
// runs of letters and digits joined by '.' or '_' ("next.js",
// "authorized_fetch", "mkdocs.yml"). Tokens splits them into their parts,
// which the docs may well use on their own ("next", "js"); the identifier
// as written is an exact name, and docs that never write it do not
// document the thing it names. A separator at either end (a full stop
// after a word) or doubled is no joint.
//
// Indexing scans every unit's text: the scan looks only at separators
// with a letter or digit on both sides and allocates only for the
// identifiers it finds.
func AppendIdentifiers(ids []string, s string) []string {
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "._")
		if j < 0 {
			break
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+1:])
		if !isWordRune(before) || !isWordRune(after) {
			i = j + 1
			continue
		}
		start, end := j, j
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:start])
			if !isIdentifierRune(r) {
				break
			}
			start -= size
		}
		for end < len(s) {
			r, size := utf8.DecodeRuneInString(s[end:])
			if !isIdentifierRune(r) {
				break
			}
			end += size
		}
		i = end
		f := strings.Trim(s[start:end], "._")
		if strings.Contains(f, "..") || strings.Contains(f, "__") || strings.Contains(f, "._") || strings.Contains(f, "_.") {
			continue
		}
		if !hasLongPart(f) {
			continue // "e.g", "i.e", "2.1": an abbreviation or a number, not a name
		}
		ids = append(ids, strings.ToLower(f))
		// A version is written by the docs that write a release of it:
		// "1.26.x" and "1.26.4" write "1.26".
		for v := f; ; {
			j := strings.LastIndexByte(v, '.')
			if j < 0 {
				break
			}
			v = v[:j]
			if isVersion(v) && strings.Contains(v, ".") && hasLongPart(v) {
				ids = append(ids, v)
			}
		}
	}
	return ids
}

// isVersion reports whether id is digits and dots only: a version
// ("1.26", "3.12.1").
func isVersion(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] != '.' && (id[i] < '0' || id[i] > '9') {
			return false
		}
	}
	return true
}

// AppendCalls appends the methods s calls, as ".name(" lower-cased: a name
// after a dot and before an opening parenthesis ("resp.getheader()",
// "`.formData()`"). A question's "response.formData()" calls on a
// variable of the asker's the method the docs write as ".formData()" or
// "Response.formData()": the method is the name, the receiver is not.
func AppendCalls(dst []string, s string) []string {
	for i := strings.IndexByte(s, '.'); i >= 0; {
		end := i + 1
		for end < len(s) {
			r, size := utf8.DecodeRuneInString(s[end:])
			if r != '_' && !isWordRune(r) {
				break
			}
			end += size
		}
		if end > i+1 && end < len(s) && s[end] == '(' {
			dst = append(dst, strings.ToLower(s[i:end+1]))
		}
		next := strings.IndexByte(s[i+1:], '.')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return dst
}

// AppendClasses appends the qualified class names s writes, as their
// identifiers lower-cased: a dotted name whose last part is a class's
// name in camel case ("sqlite3.OperationalError",
// "django.core.exceptions.SynchronousOnlyOperation",
// "java.lang.NullPointerException"), as tracebacks and logs write them.
// The docs name the class ("OperationalError"), seldom the module it is
// raised from: the class is the name, its path is not. A lower-case last
// part ("Next.js", "mkdocs.yml") names no class.
func AppendClasses(dst []string, s string) []string {
	ids := AppendIdentifiers(nil, s)
	if len(ids) == 0 {
		return dst
	}
	// Where s writes each identifier, found in s with its ASCII letters
	// lower-cased, as AppendIdentifiers gives it: lower-casing other
	// letters may change their length.
	lower := []byte(s)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for _, id := range ids {
		dot := strings.LastIndexByte(id, '.')
		if dot < 0 || strings.IndexByte(id[dot:], '_') >= 0 {
			continue
		}
		i := strings.Index(string(lower), id)
		if i < 0 {
			continue // non-ASCII letters: no class name of a traceback
		}
		if className(s[i+dot+1 : i+len(id)]) {
			dst = append(dst, id)
		}
	}
	return dst
}

// className reports a word spelled as a class's name: a capital first,
// another capital and a lower-case letter after it ("OperationalError",
// "HTTPError"). One capital is any word opening a sentence ("Session").
func className(w string) bool {
	upper, lower := 0, false
	for i, r := range w {
		switch {
		case unicode.IsUpper(r):
			upper++
		case i == 0:
			return false
		case unicode.IsLower(r):
			lower = true
		}
	}
	return upper >= 2 && lower
}

// hasLongPart reports whether some part of an identifier, between its
// separators, has two characters or more.
func hasLongPart(id string) bool {
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '.' || r == '_' }) {
		if utf8.RuneCountInString(part) > 1 {
			return true
		}
	}
	return false
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func isIdentifierRune(r rune) bool { return r == '.' || r == '_' || isWordRune(r) }

// WritesName reports whether s writes a word in camel case, a capital
// after a lower-case letter ("PgBouncer", "WordPress", "AuthorizationFailed"):
// the spelling of a product's, a program's or an error's own name, which,
// like an identifier, names one thing. A word in capitals ("SSO", "VAT")
// is not: acronyms name general things as often as one.
func WritesName(s string) bool {
	prevLower := false
	for _, r := range s {
		if unicode.IsUpper(r) && prevLower {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}

// AppendCapitalized appends to dst the words s writes with a capital
// letter inside a sentence ("integrate with Jira", "are you HIPAA
// compliant"), lower-cased as Tokens makes them, each with its singular:
// English capitalizes names there, and a slip is rarely capitalized. A
// sentence's first word (the text's, or one after a full stop, question
// or exclamation mark, or colon) is capitalized whatever it is, and is
// left out.
func AppendCapitalized(dst []string, s string) []string {
	start := true
	for _, f := range strings.Fields(s) {
		if !start && strings.IndexFunc(f, unicode.IsUpper) >= 0 {
			for _, w := range Tokens(f) {
				dst = append(dst, w)
				if sg := Singular(w); sg != w {
					dst = append(dst, sg)
				}
			}
		}
		last, _ := utf8.DecodeLastRuneInString(f)
		start = strings.ContainsRune(".?!:", last)
	}
	return dst
}
