package llm_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
)

func TestEnhanceThroughEachProvider(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Replies: []string{`{"terms":["remove","Deactivate account"]}`}}, llm.Config{})
		got, err := s.resp.Enhance(context.Background(), "get rid of my account\x1b[2J")
		if err != nil {
			t.Fatalf("Enhance: %v", err)
		}
		if !slices.Equal(got, []string{"remove", "Deactivate account"}) {
			t.Fatalf("terms = %q", got)
		}
		msgs := s.onlyMessages(t)
		user := msgs[len(msgs)-1].Text
		if !strings.Contains(user, "get rid of my account") || strings.Contains(user, "\x1b") {
			t.Errorf("user message = %q, want the question without control sequences", user)
		}
		if msgs[0].Role != "system" || !strings.Contains(msgs[0].Text, `{"terms":[`) {
			t.Errorf("system message = %+v", msgs[0])
		}
	})
}

func TestEnhanceBadReplyFails(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Replies: []string{"Sure! Try: remove, delete"}}, llm.Config{})
		if got, err := s.resp.Enhance(context.Background(), "q"); err == nil || got != nil {
			t.Fatalf("prose reply: terms %q, err %v; want an error", got, err)
		}
	})
}

func TestEnhanceWithoutModel(t *testing.T) {
	if _, err := noModel(t).Enhance(context.Background(), "q"); !errors.Is(err, llm.ErrNoModel) {
		t.Fatalf("err = %v, want ErrNoModel", err)
	}
}

func TestParseEnhance(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{`{"terms":["remove","Remove"," two  words "]}`, []string{"remove", "two words"}, ""},
		{`{"terms":[]}`, []string{}, ""},
		{`{}`, nil, `no "terms"`},
		{`{"terms":["a","b","c","d","e","f","g"]}`, nil, "7 terms"},
		{`{"terms":[""]}`, nil, "empty"},
		{`{"terms":["` + strings.Repeat("x", 61) + `"]}`, nil, "over 60"},
		{`{"terms":["a"],"why":"x"}`, nil, "not the JSON"},
		{`{"terms":["a"]} more`, nil, "more after"},
		{`{"terms":[1]}`, nil, "not the JSON"},
	} {
		got, err := llm.ParseEnhance([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want one saying %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseEnhance(f *testing.F) {
	f.Add([]byte(`{"terms":["remove","deactivate account"]}`))
	f.Add([]byte("{\"terms\":[\"\\u001b[2J x\",\"\xff\"]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		terms, err := llm.ParseEnhance(data)
		if err != nil {
			if terms != nil {
				t.Fatalf("rejected with %q", terms)
			}
			return
		}
		if len(terms) > llm.MaxEnhanceTerms {
			t.Fatalf("%d terms", len(terms))
		}
		seen := map[string]bool{}
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) || strings.ContainsFunc(term, unicode.IsControl) ||
				term != strings.TrimSpace(term) || utf8.RuneCountInString(term) > 60 || seen[strings.ToLower(term)] {
				t.Fatalf("term %q of %q", term, terms)
			}
			seen[strings.ToLower(term)] = true
		}
	})
}
