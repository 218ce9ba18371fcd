package ingest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func noteStrings(notes []markupNote) []string {
	var s []string
	for _, n := range notes {
		s = append(s, fmt.Sprintf("%d: %s", n.line, n.msg))
	}
	return s
}

// TestReadMeBlockEdges checks the shapes a ReadMe export can take beyond
// the convention page: what comes out, and the notes, with their lines.
func TestReadMeBlockEdges(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string // in the output, in order
		absent   []string
		notes    []string // "line: prefix"
	}{
		{
			name:  "invalid JSON stays text",
			in:    "Intro.\n\n[block:callout]\n{\n  \"title\": \"Oops\",\n  \"body\": \"missing quote\n}\n[/block]\n\nAfter.",
			want:  []string{"Intro.", "[block:callout]\n{\n  \"title\": \"Oops\",", "}\n[/block]", "After."},
			notes: []string{"3: ReadMe [block:callout] is not valid JSON"},
		},
		{
			name:  "JSON that is not an object stays text",
			in:    "[block:callout]\n[\"a\"]\n[/block]",
			want:  []string{"[block:callout]\n[\"a\"]\n[/block]"},
			notes: []string{"1: ReadMe [block:callout] is not valid JSON"},
		},
		{
			name:  "unclosed block stays text",
			in:    "Intro.\n[block:callout]\n{\"title\": \"Never closed\"}\n\nMore text.",
			want:  []string{"Intro.\n[block:callout]\n{\"title\": \"Never closed\"}\n\nMore text."},
			notes: []string{"2: ReadMe [block:callout] has no [/block]"},
		},
		{
			// The first block never closes: the second opener ends it, and
			// the second block is read.
			name:   "a block opened before the last closed",
			in:     "[block:callout]\n{\"title\": \"Lost\"\n\n[block:callout]\n{\"title\": \"Kept\"}\n[/block]",
			want:   []string{"[block:callout]\n{\"title\": \"Lost\"", "Kept"},
			absent: []string{"[/block]"},
			notes:  []string{"1: ReadMe [block:callout] has no [/block]"},
		},
		{
			name: "a block in a fence is code",
			in:   "```md\n[block:callout]\n{\"title\": \"Example\"}\n[/block]\n```",
			want: []string{"```md\n[block:callout]\n{\"title\": \"Example\"}\n[/block]\n```"},
		},
		{
			name: "an indented block after a blank line is code",
			in:   "Text.\n\n    [block:callout]\n    {\"title\": \"Example\"}\n    [/block]",
			want: []string{"    [block:callout]\n    {\"title\": \"Example\"}\n    [/block]"},
		},
		{
			name:   "unknown type is left out",
			in:     "Before.\n\n[block:textbox]\n{\"text\": \"Hidden\"}\n[/block]\n\nAfter.",
			want:   []string{"Before.", "After."},
			absent: []string{"Hidden", "textbox", "[/block]"},
			notes:  []string{"3: ReadMe [block:textbox] left out: docent does not read this kind of block"},
		},
		{
			name: "escaped newlines and markdown in a callout body",
			in:   "[block:callout]\n{\"type\": \"info\", \"title\": \"Before\\nyou start\", \"body\": \"Check:\\n\\n- the **token**\\n- the [scope](doc:scopes)\\n\\n```\\nexport TOKEN=x\\n```\"}\n[/block]",
			want: []string{"Before you start\n\nCheck:\n\n- the **token**\n- the [scope](doc:scopes)\n\n```\nexport TOKEN=x\n```"},
		},
		{
			name:   "callout without a title",
			in:     "[block:callout]\n{\"type\": \"success\", \"body\": \"Done.\"}\n[/block]",
			want:   []string{"Done."},
			absent: []string{"Success", "success"},
		},
		{
			// Empty cells stay empty, a row with no text goes, cells past
			// the declared size are not shown.
			name:   "parameters with empty cells",
			in:     "[block:parameters]\n{\"data\": {\"h-0\": \"Field\", \"h-1\": \"\", \"0-0\": \"id\", \"0-1\": \"\", \"1-0\": \"\", \"2-1\": \"a | b\", \"0-5\": \"hidden\", \"9-0\": \"hidden\"}, \"cols\": 2, \"rows\": 3}\n[/block]",
			want:   []string{"| Field |  |\n| --- | --- |\n| id |  |\n|  | a \\| b |"},
			absent: []string{"hidden", "|  |  |\n"},
		},
		{
			name: "parameters without cols or rows",
			in:   "[block:parameters]\n{\"data\": {\"h-0\": \"A\", \"h-1\": \"B\", \"0-1\": \"x\"}}\n[/block]",
			want: []string{"| A | B |\n| --- | --- |\n|  | x |"},
		},
		{
			name:  "parameters too wide",
			in:    "[block:parameters]\n{\"data\": {\"h-0\": \"A\", \"0-1000000\": \"far\"}}\n[/block]",
			want:  []string{"| A |\n| --- |"},
			notes: []string{"1: ReadMe [block:parameters] has more than 64 columns"},
		},
		{
			name:   "an empty table shows nothing",
			in:     "[block:parameters]\n{\"data\": {}, \"cols\": 1000000000, \"rows\": 1000000000}\n[/block]",
			absent: []string{"|"},
		},
		{
			name:   "code holding a fence gets a longer one",
			in:     "[block:code]\n{\"codes\": [{\"code\": \"```\\nnested\\n```\", \"language\": \"md`x y\"}, {\"code\": \"  \", \"language\": \"sh\"}]}\n[/block]",
			want:   []string{"````mdxy\n```\nnested\n```\n````"},
			absent: []string{"sh"},
		},
		{
			name: "api-header with a level",
			in:   "[block:api-header]\n{\"title\": \"Errors\", \"level\": 3}\n[/block]\n[block:api-header]\n{\"title\": \"Bad level\", \"level\": 99}\n[/block]",
			want: []string{"### Errors", "## Bad level"},
		},
		{
			// A [/block] line inside a JSON string is no line of its own.
			name: "a closer inside a string",
			in:   "[block:callout]\n{\"body\": \"Write [/block]\\n[/block] to close.\"}\n[/block]",
			want: []string{"Write [/block]\n[/block] to close."},
		},
		{
			name:   "control characters go",
			in:     "[block:callout]\n{\"title\": \"a\\u0000b\\u001b[2Jc\", \"body\": \"line\\r\\nnext\\u0085\"}\n[/block]",
			want:   []string{"ab[2Jc", "line\nnext"},
			absent: []string{"\x00", "\x1b", "\r", "\u0085"},
		},
		{
			// In an admonition, the block's markdown stays in it.
			name: "a block in an admonition",
			in:   "!!! note \"Heads up\"\n\n    [block:callout]\n    {\n      \"title\": \"Inner\",\n      \"body\": \"Inner text.\"\n    }\n    [/block]\n\n    Still in the note.\n\nOutside.",
			want: []string{"Heads up", "Inner\n\nInner text.", "Still in the note.", "Outside."},
		},
		{
			name: "HTML keeps its lines but blank ones",
			in:   "[block:html]\n{\"html\": \"    <div>\\n\\n      <pre>\\n  x = 1\\n</pre>\\n</div>\"}\n[/block]",
			want: []string{"\n<div>\n      <pre>\n  x = 1\n</pre>\n</div>"},
		},
		{
			name:   "tutorial tile and an empty image",
			in:     "[block:tutorial-tile]\n{\"title\": \"Recipe\"}\n[/block]\n[block:image]\n{\"images\": [{\"image\": [\"a.png\"]}]}\n[/block]",
			absent: []string{"Recipe", "a.png"},
			notes:  []string{"1: ReadMe [block:tutorial-tile] left out"},
		},
		{
			name: "a block between list items' text",
			in:   "1. Open Settings.\n\n   [block:image]\n   {\"images\": [{\"image\": [\"a.png\"], \"caption\": \"Settings\"}]}\n   [/block]\n2. Save.",
			want: []string{"1. Open Settings.\n", "\n   Settings\n\n2. Save."},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, notes := convertMarkup(tt.in)
			checkInOrder(t, "output", out, tt.want, tt.absent)
			checkNotes(t, noteStrings(notes), tt.notes)
			if t.Failed() {
				t.Logf("output:\n%s", out)
			}
		})
	}
}

