package store

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// maxListedProblems bounds an error message: a broken ingest can produce
// thousands of identical problems and the first few tell the story.
const maxListedProblems = 10

// SnapshotError lists everything wrong with a knowledge base snapshot. A
// store returns it before writing anything.
type SnapshotError struct {
	Problems []string
}

func (e *SnapshotError) Error() string {
	shown := e.Problems
	more := ""
	if len(shown) > maxListedProblems {
		more = fmt.Sprintf("; and %d more", len(shown)-maxListedProblems)
		shown = shown[:maxListedProblems]
	}
	noun := "problems"
	if len(e.Problems) == 1 {
		noun = "problem"
	}
	return fmt.Sprintf("invalid knowledge base snapshot (%d %s): %s%s",
		len(e.Problems), noun, strings.Join(shown, "; "), more)
}

// ValidateSnapshot checks what every store needs of a snapshot before it
// writes: unique non-empty slugs, content hashes for change detection,
// chunks that belong to their doc with unique indices, and text PostgreSQL
// can store (valid UTF-8 without NUL bytes). Checking here, not in the
// database, keeps both stores in agreement and the errors readable.
func ValidateSnapshot(docs []knowledge.Doc) error {
	var problems []string
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		where := docLocation(i, d)
		add := func(format string, args ...any) {
			problems = append(problems, where+": "+fmt.Sprintf(format, args...))
		}
		if d.Slug == "" {
			add("empty slug")
		} else if first, dup := seen[d.Slug]; dup {
			add("duplicate slug, first used by %s", docLocation(first, docs[first]))
		} else {
			seen[d.Slug] = i
		}
		if d.ContentHash == "" {
			add("empty content hash")
		}
		for _, f := range []struct{ name, value string }{
			{"slug", d.Slug}, {"category", d.Category}, {"title", d.Title}, {"content", d.Content},
			{"content hash", d.ContentHash}, {"source path", d.SourcePath},
		} {
			if msg := textProblem(f.value); msg != "" {
				add("%s %s", f.name, msg)
			}
		}
		if msg := listProblem(d.Keywords); msg != "" {
			add("keywords %s", msg)
		}
		indices := make(map[int]bool, len(d.Chunks))
		for _, c := range d.Chunks {
			chunkAdd := func(format string, args ...any) {
				add("chunk %d: %s", c.Index, fmt.Sprintf(format, args...))
			}
			if c.DocSlug != d.Slug {
				chunkAdd("belongs to doc %q", c.DocSlug)
			}
			if c.Index < 0 {
				chunkAdd("negative index")
			} else if indices[c.Index] {
				chunkAdd("duplicate index")
			}
			indices[c.Index] = true
			if c.Hash == "" {
				chunkAdd("empty hash")
			}
			if c.BodyChars < 0 {
				chunkAdd("negative body character count %d", c.BodyChars)
			}
			for _, f := range []struct{ name, value string }{
				{"category", c.Category}, {"title", c.Title}, {"header path", c.HeaderPath},
				{"content", c.Content}, {"hash", c.Hash},
			} {
				if msg := textProblem(f.value); msg != "" {
					chunkAdd("%s %s", f.name, msg)
				}
			}
			if msg := listProblem(c.Keywords); msg != "" {
				chunkAdd("keywords %s", msg)
			}
			if msg := embeddingProblem(c.Embedding); msg != "" {
				chunkAdd("embedding %s", msg)
			}
		}
	}
	if len(problems) > 0 {
		return &SnapshotError{Problems: problems}
	}
	return nil
}

func docLocation(i int, d knowledge.Doc) string {
	loc := fmt.Sprintf("doc #%d %q", i, d.Slug)
	if d.SourcePath != "" {
		loc += fmt.Sprintf(" (%s)", d.SourcePath)
	}
	return loc
}

// textProblem says why PostgreSQL would reject s as text, or "".
func textProblem(s string) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "contains a NUL byte"
	}
	return ""
}

