package assistant

import (
	"fmt"

	"github.com/docent-sh/docent/llm"
)

// Price is what a model's tokens cost, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64
	OutputPerMTok float64
}

// Cost is what u costs at p.
func (p Price) Cost(u llm.Usage) float64 {
	return (float64(u.PromptTokens)*p.InputPerMTok + float64(u.CompletionTokens)*p.OutputPerMTok) / 1e6
}

// Spend is a session's running total of what the providers reported.
type Spend struct {
	Answers          int     `json:"answers"` // answers whose usage the provider reported
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Priced           int     `json:"priced"`   // of those, answers from a model with a price
	CostUSD          float64 `json:"cost_usd"` // the priced answers' cost
}

func (s *Spend) add(u llm.Usage, cost *float64) {
	if !u.Reported {
		return
	}
	s.Answers++
	s.PromptTokens += u.PromptTokens
	s.CompletionTokens += u.CompletionTokens
	if cost != nil {
		s.Priced++
		s.CostUSD += *cost
	}
}

// Line is the total for the debug pane, "" before any usage was reported.
func (s Spend) Line() string {
	if s.Answers == 0 {
		return ""
	}
	line := fmt.Sprintf("session: %s · %d prompt + %d completion tokens", plural(s.Answers, "answer"), s.PromptTokens, s.CompletionTokens)
	if s.Priced > 0 {
		line += " · " + dollars(s.CostUSD)
		if s.Priced < s.Answers {
			line += fmt.Sprintf(" (%d of them priced)", s.Priced)
		}
	}
	return line
}

// UsageLines say, for the debug pane, what the provider reported for the
// answer beside docent's own count of the prompt, and what it cost.
func (a Answer) UsageLines() []string {
	// The offline responder is no provider: it has no usage to report,
	// and the notice of a fallback already says why.
	if !a.ModelCalled || a.Provider == llm.ProviderExtractive {
		return nil
	}
	estimate := fmt.Sprintf("docent counted %d prompt tokens (%s)", a.Context.Tokens.Total, a.Context.Encoding)
	if !a.Usage.Reported {
		return []string{"usage: not reported by the provider · " + estimate}
	}
	lines := []string{fmt.Sprintf("usage: %d prompt + %d completion tokens reported by %s · %s",
		a.Usage.PromptTokens, a.Usage.CompletionTokens, a.Provider, estimate)}
	if a.CostUSD != nil {
		lines = append(lines, "cost: "+dollars(*a.CostUSD)+" this answer")
	} else {
		lines = append(lines, fmt.Sprintf("cost: no price for %s in the config's prices", a.Model))
	}
	return lines
}

// dollars shows a cost to a millionth of a dollar: one answer costs
// fractions of a cent.
func dollars(v float64) string { return fmt.Sprintf("$%.6f", v) }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
