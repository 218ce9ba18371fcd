package analysis

import (
	"slices"
	"strings"
	"testing"
)

func TestAppendValueWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Invitations expire after 7 days.", []string{ValueDuration}},
		{"The link stays valid for an hour, or a 30-day trial.", []string{ValueDuration}},
		{"Restarts after 24h of uptime", []string{ValueDuration}},
		{"Payloads are capped at 25 MB.", []string{ValueSize}},
		{"Uploads up to 10mb; names up to 1,000 characters.", []string{ValueSize}},
		{"Business is $49 a month, or 490 USD a year.", []string{ValueDuration, ValuePrice}},
		{"Business costs € 10 per seat.", []string{ValuePrice}},
		{"A cover image of 3000 px, under 512 KB, for $5.", []string{ValueSize, ValuePrice}},
		// No value: a number without a unit, a unit without a number, a
		// version, an ordinal, a currency sign before a word.
		{"Open issue 42 in the days after the 2nd release, v2beta1.", nil},
		{"Minutes of the meeting; the size of a bytes buffer", nil},
		{"Set $HOME and the € symbol", nil},
		{"a b c and an h", nil},
		{"", nil},
	} {
		got := AppendValueWords(nil, Tokens(tc.text), tc.text)
		if !slices.Equal(got, tc.want) {
			t.Errorf("AppendValueWords(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

func TestAskedValue(t *testing.T) {
	for _, tc := range []struct {
		question string
		want     string
		frame    []string // the words the value word stands for
	}{
		{"how long are invitations valid for", ValueDuration, []string{"long"}},
		{"How far back does the audit log go?", ValueDuration, []string{"far", "back"}},
		{"how big can an upload be", ValueSize, []string{"big"}},
		{"how much does the business plan cost", ValuePrice, []string{"much"}},
		{"is there a size limit on webhook payloads", ValueSize, nil},
		{"whats the max length of a repository name", ValueSize, nil},
		{"biggest layer size harborline accepts?", ValueSize, nil},
		// Asking no value.
		{"how much storage is left", "", nil},
		{"how far is the data center", "", nil},
		{"long press a message", "", nil},
		{"change the font size", "", nil},
		{"rate limits", "", nil},
		{"how", "", nil},
		{"", "", nil},
	} {
		words := Tokens(tc.question)
		got, frame, phrase := AskedValue(words)
		var framed []string
		for _, i := range frame {
			framed = append(framed, words[i])
		}
		if got != tc.want || !slices.Equal(framed, tc.frame) {
			t.Errorf("AskedValue(%q) = %q, %q; want %q, %q", tc.question, got, framed, tc.want, tc.frame)
		}
		if (got == "") != (phrase == "") {
			t.Errorf("AskedValue(%q): phrase %q for value word %q", tc.question, phrase, got)
		}
		if _, ok := ValueLabel(got); ok != (got != "") {
			t.Errorf("ValueLabel(%q): %v", got, ok)
		}
	}
}

// TestValueWordsAreWords checks what the index relies on: each value word
// is one token that no stopword list drops and no stemming merges with
// another, and no English word or identifier is.
func TestValueWordsAreWords(t *testing.T) {
	words := []string{ValueDuration, ValueSize, ValuePrice}
	keys := map[string]bool{}
	for _, w := range words {
		if toks := Tokens(w); len(toks) != 1 || toks[0] != w {
			t.Errorf("Tokens(%q) = %q", w, toks)
		}
		if IsStopword(w) || Singular(w) != w {
			t.Errorf("%q is a stopword or a plural", w)
		}
		keys[StemKey(w)] = true
	}
	if len(keys) != len(words) {
		t.Errorf("value words share stem keys: %v", keys)
	}
}

func FuzzAppendValueWords(f *testing.F) {
	for _, s := range []string{"expires after 7 days", "$49 a month", "25 MB", "24h", "€ 10", "$", "€", "1,000 characters"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := AppendValueWords(nil, Tokens(text), text)
		if len(got) > 3 {
			t.Fatalf("%d value words for %q", len(got), text)
		}
		for _, w := range got {
			if _, ok := ValueLabel(w); !ok {
				t.Fatalf("unknown value word %q", w)
			}
		}
		v, frame, _ := AskedValue(Tokens(text))
		for _, i := range frame {
			if i < 0 || i >= len(Tokens(text)) {
				t.Fatalf("frame %d outside %q", i, text)
			}
		}
		if v != "" && !strings.HasPrefix(v, "xval") {
			t.Fatalf("value word %q", v)
		}
	})
}
