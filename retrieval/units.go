package retrieval

import (
	"strings"
	"sync/atomic"

	"github.com/docent-sh/docent/retrieval/index"
)

// unitIndex is an index with what the engine keeps beside it per unit:
// the heading each unit is about, and the text each shows.
type unitIndex struct {
	*index.Index
	// section identifies, per unit, the set of stem keys of the unit's
	// own heading (the last of its heading path; see keySetHash); nil
	// for whole docs.
	section []uint64
	// display caches each unit's sanitized content and plain text the
	// first time a result shows it: converting markdown is the costliest
	// step of a turn, and popular chunks are shown again and again.
	display []atomic.Pointer[displayText]
}

func newUnitIndex(ix *index.Index) *unitIndex {
	return &unitIndex{Index: ix, display: make([]atomic.Pointer[displayText], len(ix.Units))}
}

type displayText struct {
	content string // sanitized markdown
	plain   string // prose for snippets
}

// biasReasons say, in the debug pane's words, why a unit got the
// definitional bias.
var biasReasons = [...]string{index.BiasTitle: "the doc titled so", index.BiasSection: "the section titled so", index.BiasConcept: "concept doc"}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
