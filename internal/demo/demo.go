// Package demo gives tests and benchmarks the embedded demo knowledge base
// as docent runs it: loaded with its vocabulary once per test binary, and
// an engine built on it with the default configuration.
package demo

import (
	"context"
	"sync"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
)

var (
	once   sync.Once
	bundle knowledge.Bundle
	err    error
)

// Bundle returns the demo knowledge base with its glossary, synonyms and
// concept docs, loaded as docent loads it. Callers must not modify it: it
// is shared by every test of the binary.
func Bundle(tb testing.TB) knowledge.Bundle {
	tb.Helper()
	once.Do(func() {
		bundle, _, err = ingest.LoadBundle(context.Background(), kb.Docs(), "kb")
	})
	if err != nil {
		tb.Fatalf("load the demo knowledge base: %v", err)
	}
	return bundle
}

// Docs returns the ingested docs of the demo knowledge base, shared like
// Bundle's.
func Docs(tb testing.TB) []knowledge.Doc {
	tb.Helper()
	return Bundle(tb).Docs
}

// Engine returns a new engine on the demo knowledge base with cfg, or the
// default configuration when cfg is omitted.
func Engine(tb testing.TB, cfg ...retrieval.Config) *retrieval.Engine {
	tb.Helper()
	c := retrieval.DefaultConfig()
	if len(cfg) > 0 {
		c = cfg[0]
	}
	e, err := retrieval.New(Bundle(tb), c)
	if err != nil {
		tb.Fatalf("build the demo engine: %v", err)
	}
	return e
}

// WorkspacePrompt is a prompt as docent builds it for a how-to question on
// the demo knowledge base: the glossary and every chunk of the two
// workspace docs, more than the docs budget holds.
func WorkspacePrompt(tb testing.TB) prompt.Prompt {
	tb.Helper()
	var ev []retrieval.Evidence
	for _, d := range Docs(tb) {
		if d.Slug != "concepts/workspace" && d.Slug != "actions/workspaces" {
			continue
		}
		for _, c := range d.Chunks {
			ev = append(ev, retrieval.Evidence{DocSlug: d.Slug, Title: d.Title, ChunkID: c.ID(),
				HeaderPath: c.HeaderPath, Content: c.Content, Score: float64(len(ev))})
		}
	}
	return prompt.Builder{}.Build(prompt.Input{Question: "How do I archive a workspace?", Glossary: Bundle(tb).Glossary, Evidence: ev})
}

// CalendarDoc is a doc the demo knowledge base lacks: no demo doc mentions
// a calendar (a kb test guards that), so "explain calendar" finds nothing
// until a test seeds it.
const CalendarDoc = `---
title: Calendar
keywords: [calendar, due dates, agenda]
---
## Calendar

The Calendar widget shows the notes that have a due date on a month grid.

## Overview

Open the Calendar widget from the Home page to see which notes are due this week. Pick a day to list its notes, and drag a note onto another day to move its due date.
`
