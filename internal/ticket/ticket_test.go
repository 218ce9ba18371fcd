package ticket

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShortTextIsKept(t *testing.T) {
	text := "  How do I archive a workspace?\n> not a quote to drop here\n"
	r := Reduce(text, 4000)
	if r.Query != strings.TrimSpace(text) || r.Note != "" {
		t.Errorf("Reduce = %+v, want the text as it is and no note", r)
	}
}

// A long ticket loses the quoted reply, the earlier thread and the
// signature; what the customer wrote stays as written when it fits.
func TestLongTicketKeepsTheCustomersOwnText(t *testing.T) {
	own := "Subject: Cannot archive our workspace\n\nHi team,\n\nWhen I press Archive on the workspace nothing happens. How do I archive it?"
	ticket := "From: Ann <ann@example.com>\nTo: support@example.com\n" + own + "\n\nThanks,\nAnn\nAcme Corp, 12 Long Street\n\n" +
		"On Mon, 2 Jun 2025 at 10:00, Support <support@example.com> wrote:\n" +
		strings.Repeat("> Please send us a screenshot of the billing page and the invoice number.\n", 60)
	r := Reduce(ticket, 1000)
	want := "Cannot archive our workspace\n\nHi team,\n\nWhen I press Archive on the workspace nothing happens. How do I archive it?"
	if r.Query != want {
		t.Errorf("query %q\nwant %q", r.Query, want)
	}
	for _, w := range []string{"characters, over the 1000", "own text", "without quoted replies"} {
		if !strings.Contains(r.Note, w) {
			t.Errorf("note %q lacks %q", r.Note, w)
		}
	}
}

// An Outlook-style thread (headers, no quoting) and a "-- " signature end
// the customer's text too.
func TestThreadMarkersAndSignature(t *testing.T) {
	for _, tail := range []string{
		"-----Original Message-----\nFrom: x\nSent: y\nbilling invoice refund",
		"From: Support\nSent: Monday\nSubject: Re: billing\nbilling invoice refund",
		"-- \nAnn, Acme billing invoice refund",
	} {
		ticket := "The export button is greyed out.\n\n" + tail + strings.Repeat(" billing invoice refund", 200)
		if r := Reduce(ticket, 500); r.Query != "The export button is greyed out." {
			t.Errorf("tail %q: query %q", tail[:20], r.Query)
		}
	}
}

// When even the customer's own text is too long, the query is its topic
// words, the most repeated kept first, in the order they appear.
func TestTopicWords(t *testing.T) {
	filler := strings.Repeat("Yesterday afternoon colleague mentioned something unrelated entirely. ", 5)
	var b strings.Builder
	b.WriteString("Our dashboard export fails. ")
	for i := range 80 {
		b.WriteString("The dashboard export fails again with error 504 when scheduled. ")
		b.WriteString(strings.Repeat("x", i%3) + "word" + strings.Repeat("y", i) + " ")
	}
	b.WriteString(filler)
	r := Reduce(b.String(), 200)
	if n := utf8.RuneCountInString(r.Query); n > 200 || n == 0 {
		t.Fatalf("query of %d characters, want 1 to 200: %q", n, r.Query)
	}
	if !strings.HasPrefix(r.Query, "dashboard export fails error 504 scheduled ") {
		t.Errorf("query %q, want the repeated topic words first, in their order", r.Query)
	}
	for _, stop := range []string{" the ", " with ", " when ", " our "} {
		if strings.Contains(" "+r.Query+" ", stop) {
			t.Errorf("query %q keeps the common word %q", r.Query, stop)
		}
	}
	if !strings.Contains(r.Note, "topic words, those it repeats most") {
		t.Errorf("note %q", r.Note)
	}
}

// A ticket that is all quotation is still answered from its words.
func TestAllQuoted(t *testing.T) {
	ticket := strings.Repeat("> the calendar sync stopped working\n", 100)
	r := Reduce(ticket, 300)
	// "working" is a vague complaint's word, no topic (retrieval's stopwords).
	if !strings.HasPrefix(r.Query, "calendar sync stopped") {
		t.Errorf("query %q", r.Query)
	}
}

func FuzzReduce(f *testing.F) {
	f.Add("short question", 100)
	f.Add(strings.Repeat("> quoted\n", 50)+"own words\n-- \nsig", 40)
	f.Add("From: a\nSent: b\n\xff\xfe don't ’quote’ é 日本語 "+strings.Repeat("word ", 40), 30)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		limit = 1 + abs(limit)%5000
		r := Reduce(text, limit)
		if !utf8.ValidString(r.Query) {
			t.Errorf("query %q is not UTF-8", r.Query)
		}
		if n := utf8.RuneCountInString(r.Query); n > limit {
			t.Errorf("query of %d characters, over the limit %d", n, limit)
		}
		fits := utf8.RuneCountInString(strings.TrimSpace(strings.ToValidUTF8(text, " "))) <= limit
		if fits != (r.Note == "") {
			t.Errorf("text fits: %v, note %q", fits, r.Note)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
