package retrieval

import (
	"github.com/docent-sh/docent/retrieval/analysis"

	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "what is a workspace?", "wrkspace", "shortcuts and home", "\x1b[31m", "ünïcödé’s", "a+b&c,d", strings.Repeat("x", 50), "wher waht shoud come", "what? also; x"} {
		f.Add(s)
	}
	e := newTestEngine(f, nil)
	f.Fuzz(func(t *testing.T, s string) {
		q := e.norm.normalize(s)
		seen := map[string]bool{}
		for _, term := range q.terms {
			if term == "" || seen[term] || analysis.IsStopword(term) && !e.norm.an.Known[term] {
				t.Fatalf("normalize(%q): bad term %q in %q", s, term, q.terms)
			}
			seen[term] = true
			if !utf8.ValidString(term) {
				t.Fatalf("invalid UTF-8 term %q", term)
			}
		}
	})
}

func FuzzDecide(f *testing.F) {
	f.Add(5.0, 4.0, 3.0, 0.5, 0.25, uint8(7), false)
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, uint8(0), true)
	f.Add(math.Inf(1), math.NaN(), -1.0, 2.0, -1.0, uint8(255), true)
	f.Fuzz(func(t *testing.T, a, b, c, cov, naming float64, shape uint8, bare bool) {
		ranked := []candidate{
			{doc: 0, rank: a, coverage: cov, together: cov, naming: naming, named: uint64(shape) & 3, written: shape&16 != 0},
			{doc: 1, rank: b, coverage: 1 - cov, naming: float64(shape&3) / 3, named: uint64(shape>>2) & 3},
			{doc: 2, rank: c, coverage: 1, naming: 1, named: 3},
		}[:1+int(shape>>6)%3]
		f := formQuestion
		if bare {
			f = formTopic + form(shape>>5&1) // a topic or a name
		}
		d := decide(ranked, f, thresholds{minCoverage: 0.5, minMargin: 0.25})
		switch d.status {
		case StatusNoMatch, StatusWeak, StatusFound:
		case StatusAmbiguous:
			if d.rival <= 0 || d.rival >= len(ranked) {
				t.Fatalf("ambiguous without a rival from another doc: %+v %+v", d, ranked)
			}
		default:
			t.Fatalf("unexpected status %q", d.status)
		}
		if d.rule == "" {
			t.Fatal("no rule recorded")
		}
		if !(d.confidence >= 0 && d.confidence <= 1) {
			t.Fatalf("confidence %v out of [0, 1]", d.confidence)
		}
	})
}

func FuzzAsk(f *testing.F) {
	for _, s := range []string{"explain workspace", "tell me more", "workspace and quick links", "recent + home, notes", "?", "\x00\xff"} {
		f.Add(s, "widgets/recent#chunk-0")
	}
	e := newTestEngine(f, nil)
	f.Fuzz(func(t *testing.T, text, last string) {
		res := e.Ask(Query{Text: text, LastChunkID: last, Shown: []string{last}})
		if res.Status == "" {
			t.Fatalf("Ask(%q): empty status: %+v", text, res)
		}
		if len(res.Results) > e.cfg.TopK {
			t.Fatalf("%d results > TopK", len(res.Results))
		}
		for _, s := range append(append([]string{res.Query}, res.Topic...), evidenceStrings(res)...) {
			if strings.ContainsRune(s, 0x1b) {
				t.Fatalf("escape in output %q", s)
			}
		}
		e.Lookup(text)
		e.Continue(text, nil)
		for _, slug := range []string{last, "actions/workspaces"} {
			pick := e.Pick(slug, text)
			if len(pick.Results) > e.cfg.TopK || pick.Status == "" {
				t.Fatalf("Pick(%q, %q): %s with %d results", slug, text, pick.Status, len(pick.Results))
			}
			for _, s := range append([]string{pick.Query}, evidenceStrings(pick)...) {
				if strings.ContainsRune(s, 0x1b) {
					t.Fatalf("escape in output %q", s)
				}
			}
		}
	})
}

// FuzzStemKey feeds the Porter stemmer what tokenize can produce from any
// text: it runs on every word of every doc and question.
func FuzzStemKey(f *testing.F) {
	for _, s := range []string{"running", "ies", "s", "é", "ßss", "sses", "yyyy", "eed", "x9ing", "ational"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, w := range analysis.Tokens(text) {
			if k := analysis.StemKey(w); !strings.HasPrefix(k, "~") || len(k) == 1 {
				t.Fatalf("stemKey(%q) = %q", w, k)
			}
		}
	})
}

// FuzzMessagePattern checks a pasted message's pattern on any text: it
// starts with a word, has no more words than the text, and a quote's
// pattern (no holes) is written in the quote itself.
func FuzzMessagePattern(f *testing.F) {
	for _, s := range []string{`database "prod" must be vacuumed within 9831207 transactions`, `"x" y 1`, `a "b c`, "42", `""`, `“a” b ‘c’ 7 d`, `ab "c" "a" a`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := messagePattern(s)
		if len(p) > 0 && p[0] == hole {
			t.Fatalf("messagePattern(%q) = %q starts with a hole", s, p)
		}
		if p.words() > len(analysis.Tokens(s)) {
			t.Fatalf("messagePattern(%q) = %q has more words than the text", s, p)
		}
		if n := p.words(); n > 0 && p.upTo(n).words() != n {
			t.Fatalf("upTo(%d) of %q lost words", n, p)
		}
		if q := quotePattern(s); len(q) > 0 && !q.writtenIn(s) {
			t.Fatalf("quote %q is not written in itself", s)
		}
	})
}
