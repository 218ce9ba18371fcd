package ingest

import (
	"strings"
	"testing"
	"unicode/utf8"

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
