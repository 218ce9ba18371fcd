package assistant_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
)

// billingWriter answers like a provider that reports its usage.
type billingWriter struct {
	recordingWriter
	model string
	usage llm.Usage
}

func (w *billingWriter) Stream(ctx context.Context, p prompt.Prompt, emit func(string)) (llm.Answer, error) {
	ans, err := w.recordingWriter.Stream(ctx, p, emit)
	ans.Model, ans.Usage = w.model, w.usage
	return ans, err
}

// found is a question the demo answers with the model.
const found = "explain workspace"

func TestCostFromThePriceTable(t *testing.T) {
	w := &billingWriter{model: "gpt-4o-mini", usage: llm.Usage{PromptTokens: 2000, CompletionTokens: 100, Reported: true}}
	sink := &eventSink{}
	s := assistant.New(demoEngine(t), w, assistant.Options{
		Glossary: kb.Glossary(), Events: sink,
		Prices: map[string]assistant.Price{"gpt-4o-mini": {InputPerMTok: 0.15, OutputPerMTok: 0.6}},
	})
	ctx := context.Background()
	var costs []float64
	for range 2 {
		res := s.Retrieve(ctx, assistant.Request{Query: found})
		if !assistant.NeedsModel(res) {
			t.Fatalf("%q: status %s, want an answer", found, res.Status)
		}
		ans, err := s.Answer(ctx, res, discard)
		if err != nil {
			t.Fatal(err)
		}
		if ans.CostUSD == nil {
			t.Fatal("no cost for a priced model")
		}
		costs = append(costs, *ans.CostUSD)
	}
	// 2000 × $0.15 + 100 × $0.60 per million tokens.
	const want = 0.00036
	if math.Abs(costs[0]-want) > 1e-12 {
		t.Errorf("cost %v, want %v", costs[0], want)
	}
	spend := s.Spend()
	if spend.Answers != 2 || spend.Priced != 2 || spend.PromptTokens != 4000 || spend.CompletionTokens != 200 || math.Abs(spend.CostUSD-2*want) > 1e-12 {
		t.Errorf("spend %+v, want two answers of 2000+100 tokens costing %v", spend, 2*want)
	}
	if line := spend.Line(); !strings.Contains(line, "2 answers") || !strings.Contains(line, "$0.000720") {
		t.Errorf("spend line %q", line)
	}
	if len(sink.events) != 2 {
		t.Fatalf("%d events, want 2", len(sink.events))
	}
	for _, ev := range sink.events {
		if ev.PromptTokens == nil || *ev.PromptTokens != 2000 || ev.CompletionTokens == nil || *ev.CompletionTokens != 100 ||
			ev.CostUSD == nil || math.Abs(*ev.CostUSD-want) > 1e-12 {
			t.Errorf("event %+v, want the reported usage and its cost", ev)
		}
	}
}

// Without a price the answer has usage but no cost, and says so.
func TestUsageWithoutAPrice(t *testing.T) {
	w := &billingWriter{model: "llama3.2", usage: llm.Usage{PromptTokens: 10, CompletionTokens: 5, Reported: true}}
	s, sink := newSession(t, w)
	ctx := context.Background()
	ans, err := s.Answer(ctx, s.Retrieve(ctx, assistant.Request{Query: found}), discard)
	if err != nil {
		t.Fatal(err)
	}
	if ans.CostUSD != nil {
		t.Errorf("cost %v without a price", *ans.CostUSD)
	}
	lines := strings.Join(ans.UsageLines(), "\n")
	for _, want := range []string{"10 prompt + 5 completion tokens", "docent counted", "no price for llama3.2"} {
		if !strings.Contains(lines, want) {
			t.Errorf("usage lines %q lack %q", lines, want)
		}
	}
	if ev := sink.events[0]; ev.PromptTokens == nil || ev.CostUSD != nil {
		t.Errorf("event %+v, want tokens and no cost", ev)
	}
	if sp := s.Spend(); sp.Answers != 1 || sp.Priced != 0 || strings.Contains(sp.Line(), "$") {
		t.Errorf("spend %+v (%q), want one unpriced answer", sp, sp.Line())
	}
}

// A clarification and an answer without reported usage are recorded
// without tokens; a turn whose answer never came is recorded when the
// next one starts, and a stopped answer's event is recorded all the same.
func TestEventsWithoutUsage(t *testing.T) {
	s, sink := newSession(t, &recordingWriter{})
	ctx := context.Background()
	s.Answer(ctx, s.Retrieve(ctx, assistant.Request{Query: "workspace"}), discard) // ambiguous
	s.Retrieve(ctx, assistant.Request{Query: found})                               // never answered
	res := s.Retrieve(ctx, assistant.Request{Query: found})
	stopped, cancel := context.WithCancel(ctx)
	cancel()
	s.Answer(stopped, res, discard)
	s.Retrieve(ctx, assistant.Request{Query: found})
	s.Flush(ctx)
	var actions []string
	for _, ev := range sink.events {
		actions = append(actions, ev.Action)
		if ev.PromptTokens != nil || ev.CompletionTokens != nil || ev.CostUSD != nil {
			t.Errorf("event %+v has usage, want none", ev)
		}
	}
	if want := []string{"ambiguous", "found", "found", "found"}; !slices.Equal(actions, want) {
		t.Errorf("events %v, want %v", actions, want)
	}
}

func TestRoles(t *testing.T) {
	w := &recordingWriter{}
	override := prompt.Role{Name: prompt.RoleTranslate, Text: "Answer in Dutch."}
	s := assistant.New(demoEngine(t), w, assistant.Options{
		Glossary: kb.Glossary(),
		Roles:    append(prompt.BuiltinRoles(), override, prompt.Role{Name: "escalate", Text: "Write it for engineering."}),
	})
	if got, want := s.Roles(), []string{"escalate", "internal-note", "reply-to-customer", "translate"}; !slices.Equal(got, want) {
		t.Errorf("roles %v, want %v", got, want)
	}
	err := s.SetRole("shout")
	var unknown *assistant.UnknownRoleError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "escalate, internal-note, reply-to-customer, translate") {
		t.Fatalf("SetRole(shout) = %v, want an error listing the roles", err)
	}
	ctx := context.Background()
	ask := func() prompt.Prompt {
		t.Helper()
		if _, err := s.Answer(ctx, s.Retrieve(ctx, assistant.Request{Query: found}), discard); err != nil {
			t.Fatal(err)
		}
		return w.prompts[len(w.prompts)-1]
	}
	if p := ask(); strings.Contains(p.System, "Role for this answer") {
		t.Errorf("a role before any was chosen:\n%s", p.System)
	}
	if err := s.SetRole(prompt.RoleTranslate); err != nil {
		t.Fatal(err)
	}
	if p := ask(); !strings.Contains(p.System, "Answer in Dutch.") || !strings.Contains(p.System, "Answer only from the documentation") || s.Role() != prompt.RoleTranslate {
		t.Errorf("role %q; system prompt lacks the overriding role or the rules:\n%s", s.Role(), p.System)
	}
	if err := s.SetRole(""); err != nil {
		t.Fatal(err)
	}
	if p := ask(); strings.Contains(p.System, "Role for this answer") || s.Role() != "" {
		t.Errorf("role still there after clearing it:\n%s", p.System)
	}
}

func discard(string) {}
