package ingest

import (
	"slices"
	"strings"
	"testing"
)

// A Notion export: properties after the title are metadata (Tags become
// keywords), an <aside> callout is a paragraph whose markup goes, and a
// checklist's boxes are no text.
func TestNotionExport(t *testing.T) {
	src := "# Refunds and cancellations\n\n" +
		"Owner: Dana Ruiz\nLast edited: March 3, 2026 4:12 PM\nTags: Payments, Refunds\nStatus: Published\n\n" +
		"Refunds go back to the card the buyer paid with.\n\n" +
		"<aside>\n💡 Put your policy under **Event settings → Policies** with `tr_test_` keys.\n</aside>\n\n" +
		"- [ ] Search **Orders** for the buyer.\n- [x] Check the address.\n"
	d := parsed(t, "Help 62295a/Refunds and cancellations a96dccf0bc7b47c844ef58a6ce222f0c.md", src)
	if !slices.Equal(d.Keywords, []string{"payments", "refunds"}) {
		t.Errorf("keywords %q, want the Tags property's", d.Keywords)
	}
	text := d.Chunks[0].Text
	for _, gone := range []string{"Owner", "Dana", "Published", "**", "`", "[ ]", "[x]", "aside"} {
		if strings.Contains(text, gone) {
			t.Errorf("text holds %q: %q", gone, text)
		}
	}
	for _, kept := range []string{"Refunds go back", "Event settings → Policies", "tr_test_ keys", "Search Orders for the buyer.", "Check the address."} {
		if !strings.Contains(text, kept) {
			t.Errorf("text lacks %q: %q", kept, text)
		}
	}
}

func TestNotionPropertiesOnlyAfterTheTitle(t *testing.T) {
	for _, body := range []string{
		"# Steps\n\nStep 1: open it\nStep 2: close it\n",                       // no known property
		"# One\n\nStatus: Published\n",                                         // one line is a sentence
		"Intro first.\n\nOwner: Dana\nStatus: Published\n",                     // not after a title
		"# T\n\nOwner: Dana\nStatus: Published\nand a sentence that runs on\n", // not all properties
	} {
		lines := strings.Split(body, "\n")
		if out, tags := notionProperties(lines); !slices.Equal(out, lines) || tags != nil {
			t.Errorf("%q: properties taken from %q (tags %q)", body, out, tags)
		}
	}
}

// FuzzNotionProperties: any body comes back with as many lines, each
// either as it was or blanked, and tags without surrounding space.
func FuzzNotionProperties(f *testing.F) {
	for _, s := range []string{"", "# T\n\nOwner: A\nTags: a, b,, c\n\nText", "# T\n\nStatus: x\nType: y", "#\n\nA: b\nB: c", "# T\n\nTags: ,\nOwner: \xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		lines := strings.Split(body, "\n")
		out, tags := notionProperties(lines)
		if len(out) != len(lines) {
			t.Fatalf("%d lines in, %d out", len(lines), len(out))
		}
		for i := range out {
			if out[i] != lines[i] && out[i] != "" {
				t.Errorf("line %d changed to %q", i, out[i])
			}
		}
		for _, tag := range tags {
			if tag == "" || tag != strings.TrimSpace(tag) {
				t.Errorf("tag %q", tag)
			}
		}
	})
}