func listProblem(items []string) string {
	for i, s := range items {
		if msg := textProblem(s); msg != "" {
			return fmt.Sprintf("item %d %s", i, msg)
		}
	}
	return ""
}

// PrepareEvent returns ev as a store records it: stamped with now when it
// has no time, with empty lists instead of nil ones, and checked for what
// neither JSON nor PostgreSQL can hold (NaN or infinite numbers, invalid
// UTF-8, NUL bytes).
func PrepareEvent(ev knowledge.RetrievalEvent, now time.Time) (knowledge.RetrievalEvent, error) {
	var problems []string
	check := func(field, msg string) {
		if msg != "" {
			problems = append(problems, field+" "+msg)
		}
	}
	check("query", textProblem(ev.Query))
	check("action", textProblem(ev.Action))
	check("normalized tokens", listProblem(ev.NormalizedTokens))
	check("confidence", numberProblem(ev.Confidence))
	check("latency", numberProblem(ev.LatencyMS))
	check("prompt tokens", countProblem(ev.PromptTokens))
	check("completion tokens", countProblem(ev.CompletionTokens))
	if ev.CostUSD != nil {
		check("cost", numberProblem(*ev.CostUSD))
		if *ev.CostUSD < 0 {
			check("cost", "is negative")
		}
	}
	check("corpus", textProblem(ev.Corpus))
	check("cross corpus choice", textProblem(ev.CrossCorpusChoice))
	check("notes error", textProblem(ev.NotesError))
	if ev.CrossCorpusGap != nil {
		check("cross corpus gap", numberProblem(*ev.CrossCorpusGap))
	}
	if ev.ConversationID != "" && !ParseConversationID(ev.ConversationID) {
		check("conversation id", fmt.Sprintf("%q is not a lower-case uuid", ev.ConversationID))
	}
	if ev.TurnIndex != nil && (*ev.TurnIndex < 0 || ev.ConversationID == "") {
		check("turn index", "is negative or without a conversation id")
	}
	switch ev.NotesFallbackReason {
	case "", knowledge.NotesFallbackIndexMissing, knowledge.NotesFallbackWorkspaceMissing,
		knowledge.NotesFallbackFetchError, knowledge.NotesFallbackTimeout:
	default:
		check("notes fallback reason", fmt.Sprintf("%q is none of index_missing, workspace_missing, fetch_error, timeout", ev.NotesFallbackReason))
	}
	for i, r := range ev.TopResults {
		field := fmt.Sprintf("top result %d", i)
		check(field+" slug", textProblem(r.Slug))
		check(field+" score", numberProblem(r.Score))
		check(field+" matched terms", listProblem(r.MatchedTerms))
	}
	if len(problems) > 0 {
		return knowledge.RetrievalEvent{}, fmt.Errorf("invalid retrieval event: %s", strings.Join(problems, "; "))
	}

	if ev.Time.IsZero() {
		ev.Time = now
	}
	if ev.NormalizedTokens == nil {
		ev.NormalizedTokens = []string{}
	}
	results := make([]knowledge.TopResult, len(ev.TopResults))
	for i, r := range ev.TopResults {
		if r.MatchedTerms == nil {
			r.MatchedTerms = []string{}
		}
		results[i] = r
	}
	ev.TopResults = results
	return ev, nil
}

func countProblem(n *int) string {
	if n != nil && *n < 0 {
		return "is negative"
	}
	return ""
}

func numberProblem(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprintf("is %v", f)
	}
	return ""
}

// embeddingProblem says why an embedding cannot be stored, or "": every
// stored vector names its model, has values, and only finite ones (a NaN
// would poison every similarity it enters).
func embeddingProblem(e *knowledge.Embedding) string {
	if e == nil {
		return ""
	}
	if strings.TrimSpace(e.Model) == "" {
		return "has no model"
	}
	if msg := textProblem(e.Model); msg != "" {
		return "model " + msg
	}
	if len(e.Vector) == 0 {
		return "is empty"
	}
	for i, x := range e.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Sprintf("value %d is not finite", i)
		}
	}
	return ""
}
