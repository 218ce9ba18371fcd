package ingest

import "testing"

func TestStripMDX(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"tag with text child", `<Callout type="info">Save often.</Callout>`, "Save often."},
		{"self-closing and fragment", "<Icon name=\"x\" />Before <>frag</> after<br/>", "Before frag after"},
		{"expression attributes", `<Tabs items={["a>b", "c"]} on={() => { go("}") }}>Tab text</Tabs>`, "Tab text"},
		{"multi-line tag", "Intro.\n\n<Image\n  src=\"a.png\"\n  alt=\"A > B\"\n/>\n\nAfter.", "Intro.\n\nAfter."},
		{"block tags leave one blank line", "Para one.\n\n<Steps>\n\n<Step>\n\nDo it.\n\n</Step>\n\n</Steps>\n\nPara two.", "Para one.\n\nDo it.\n\nPara two."},
		{"imports and exports", "import A from './a'\nimport { B,\n  C } from \"./bc\"\nexport const meta = {\n  title: 'x',\n}\nexport default Layout\n\n# Title", "\n# Title"},
		{"comments", "Keep {/* drop\nme */} this.", "Keep  this."},
		{"code fence untouched", "```jsx\nimport X from 'x'\n<Callout>\n\n\n</Callout>\n```\n<B>bold</B>", "```jsx\nimport X from 'x'\n<Callout>\n\n\n</Callout>\n```\nbold"},
		{"tilde fence untouched", "~~~~\n<A>\n~~~\n</A>\n~~~~\n<A>x</A>", "~~~~\n<A>\n~~~\n</A>\n~~~~\nx"},
		{"inline code untouched", "Use `<Callout>` or ``<A>`b`</A>`` here.", "Use `<Callout>` or ``<A>`b`</A>`` here."},
		{"not tags", "3 < 5, a <b and <https://x.io> or <mailto:a@b.c>, \\<Escaped>", "3 < 5, a <b and <https://x.io> or <mailto:a@b.c>, \\<Escaped>"},
		{"prose word import mid-line", "You can import notes.", "You can import notes."},
		// Components show their title or label; HTML's title is a tooltip.
		{"component titles", "<Accordion title=\"How do I reset?\">\nUse the link.\n</Accordion>", "How do I reset?\n\nUse the link.\n"},
		{"tab labels", "<TabItem value=\"mac\" label=\"macOS\">Run brew.</TabItem> <Card title={'Start'}>Go.</Card>", "macOS. Run brew. Start. Go."},
		// Mintlify's API fields show their name, type, default and
		// whether they are required, all in attributes.
		{"api fields", "<ParamField body=\"validity_period\" type=\"integer\" default=\"14400\">\n  Seconds to retry.\n</ParamField>", "validity_period (integer, default 14400)\n\nSeconds to retry.\n"},
		{"response fields", "<ResponseField name=\"id\" type=\"string\" required /> <ParamField path='id' required={true}>The id.</ParamField> <ResponseField name={\"ok\"}>Yes.</ResponseField>", "id (string, required).  id (required). The id. ok. Yes."},
		{"a field without a name shows nothing", "<ParamField type=\"string\" requiredness=\"x\">Text.</ParamField> <Param body=\"x\">y</Param>", "Text. y"},
		{"html title is a tooltip", "<abbr title=\"Stock keeping unit\">SKU</abbr>", "SKU"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stripMDX(tt.in); got != tt.want {
				t.Errorf("stripMDX(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMDXDocKeepsTextAndSkipsTags(t *testing.T) {
	src := "---\ntitle: Saving\n---\nimport { Callout } from '@site/ui'\n\n## Saving\n\n<Callout type=\"info\">Save often.</Callout>\n"
	d := mustParse(t, "guides/saving.mdx", src)
	if want := "## Saving\n\nSave often."; d.Content != want {
		t.Errorf("content %q, want %q", d.Content, want)
	}
	if d.Slug != "guides/saving" {
		t.Errorf("slug %q", d.Slug)
	}
}

func TestStripMDXDedentsJSXChildren(t *testing.T) {
	in := "<Tabs>\n  <Tab value=\"mac\">\n    Press **Cmd+S**.\n\n    - one\n      continued\n  </Tab>\n</Tabs>\n\n    indented code outside JSX stays"
	want := "\nPress **Cmd+S**.\n\n- one\n  continued\n\n    indented code outside JSX stays"
	if got := stripMDX(in); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	md := parseMarkdown(stripMDX(in))
	if k := md.root.FirstChild().Kind().String(); k != "Paragraph" {
		t.Errorf("the tab's text parsed as %s, want a paragraph", k)
	}
}
