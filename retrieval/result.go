package retrieval

import "github.com/docent-sh/docent/knowledge"

// Status is the decision the policy took for one turn.
type Status string

const (
	StatusFound     Status = "found"
	StatusWeak      Status = "weak"
	StatusAmbiguous Status = "ambiguous"
	StatusNoMatch   Status = "no_match"
	StatusMulti     Status = "multi"
)

// Source says which retriever produced a piece of evidence.
type Source string

const (
	SourceKeyword   Source = "keyword"
	SourceHybrid    Source = "hybrid"
	SourceEmbedding Source = "embedding"
)

// Option is one clarification choice (a pill in the TUI).
type Option struct {
	Label    string `json:"label"`
	DocSlug  string `json:"doc_slug"`
	Category string `json:"category"`
	// Asked is the part of a multi-intent question this doc answers, so
	// each part can be answered on its own; "" for other options.
	Asked string `json:"asked,omitempty"`
}

// Evidence is one retrieved chunk (Phase 2) or doc (Phase 1) with the
// reasons it was retrieved.
type Evidence struct {
	// Corpus and ResourceID say where the evidence is from: the docs and
	// the doc's slug, or the notes and the note's id. The engine indexes
	// one corpus and leaves them to whoever knows which (assistant).
	Corpus     knowledge.Corpus `json:"corpus,omitempty"`
	ResourceID string           `json:"resource_id,omitempty"`
	DocSlug    string           `json:"doc_slug"`
	Title      string           `json:"title"`
	Category   string           `json:"category"`
	Snippet    string           `json:"snippet"`
	Content    string           `json:"-"`          // the whole chunk, for the evidence pane and the prompt
	Score      float64          `json:"score"`      // match score: the share of the question's informative weight the chunk covers
	RankScore  float64          `json:"rank_score"` // BM25-family score: drives the order of a lexical turn
	// FusedScore drives the order of a hybrid turn: Alpha·VectorScore +
	// (1 − Alpha)·(RankScore ÷ the turn's best rank score), in [0, 1];
	// VectorScore is the chunk's cosine with the question, clamped at 0
	// (see retrieval/hybrid.go). Both are 0 in a lexical turn, and
	// VectorScore for a chunk the vector side did not return.
	FusedScore  float64 `json:"fused_score,omitempty"`
	VectorScore float64 `json:"vector_score,omitempty"`
	// RerankScore is the relevance (0–1) a chat model gave the chunk when
	// the assistant reranked the turn's evidence (--rerank); it then
	// drives the evidence's order, which RankScore and FusedScore still
	// explain. 0 when the turn was not reranked.
	RerankScore float64 `json:"rerank_score,omitempty"`
	HeaderPath  string  `json:"header_path"`
	ContentHash string  `json:"content_hash"`
	ChunkIndex  int     `json:"chunk_index"`
	ChunkID     string  `json:"chunk_id"`
	ChunkHash   string  `json:"chunk_hash"`
	HeadingOnly bool    `json:"is_heading_only"`
	BodyChars   int     `json:"body_char_count"`
	// NextChunkID is the chunk a follow-up would continue with: the next
	// one of the same doc with body text; "" at the doc's end.
	NextChunkID  string       `json:"next_chunk_id,omitempty"`
	SourcePath   string       `json:"source_path"`
	MatchedTerms []string     `json:"matched_terms"`
	Source       Source       `json:"source"`
	MatchExplain MatchExplain `json:"match_explain"`
}

// MatchExplain records why a piece of evidence matched.
type MatchExplain struct {
	Fields      map[string][]string `json:"fields"`               // field name → query tokens found there
	ExactPhrase bool                `json:"exact_phrase"`         // every word of the question is in the title
	Synonyms    []Rewrite           `json:"synonyms,omitempty"`   // rewrites applied to the query
	TypoFixes   []Rewrite           `json:"typo_fixes,omitempty"` // typo corrections applied to the query
	Biases      []string            `json:"biases,omitempty"`     // e.g. "definitional ×1.5 (the doc titled so)", "reader ×1.75 (written to the asker)"
	Stemmed     []Rewrite           `json:"stemmed,omitempty"`    // plural stems applied
}

// Rewrite is one change normalization made to the query.
type Rewrite struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Metrics describes how one turn was computed.
type Metrics struct {
	RetrievalMS   float64 `json:"retrieval_ms"`
	Phase         int     `json:"phase"`
	Fallback      string  `json:"fallback"` // "" when none; else "phase1", "glossary" or "generic"
	DedupeTrimmed int     `json:"dedupe_trimmed"`
}

// Result is everything one turn produced: the decision, the options and
// the evidence. It says nothing in words: assistant writes the reply from
// it (see assistant.Reply).
type Result struct {
	Corpus           knowledge.Corpus `json:"corpus,omitempty"` // set as Evidence.Corpus is
	Query            string           `json:"query"`
	NormalizedTokens []string         `json:"normalized_tokens"`
	Status           Status           `json:"status"`
	Options          []Option         `json:"options"`
	Results          []Evidence       `json:"results"`
	Confidence       float64          `json:"confidence"`
	Rule             string           `json:"rule"` // the decision rule that set Status, e.g. "coverage<MIN_COVERAGE"
	Metrics          Metrics          `json:"metrics"`
	Notes            []string         `json:"notes,omitempty"` // e.g. "query truncated to 4000 characters"
	// Hint is a one-line notice for the asker beside the answer, e.g.
	// "Notes unavailable." when the team's notes could not be searched.
	Hint string `json:"hint,omitempty"`
	// Topic is what a question the docs do not cover was about: its
	// informative words as the user wrote them, for the reply to name.
	// Empty for any other result, and for a question with no such word.
	Topic []string `json:"topic,omitempty"`
	// Talk is the kind of conversation a small-talk question was (rule
	// RuleSmallTalk), "" for any other question.
	Talk Talk `json:"talk,omitempty"`
	// Candidates are the docs the decision weighed, best-ranked first, each
	// with the measures the policy read: why it answered, asked or declined.
	Candidates []Candidate `json:"candidates,omitempty"`
}

// MaxCandidates is how many docs Result.Candidates lists at most.
const MaxCandidates = 10

// Candidate is one doc as the decision policy saw it: the measures of its
// best-ranked chunk.
type Candidate struct {
	DocSlug  string  `json:"doc_slug"`
	Title    string  `json:"title"`
	ChunkID  string  `json:"chunk_id,omitempty"`
	Rank     float64 `json:"rank"`     // rank score of the doc's best chunk
	Coverage float64 `json:"coverage"` // share of the question's informative weight the doc covers, in any of its chunks
	Together float64 `json:"together"` // … its best-ranked chunk covers: the words in one place
	Naming   float64 `json:"naming"`   // … that the doc's title, keywords or headings carry
	// FusedScore is that chunk's fused score in a hybrid turn (its rank,
	// for the policy), 0 in a lexical one. A doc the vector side alone
	// found comes last, with Rank, Coverage and Naming 0: the policy did
	// not weigh it.
	FusedScore float64 `json:"fused_score,omitempty"`
}
