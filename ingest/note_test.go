package ingest

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
	"github.com/docent-sh/docent/tokens"
)

// checkNoteChunks holds a chunked note to what every doc's chunks keep,
// with the note sizes: fields from the note, md5 hashes, header paths
// starting with the title, parts within the max unless one block, the
// body covered line for line, text that is safe for a terminal.
func checkNoteChunks(t *testing.T, n knowledge.Note, title string) {
	t.Helper()
	md, err := NoteMarkdown(n)
	if err != nil {
		t.Fatal(err)
	}
	var joined []string
	for i, c := range n.Chunks {
		if c.Index != i || c.DocSlug != knowledge.NoteSlug(n.ID) || c.Category != "notes" || c.Title != title {
			t.Errorf("chunk %d: index %d, doc fields %q/%q/%q", i, c.Index, c.DocSlug, c.Category, c.Title)
		}
		if strings.Join(c.Keywords, ",") != strings.Join(NoteTags(n.Tags), ",") {
			t.Errorf("chunk %d: keywords %v, want %v", i, c.Keywords, NoteTags(n.Tags))
		}
		if sum := md5.Sum([]byte(c.Content)); c.Hash != hex.EncodeToString(sum[:]) {
			t.Errorf("chunk %d: hash is not md5 of content", i)
		}
		if c.HeaderPath != title && !strings.HasPrefix(c.HeaderPath, title+" > ") {
			t.Errorf("chunk %d: header path %q does not start with %q", i, c.HeaderPath, title)
		}
		if c.HeadingOnly != (c.BodyChars == 0) {
			t.Errorf("chunk %d: HeadingOnly %t with BodyChars %d", i, c.HeadingOnly, c.BodyChars)
		}
		if tok := tokens.Default().Count(c.Content); tok > NoteMaxChunkTokens && nonHeadingBlocks(c.Content) > 1 {
			t.Errorf("chunk %d: %d tokens, over %d, in several blocks", i, tok, NoteMaxChunkTokens)
		}
		if c.Text != textsafe.Line(c.Text) || c.Content != textsafe.String(c.Content) {
			t.Errorf("chunk %d: text or content is not terminal-safe: %q / %q", i, c.Text, c.Content)
		}
		joined = append(joined, c.Content)
	}
	if len(n.Chunks) == 0 && strings.TrimSpace(md) != "" {
		// No chunk is right only for a body that shows no text, which a
		// doc of the same markdown is refused for too (an unreferenced
		// footnote definition, a comment).
		if _, err := ParseDoc("note.md", []byte(md)); err == nil || !strings.Contains(err.Error(), "no text") {
			t.Errorf("no chunks from a body a doc reads text in (%v):\n%s", err, md)
		}
		return
	}
	if got, want := nonBlankLines(strings.Join(joined, "\n")), nonBlankLines(md); got != want {
		t.Errorf("chunks do not cover the body\n--- chunks ---\n%s\n--- body ---\n%s", got, want)
	}
}

func TestChunkNoteMarkdown(t *testing.T) {
	n := knowledge.Note{
		ID:     "0b6f3c1e-6d4f-4f0a-9a55-2d8d1c3e7f10",
		Title:  "Sync stuck at 99%",
		Format: knowledge.FormatMarkdown,
		Tags:   []string{"Sync", " Desktop  App ", "sync", ""},
		Body:   "Happens after an upgrade.\n\nSYMPTOM\nThe bar stops at 99%.\n\n## Workaround\n\n1. Quit the app.\n2. Delete `~/.cache/sync`.\n\n### On Windows\n\nUse `%APPDATA%`.",
	}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	checkNoteChunks(t, n, n.Title)
	var paths []string
	for _, c := range n.Chunks {
		paths = append(paths, c.HeaderPath)
	}
	want := []string{"Sync stuck at 99%", "Sync stuck at 99% > SYMPTOM", "Sync stuck at 99% > Workaround"}
	if strings.Join(paths, "|") != strings.Join(want, "|") {
		t.Errorf("header paths %q, want %q", paths, want)
	}
	if got := strings.Join(n.Chunks[0].Keywords, ","); got != "sync,desktop app" {
		t.Errorf("keywords %q", got)
	}
	if !strings.Contains(n.Chunks[2].Text, "Delete ~/.cache/sync.") {
		t.Errorf("text %q", n.Chunks[2].Text)
	}
	if n.ContentHash != NoteContentHash(n.Title, n.Format, n.Body) || len(n.ContentHash) != 64 {
		t.Errorf("content hash %q", n.ContentHash)
	}
}

