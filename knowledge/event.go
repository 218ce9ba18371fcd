package knowledge

import "time"

// RetrievalEvent is one answered question, recorded so retrieval can be
// tuned from real traffic.
type RetrievalEvent struct {
	Time             time.Time   `json:"time"`
	Query            string      `json:"query"`
	NormalizedTokens []string    `json:"normalized_tokens"`
	TopResults       []TopResult `json:"top_results"`
	Action           string      `json:"action"`
	Confidence       float64     `json:"confidence"`
	LatencyMS        float64     `json:"latency_ms"`
	Phase            int         `json:"phase"`
	// The tokens the provider reported for the written answer and what
	// they cost by the configured price table; nil when there is nothing
	// to say (a clarification, the offline answer, a server that reports
	// no usage, a model without a price).
	PromptTokens     *int     `json:"prompt_tokens,omitempty"`
	CompletionTokens *int     `json:"completion_tokens,omitempty"`
	CostUSD          *float64 `json:"cost_usd,omitempty"`
}

// TopResult is one of the best-ranked chunks of a retrieval event.
type TopResult struct {
	Slug         string   `json:"slug"`
	ChunkIndex   int      `json:"chunk_index"`
	Score        float64  `json:"score"`
	MatchedTerms []string `json:"matched_terms"`
}
