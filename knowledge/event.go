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

	// What the team's notes did in the turn. Corpus is where the answer
	// came from ("docs", "notes", or "auto" when both were offered).
	// CrossCorpusShown: Docs and Notes pills were offered, CrossCorpusGap
	// apart (Between's gap); CrossCorpusChoice is the corpus picked from
	// such pills, on the turn that picked. NotesAvailable: the notes could
	// be searched; else NotesFallbackReason says why (one of the
	// NotesFallback* values) and NotesError what failed, redacted.
	Corpus              string   `json:"corpus,omitempty"`
	CrossCorpusShown    bool     `json:"cross_corpus_shown,omitempty"`
	CrossCorpusChoice   string   `json:"cross_corpus_choice,omitempty"`
	CrossCorpusGap      *float64 `json:"cross_corpus_gap,omitempty"`
	NotesAvailable      bool     `json:"notes_available"`
	NotesError          string   `json:"notes_error,omitempty"`
	NotesFallbackReason string   `json:"notes_fallback_reason,omitempty"`

	// The conversation turn this event is (knowledge.Turn), so the asker's
	// rating of its answer, stored with the turn, joins the event; empty
	// and nil when the turn is not recorded.
	ConversationID string `json:"conversation_id,omitempty"`
	TurnIndex      *int   `json:"turn_index,omitempty"`
	// Feedback is the asker's rating of the turn, joined when events are
	// listed for a report (store.EventLister); the rating comes after the
	// event, so it is never written with it. Nil: not rated.
	Feedback *TurnFeedback `json:"feedback,omitempty"`
}

// Why a turn answered without the team's notes.
const (
	NotesFallbackIndexMissing     = "index_missing"     // no notes tables (or file) to read
	NotesFallbackWorkspaceMissing = "workspace_missing" // no workspace configured
	NotesFallbackFetchError       = "fetch_error"       // reading the notes failed
	NotesFallbackTimeout          = "timeout"           // reading the notes took too long
)

// TopResult is one of the best-ranked chunks of a retrieval event.
type TopResult struct {
	Slug         string   `json:"slug"`
	ChunkIndex   int      `json:"chunk_index"`
	Score        float64  `json:"score"`
	MatchedTerms []string `json:"matched_terms"`
}