func TestChunkNoteTipTap(t *testing.T) {
	body := ttDoc(
		ttPara(ttText("Intro with "), ttText("bold", bold), ttText(".")),
		`{"type":"heading","attrs":{"level":2},"content":[`+ttText("Fix")+`]}`,
		`{"type":"bulletList","content":[`+ttItem(ttPara(ttText("Restart")))+`]}`,
		ttPara(ttText("LOUD WORDS IN A PARAGRAPH")),
	)
	n := knowledge.Note{Title: "Tip", Format: knowledge.FormatTipTap, Body: body}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	checkNoteChunks(t, n, "Tip")
	if len(n.Chunks) != 2 || n.Chunks[1].HeaderPath != "Tip > Fix" {
		t.Fatalf("chunks %+v", n.Chunks)
	}
	if got := n.Chunks[1].Text; got != "Fix. Restart. LOUD WORDS IN A PARAGRAPH." {
		t.Errorf("text %q", got)
	}
	if n.Chunks[0].DocSlug != "notes/" {
		t.Errorf("slug %q for a note without an ID", n.Chunks[0].DocSlug)
	}
	SetNoteID(&n, "abc")
	if n.ID != "abc" || n.Chunks[0].DocSlug != "notes/abc" || n.Chunks[1].ID() != "notes/abc#chunk-1" {
		t.Errorf("after SetNoteID: %q, %q", n.ID, n.Chunks[1].ID())
	}
}

// TestChunkNoteTerminalSafe: escape sequences in a note never reach a
// chunk, whole (not just their ESC byte).
func TestChunkNoteTerminalSafe(t *testing.T) {
	for _, format := range []knowledge.BodyFormat{knowledge.FormatMarkdown, knowledge.FormatTipTap} {
		body := "Red \x1b[31mALERT\x1b[0m here \x1b]0;title\x07 and \u202eevil\xff."
		if format == knowledge.FormatTipTap {
			body = ttDoc(ttPara(`{"type":"text","text":"Red \u001b[31mALERT\u001b[0m here \u001b]0;title\u0007 and \u202eevil."}`))
		}
		n := knowledge.Note{Title: "T\x1b[2Jitle", Format: format, Body: body}
		if err := ChunkNote(&n); err != nil {
			t.Fatal(err)
		}
		checkNoteChunks(t, n, "Title")
		for _, c := range n.Chunks {
			for _, bad := range []string{"\x1b", "[31m", "0;title", "\u202e", "\xff"} {
				if strings.Contains(c.Content, bad) || strings.Contains(c.Text, bad) || strings.Contains(c.HeaderPath, bad) {
					t.Errorf("%s: %q in chunk %q / %q", format, bad, c.Content, c.Text)
				}
			}
		}
	}
}

func TestChunkNoteSizes(t *testing.T) {
	// One section of about 450 tokens stays whole (a doc's would be cut at
	// 450); a long one is cut into parts near the target.
	para := "The sync engine keeps the version history of each note so that nothing is lost when two people edit at once."
	paras := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%d: %s\n\n", i, para)
		}
		return b.String()
	}
	counter := tokens.Default()
	whole := paras(19)
	if tok := counter.Count(whole); tok <= MaxChunkTokens || tok > NoteMaxChunkTokens {
		t.Fatalf("setup: %d tokens, want between %d and %d", tok, MaxChunkTokens, NoteMaxChunkTokens)
	}
	n := knowledge.Note{Title: "Whole", Format: knowledge.FormatMarkdown, Body: whole}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	if len(n.Chunks) != 1 {
		t.Errorf("%d tokens: %d chunks, want 1", counter.Count(whole), len(n.Chunks))
	}

	n = knowledge.Note{Title: "Long", Format: knowledge.FormatMarkdown, Body: paras(100)}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	checkNoteChunks(t, n, "Long")
	if len(n.Chunks) < 5 {
		t.Fatalf("%d chunks", len(n.Chunks))
	}
	for i, c := range n.Chunks[:len(n.Chunks)-1] {
		if tok := counter.Count(c.Content); tok < NoteChunkTargetTokens-40 || tok > NoteMaxChunkTokens {
			t.Errorf("chunk %d: %d tokens, want about %d", i, tok, NoteChunkTargetTokens)
		}
	}
}

func TestChunkNoteErrors(t *testing.T) {
	tests := []struct {
		name string
		n    knowledge.Note
		want string
	}{
		{"bad format", knowledge.Note{ID: "x1", Format: "html", Body: "a"}, `note x1: body format "html"`},
		{"bad tiptap names the note and the node", knowledge.Note{Title: "T", Format: knowledge.FormatTipTap, Body: ttDoc(ttPara(`{"type":"text"}`))},
			`note "T": tiptap: content[0].content[0]: text node without text`},
		{"too big", knowledge.Note{ID: "x2", Format: knowledge.FormatMarkdown, Body: strings.Repeat("a", MaxNoteSize+1)}, "over the limit"},
		{"too deep", knowledge.Note{ID: "x3", Format: knowledge.FormatMarkdown, Body: "ok\n" + strings.Repeat("> ", 100) + "x"}, "note x3: line 2: markdown nested"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.n
			err := ChunkNote(&n)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if n.Chunks != nil || n.ContentHash != "" {
				t.Errorf("a failed ChunkNote changed the note")
			}
		})
	}
}

func TestChunkNoteUntitledAndEmpty(t *testing.T) {
	n := knowledge.Note{Format: knowledge.FormatMarkdown, Body: "# From the body\n\nText."}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	checkNoteChunks(t, n, "From the body")
	n = knowledge.Note{Format: knowledge.FormatMarkdown, Body: "Just text."}
	if err := ChunkNote(&n); err != nil {
		t.Fatal(err)
	}
	checkNoteChunks(t, n, "Untitled note")
	n = knowledge.Note{Title: "Empty", Format: knowledge.FormatMarkdown, Body: " \n\n "}
	if err := ChunkNote(&n); err != nil || len(n.Chunks) != 0 {
		t.Errorf("empty body: %d chunks, %v", len(n.Chunks), err)
	}
}

func TestNoteContentHash(t *testing.T) {
	base := NoteContentHash("a", knowledge.FormatMarkdown, "b")
	for _, h := range []string{
		NoteContentHash("a ", knowledge.FormatMarkdown, "b"),
		NoteContentHash("a", knowledge.FormatTipTap, "b"),
		NoteContentHash("a", knowledge.FormatMarkdown, "b "),
		NoteContentHash("", knowledge.FormatMarkdown, "ab"), // the fields cannot shift into each other
	} {
		if h == base {
			t.Errorf("different notes hash the same")
		}
	}
	if base != NoteContentHash("a", knowledge.FormatMarkdown, "b") {
		t.Error("not deterministic")
	}
}

func TestNoteChunksLeavesNoteAlone(t *testing.T) {
	n := knowledge.Note{ID: "i", Title: "T", Format: knowledge.FormatMarkdown, Body: "Text."}
	chunks, err := NoteChunks(n)
	if err != nil || len(chunks) != 1 || n.Chunks != nil || n.ContentHash != "" {
		t.Fatalf("NoteChunks: %d chunks, %v, note %+v", len(chunks), err, n)
	}
	if err := ChunkNote(&n); err != nil || fmt.Sprint(n.Chunks) != fmt.Sprint(chunks) {
		t.Errorf("ChunkNote and NoteChunks differ")
	}
}
