package ingest

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A folder of plain text files is a knowledge base: each .txt file is a
// doc, its capitals lines and underlined lines its sections, and text
// that looks like markup stays text. Beside markdown, .txt files are not
// read, and a tool's input (requirements, robots.txt) never is.
func TestPlainTextDocs(t *testing.T) {
	kb := fstest.MapFS{
		"refunds.txt":         {Data: []byte("Refunds\n=======\n\nA refund goes back to the card it came from.\n\nSTEPS\n\n1. Open the order.\n2. Choose Refund and enter the amount, e.g. <amount> & a reason.\n\nKNOWN PROBLEMS\n\nA refund to an expired card is sent as a cheque.\n")},
		"shipping/labels.txt": {Data: []byte("Print a label from the order page. Labels print on 4x6 paper.\n")},
		"requirements.txt":    {Data: []byte("requests==2.32\n")},
	}
	res, slugs := loadSlugs(t, kb)
	if got := strings.Join(slugs, ","); got != "refunds,shipping/labels" {
		t.Fatalf("docs %q, want the two text files", got)
	}
	d := res.Docs[0]
	if d.Title != "Refunds" {
		t.Errorf("title %q, want the underlined first line", d.Title)
	}
	var paths, texts []string
	for _, c := range d.Chunks {
		paths = append(paths, c.HeaderPath)
		texts = append(texts, c.Text)
	}
	if got := strings.Join(paths, "|"); !strings.Contains(got, "Refunds > STEPS") || !strings.Contains(got, "Refunds > KNOWN PROBLEMS") {
		t.Errorf("paths %q: want the capitals lines as sections", got)
	}
	if got := strings.Join(texts, " "); !strings.Contains(got, "<amount> & a reason") {
		t.Errorf("text %q: want the text as written", got)
	}
	if res.Docs[1].Title == "" {
		t.Error("a text file without a heading has no title")
	}

	// Beside markdown, a .txt file is the project's, not a doc.
	kb["guide.md"] = &fstest.MapFile{Data: []byte("# Guide\n\nText.\n")}
	if _, slugs = loadSlugs(t, kb); strings.Join(slugs, ",") != "guide" {
		t.Errorf("with markdown: docs %q, want the markdown one alone", slugs)
	}
}

func TestIsTextDoc(t *testing.T) {
	for name, want := range map[string]bool{
		"notes/refunds.txt": true, "README.TXT": true, "requirements.txt": false, "requirements-dev.txt": false,
		"dev/constraints.txt": false, "dev-requirements.txt": false, "robots.txt": false, "CMakeLists.txt": false, ".txt": false, "a.md": false, "a.txt.gz": false,
	} {
		if got := isTextDoc(name); got != want {
			t.Errorf("isTextDoc(%q) = %t, want %t", name, got, want)
		}
	}
}

// FuzzTextDoc parses any text as a plain-text doc, with the checks every
// parsed doc passes (see checkParsed).
func FuzzTextDoc(f *testing.F) {
	for _, s := range append(fuzzSeeds(f), "STEPS\n\n1. a <b> & c\n", "Title\n=====\n\n    code\n", "<html>\n&amp;\n") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkParsed(t, "guides/fuzz.txt", src)
	})
}
