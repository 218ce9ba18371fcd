package assistant_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
)

// fixedEnhancer proposes the same terms for any question; with block it
// waits for its context instead.
type fixedEnhancer struct {
	terms []string
	block bool
	asked []string
}

func (f *fixedEnhancer) Enhance(ctx context.Context, question string) ([]string, error) {
	f.asked = append(f.asked, question)
	if f.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return f.terms, nil
}

func enhancingSession(t *testing.T, e assistant.Enhancer, timeout time.Duration) *assistant.Session {
	t.Helper()
	return assistant.New(demoEngine(t), &recordingWriter{}, assistant.Options{Glossary: kb.Glossary(), Enhancer: e, EnhanceTimeout: timeout})
}

// Only terms whose new words the docs write are added; a term adding
// nothing is dropped; the question's own words always lead the query.
func TestEnhanceKeepsOnlyWordsTheDocsWrite(t *testing.T) {
	f := &fixedEnhancer{terms: []string{"rename", "zebrafish", "workspace", "the", "Rename workspace", "workspace zebrafish", "homepage"}}
	s := enhancingSession(t, f, 0)
	got, err := s.Enhance(context.Background(), "  change the name of a workspace ")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"rename", "Rename workspace", "homepage"}; !slices.Equal(got.Added, want) {
		t.Errorf("added %q, want %q", got.Added, want)
	}
	if want := []string{"zebrafish", "workspace zebrafish"}; !slices.Equal(got.Refused, want) {
		t.Errorf("refused %q, want %q", got.Refused, want)
	}
	if got.Question != "change the name of a workspace" || !slices.Equal(f.asked, []string{"change the name of a workspace"}) {
		t.Errorf("question %q, the model was asked %q", got.Question, f.asked)
	}
	if q := got.Query(nil); q != "change the name of a workspace rename Rename workspace homepage" {
		t.Errorf("Query(all) = %q", q)
	}
	if q := got.Query([]bool{false, true}); q != "change the name of a workspace Rename workspace" {
		t.Errorf("Query(second only) = %q", q)
	}
	if d := got.Diff(); d != "change the name of a workspace +rename +Rename workspace +homepage" {
		t.Errorf("Diff = %q", d)
	}
}

func TestEnhanceNeedsAModelAndIsBounded(t *testing.T) {
	if _, err := enhancingSession(t, nil, 0).Enhance(context.Background(), "q"); !errors.Is(err, assistant.ErrNoEnhancer) {
		t.Errorf("no enhancer: err %v, want ErrNoEnhancer", err)
	}
	s := enhancingSession(t, &fixedEnhancer{block: true}, 20*time.Millisecond)
	got, err := s.Enhance(context.Background(), "workspace")
	if !errors.Is(err, context.DeadlineExceeded) || len(got.Added) != 0 {
		t.Errorf("a model that never answers: %+v, %v; want the deadline and nothing added", got, err)
	}
}

// The added terms widen the search, and the question stays the asker's:
// the writer answers what was asked.
func TestRequestTermsWidenTheSearchNotTheQuestion(t *testing.T) {
	w := &recordingWriter{}
	s, _ := newSession(t, w)
	ctx := context.Background()
	plain := s.Retrieve(ctx, assistant.Request{Query: "change the name of a workspace"})
	res := s.Retrieve(ctx, assistant.Request{Query: "change the name of a workspace", Terms: []string{"rename"}})
	if res.Query != "change the name of a workspace" {
		t.Fatalf("result query %q, want the question as asked", res.Query)
	}
	if !slices.Contains(res.NormalizedTokens, "rename") || slices.Contains(plain.NormalizedTokens, "rename") {
		t.Errorf("tokens %q (plain %q): the added term did not reach the search", res.NormalizedTokens, plain.NormalizedTokens)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return n == "searched with the added terms: rename" }) {
		t.Errorf("notes %q do not say the search was widened", res.Notes)
	}
	if !assistant.NeedsModel(res) {
		t.Fatalf("status %s: the test needs an answered question", res.Status)
	}
	if _, err := s.Answer(ctx, res, func(string) {}); err != nil {
		t.Fatal(err)
	}
	if q := w.prompts[len(w.prompts)-1].Question; q != "change the name of a workspace" {
		t.Errorf("the writer was asked %q", q)
	}
}
