package ingest

import (
	"strings"
	"unicode"
)

// Notes are often typed as plain text, where a section starts with a line
// in capitals ("STEPS", "KNOWN WORKAROUND") rather than a '#'. noteMarkdown
// makes such lines ## headings, so the chunker splits a note into the
// sections its author meant, as it splits markdown ones. Markdown headings
// (ATX and setext) need nothing: the parser reads them.

// capsHeadingMaxWords bounds a capitals heading: a longer line in capitals
// is shouting, not a title.
const capsHeadingMaxWords = 12

// noteMarkdown returns body with every line that is a capitals heading
// written as "## " and the line. body is normalized (see normalizeLines).
func noteMarkdown(body string) string {
	lines := strings.Split(body, "\n")
	var fence codeFence
	changed := false
	for i, l := range lines {
		if fence.open() {
			fence.update(l)
			continue
		}
		if fence.update(l) {
			continue
		}
		if !isCapsHeading(l) {
			continue
		}
		if i+1 < len(lines) && isSetextUnderline(lines[i+1]) {
			continue // already a heading, underlined
		}
		lines[i] = "## " + l
		changed = true
	}
	if !changed {
		return body
	}
	return strings.Join(lines, "\n")
}

// isCapsHeading reports a line in capitals that is a title: it starts at
// the margin (indented, it is code or part of a list item), has no lower
// case letter, at least two words or four letters, and at most
// capsHeadingMaxWords words; it does not end a sentence (".", ",", ";"),
// and is no other markdown block: no list item, quote, heading, table
// row, HTML, or line holding code.
func isCapsHeading(l string) bool {
	if l == "" || l[0] == ' ' || l[0] == '\t' {
		return false
	}
	if strings.ContainsAny(l, "`|") || strings.IndexByte("#><", l[0]) >= 0 || isListItem(l) {
		return false
	}
	switch l[len(l)-1] {
	case '.', ',', ';':
		return false
	}
	words, letters := 0, 0
	for _, f := range strings.Fields(l) {
		hasLetter := false
		for _, r := range f {
			if !unicode.IsLetter(r) {
				continue
			}
			// A letter without case (most scripts) cannot be in capitals.
			if !unicode.IsUpper(r) {
				return false
			}
			hasLetter = true
			letters++
		}
		if hasLetter {
			words++
		}
	}
	return words <= capsHeadingMaxWords && (words >= 2 || letters >= 4)
}

// isListItem reports a line that starts a markdown list item: "- ", "* ",
// "+ ", or a number of at most nine digits and "." or ")", then a space or
// the end of the line.
func isListItem(l string) bool {
	rest := ""
	switch {
	case l[0] == '-' || l[0] == '*' || l[0] == '+':
		rest = l[1:]
	default:
		d := leadingDigits(l)
		if d == 0 || d > 9 || d == len(l) || (l[d] != '.' && l[d] != ')') {
			return false
		}
		rest = l[d+1:]
	}
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

// isSetextUnderline reports a line of '=' or of '-' (up to three spaces
// before it), which makes the line above a heading.
func isSetextUnderline(l string) bool {
	t := strings.TrimRight(strings.TrimLeft(l, " "), " \t")
	if t == "" || len(l)-len(strings.TrimLeft(l, " ")) > 3 {
		return false
	}
	return strings.Trim(t, "=") == "" || strings.Trim(t, "-") == ""
}
