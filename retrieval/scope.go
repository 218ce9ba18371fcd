package retrieval

import (
	"fmt"
	"slices"
	"strings"
)

// Scopes: a turn may ask only some categories of docs (Query.Categories),
// a category being a docs folder (knowledge.Doc.Category, else the
// slug's first segment). The scope is applied before scoring: the index
// skips the units of other docs while it accumulates (index.Scoring.Docs)
// and the vector side ranks among the scope's chunks alone, so every
// measure the decision reads (coverage, margins, candidates) is the
// scope's, as if the other docs were not there, but for idf: words weigh
// what they weigh in the whole knowledge base, so a word rare in the
// docs stays informative in a scope that has it often.

// Categories returns the categories of the engine's docs, sorted, each once.
func (e *Engine) Categories() []string {
	var out []string
	for _, d := range e.docs {
		if !slices.Contains(out, d.category) {
			out = append(out, d.category)
		}
	}
	slices.Sort(out)
	return out
}

// CheckCategories reports the categories of cats the engine does not
// know, naming the ones it does; nil when all are known.
func (e *Engine) CheckCategories(cats []string) error {
	return CheckCategories(e.Categories(), cats)
}

// CheckCategories reports the categories of cats not in known, naming
// the known ones; nil when all are known.
func CheckCategories(known, cats []string) error {
	var unknown []string
	for _, c := range cats {
		if !slices.Contains(known, c) && !slices.Contains(unknown, c) {
			unknown = append(unknown, c)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	noun := "category"
	if len(unknown) > 1 {
		noun = "categories"
	}
	return fmt.Errorf("unknown %s %s: the knowledge base has %s", noun, quoteAll(unknown), strings.Join(known, ", "))
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// ParseCategories splits a comma-separated list of categories, trimming
// spaces and dropping empty items and repeats: "a, b,,a" is [a b].
func ParseCategories(s string) []string {
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = strings.TrimSpace(c); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// allowed is the per-doc scope of cats, by doc number.
func (e *Engine) allowed(cats []string) []bool {
	allow := make([]bool, len(e.docs))
	for i, d := range e.docs {
		allow[i] = slices.Contains(cats, d.category)
	}
	return allow
}
