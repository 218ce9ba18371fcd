// Package ticket turns a customer's message, piped or pasted whole into
// `docent ask`, into a question the retrieval engine can read. A text
// within the engine's limit is left as it is. A longer one first loses
// what the customer did not write for this message (quoted replies, the
// earlier thread below a forwarded header, the signature); if it is still
// too long it becomes its topic words, the ones the ticket repeats most
// first, in the order they first appear. Retrieval scores a question by
// the words it shares with the docs, not by their order, so those words
// keep what it needs.
//
// The markers are the plain-text e-mail conventions ("> " quotes,
// "On … wrote:", "-----Original Message-----", "From:"/"Sent:" headers,
// the "-- " signature line and a closing "Regards,"/"Thanks,"), which say
// nothing about any product, so the reduction means the same on any
// documentation.
package ticket

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// Reduction is what Reduce made of a text.
type Reduction struct {
	Query string
	// Note says what was left out, for the reader; "" when the text was
	// kept as it is.
	Note string
}

var (
	// attribution introduces a quoted reply ("On Mon, 2 Jun 2025, Ann
	// <ann@example.com> wrote:"); the quote's own lines start with ">".
	attribution = regexp.MustCompile(`(?i)^on\s.{0,200}\swrote:$`)
	// threadMarker starts the earlier messages of a thread that a mail
	// client appended without quoting them: everything after it goes.
	threadMarker = regexp.MustCompile(`(?i)^(-{2,}\s*(original|forwarded) message\s*-{2,}|_{10,}|begin forwarded message:?)$`)
	header       = regexp.MustCompile(`(?i)^(from|to|cc|bcc|sent|date|reply-to):\s`)
	subject      = regexp.MustCompile(`(?i)^subject:\s*`)
	// closing is a sign-off line; the name and signature follow it.
	closing = regexp.MustCompile(`(?i)^((best|kind|warm|many)\s+)?(regards|thanks|thank you|cheers|sincerely|best wishes)[,.!]?$`)
)

// Reduce fits text into limit characters (runes) as described in the
// package comment.
func Reduce(text string, limit int) Reduction {
	text = strings.TrimSpace(strings.ToValidUTF8(text, " "))
	total := utf8.RuneCountInString(text)
	if total <= limit {
		return Reduction{Query: text}
	}
	own := ownText(text)
	if !strings.ContainsFunc(own, isWordRune) {
		own = text // all of it quoted or forwarded: then that is the question
	}
	over := fmt.Sprintf("the text has %d characters, over the %d a question may have", total, limit)
	if n := utf8.RuneCountInString(own); n <= limit {
		return Reduction{Query: own, Note: fmt.Sprintf("%s: answered from its own text (%d characters), without quoted replies, the earlier thread and the signature", over, n)}
	}
	query, kept, distinct := topicWords(own, limit)
	return Reduction{Query: query, Note: fmt.Sprintf("%s: answered from %d of its %d topic words, those it repeats most (quoted replies, the earlier thread, the signature and common words left out)", over, kept, distinct)}
}

// ownText is the lines the customer wrote for this message: no quoted
// lines, no attribution lines, no mail headers (a subject keeps its
// text), and nothing after a thread marker, a signature delimiter or a
// closing once the message has begun.
func ownText(text string) string {
	var kept []string
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		begun := len(kept) > 0
		switch {
		case begun && (threadMarker.MatchString(line) || raw == "-- " || line == "--" || closing.MatchString(line) ||
			header.MatchString(line) && headerBlockFollows(lines[i+1:])):
			return strings.TrimSpace(strings.Join(kept, "\n"))
		case strings.HasPrefix(line, ">"), attribution.MatchString(line), threadMarker.MatchString(line), header.MatchString(line):
			continue
		case subject.MatchString(line):
			line = subject.ReplaceAllString(line, "")
		}
		if line != "" || begun {
			kept = append(kept, line)
		}
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// headerBlockFollows reports whether a "From:" line starts a block of mail
// headers, as a forwarded or replied-to message below the customer's does.
func headerBlockFollows(next []string) bool {
	for _, l := range next[:min(len(next), 4)] {
		if header.MatchString(strings.TrimSpace(l)) || subject.MatchString(strings.TrimSpace(l)) {
			return true
		}
	}
	return false
}

// topicWords keeps the text's distinct topic words (no stopwords, no
// single characters) that fit limit characters joined by spaces: the most
// repeated first, ties to the earlier one, then put back in the order they
// first appear. It returns them with how many were kept of how many.
func topicWords(text string, limit int) (query string, kept, distinct int) {
	type word struct {
		text         string
		count, first int
	}
	var words []*word
	index := map[string]*word{}
	for i, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !isWordRune(r) && r != '\'' && r != '’'
	}) {
		// "don't" is one word, as retrieval reads it.
		w = strings.NewReplacer("'", "", "’", "").Replace(w)
		if utf8.RuneCountInString(w) < 2 || analysis.IsStopword(w) {
			continue
		}
		if x, ok := index[w]; ok {
			x.count++
			continue
		}
		x := &word{text: w, count: 1, first: i}
		index[w] = x
		words = append(words, x)
	}
	byWeight := slices.Clone(words)
	slices.SortStableFunc(byWeight, func(a, b *word) int { return b.count - a.count })
	var chosen []*word
	used := 0
	for _, w := range byWeight {
		n := utf8.RuneCountInString(w.text)
		if used > 0 {
			n++ // the space before it
		}
		if used+n > limit {
			continue
		}
		used += n
		chosen = append(chosen, w)
	}
	slices.SortFunc(chosen, func(a, b *word) int { return a.first - b.first })
	out := make([]string, len(chosen))
	for i, w := range chosen {
		out[i] = w.text
	}
	return strings.Join(out, " "), len(chosen), len(words)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
