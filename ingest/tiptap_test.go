package ingest

import (
	"strings"
	"testing"
)

// tt builds TipTap JSON tersely in tests: a doc of the given blocks.
func ttDoc(blocks ...string) string {
	return `{"type":"doc","content":[` + strings.Join(blocks, ",") + `]}`
}

func ttPara(inlines ...string) string {
	return `{"type":"paragraph","content":[` + strings.Join(inlines, ",") + `]}`
}

func ttText(s string, marks ...string) string {
	m := ""
	if len(marks) > 0 {
		m = `,"marks":[` + strings.Join(marks, ",") + `]`
	}
	return `{"type":"text","text":` + jsonString(s) + m + `}`
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func ttItem(blocks ...string) string {
	return `{"type":"listItem","content":[` + strings.Join(blocks, ",") + `]}`
}

const (
	bold   = `{"type":"bold"}`
	italic = `{"type":"italic"}`
	code   = `{"type":"code"}`
	strike = `{"type":"strike"}`
)

func link(href string) string { return `{"type":"link","attrs":{"href":` + jsonString(href) + `}}` }

func TestTipTapText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"paragraphs", ttDoc(ttPara(ttText("One.")), ttPara(), ttPara(ttText("Two."))), "One.\n\nTwo."},
		{"headings", ttDoc(`{"type":"heading","attrs":{"level":2},"content":[`+ttText("Reset a password")+`]}`, ttPara(ttText("Text."))),
			"## Reset a password\n\nText."},
		{"heading level out of range is clamped", ttDoc(`{"type":"heading","attrs":{"level":9},"content":[` + ttText("Deep") + `]}`), "###### Deep"},
		{"heading without level is a title", ttDoc(`{"type":"heading","content":[` + ttText("Top") + `]}`), "# Top"},
		{"marks", ttDoc(ttPara(ttText("Press "), ttText("Save", bold), ttText(" then "), ttText("wait", italic), ttText(", run "), ttText("sync --all", code), ttText(" or "), ttText("old", strike), ttText("."))),
			"Press **Save** then *wait*, run `sync --all` or ~~old~~."},
		{"nested marks open once", ttDoc(ttPara(ttText("a ", bold), ttText("b", bold, italic), ttText(" c", bold))), "**a *b* c**"},
		{"space moves outside marks", ttDoc(ttPara(ttText("x"), ttText(" bold ", bold), ttText("y"))), "x **bold** y"},
		{"link", ttDoc(ttPara(ttText("See "), ttText("the guide", link("https://ex.com/a")), ttText("."))), "See [the guide](https://ex.com/a)."},
		{"link with spaces and parens", ttDoc(ttPara(ttText("here", link("https://ex.com/a b(c)")))), "[here](<https://ex.com/a b(c)>)"},
		{"bold link", ttDoc(ttPara(ttText("here", bold, link("u")))), "[**here**](u)"},
		{"bang before link is text", ttDoc(ttPara(ttText("Wow!"), ttText("here", link("u")))), `Wow\![here](u)`},
		{"code with backticks", ttDoc(ttPara(ttText("a`b", code))), "``a`b``"},
		{"bullet list", ttDoc(`{"type":"bulletList","content":[` + ttItem(ttPara(ttText("one"))) + `,` + ttItem(ttPara(ttText("two"))) + `]}`), "- one\n- two"},
		{"ordered list with start", ttDoc(`{"type":"orderedList","attrs":{"start":3},"content":[` + ttItem(ttPara(ttText("three"))) + `,` + ttItem(ttPara(ttText("four"))) + `]}`), "3. three\n4. four"},
		{"nested list", ttDoc(`{"type":"bulletList","content":[` + ttItem(ttPara(ttText("a")), `{"type":"orderedList","content":[`+ttItem(ttPara(ttText("b")))+`]}`) + `]}`), "- a\n\n  1. b"},
		{"task list", ttDoc(`{"type":"taskList","content":[{"type":"taskItem","attrs":{"checked":true},"content":[` + ttPara(ttText("done")) + `]},{"type":"taskItem","attrs":{"checked":false},"content":[` + ttPara(ttText("todo")) + `]}]}`),
			"- [x] done\n- [ ] todo"},
		{"code block", ttDoc(`{"type":"codeBlock","attrs":{"language":"bash"},"content":[` + ttText("docent seed\n# not a heading") + `]}`), "```bash\ndocent seed\n# not a heading\n```"},
		{"code block holding a fence", ttDoc(`{"type":"codeBlock","content":[` + ttText("```\nx") + `]}`), "````\n```\nx\n````"},
		{"code block language is one word", ttDoc(`{"type":"codeBlock","attrs":{"language":"go run` + "`" + `"},"content":[` + ttText("x") + `]}`), "```go\nx\n```"},
		{"blockquote", ttDoc(`{"type":"blockquote","content":[` + ttPara(ttText("quoted")) + `,` + ttPara(ttText("more")) + `]}`), "> quoted\n>\n> more"},
		{"rule", ttDoc(ttPara(ttText("a")), `{"type":"horizontalRule"}`, ttPara(ttText("b"))), "a\n\n---\n\nb"},
		{"hard break", ttDoc(ttPara(ttText("line one"), `{"type":"hardBreak"}`, ttText("line two"), `{"type":"hardBreak"}`)), "line one\\\nline two"},
		{"newline in text is a break", ttDoc(ttPara(ttText("a\n- b"))), "a\\\n\\- b"},
		{"markup in text is escaped", ttDoc(ttPara(ttText("# 1. *not* [a](link) <b> snake_case _x_ &amp; a|b"))),
			`\# 1. \*not\* \[a\](link) \<b\> snake_case \_x\_ \&amp; a\|b`},
		{"list marker at the start is escaped", ttDoc(ttPara(ttText("1. first")), ttPara(ttText("- dash")), ttPara(ttText("2024) year"))), "1\\. first\n\n\\- dash\n\n2024\\) year"},
		{"unknown nodes keep their text", ttDoc(`{"type":"table","content":[{"type":"tableRow","content":[{"type":"tableCell","content":[`+ttPara(ttText("cell"))+`]}]}]}`, ttPara(ttText("hi "), `{"type":"mention","attrs":{"id":"7","label":"Ana"}}`)),
			"cell\n\nhi Ana"},
		{"unknown marks keep their text", ttDoc(ttPara(ttText("x", `{"type":"highlight"}`))), "x"},
		{"inline nodes directly in the doc", ttDoc(ttText("loose")), "loose"},
		{"empty doc", `{"type":"doc"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TipTapText([]byte(tt.in))
			if err != nil {
				t.Fatalf("TipTapText: %v", err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestTipTapTextReadsAsWritten checks the escaping against the markdown
// parser: text full of markup characters reads back as the same words.
func TestTipTapTextReadsAsWritten(t *testing.T) {
	for _, text := range []string{
		"# 1. *not* [a](link) <b> snake_case _x_ &amp; a|b ~~s~~ `c` \\ back",
		"1. first",
		"---",
		"> quote",
		"=====",
		"2024) year",
	} {
		md, err := TipTapText([]byte(ttDoc(ttPara(ttText(text)))))
		if err != nil {
			t.Fatal(err)
		}
		parsed := parseMarkdown(md)
		blocks := topLevelBlocks(parsed)
		if len(blocks) != 1 || blocks[0].level != 0 {
			t.Errorf("%q: markdown %q is %d blocks, want one paragraph", text, md, len(blocks))
			continue
		}
		got, _ := plainBlock(blocks[0].node, parsed.src)
		// The plain text ends every block as a sentence.
		if got = strings.TrimSpace(got); got != text && got != text+"." {
			t.Errorf("%q: markdown %q reads %q", text, md, got)
		}
	}
}

func TestTipTapTextErrors(t *testing.T) {
	deep := strings.Repeat(`{"type":"blockquote","content":[`, maxTipTapDepth+1) + strings.Repeat(`]}`, maxTipTapDepth+1)
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `{"type":`, "tiptap: not a JSON document"},
		{"not an object", `[1]`, "tiptap: top level is an array"},
		{"not a doc", `{"type":"paragraph"}`, `tiptap: top level is a "paragraph" node, want "doc"`},
		{"no type", `{"content":[]}`, "tiptap: top level: node without a type"},
		{"text without text", ttDoc(ttPara(), ttPara(), ttPara(), ttPara(`{"type":"text"}`)), "tiptap: content[3].content[0]: text node without text"},
		{"text not a string", ttDoc(ttPara(`{"type":"text","text":5}`)), "tiptap: content[0].content[0]: text is a number, want a string"},
		{"content not an array", ttDoc(`{"type":"paragraph","content":{}}`), "tiptap: content[0]: content is an object, want an array"},
		{"child not an object", ttDoc(`"x"`), "tiptap: content[0]: node is a string, want an object"},
		{"attrs not an object", ttDoc(`{"type":"heading","attrs":[]}`), "tiptap: content[0]: attrs is an array, want an object"},
		{"bad mark", ttDoc(ttPara(`{"type":"text","text":"a","marks":[{}]}`)), "tiptap: content[0].content[0]: marks[0] has no type"},
		{"too deep", `{"type":"doc","content":[` + deep + `]}`, "nodes nested more than 100 deep"},
		{"JSON too deep", strings.Repeat("[", 10000), "tiptap: JSON nested more than 204 levels deep at byte 204"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := TipTapText([]byte(tt.in))
			if err == nil {
				t.Fatalf("no error, got %q", got)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}
