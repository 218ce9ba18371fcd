// Package sentence is where docent decides where a sentence ends: the
// retrieval engine's summaries, the offline responder's candidate
// sentences and the prompt builder's cuts all split text with it, so a
// sentence is the same unit everywhere. It reads prose and markdown from
// docs and models: pure, no I/O.
package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations end with a period without ending a sentence, in lower
// case and without their final period.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "fig": true,
}

// closers may follow a sentence's final mark and belong to its sentence:
// closing quotes and brackets, and the emphasis markers of markdown.
const closers = `"')]*_”’»`

// openers may start a sentence in place of a capital or a digit: opening
// quotes and brackets, and the markup a markdown sentence may open with.
const openers = "\"'(“‘[*_`"

// Split returns the sentences of text, trimmed, in order. Blanks inside a
// sentence are kept as they are: callers hand it one line of prose, or
// markdown whose hard-wrapped lines belong to one sentence.
func Split(text string) []string {
	var out []string
	start := 0
	for _, end := range Ends(text) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			out = append(out, s)
		}
		start = end
	}
	return out
}

// Ends returns the byte offsets at which the sentences of text end,
// ascending, each just after a sentence's last non-blank character, so
// text[:end] is a prefix of whole sentences. A sentence ends:
//   - after '.', '!' or '?' and any closers, when blanks and then a
//     capital, a digit or an opener follow, unless a '.' ends an
//     abbreviation ("e.g. Foo", "fig. 3", and "No. 5" but not "No. It")
//     — so "v1.2", "example.com" and "e.g. this" stay whole;
//   - at the end of a line that a blank line or a markdown block (heading,
//     list item, table row, quote, fence) follows: a list item needs no
//     final punctuation, while the hard-wrapped lines of a paragraph are
//     one sentence;
//   - at the end of text.
func Ends(text string) []int {
	var ends []int
	add := func(p int) {
		p = len(strings.TrimRightFunc(text[:p], unicode.IsSpace))
		if p > 0 && (len(ends) == 0 || ends[len(ends)-1] < p) {
			ends = append(ends, p)
		}
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '.', '!', '?':
			if end, ok := endsAfterMark(text, i); ok {
				add(end)
			}
		case '\n':
			if blockStarts(text[i+1:]) {
				add(i)
			}
		}
	}
	add(len(text))
	return ends
}

// endsAfterMark reports whether the mark at text[i] ends a sentence, and
// where: after the closers that follow it.
func endsAfterMark(text string, i int) (int, bool) {
	end := i + 1
	for end < len(text) {
		r, n := utf8.DecodeRuneInString(text[end:])
		if !strings.ContainsRune(closers, r) {
			break
		}
		end += n
	}
	rest := strings.TrimLeftFunc(text[end:], unicode.IsSpace)
	if len(rest) == len(text)-end {
		return 0, false // no blank after it: "v1.2", "example.com", "?!"
	}
	if rest == "" {
		return end, true
	}
	next, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(openers, next) {
		return 0, false
	}
	if text[i] == '.' && isAbbreviation(wordBefore(text[:i]), next) {
		return 0, false
	}
	return end, true
}

// isAbbreviation reports whether word, followed by a period and then the
// rune next, is an abbreviation. "No." is one only before a number: "No."
// alone is a common answer in support docs.
func isAbbreviation(word string, next rune) bool {
	word = strings.ToLower(word)
	if word == "no" {
		return unicode.IsDigit(next)
	}
	return abbreviations[word]
}

// wordBefore is the word that ends s, without the blanks, quotes or
// brackets before it.
func wordBefore(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("(\"'[“‘", r)
	})
	if i < 0 {
		return s
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i+n:]
}

// blockStarts reports whether the line at the start of s is blank or
// opens a markdown block, so the line before it ended a unit of text.
func blockStarts(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimLeft(line, " \t\r")
	if line == "" {
		return true
	}
	for _, prefix := range []string{"#", "- ", "* ", "+ ", "|", ">", "```", "~~~"} {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	// An ordered list item: digits then ". " or ") ".
	digits := len(line) - len(strings.TrimLeft(line, "0123456789"))
	return digits > 0 && digits < len(line)-1 &&
		(line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' '
}
