package retrieval

import (
	"slices"
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
	// damp holds per unit the factor a release log's units rank with
	// (see releaseLogDamp), 1 for the others; nil when the knowledge base
	// has no release log.
	damp []float32
}

func newUnitIndex(ix *index.Index, logs []bool) *unitIndex {
	u := &unitIndex{Index: ix, display: make([]atomic.Pointer[displayText], len(ix.Units))}
	if slices.Contains(logs, true) {
		u.damp = make([]float32, len(ix.Units))
		for i, un := range ix.Units {
			u.damp[i] = 1
			if logs[un.Doc] {
				u.damp[i] = releaseLogDamp
			}
		}
	}
	return u
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