// TestReadMeBlockPlainText: what a reader sees of a callout and a table
// with empty cells, as the plain text docent searches.
func TestReadMeBlockPlainText(t *testing.T) {
	src := "# Limits\n\n[block:callout]\n{\"type\": \"warning\", \"title\": \"Quota\", \"body\": \"At most **5** exports\\na day.\"}\n[/block]\n\n" +
		"[block:parameters]\n{\"data\": {\"h-0\": \"Plan\", \"h-1\": \"Exports\", \"0-0\": \"Free\", \"0-1\": \"\", \"1-0\": \"Pro\", \"1-1\": \"50\"}, \"cols\": 2, \"rows\": 2}\n[/block]\n"
	src += "\n[block:html]\n{\"html\": \"  <div>\\n\\n      <p>Ask <b>support</b>.</p>\\n</div>\"}\n[/block]\n"
	doc := parsed(t, "limits.md", src)
	if got, want := doc.Chunks[0].Text, "Limits. Quota. At most 5 exports a day. Plan, Exports. Free. Pro, 50. Ask support."; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// FuzzReadMeBlock feeds arbitrary JSON to the block converter under every
// block name it knows and one it does not: it never panics, writes no NUL
// (nor any control character but tab and newline), and keeps valid UTF-8
// valid.
func FuzzReadMeBlock(f *testing.F) {
	for _, s := range []string{
		`{"type": "warning", "title": "Rate limits", "body": "You can make **100** requests.\nSee [limits](doc:limits)."}`,
		`{"title": "Create a user", "type": "post", "level": 3}`,
		`{"codes": [{"code": "curl …\n` + "```" + `", "language": "curl", "name": "cURL"}, {"code": 5}]}`,
		`{"images": [{"image": ["https://x/a.png", "a.png", 800, 600, "#fff"], "caption": "The settings page"}]}`,
		`{"data": {"h-0": "Name", "h-1": "Type", "0-0": "id", "0-1": "string|x", "3-70": "y", "-1-0": "z", "h-x": 1}, "cols": 2, "rows": 1}`,
		`{"html": "<div>\n\n    <p>x</p>\u0000</div>"}`,
		`{"url": "https://youtu.be/x", "title": "Video\u001b[31m"}`,
		`{"data": null, "cols": 1e300, "rows": -1}`,
		`{}`, `null`, `[1]`, `"s"`, `{"body": "\ud800"}`, "{\"title\": \"\xff\xfe\"}",
	} {
		f.Add("callout", s)
		f.Add("code", s)
		f.Add("parameters", s)
	}
	f.Add("image", `{"images": [{"image": ["a.png"], "caption": "A\r\ncaption"}]}`)
	f.Add("api-header", `{"title": "T", "level": 1.5}`)
	f.Add("html", `{"html": "<pre>\n  code\n</pre>"}`)
	f.Add("embed", `{"title": ["not a string"]}`)
	f.Add("tutorial-tile", `{"title": "x"}`)
	f.Fuzz(func(t *testing.T, name, body string) {
		md, note, ok := readmeBlock(name, body)
		if !ok && (md != "" || note != "") {
			t.Errorf("unreadable block gave %q, %q", md, note)
		}
		// The note names the block, whose name the opener's pattern
		// keeps to letters, digits, "_" and "-".
		if strings.ContainsFunc(md, isStrayControl) || readmeOpener.MatchString("[block:"+name+"]") && strings.ContainsFunc(note, isStrayControl) {
			t.Errorf("control character in %q (note %q)", md, note)
		}
		if utf8.ValidString(name) && utf8.ValidString(body) && (!utf8.ValidString(md) || !utf8.ValidString(note)) {
			t.Errorf("valid UTF-8 in, invalid out: %q", md)
		}
		// The same block in a body: the conversion around it holds too.
		src := "[block:" + name + "]\n" + body + "\n[/block]"
		out, notes := convertMarkup(src)
		if utf8.ValidString(src) && !utf8.ValidString(out) {
			t.Errorf("valid UTF-8 in, invalid out: %q", out)
		}
		lines := strings.Count(src, "\n") + 1
		for _, n := range notes {
			if n.line < 1 || n.line > lines {
				t.Errorf("note on line %d of %d: %s", n.line, lines, n.msg)
			}
		}
	})
}
