package ingest

import (
	"crypto/md5"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/tokens"
	"github.com/yuin/goldmark/ast"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestChunkGolden parses each testdata/chunk input and compares the doc
// and its chunks with the .golden file next to it.
func TestChunkGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/chunk/*.md*")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no inputs in testdata/chunk")
	}
	for _, in := range inputs {
		if strings.HasSuffix(in, ".golden") {
			continue
		}
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := ParseDoc("guides/"+filepath.Base(in), src)
			if err != nil {
				t.Fatalf("ParseDoc: %v", err)
			}
			checkChunkInvariants(t, doc)
			got := renderDoc(doc)
			golden := in + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./ingest -run TestChunkGolden -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file; diff with -update and git diff.\n--- got ---\n%s", golden, got)
			}
		})
	}
}

// renderDoc is the golden format: everything a store or the retrieval
// engine sees of a doc, one field a line, then each chunk.
func renderDoc(doc knowledge.Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "slug: %s\ncategory: %s\ntitle: %s\ndescription: %s\nsource: %s\nkeywords: %s\ncontent_hash: %s\n",
		doc.Slug, doc.Category, doc.Title, doc.Description, doc.SourcePath, strings.Join(doc.Keywords, " | "), doc.ContentHash)
	for _, c := range doc.Chunks {
		fmt.Fprintf(&b, "\n=== %s\nheader_path: %s\nheading_only: %t\nbody_chars: %d\ntokens: %d\nhash: %s\ntext: %s\n---\n%s\n",
			c.ID(), c.HeaderPath, c.HeadingOnly, c.BodyChars, tokens.Default().Count(c.Content), c.Hash, c.Text, c.Content)
	}
	return b.String()
}

// checkChunkInvariants asserts what must hold for any doc: chunks cover
// the body in order, ids and hashes are consistent, and a chunk over the
// token limit is a single block that could not be split.
func checkChunkInvariants(t *testing.T, doc knowledge.Doc) {
	t.Helper()
	if len(doc.Chunks) == 0 {
		t.Fatalf("%s: no chunks", doc.Slug)
	}
	var joined []string
	for i, c := range doc.Chunks {
		if c.Index != i {
			t.Errorf("%s: chunk %d has Index %d", doc.Slug, i, c.Index)
		}
		if c.DocSlug != doc.Slug || c.Category != doc.Category || c.Title != doc.Title {
			t.Errorf("%s chunk %d: doc fields %q/%q/%q, want %q/%q/%q", doc.Slug, i, c.DocSlug, c.Category, c.Title, doc.Slug, doc.Category, doc.Title)
		}
		if strings.Join(c.Keywords, ",") != strings.Join(doc.Keywords, ",") {
			t.Errorf("%s chunk %d: keywords %v, want the doc's %v", doc.Slug, i, c.Keywords, doc.Keywords)
		}
		sum := md5.Sum([]byte(c.Content))
		if c.Hash != hex.EncodeToString(sum[:]) {
			t.Errorf("%s chunk %d: hash is not md5 of content", doc.Slug, i)
		}
		if strings.TrimSpace(c.Content) == "" {
			t.Errorf("%s chunk %d: empty content", doc.Slug, i)
		}
		if !strings.HasPrefix(c.HeaderPath, doc.Title) {
			t.Errorf("%s chunk %d: header path %q does not start with the title", doc.Slug, i, c.HeaderPath)
		}
		if c.HeadingOnly != (c.BodyChars == 0) {
			t.Errorf("%s chunk %d: HeadingOnly %t with BodyChars %d", doc.Slug, i, c.HeadingOnly, c.BodyChars)
		}
		// An unclosed fence runs to the end of the doc, so only the last
		// chunk may hold an odd number of fence lines.
		if n := fenceLines(c.Content); n%2 != 0 && i < len(doc.Chunks)-1 {
			t.Errorf("%s chunk %d: %d fence lines: a code block was split", doc.Slug, i, n)
		}
		if tok := tokens.Default().Count(c.Content); tok > MaxChunkTokens {
			if n := nonHeadingBlocks(c.Content); n > 1 {
				t.Errorf("%s chunk %d: %d tokens in %d blocks, want at most %d tokens unless one block", doc.Slug, i, tok, n, MaxChunkTokens)
			}
		}
		joined = append(joined, c.Content)
	}
	if got, want := nonBlankLines(strings.Join(joined, "\n")), nonBlankLines(doc.Content); got != want {
		t.Errorf("%s: chunks do not cover the body line for line\n--- chunks ---\n%s\n--- body ---\n%s", doc.Slug, got, want)
	}
}

// nonHeadingBlocks counts the top-level blocks of md other than headings
// and HTML blocks without text (a start tag, a comment), which move on
// with the block they introduce; a list counts once per item, as the
// chunker may split between items.
func nonHeadingBlocks(md string) int {
	p := parseMarkdown(md)
	n := 0
	for b := p.root.FirstChild(); b != nil; b = b.NextSibling() {
		switch b.Kind() {
		case ast.KindHeading:
		case ast.KindHTMLBlock:
			if text, _ := plainBlock(b, p.src); strings.TrimSpace(text) != "" {
				n++
			}
		case ast.KindList:
			n += b.ChildCount()
		default:
			n++
		}
	}
	return n
}

func nonBlankLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestChunkHeaderPaths(t *testing.T) {
	tests := []struct {
		name  string
		title string
		body  string
		want  []string // header path of each chunk
		only  []bool   // HeadingOnly of each chunk
	}{
		{
			name:  "title heading does not repeat and an empty section is heading-only",
			title: "Workspace",
			body:  "## Workspace\n\n## Overview\n\nText.",
			want:  []string{"Workspace", "Workspace > Overview"},
			only:  []bool{true, false},
		},
		{
			name:  "preamble is its own chunk under the title",
			title: "Guide",
			body:  "Intro.\n\n## Setup\n\nInstall.",
			want:  []string{"Guide", "Guide > Setup"},
			only:  []bool{false, false},
		},
		{
			name:  "deeper headings stay in their section",
			title: "Guide",
			body:  "## Setup\n\nA.\n\n### Linux\n\nB.\n\n#### Arch\n\nC.\n\n## Use\n\nD.",
			want:  []string{"Guide > Setup", "Guide > Use"},
			only:  []bool{false, false},
		},
		{
			name:  "title match ignores case",
			title: "Quick Links",
			body:  "## quick links\n\nPins.",
			want:  []string{"Quick Links"},
			only:  []bool{false},
		},
		{
			name:  "h1 starts a section too",
			title: "Guide",
			body:  "# Guide\n\nWelcome.\n\n# Appendix\n\nMore.",
			want:  []string{"Guide", "Guide > Appendix"},
			only:  []bool{false, false},
		},
		{
			name:  "a section of a heading and a rule or comment is heading-only",
			title: "Guide",
			body:  "## Empty\n\n---\n\n<!-- todo -->\n\n## Full\n\nText.",
			want:  []string{"Guide > Empty", "Guide > Full"},
			only:  []bool{true, false},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := knowledge.Doc{Slug: "x/y", Category: "x", Title: tt.title, Content: tt.body}
			Chunk(&doc)
			var got []string
			var only []bool
			for _, c := range doc.Chunks {
				got = append(got, c.HeaderPath)
				only = append(only, c.HeadingOnly)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || fmt.Sprint(only) != fmt.Sprint(tt.only) {
				t.Errorf("header paths %q heading-only %v, want %q %v", got, only, tt.want, tt.only)
			}
			checkChunkInvariants(t, doc)
		})
	}
}

// paragraphs returns n distinct paragraphs of about 47 tokens each.
func paragraphs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Paragraph %d explains how the sync engine keeps the version history of each note "+
			"so that nothing is lost when two people edit the same note at once, and why conflicts are "+
			"reported in the Activity panel rather than resolved silently in the background.", i)
	}
	return out
}

func TestChunkSplitsLongSectionAtParagraphs(t *testing.T) {
	paras := paragraphs(20)
	body := "## Sync\n\n" + strings.Join(paras, "\n\n")
	doc := knowledge.Doc{Slug: "s", Title: "Sync Guide", Content: body}
	Chunk(&doc)
	if len(doc.Chunks) < 3 {
		t.Fatalf("got %d chunks for a ~1200-token section, want at least 3", len(doc.Chunks))
	}
	for i, c := range doc.Chunks {
		if tok := tokens.Default().Count(c.Content); tok > MaxChunkTokens {
			t.Errorf("chunk %d has %d tokens, limit %d", i, tok, MaxChunkTokens)
		}
		if c.HeaderPath != "Sync Guide > Sync" {
			t.Errorf("chunk %d header path %q, want the section's", i, c.HeaderPath)
		}
		if i > 0 && strings.Contains(c.Content, "## Sync") {
			t.Errorf("continuation chunk %d repeats the heading", i)
		}
		// Every paragraph is whole in exactly one chunk.
		for _, p := range paras {
			if strings.Contains(c.Content, p[:40]) && !strings.Contains(c.Content, p) {
				t.Errorf("chunk %d holds part of a paragraph", i)
			}
		}
	}
	checkChunkInvariants(t, doc)
}

func TestChunkNeverSplitsCodeTableOrListItem(t *testing.T) {
	var code, table, huge strings.Builder
	code.WriteString("```go\n")
	for i := range 120 {
		fmt.Fprintf(&code, "\tfmt.Println(\"line %d of a long example that must stay whole\")\n", i)
		if i == 60 {
			code.WriteString("\n") // a blank line inside the fence is not a block boundary
		}
	}
	code.WriteString("```")
	table.WriteString("| Option | Description |\n|---|---|\n")
	for i := range 80 {
		fmt.Fprintf(&table, "| opt_%d | Controls how option %d behaves when the workspace is shared |\n", i, i)
	}
	huge.WriteString("- A huge item:")
	for i := range 80 {
		fmt.Fprintf(&huge, " sentence %d of one list item that must not be split.", i)
	}
	huge.WriteString("\n\n  A second paragraph of the same item.")
	list := "- First item of a long list.\n" + huge.String() + "\n- Last item."

	paras := paragraphs(4)
	body := strings.Join([]string{"## Reference", paras[0], code.String(), paras[1], strings.TrimSpace(table.String()), paras[2], list, paras[3]}, "\n\n")
	doc := knowledge.Doc{Slug: "r", Title: "Reference", Content: body}
	Chunk(&doc)
	checkChunkInvariants(t, doc)

	for name, whole := range map[string]string{
		"code block": code.String(),
		"table":      strings.TrimSpace(table.String()),
		"list item":  huge.String(),
	} {
		holders := 0
		for _, c := range doc.Chunks {
			if strings.Contains(c.Content, whole) {
				holders++
			}
		}
		if holders != 1 {
			t.Errorf("%s: found whole in %d chunks, want exactly 1", name, holders)
		}
	}
	// The oversized list was split between items: its small first item is
	// not in the chunk of the huge one.
	for i, c := range doc.Chunks {
		if strings.Contains(c.Content, "A huge item:") && strings.Contains(c.Content, "First item of a long list") {
			t.Errorf("chunk %d: an oversized list was not split between items", i)
		}
	}
}

func TestChunkContinuationKeepsSubsectionPath(t *testing.T) {
	// Nine paragraphs and the "### Linux" heading fit in one part; the
	// paragraph after the heading does not.
	paras := paragraphs(24)
	body := "## Setup\n\n" + strings.Join(paras[:9], "\n\n") +
		"\n\n### Linux\n\n" + strings.Join(paras[9:], "\n\n")
	doc := knowledge.Doc{Slug: "g", Title: "Guide", Content: body}
	Chunk(&doc)
	checkChunkInvariants(t, doc)
	if len(doc.Chunks) < 3 {
		t.Fatalf("got %d chunks, want the section split at least twice", len(doc.Chunks))
	}
	want := []string{"Guide > Setup", "Guide > Setup > Linux"}
	for i, c := range doc.Chunks {
		if w := want[min(i, 1)]; c.HeaderPath != w {
			t.Errorf("chunk %d has path %q, want %q", i, c.HeaderPath, w)
		}
		if strings.HasSuffix(c.Content, "### Linux") {
			t.Errorf("chunk %d ends with a heading whose text went to the next chunk", i)
		}
	}
	if !strings.HasPrefix(doc.Chunks[1].Content, "### Linux\n\n"+paras[9]) {
		t.Errorf("chunk 1 should start with the subsection heading and its text:\n%s", doc.Chunks[1].Content)
	}
}

func TestChunkIsDeterministic(t *testing.T) {
	src, err := os.ReadFile("testdata/chunk/long.md")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseDoc("guides/long.md", src)
	if err != nil {
		t.Fatal(err)
	}
	b := a
	b.Chunks = nil
	Chunk(&b)
	if renderDoc(a) != renderDoc(b) {
		t.Error("chunking the same content twice gave different chunks")
	}
}

// A table right under a paragraph (no blank line) is still its own block,
// which takes goldmark's GFM table extension: without it the two would be
// one oversized paragraph.
func TestChunkSplitsParagraphFromAdjacentTable(t *testing.T) {
	intro := strings.Join(paragraphs(7), " ")
	var table strings.Builder
	table.WriteString("| Option | Description |\n|---|---|")
	for i := range 25 {
		fmt.Fprintf(&table, "\n| opt_%d | Controls how option %d behaves |", i, i)
	}
	doc := knowledge.Doc{Slug: "t", Title: "Options", Content: "## Options\n\n" + intro + "\n" + table.String()}
	Chunk(&doc)
	checkChunkInvariants(t, doc)
	if len(doc.Chunks) != 2 || !strings.HasPrefix(doc.Chunks[1].Content, "| Option |") {
		t.Fatalf("want the paragraph and the table in two chunks, got %d:\n%s", len(doc.Chunks), renderDoc(doc))
	}
	for i, c := range doc.Chunks {
		if n := tokens.Default().Count(c.Content); n > MaxChunkTokens {
			t.Errorf("chunk %d: %d tokens", i, n)
		}
	}
}

// fenceLines counts the lines of content that open or close a backtick
// fence as CommonMark reads them: at the margin, three or more backticks;
// an opening fence has no backtick after them ("```0`" is a paragraph
// holding code, not a fence), and a closing one is at least as long as
// its opener with nothing after it (inside a fence, "```0" is code).
func fenceLines(content string) int {
	n, open := 0, 0 // open: the backticks of the open fence, 0 for none
	for _, line := range strings.Split(content, "\n") {
		// A fence may be indented up to three spaces (CommonMark).
		if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 {
			line = t
		}
		run := len(line) - len(strings.TrimLeft(line, "`"))
		if run < 3 {
			continue
		}
		switch rest := line[run:]; {
		case open == 0 && !strings.Contains(rest, "`"):
			open = run
			n++
		case open > 0 && run >= open && strings.TrimSpace(rest) == "":
			open = 0
			n++
		}
	}
	return n
}

// A heading's permalink, as crawled docs sites write it (Docusaurus'
// zero-width "[​](#id)", Sphinx's and MkDocs' "¶", GitHub's "#"), is no
// text of the heading; a link to the same page with words in it is.
func TestHeadingPermalinks(t *testing.T) {
	src := "# Guide\n\n## Install[\u200b](#install \"Direct link to Install\")\n\nA.\n\n## Set up [¶](#set-up)\n\nB.\n\n## Limits [#](#limits)\n\nC.\n\n## Keys [see below](#keys)\n\nD."
	doc, err := ParseDoc("guide.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range doc.Chunks {
		paths = append(paths, c.HeaderPath)
	}
	want := []string{"Guide", "Guide > Install", "Guide > Set up", "Guide > Limits", "Guide > Keys see below"}
	if !slices.Equal(paths, want) {
		t.Errorf("header paths %q, want %q", paths, want)
	}
}
