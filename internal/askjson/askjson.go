// Package askjson is the JSON of one turn: what `docent ask --json`
// prints and what `docent serve`'s /api/retrieve answers, one type for
// both so the two never drift apart.
package askjson

import (
	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

// Output is one turn's decision, evidence and metrics, and its answer when
// one was written.
type Output struct {
	Corpus           knowledge.Corpus      `json:"corpus"` // docs, notes, or auto when both were offered
	Query            string                `json:"query"`
	NormalizedTokens []string              `json:"normalized_tokens"`
	Status           retrieval.Status      `json:"status"`
	Reply            string                `json:"reply"`
	Options          []retrieval.Option    `json:"options"`
	Results          []retrieval.Evidence  `json:"results"`
	Confidence       float64               `json:"confidence"`
	Rule             string                `json:"rule"`
	Candidates       []retrieval.Candidate `json:"candidates,omitempty"` // the docs the decision weighed, with its measures
	Metrics          Metrics               `json:"metrics"`
	LLM              LLM                   `json:"llm"`
	Context          *Context              `json:"context,omitempty"`
	Notes            []string              `json:"notes,omitempty"`
	Hint             string                `json:"hint,omitempty"` // e.g. "Notes unavailable."
	// Enhanced is the --enhance rewrite: the terms the search added and
	// those refused as words the docs never write.
	Enhanced *Enhanced `json:"enhanced,omitempty"`
	// Citations are the chunk ids the reply cites, numbered as the text
	// output's footnotes; known is false for an id the writer was not given.
	Citations []Citation `json:"citations"`
	// Conversation and Turn say where the turn was recorded (`docent ask
	// --conversation ID` continues it); absent when it could not be.
	Conversation string `json:"conversation_id,omitempty"`
	Turn         *int   `json:"turn,omitempty"`
}

// Enhanced is a question's rewrite by ask --enhance.
type Enhanced struct {
	Added   []string `json:"added"`
	Refused []string `json:"refused"`
}

// Citation is one footnote of a reply.
type Citation struct {
	N     int    `json:"n"`
	ID    string `json:"id"`
	Known bool   `json:"known"`
}

// Metrics are retrieval's measures of the turn and the session's rolling
// figures.
type Metrics struct {
	retrieval.Metrics
	Stats assistant.Stats `json:"stats"`
}

// LLM is who wrote the answer and what it cost.
type LLM struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Called   bool   `json:"called"`
	Fallback bool   `json:"fallback,omitempty"`
	Notice   string `json:"notice,omitempty"`
	Stopped  bool   `json:"stopped,omitempty"`
	// Usage is what the provider reported for its answer (reported false
	// when it reported nothing, or did not write the answer).
	Usage llm.Usage `json:"usage"`
	// CostUSD is what that usage cost by the configuration's price table,
	// absent without a price for the model or without reported usage.
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// Context is the prompt's report when a model wrote the answer.
type Context struct {
	Role    string           `json:"role,omitempty"`
	Tokens  prompt.Tokens    `json:"tokens"`
	Budgets prompt.Budgets   `json:"budgets"`
	Dropped []prompt.Dropped `json:"dropped"`
}

// New is the output of a turn: its result, the answer written for it
// (zero when none was asked for), the session's figures and the writer's
// selection.
func New(res retrieval.Result, ans assistant.Answer, stats assistant.Stats, sel llm.Selection) Output {
	o := Output{
		Corpus:           res.Corpus,
		Query:            res.Query,
		NormalizedTokens: NonNil(res.NormalizedTokens),
		Status:           res.Status,
		Reply:            ans.Text,
		Options:          NonNil(res.Options),
		Results:          NonNil(res.Results),
		Confidence:       res.Confidence,
		Rule:             res.Rule,
		Candidates:       res.Candidates,
		Metrics:          Metrics{Metrics: res.Metrics, Stats: stats},
		LLM: LLM{
			Provider: sel.Provider, Model: sel.Model, Called: ans.ModelCalled,
			Fallback: ans.Fallback, Notice: ans.Notice, Stopped: ans.Stopped, Usage: ans.Usage, CostUSD: ans.CostUSD,
		},
		Notes:     res.Notes,
		Hint:      res.Hint,
		Citations: []Citation{},
	}
	for _, n := range cite.Footnotes(ans.Text, ans.Sources).Notes {
		o.Citations = append(o.Citations, Citation{N: n.N, ID: n.ID, Known: n.Known})
	}
	if ans.ModelCalled {
		o.Context = &Context{Role: ans.Context.Role, Tokens: ans.Context.Tokens, Budgets: ans.Context.Budgets, Dropped: NonNil(ans.Context.Dropped)}
	}
	return o
}

// NonNil keeps JSON arrays as [] rather than null, so consumers can
// iterate without a check.
func NonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
