package sentence

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"blank", " \n\t ", nil},
		{"one without a mark", "Press F2", []string{"Press F2"}},
		{"marks", "Save it. Then quit! Done? Yes.", []string{"Save it.", "Then quit!", "Done?", "Yes."}},
		{"lower case goes on", "Use a dash. the rest follows.", []string{"Use a dash. the rest follows."}},
		{"digit opens", "Pick a size. 12 is the default.", []string{"Pick a size.", "12 is the default."}},
		{"openers", `Read on. "Quoted" text. (Aside) here. [Link] there. **Bold** end.`,
			[]string{"Read on.", `"Quoted" text.`, "(Aside) here.", "[Link] there.", "**Bold** end."}},
		{"curly quotes", "He said it. “Yes,” she said.", []string{"He said it.", "“Yes,” she said."}},
		{"closers stay", `It is "done." Then (really.) More **here.** Next`,
			[]string{`It is "done."`, "Then (really.)", "More **here.**", "Next"}},
		{"decimals and hosts", "Version 1.2 of example.com is out. It works.", []string{"Version 1.2 of example.com is out.", "It works."}},
		{"abbreviations", "Use a key, e.g. Ctrl. Or i.e. That, etc. Fine (cf. Fig. 3) Mr. Smith. Done.",
			[]string{"Use a key, e.g. Ctrl.", "Or i.e. That, etc. Fine (cf. Fig. 3) Mr. Smith.", "Done."}},
		{"no before a number", "See No. 5 first. No. It is not.", []string{"See No. 5 first.", "No.", "It is not."}},
		{"ellipsis", "Wait... Then go.", []string{"Wait...", "Then go."}},
		{"list items", "Steps:\n- open the menu\n- click Save\n1. then quit", []string{"Steps:", "- open the menu", "- click Save", "1. then quit"}},
		{"paragraphs", "First para\n\nSecond para", []string{"First para", "Second para"}},
		{"hard wrap", "A sentence that\nwraps here. Next", []string{"A sentence that\nwraps here.", "Next"}},
		{"heading and fence", "Intro\n# Title\n```\ncode\n```", []string{"Intro", "# Title", "```\ncode", "```"}},
		{"newline as the blank", "One.\nTwo.", []string{"One.", "Two."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Split(tt.text); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Split(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestEnds(t *testing.T) {
	tests := []struct {
		text string
		want []int
	}{
		{"", nil},
		{"One. Two.  ", []int{4, 9}},
		{"Item\n- next\n", []int{4, 11}},
		{"No end", []int{6}},
	}
	for _, tt := range tests {
		if got := Ends(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Ends(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// FuzzSplit checks what callers rely on for any text a doc or a model
// may hold: the offsets ascend and end on non-blank text, and the
// sentences are the text in order, nothing lost but the blanks between.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"", "Save it. Then quit!", "e.g. Ctrl. No. 5", "- a\n- b\n\n1. c", "“Yes.” ‘No.’ » x",
		"v1.2 example.com...", "\xff. \xfe", "a.\u00a0B", "# h\n```\nx\n```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ends := Ends(text)
		last := 0
		for _, e := range ends {
			if e <= last || e > len(text) {
				t.Fatalf("Ends(%q) = %v: not ascending within the text", text, ends)
			}
			if strings.TrimRightFunc(text[:e], unicode.IsSpace) != text[:e] {
				t.Fatalf("Ends(%q) = %v: %d follows a blank", text, ends, e)
			}
			last = e
		}
		// Each sentence stands in the text after the one before, with only
		// blanks between and around them. Compared as bytes: joining two
		// invalid bytes can make one valid rune, so decoding would not do.
		ss := Split(text)
		rest := text
		for _, s := range ss {
			rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
			if !strings.HasPrefix(rest, s) {
				t.Fatalf("Split(%q) = %q: %q is not the next text", text, ss, s)
			}
			rest = rest[len(s):]
		}
		if strings.TrimSpace(rest) != "" {
			t.Fatalf("Split(%q) = %q: lost %q", text, ss, rest)
		}
		for _, s := range ss {
			if s == "" || strings.TrimSpace(s) != s {
				t.Fatalf("Split(%q) = %q: an empty or untrimmed sentence", text, ss)
			}
		}
	})
}
