package ingest

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// FuzzTipTapText feeds arbitrary bytes as a TipTap document: it never
// panics, gives valid UTF-8 (JSON strings with bad bytes are read with
// U+FFFD), gives the same result twice, and every error says it is
// TipTap's.
func FuzzTipTapText(f *testing.F) {
	for _, s := range []string{
		ttDoc(ttPara(ttText("Press "), ttText("Save", bold), ttText(" now", bold, italic), `{"type":"hardBreak"}`, ttText("x", link("u v")))),
		ttDoc(`{"type":"heading","attrs":{"level":2},"content":[`+ttText("# Title *x*")+`]}`, `{"type":"horizontalRule"}`),
		ttDoc(`{"type":"bulletList","content":[` + ttItem(ttPara(ttText("a")), `{"type":"orderedList","attrs":{"start":9},"content":[`+ttItem(ttPara(ttText("b")))+`]}`) + `]}`),
		ttDoc(`{"type":"taskList","content":[{"type":"taskItem","attrs":{"checked":true},"content":[` + ttPara(ttText("done")) + `]}]}`),
		ttDoc(`{"type":"codeBlock","attrs":{"language":"go"},"content":[` + ttText("```\nfunc main() {}") + `]}`),
		ttDoc(`{"type":"blockquote","content":[` + ttPara(ttText("1. q"), ttText("c`d", code)) + `]}`),
		ttDoc(`{"type":"table","content":[{"type":"tableRow","content":[{"type":"tableCell","content":[` + ttPara(ttText("cell")) + `]}]}]}`),
		`{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"\u001b[31mred\ud800"}]}]}`,
		ttDoc(ttPara(`{"type":"text"}`)),
		strings.Repeat(`{"type":"doc","content":[`, 120),
		"\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		md, err := TipTapText(src)
		md2, err2 := TipTapText(src)
		if md != md2 || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("not deterministic: %q, %v then %q, %v", md, err, md2, err2)
		}
		if err != nil {
			if md != "" || !strings.HasPrefix(err.Error(), "tiptap: ") {
				t.Errorf("error %q with output %q", err, md)
			}
			return
		}
		if !utf8.ValidString(md) {
			t.Errorf("invalid UTF-8 out: %q", md)
		}
		if textsafe.String(md) != md {
			t.Errorf("control sequences out: %q", md)
		}
	})
}

// FuzzReadNotesJSONL feeds arbitrary bytes as a notes file. Every
// non-blank line is exactly one note or one warning naming that line;
// every note has a format, a terminal-safe title, lower-cased tags and a
// body ChunkNote accepts; reading twice gives the same result.
func FuzzReadNotesJSONL(f *testing.F) {
	tiptap := ttDoc(ttPara(ttText("Body "), ttText("b", bold)))
	for _, s := range []string{
		`{"title":"Note","body":"# H\n\nSYMPTOM\nText.","tags":["A","b"],"visibility":"private","owner":"ana"}`,
		`{"title":"T","body":` + tiptap + `}` + "\n\n" + `{"title":"S","body":` + jsonString(tiptap) + `,"format":"tiptap","tags":"x, Y"}`,
		`{"body":"# From heading\nx"}` + "\r\n" + `{"title":"t"` + "\n[1]\n" + `{"title":"t","body":{"type":"doc","content":[{"type":"text"}]}}`,
		"\uFEFF" + `{"title":"\u001b[2Jx","body":"\xff","tags":[1]}`,
		`{"title":"t","body":"x","format":"html","visibility":"public","owner":"a\u0000"}`,
		"\n\n   \n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		notes, warnings, err := ReadNotesJSONL(context.Background(), bytes.NewReader(src))
		if err != nil {
			t.Fatalf("error on a short input: %v", err) // only an overlong line or a read error fails
		}
		lines := bytes.Split(src, []byte("\n"))
		nonBlank := 0
		for i, l := range lines {
			if i == 0 {
				l = bytes.TrimPrefix(l, []byte("\uFEFF"))
			}
			if len(bytes.TrimSpace(l)) > 0 {
				nonBlank++
			}
		}
		if len(notes)+len(warnings) != nonBlank {
			t.Errorf("%d notes and %d warnings from %d non-blank lines", len(notes), len(warnings), nonBlank)
		}
		for _, w := range warnings {
			if w.Line < 1 || w.Line > len(lines) || len(bytes.TrimSpace(lines[w.Line-1])) == 0 || w.Msg == "" {
				t.Errorf("warning on line %d of %d: %q", w.Line, len(lines), w.Msg)
			}
		}
		for _, n := range notes {
			if n.Format != knowledge.FormatMarkdown && n.Format != knowledge.FormatTipTap {
				t.Errorf("format %q", n.Format)
			}
			if n.Title == "" || n.Title != textsafe.Line(n.Title) {
				t.Errorf("title %q", n.Title)
			}
			if strings.Join(n.Tags, "\x00") != strings.Join(NoteTags(n.Tags), "\x00") {
				t.Errorf("tags %q are not normalized", n.Tags)
			}
			if err := ChunkNote(&n); err != nil {
				t.Errorf("a note read cannot be chunked: %v", err)
			}
			for _, c := range n.Chunks {
				if c.Text != textsafe.Line(c.Text) || c.Content != textsafe.String(c.Content) {
					t.Errorf("chunk not terminal-safe: %q", c.Content)
				}
			}
		}
		again, warnings2, _ := ReadNotesJSONL(context.Background(), bytes.NewReader(src))
		if fmt.Sprint(again) != fmt.Sprint(notes) || fmt.Sprint(warnings2) != fmt.Sprint(warnings) {
			t.Errorf("not deterministic")
		}
	})
}

// FuzzChunkNote runs arbitrary markdown bodies through the note path.
// noteMarkdown only ever puts "## " before whole lines; a markdown note
// within the limits always chunks, its chunks covering its body, each
// terminal-safe, the same twice.
func FuzzChunkNote(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{
		"SYMPTOM\nIt hangs.\n\nKNOWN WORKAROUND\n- RESTART NOW\n\n```\nSELECT ALL ROWS\n```\nAPI\nSETUP\n=====",
		"Red \x1b[31mALERT\x1b[0m\r\nTWO WORDS\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		pre := noteMarkdown(body)
		in, out := strings.Split(body, "\n"), strings.Split(pre, "\n")
		if len(in) != len(out) {
			t.Fatalf("noteMarkdown changed the line count: %q", pre)
		}
		for i := range in {
			if out[i] != in[i] && out[i] != "## "+in[i] {
				t.Errorf("line %d: %q became %q", i+1, in[i], out[i])
			}
		}
		n := knowledge.Note{ID: "fuzz", Title: "Fuzz", Format: knowledge.FormatMarkdown, Body: body}
		if err := ChunkNote(&n); err != nil {
			if !strings.Contains(err.Error(), "nested") {
				t.Fatalf("ChunkNote: %v", err)
			}
			return
		}
		checkNoteChunks(t, n, "Fuzz")
		m := knowledge.Note{ID: "fuzz", Title: "Fuzz", Format: knowledge.FormatMarkdown, Body: body}
		if err := ChunkNote(&m); err != nil || fmt.Sprint(m.Chunks) != fmt.Sprint(n.Chunks) {
			t.Errorf("not deterministic")
		}
	})
}
