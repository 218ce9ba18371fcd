package ingest

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/knowledge"
)

func TestFillAutotitles(t *testing.T) {
	fsys := fstest.MapFS{
		"content/pipelines/index.md":           {Data: []byte("---\ntitle: Pipelines\n---\n\nBuild and test.\n")},
		"content/pipelines/about-pipelines.md": {Data: []byte("---\ntitle: About pipelines\n---\n\nRuns builds.\n")},
		"content/sites/about-pipelines.md":     {Data: []byte("---\ntitle: Sites and pipelines\n---\n\nPublishes.\n")},
		"content/repositories/archive.md": {Data: []byte(`---
title: Archiving a repository
---

See [AUTOTITLE](/pipelines/about-pipelines), [AUTOTITLE](/en/pipelines#start "start"),
[AUTOTITLE](../sites/about-pipelines) and [AUTOTITLE](/billing/managing-your-spending-limit).
`)},
	}
	res, err := Load(context.Background(), fsys, "kb")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Docs {
		if d.Slug != "content/repositories/archive" {
			continue
		}
		want := "See About pipelines, Pipelines, Sites and pipelines and managing your spending limit."
		if got := d.Chunks[0].Text; got != want {
			t.Errorf("text %q\nwant %q", got, want)
		}
		if !strings.Contains(d.Content, "[About pipelines](/pipelines/about-pipelines)") {
			t.Errorf("content %q keeps AUTOTITLE", d.Content)
		}
		return
	}
	t.Fatal("no archive doc")
}

func TestLinkedTitle(t *testing.T) {
	byPath := map[string]string{"a/b": "B", "b": "B", "x/c": "C1", "y/c": "C2", "c": ""}
	for _, tc := range []struct{ from, target, want string }{
		{"docs", "/a/b", "B"},
		{"docs", "/b#part", "B"},
		{"docs", "/lang/a/b/", "B"}, // a language folder the knowledge base lacks
		{"docs", "/c", "c"},         // two docs end so: the words of the link
		{"x", "c", "C1"},            // relative to the linking doc
		{"docs", "", "this page"},
		{"docs", "/", "this page"},
		{"docs", "/how_to-reset", "how to reset"},
	} {
		if got := linkedTitle(byPath, tc.from, tc.target); got != tc.want {
			t.Errorf("linkedTitle(%q, %q) = %q, want %q", tc.from, tc.target, got, tc.want)
		}
	}
}

func FuzzFillAutotitles(f *testing.F) {
	f.Add("See [AUTOTITLE](/a/b) and [AUTOTITLE](<../c d> \"t\").", "A [b] \\")
	f.Fuzz(func(t *testing.T, content, title string) {
		docs := []knowledge.Doc{
			{Slug: "x/a/b", Title: title, Content: "# T\n\nText."},
			{Slug: "x/page", Title: "Page", Content: content},
		}
		Chunk(&docs[0])
		Chunk(&docs[1])
		fillAutotitles(docs)
		if autotitleLink.MatchString(docs[1].Content) && !autotitleLink.MatchString(content) {
			t.Fatalf("an AUTOTITLE link made: %q", docs[1].Content)
		}
		for _, c := range docs[1].Chunks {
			if strings.ContainsFunc(c.Text, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) {
				t.Fatalf("a control character in %q", c.Text)
			}
		}
	})
}
