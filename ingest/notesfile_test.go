package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/knowledge"
)

func TestReadNotesDir(t *testing.T) {
	fsys := fstest.MapFS{
		"front.md":           {Data: []byte("---\ntitle: From front matter\ntags: [Sync, \"Desktop App\"]\n---\n# Heading\n\nBody.\n")},
		"heading.md":         {Data: []byte("\n# First \x1b[1mheading\x1b[0m\n\nBody text.\n")},
		"team/Plain_note.md": {Data: []byte("Just text, no heading.\r\nSecond line.\r\n")},
		"tags-string.md":     {Data: []byte("---\ntags: a, B\n---\nBody.")},
		"bad-front.md":       {Data: []byte("---\ntitle: [unclosed\n---\nBody.")},
		"empty.md":           {Data: []byte("---\ntitle: Only front matter\n---\n\n")},
		"binary.md":          {Data: []byte("text\n\x00more")},
		"latin1.md":          {Data: []byte("caf\xe9")},
		"deep.md":            {Data: []byte("ok\n" + strings.Repeat("> ", 80) + "x")},
		"big.md":             {Data: make([]byte, MaxNoteSize+1)},
		".hidden/x.md":       {Data: []byte("# Hidden\n\nx")},
		"notes.txt":          {Data: []byte("not markdown")},
	}
	notes, warnings, err := ReadNotesDir(context.Background(), fsys, "notes")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range notes {
		if n.Format != knowledge.FormatMarkdown {
			t.Errorf("%q: format %q", n.Title, n.Format)
		}
		if err := ChunkNote(&n); err != nil || len(n.Chunks) == 0 {
			t.Errorf("%q: ChunkNote: %v, %d chunks", n.Title, err, len(n.Chunks))
		}
		got = append(got, fmt.Sprintf("%s|%s|%q", n.Title, strings.Join(n.Tags, ","), n.Body))
	}
	want := []string{
		`From front matter|sync,desktop app|"# Heading\n\nBody."`,
		`First heading||"# First heading\n\nBody text."`,
		`tags string|a,b|"Body."`,
		`Plain note||"Just text, no heading.\nSecond line."`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var ws []string
	for _, w := range warnings {
		ws = append(ws, w.String())
	}
	wantWarnings := []string{
		"bad-front.md:2: broken front matter",
		"big.md: file too large for a note",
		"binary.md:2: binary file",
		"deep.md: line 2: markdown nested 80 levels deep",
		"empty.md: no body",
		"latin1.md:1: invalid UTF-8",
	}
	if len(ws) != len(wantWarnings) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(wantWarnings, "\n"))
	}
	for i, w := range wantWarnings {
		if !strings.HasPrefix(ws[i], w) {
			t.Errorf("warning %q, want it to start %q", ws[i], w)
		}
	}
}

