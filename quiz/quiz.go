// Package quiz writes quizzes from the knowledge base, for training
// support staff on the product they answer for: questions at the levels of
// Bloom's revised taxonomy, each citing the chunks it was made from.
//
// Offline (no model configured), Offline makes remember and understand
// items from the docs themselves: cloze questions from definition
// sentences, "which doc says…" and "what comes next" multiple choice. With
// a model, Generator asks for strict JSON items over chosen chunks and
// checks them: citations must name chunks it was given, and a second call
// classifies each item's level, so an item that misses its level is asked
// for again. Every item's text is made terminal-safe before it is kept.
package quiz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// Level is a level of Bloom's revised taxonomy.
type Level string

// The six levels, lowest first.
const (
	Remember   Level = "remember"
	Understand Level = "understand"
	Apply      Level = "apply"
	Analyze    Level = "analyze"
	Evaluate   Level = "evaluate"
	Create     Level = "create"
)

// AllLevels are the levels in taxonomy order, the default of --levels.
var AllLevels = []Level{Remember, Understand, Apply, Analyze, Evaluate, Create}

// OfflineLevels are the levels the offline generator can write: recalling
// and recognising what a doc says needs no model, applying it does.
var OfflineLevels = []Level{Remember, Understand}

// ParseLevel reads one level name, case-insensitively.
func ParseLevel(s string) (Level, bool) {
	l := Level(strings.ToLower(strings.TrimSpace(s)))
	return l, slices.Contains(AllLevels, l)
}

// ParseLevels reads a comma-separated list of levels ("apply,analyze"),
// each once, in taxonomy order; empty means all of them.
func ParseLevels(s string) ([]Level, error) {
	if strings.TrimSpace(s) == "" {
		return slices.Clone(AllLevels), nil
	}
	seen := map[Level]bool{}
	for _, part := range strings.Split(s, ",") {
		l, ok := ParseLevel(part)
		if !ok {
			return nil, fmt.Errorf("unknown level %q (want some of: %s)", strings.TrimSpace(part), joinLevels(AllLevels))
		}
		seen[l] = true
	}
	var out []Level
	for _, l := range AllLevels {
		if seen[l] {
			out = append(out, l)
		}
	}
	return out, nil
}

func joinLevels(ls []Level) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

// Kind is an item's form.
type Kind string

const (
	MultipleChoice Kind = "multiple_choice"
	ShortAnswer    Kind = "short_answer"
)

// Item is one quiz question with its answer and its sources.
type Item struct {
	Level    Level  `json:"level"`
	Kind     Kind   `json:"kind"`
	Question string `json:"question"`

	// Multiple choice: the options, the index of the correct one, and for
	// each option why it is wrong ("" at Answer).
	// Answer is in the JSON of a multiple choice item alone (MarshalJSON).
	Options  []string `json:"options,omitempty"`
	Answer   int      `json:"-"`
	WhyWrong []string `json:"why_wrong,omitempty"`

	// Short answer: a model answer and the words an evaluator looks for.
	SuggestedAnswer string   `json:"suggested_answer,omitempty"`
	Keywords        []string `json:"keywords,omitempty"`

	Explanation string `json:"explanation"`
	// Citations are the chunk ids the item rests on; each names a chunk
	// of the knowledge base, and Sources says which.
	Citations []string `json:"citations"`
	Sources   []Source `json:"sources"`
}

// MarshalJSON writes Answer for a multiple choice item only: a short
// answer's 0 would read as an option index.
func (it Item) MarshalJSON() ([]byte, error) {
	out := struct {
		Level           Level    `json:"level"`
		Kind            Kind     `json:"kind"`
		Question        string   `json:"question"`
		Options         []string `json:"options,omitempty"`
		Answer          *int     `json:"answer,omitempty"`
		WhyWrong        []string `json:"why_wrong,omitempty"`
		SuggestedAnswer string   `json:"suggested_answer,omitempty"`
		Keywords        []string `json:"keywords,omitempty"`
		Explanation     string   `json:"explanation"`
		Citations       []string `json:"citations"`
		Sources         []Source `json:"sources"`
	}{it.Level, it.Kind, it.Question, it.Options, nil, it.WhyWrong, it.SuggestedAnswer, it.Keywords, it.Explanation, it.Citations, it.Sources}
	if it.Kind == MultipleChoice {
		out.Answer = &it.Answer
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// Header paths read "A > B": escaping ">" would only hinder a reader.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Source is a cited chunk as a reader finds it.
type Source struct {
	ChunkID    string `json:"chunk_id"`
	Title      string `json:"title"`
	HeaderPath string `json:"header_path"`
	SourcePath string `json:"source_path,omitempty"`
}

// Quiz is what a generator made.
type Quiz struct {
	Generator string `json:"generator"` // "offline" or "model"
	Seed      uint64 `json:"seed"`
	Items     []Item `json:"items"`
	// Notes say what was left out and why: levels the offline generator
	// cannot write, items dropped after their one retry.
	Notes []string `json:"notes"`
}

// Options say what to ask.
type Options struct {
	Count  int     // items wanted; DefaultCount when 0
	Levels []Level // AllLevels when empty
	Seed   uint64  // the same seed, docs and options give the same quiz
}

// DefaultCount is --count's default: a short session's worth.
const DefaultCount = 10

// MaxCount bounds --count: a quiz longer than this is several quizzes.
const MaxCount = 50

func (o Options) normalized() Options {
	if o.Count <= 0 {
		o.Count = DefaultCount
	}
	if len(o.Levels) == 0 {
		o.Levels = slices.Clone(AllLevels)
	}
	return o
}

// Select returns the chunks a quiz asks about: the doc's with slug, else
// the docs' of the categories, else every doc's; heading-only chunks have
// nothing to ask and are left out. An unknown slug or category is an
// error naming it.
func Select(docs []knowledge.Doc, slug string, categories []string) ([]knowledge.Chunk, error) {
	var out []knowledge.Chunk
	found := false
	for _, d := range docs {
		switch {
		case slug != "":
			if d.Slug != slug {
				continue
			}
		case len(categories) > 0:
			if !slices.Contains(categories, d.Category) {
				continue
			}
		}
		found = true
		for _, c := range d.Chunks {
			if !c.HeadingOnly && strings.TrimSpace(c.Text) != "" {
				out = append(out, c)
			}
		}
	}
	switch {
	case !found && slug != "":
		return nil, fmt.Errorf("no doc %q in the knowledge base (docent docs list shows the slugs)", slug)
	case !found && len(categories) > 0:
		return nil, fmt.Errorf("no doc in categories %s", strings.Join(categories, ", "))
	case len(out) == 0:
		return nil, fmt.Errorf("the docs chosen have no body text to ask about")
	}
	return out, nil
}

// sourcesOf resolves citations to the chunks they name; ok is false when
// one names no chunk of byID.
func sourcesOf(ids []string, byID map[string]knowledge.Chunk, paths map[string]string) ([]Source, bool) {
	out := make([]Source, 0, len(ids))
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, false
		}
		out = append(out, Source{ChunkID: id, Title: c.Title, HeaderPath: c.HeaderPath, SourcePath: paths[c.DocSlug]})
	}
	return out, true
}

func chunkMap(chunks []knowledge.Chunk) map[string]knowledge.Chunk {
	m := make(map[string]knowledge.Chunk, len(chunks))
	for _, c := range chunks {
		m[c.ID()] = c
	}
	return m
}

func sourcePaths(docs []knowledge.Doc) map[string]string {
	m := make(map[string]string, len(docs))
	for _, d := range docs {
		m[d.Slug] = d.SourcePath
	}
	return m
}
