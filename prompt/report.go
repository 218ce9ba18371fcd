package prompt

import "fmt"

// Report says what a Build put in the prompt and what it left out. It goes
// to the TUI's debug pane and to `docent ask --json` as "context".
type Report struct {
	Role     string    `json:"role,omitempty"` // the role added to the system prompt
	Tokens   Tokens    `json:"tokens"`
	Budgets  Budgets   `json:"budgets"`
	Dropped  []Dropped `json:"dropped"`
	Encoding string    `json:"encoding"`
}

// Tokens are the tokens each component put in the prompt. Total counts
// everything sent (system message, history and user message), so it also
// includes the instructions, the tags and the question.
type Tokens struct {
	Core    int `json:"core"`
	Docs    int `json:"docs"`
	UI      int `json:"ui"`
	Widgets int `json:"widgets"`
	Recent  int `json:"recent"`
	Role    int `json:"role"` // the role's addition to the system prompt; no budget: the agent chose it
	Total   int `json:"total"`
}

// Dropped is one thing left out of the prompt or cut to fit, e.g.
// {"docs", "actions/notes#chunk-3", "over docs budget (1500): 412 tokens, 96 left"}.
type Dropped struct {
	Component string `json:"component"`
	Item      string `json:"item"`
	Reason    string `json:"reason"`
}

// Lines renders the report for the debug pane, one fact a line.
func (r Report) Lines() []string {
	t, b := r.Tokens, r.Budgets
	lines := make([]string, 0, 3+len(r.Dropped))
	lines = append(lines,
		fmt.Sprintf("prompt: %d tokens (%s)", t.Total, r.Encoding),
		fmt.Sprintf("core %d/%d · docs %d/%d · ui %d/%d · widgets %d/%d · recent %d/%d",
			t.Core, b.Core, t.Docs, b.Docs, t.UI, b.UI, t.Widgets, b.Widgets, t.Recent, b.Recent),
	)
	if r.Role != "" {
		lines = append(lines, fmt.Sprintf("role %s: %d tokens", r.Role, t.Role))
	}
	for _, d := range r.Dropped {
		lines = append(lines, fmt.Sprintf("%s %s: %s", d.Component, d.Item, d.Reason))
	}
	return lines
}