func TestReadNotesDirErrors(t *testing.T) {
	_, _, err := ReadNotesDir(context.Background(), fstest.MapFS{"a.txt": {Data: []byte("x")}}, "notes")
	if !errors.Is(err, ErrNoNotes) || !strings.Contains(err.Error(), "notes folder notes") {
		t.Errorf("no markdown: %v", err)
	}
	_, _, err = ReadNotesDir(context.Background(), os.DirFS(filepath.Join(t.TempDir(), "missing")), "missing")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = ReadNotesDir(ctx, fstest.MapFS{"a.md": {Data: []byte("x")}}, "notes")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestReadNotesJSONL(t *testing.T) {
	tiptap := ttDoc(`{"type":"heading","attrs":{"level":1},"content":[`+ttText("Tip title")+`]}`, ttPara(ttText("Body.")))
	lines := []string{
		`{"title":"Markdown note","body":"# H\n\nText.","tags":["Sync","sync"," Mobile "],"visibility":"private","owner":"ana"}`,
		``,
		`{"title":"TipTap object","body":` + tiptap + `,"visibility":"Workspace","id":"ignored"}`,
		`{"title":"TipTap in a string","body":` + jsonString(tiptap) + `,"format":"tiptap","tags":"a, b"}`,
		`{"body":` + tiptap + `}`,
		`{"title":"\u001b[31mRed\u001b[0m title","body":"x"}`,
		// Bad lines, each a warning.
		`{"title":"no body"}`,
		`{"title":"t","body":"x"`,
		`[1,2]`,
		`{"title":"t","body":42}`,
		`{"title":"t","body":"x","format":"html"}`,
		`{"title":"t","body":{"type":"doc"},"format":"markdown"}`,
		`{"title":"t","body":{"type":"doc","content":[{"type":"text"}]}}`,
		`{"title":"t","body":"x","tags":[1]}`,
		`{"title":"t","body":"x","tags":{}}`,
		`{"title":"t","body":"x","visibility":"public"}`,
		`{"title":5,"body":"x"}`,
		`{"body":"no heading"}`,
		`{"title":"t","body":"x","owner":"a\u0007b"}`,
		`{"title":"t","body":"   "}`,
		// A raw byte that is no UTF-8 inside a TipTap string.
		`{"title":"t","body":` + ttDoc(ttPara(`{"type":"text","text":"`+"\xad"+`"}`)) + `}`,
	}
	src := "\uFEFF" + strings.Join(lines, "\n") + "\r\n"
	notes, warnings, err := ReadNotesJSONL(context.Background(), strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range notes {
		if err := ChunkNote(&n); err != nil || len(n.Chunks) == 0 {
			t.Errorf("%q: ChunkNote: %v, %d chunks", n.Title, err, len(n.Chunks))
		}
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s", n.Title, n.Format, strings.Join(n.Tags, ","), n.Visibility, n.Owner))
	}
	want := []string{
		"Markdown note|markdown|sync,mobile|private|ana",
		"TipTap object|tiptap||workspace|",
		"TipTap in a string|tiptap|a,b||",
		"Tip title|tiptap|||",
		"Red title|markdown|||",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if notes[1].Body != tiptap {
		t.Errorf("TipTap object body %q", notes[1].Body)
	}
	wantWarnings := []string{
		":7: no body",
		":8: not a JSON object: unexpected end of JSON input",
		":9: not a JSON object: it is a JSON array",
		":10: body is a JSON number, want a markdown string or a TipTap object",
		`:11: format "html" is neither "markdown" nor "tiptap"`,
		`:12: body is a JSON object (TipTap) but format is "markdown"`,
		":13: tiptap: content[0]: text node without text",
		":14: tags must be a list of strings, and one is a JSON number",
		":15: tags must be a list of strings, got a JSON object",
		`:16: visibility "public" is neither "workspace" nor "private"`,
		":17: title is a JSON number, want a string",
		":18: no title, and no # heading in the body to take one from",
		`:19: owner "a\ab" holds control characters`,
		":20: no body",
		":21: body: the TipTap JSON is not valid UTF-8",
	}
	var ws []string
	for _, w := range warnings {
		ws = append(ws, w.String())
	}
	if len(ws) != len(wantWarnings) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(wantWarnings, "\n"))
	}
	for i, w := range wantWarnings {
		if !strings.HasPrefix(ws[i], w) {
			t.Errorf("warning %q, want it to start %q", ws[i], w)
		}
	}
}

func TestReadNotesJSONLErrors(t *testing.T) {
	long := `{"title":"ok","body":"x"}` + "\n" + `{"title":"t","body":"` + strings.Repeat("a", MaxNotesLine) + `"}` + "\n"
	notes, _, err := ReadNotesJSONL(context.Background(), strings.NewReader(long))
	if err == nil || !strings.Contains(err.Error(), "notes: line 2: longer than") || notes != nil {
		t.Errorf("long line: %d notes, %v", len(notes), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ReadNotesJSONL(ctx, strings.NewReader(`{"title":"t","body":"x"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, _, err := ReadNotesJSONL(context.Background(), iotestErrReader{}); err == nil || !strings.Contains(err.Error(), "line 1: disk on fire") {
		t.Errorf("read error: %v", err)
	}
}

type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }
