package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

// MaxEnhanceTerms is how many terms an enhancement reply may propose: a
// question with more added words than its own is another question.
const MaxEnhanceTerms = 6

// maxEnhanceTermChars bounds one proposed term: a word or a short phrase.
const maxEnhanceTermChars = 60

const enhanceSystem = `You help search a product's documentation. Given a support question, list the words the documentation likely uses for what is asked that the question does not use: synonyms, the product's own name for the feature, the words of the page that answers it.
Reply with JSON only, no prose and no code fence, exactly of this form:
{"terms":["<word or short phrase>"]}
At most 6 terms, each one to three words. Do not repeat the question's words. An empty list is a fine answer.`

// Enhance asks the model for search terms to add to question, in one
// non-streaming call; the reply is parsed strictly (ParseEnhance). The
// terms are only a proposal: the caller checks them against what the
// docs write before any reaches a query.
func (r *Responder) Enhance(ctx context.Context, question string) ([]string, error) {
	out, err := r.judge(ctx, enhanceSystem, "Question: "+textsafe.Line(question))
	if err != nil {
		return nil, err
	}
	terms, err := ParseEnhance(out)
	if err != nil {
		return nil, fmt.Errorf("%s: enhance: %w", r.sel.Provider, err)
	}
	return terms, nil
}

// ParseEnhance reads an enhancement reply: one JSON object
// {"terms":["…",…]} and nothing else but white space, at most
// MaxEnhanceTerms strings. Each term comes back on one line, trimmed,
// without control sequences; a term that is empty, over
// maxEnhanceTermChars or not UTF-8 fails the reply, and a repeat (by
// case) is dropped.
func ParseEnhance(data []byte) ([]string, error) {
	var reply struct {
		Terms *[]string `json:"terms"`
	}
	if err := decodeStrict(data, &reply); err != nil {
		return nil, err
	}
	if reply.Terms == nil {
		return nil, errors.New(`no "terms" list`)
	}
	if n := len(*reply.Terms); n > MaxEnhanceTerms {
		return nil, fmt.Errorf("%d terms, want at most %d", n, MaxEnhanceTerms)
	}
	out := []string{}
	seen := map[string]bool{}
	for i, t := range *reply.Terms {
		if !utf8.ValidString(t) {
			return nil, fmt.Errorf("term %d is not UTF-8", i)
		}
		t = strings.Join(strings.Fields(textsafe.Line(t)), " ")
		switch {
		case t == "":
			return nil, fmt.Errorf("term %d is empty", i)
		case utf8.RuneCountInString(t) > maxEnhanceTermChars:
			return nil, fmt.Errorf("term %d is over %d characters", i, maxEnhanceTermChars)
		}
		if k := strings.ToLower(t); !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out, nil
}
