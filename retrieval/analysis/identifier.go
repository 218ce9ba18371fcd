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
	}
	return ids
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
