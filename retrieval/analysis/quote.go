package analysis

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quotes returns the spans a question quotes, in order, as written: the
// text between double quotes ("…", “…”), and between single quotes ('…',
// ‘…’) that open after a space and close before one or a punctuation
// mark, so that the apostrophes of "can't" and "customer's" quote
// nothing. A quote is how a support agent pastes what a customer saw:
// an error message, a status, a button's label.
func Quotes(text string) []string {
	var out []string
	for _, s := range quoteSpans(text) {
		out = append(out, s.quote)
	}
	return out
}

// QuoteSpans returns where the quotes of Quotes are in text, each from
// its opening mark to after its closing one. Cutting a question at these
// spans, rather than at where a quote's words are next written, keeps a
// quoted "A" from cutting the first A of the text around it.
func QuoteSpans(text string) [][2]int {
	var out [][2]int
	for _, s := range quoteSpans(text) {
		out = append(out, s.at)
	}
	return out
}

type quoteSpan struct {
	quote string
	at    [2]int
}

func quoteSpans(text string) []quoteSpan {
	var out []quoteSpan
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		closers := ""
		switch {
		case r == '"':
			closers = `"`
		case r == '“':
			closers = "”\""
		case (r == '\'' || r == '‘') && opensSingle(text, i, size):
			closers = "'’"
		}
		if closers == "" {
			i += size
			continue
		}
		end, next := closingQuote(text, i+size, closers, r == '\'' || r == '‘')
		if end < 0 {
			i += size
			continue
		}
		if q := strings.TrimSpace(text[i+size : end]); q != "" {
			out = append(out, quoteSpan{quote: q, at: [2]int{i, next}})
		}
		i = next
	}
	return out
}

// opensSingle reports whether the single quote at text[i:i+size] opens a
// quote: at the start or after a space or an opening bracket, and before
// a letter or a digit.
func opensSingle(text string, i, size int) bool {
	if i > 0 {
		prev, _ := utf8.DecodeLastRuneInString(text[:i])
		if !unicode.IsSpace(prev) && !strings.ContainsRune("([{", prev) {
			return false
		}
	}
	next, _ := utf8.DecodeRuneInString(text[i+size:])
	return unicode.IsLetter(next) || unicode.IsDigit(next)
}

// closingQuote finds the quote closing a span that starts at from: the
// first of closers (for a single quote, one after a non-space and before
// the end, a space or a punctuation mark, so that an apostrophe inside
// the span is not its end). It returns where the closer starts and where
// the text goes on after it, or -1.
func closingQuote(text string, from int, closers string, single bool) (int, int) {
	for j := from; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if strings.ContainsRune(closers, r) {
			if !single {
				return j, j + size
			}
			prev, _ := utf8.DecodeLastRuneInString(text[:j])
			next, _ := utf8.DecodeRuneInString(text[j+size:])
			if j > from && !unicode.IsSpace(prev) && (j+size == len(text) || unicode.IsSpace(next) || unicode.IsPunct(next)) {
				return j, j + size
			}
		}
		j += size
	}
	return -1, -1
}

// messageLead matches what opens a message a log or a terminal printed:
// a severity ("ERROR:", "FATAL:", "warning:", "error[E0382]:") or an
// exception's name ("OperationalError:",
// "django.core.exceptions.SynchronousOnlyOperation:"), then a space.
var messageLead = regexp.MustCompile(`(?:^|[\s(\["'])(?:(?i:fatal|error|warning|panic|critical)|[A-Za-z_][\w.]*(?:Error|Exception|Warning))(?:\[[A-Za-z0-9]+\])?:[ \t]+`)

// Messages returns the messages a question pastes after a severity or an
// exception's name, as written, without them: a support question often
// is the message a customer saw, pasted without quotes ("FATAL: no
// pg_hba.conf entry for host …, user …", "ERROR: could not serialize
// access due to concurrent update. Is that expected?"). A message ends
// at the end of its line or of its sentence: a full stop, a question or
// an exclamation mark before a space.
func Messages(text string) []string {
	var out []string
	for _, loc := range messageSpans(text) {
		out = append(out, text[loc[0]:loc[1]])
	}
	return out
}

// messageSpans returns where the messages of Messages are in text.
func messageSpans(text string) [][2]int {
	if strings.IndexByte(text, ':') < 0 {
		return nil // no lead: most questions, and a regexp spared
	}
	var out [][2]int
	for _, m := range messageLead.FindAllStringIndex(text, -1) {
		start, end := m[1], len(text)
		if nl := strings.IndexByte(text[start:], '\n'); nl >= 0 {
			end = start + nl
		}
		for j := start; j < end; j++ {
			if strings.IndexByte(".?!", text[j]) >= 0 && (j+1 == end || text[j+1] == ' ' || text[j+1] == '\t') {
				end = j
				break
			}
		}
		if msg := strings.TrimSpace(text[start:end]); msg != "" && (len(out) == 0 || start >= out[len(out)-1][1]) {
			out = append(out, [2]int{start, start + len(strings.TrimRightFunc(text[start:end], unicode.IsSpace))})
		}
	}
	return out
}
