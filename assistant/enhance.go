package assistant

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// Enhancer proposes search terms a question lacks (llm.Responder.Enhance).
type Enhancer interface {
	Enhance(ctx context.Context, question string) ([]string, error)
}

// knower is an engine that says which words the knowledge base writes
// (retrieval.Engine.Knows). An engine that cannot say gets no term added:
// an unchecked term is never trusted.
type knower interface {
	Knows(word string) bool
}

// DefaultEnhanceTimeout bounds the enhancement call when
// Options.EnhanceTimeout is 0. The asker waits for it before the search,
// having asked for it, so it may take longer than a judging call.
const DefaultEnhanceTimeout = 10 * time.Second

// ErrNoEnhancer is Enhance without a model to ask.
var ErrNoEnhancer = errors.New("query enhancement needs a model: set a provider (see docent models)")

// Enhancement is a question and the terms a model proposed for it, as
// checked against the knowledge base: Added are those whose every word is
// the question's or one the docs write (retrieval.Engine.Knows), in the
// model's order; Refused the rest, which never reach a query.
type Enhancement struct {
	Question string
	Added    []string
	Refused  []string
}

// Query is the question with the added terms on switches on (all of them
// when on is nil), as the engine is asked it: the question's own words
// first, so what the asker wrote is never replaced, only widened.
func (e Enhancement) Query(on []bool) string {
	parts := []string{e.Question}
	for i, t := range e.Added {
		if on == nil || i < len(on) && on[i] {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// Diff shows the rewrite on one line: the question, then each added
// term as "+term", e.g. "get rid of my account +delete +deactivate".
func (e Enhancement) Diff() string {
	var b strings.Builder
	b.WriteString(e.Question)
	for _, t := range e.Added {
		b.WriteString(" +" + t)
	}
	return b.String()
}

// Enhance asks the model for terms to add to question and keeps those
// the knowledge base writes. A term that adds no word the question lacks
// is dropped as adding nothing. The call is bounded by
// Options.EnhanceTimeout.
func (s *Session) Enhance(ctx context.Context, question string) (Enhancement, error) {
	out := Enhancement{Question: strings.TrimSpace(question)}
	if s.opts.Enhancer == nil {
		return out, ErrNoEnhancer
	}
	timeout := s.opts.EnhanceTimeout
	if timeout <= 0 {
		timeout = DefaultEnhanceTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	terms, err := s.opts.Enhancer.Enhance(cctx, out.Question)
	if err != nil {
		return out, fmt.Errorf("enhance: %w", err)
	}
	kb, _ := s.loaded.Load().engine.(knower)
	asked := analysis.Tokens(out.Question)
	for _, t := range terms {
		switch words := informative(t); {
		case len(words) == 0 || !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(asked, w) }):
			continue // adds nothing the question does not say
		case kb != nil && !slices.ContainsFunc(words, func(w string) bool { return !slices.Contains(asked, w) && !kb.Knows(w) }):
			out.Added = append(out.Added, t)
		default:
			out.Refused = append(out.Refused, t)
		}
	}
	return out, nil
}

// informative is a term's words that are not stopwords.
func informative(term string) []string {
	var out []string
	for _, w := range analysis.Tokens(term) {
		if !analysis.IsStopword(w) {
			out = append(out, w)
		}
	}
	return out
}
