package kb

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// expectedTitles maps every slug of the demo knowledge base to its title.
// Other packages' tests (ingestion, stores, retrieval) rely on exactly this
// set, so adding or renaming a doc must be a deliberate change here too.
var expectedTitles = map[string]string{
	"concepts/home":          "Home",
	"concepts/dashboard":     "Dashboard",
	"concepts/workspace":     "Workspace",
	"concepts/entry":         "Entry",
	"concepts/notes":         "Notes",
	"concepts/widgets":       "Widgets",
	"concepts/panels":        "Panels",
	"widgets/recent":         "Recent",
	"widgets/quick-links":    "Quick Links",
	"widgets/navigator":      "Navigator",
	"widgets/continue":       "Continue",
	"widgets/widget-manager": "Widget Manager",
	"widgets/links-overview": "Links Overview",
	"widgets/quick-capture":  "Quick Capture",
	"widgets/demo-widget":    "Demo Widget",
	"actions/navigation":     "Navigation Actions",
	"actions/notes":          "Note Actions",
	"actions/workspaces":     "Workspace Actions",
	"actions/widgets":        "Widget Actions",
}

// testDoc is a doc as this test sees it; the real parsing lives in ingest,
// which must not be a dependency of the knowledge base it reads.
type testDoc struct {
	path     string // "concepts/home.md"
	slug     string // "concepts/home"
	title    string
	keywords []string
	body     string // everything after the closing front matter fence
}

// vocabularyFiles are the demo's glossary, synonyms and manifest: read by
// ingest.LoadBundle, never docs.
var vocabularyFiles = map[string]bool{"docent.yaml": true, "_glossary.md": true, "_synonyms.txt": true}

func loadDocs(t *testing.T) []testDoc {
	t.Helper()
	var docs []testDoc
	err := fs.WalkDir(Docs(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || vocabularyFiles[p] {
			return nil
		}
		if path.Ext(p) != ".md" {
			return fmt.Errorf("%s: only markdown files belong in the knowledge base", p)
		}
		raw, err := fs.ReadFile(Docs(), p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		doc, err := parseDoc(p, raw)
		if err != nil {
			return err
		}
		docs = append(docs, doc)
		return nil
	})
	if err != nil {
		t.Fatalf("walk embedded docs: %v", err)
	}
	return docs
}

// parseDoc reads the small front matter subset the knowledge base uses:
// "title: X" and "keywords: [a, b]" between two "---" lines.
func parseDoc(p string, raw []byte) (testDoc, error) {
	if err := checkText(p, string(raw)); err != nil {
		return testDoc{}, err
	}
	text := string(raw)
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return testDoc{}, fmt.Errorf("%s: does not start with a --- front matter fence", p)
	}
	front, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return testDoc{}, fmt.Errorf("%s: front matter has no closing --- fence", p)
	}
	doc := testDoc{path: p, slug: strings.TrimSuffix(p, ".md"), body: body}
	for i, line := range strings.Split(front, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			return testDoc{}, fmt.Errorf("%s:%d: front matter line %q is not key: value", p, i+2, line)
		}
		value = strings.TrimSpace(value)
		switch key {
		case "title":
			doc.title = value
		case "keywords":
			list, ok := strings.CutPrefix(value, "[")
			list, ok2 := strings.CutSuffix(list, "]")
			if !ok || !ok2 {
				return testDoc{}, fmt.Errorf("%s:%d: keywords %q is not a [a, b] flow list", p, i+2, value)
			}
			for _, kw := range strings.Split(list, ",") {
				kw = strings.TrimSpace(kw)
				if kw == "" {
					return testDoc{}, fmt.Errorf("%s:%d: empty keyword in %q", p, i+2, value)
				}
				doc.keywords = append(doc.keywords, kw)
			}
		default:
			return testDoc{}, fmt.Errorf("%s:%d: unknown front matter key %q", p, i+2, key)
		}
	}
	if doc.title == "" {
		return testDoc{}, fmt.Errorf("%s: front matter has no title", p)
	}
	return doc, nil
}

// checkText rejects invalid UTF-8 and control or invisible formatting
// characters: doc text is shown in the terminal, where such characters could
// act as escape sequences or hide text.
func checkText(name, text string) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("%s: not valid UTF-8", name)
	}
	for i, line := range strings.Split(text, "\n") {
		for col, r := range line {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				return fmt.Errorf("%s:%d:%d: control or format character %U", name, i+1, col+1, r)
			}
		}
	}
	return nil
}

func TestDocsHaveTheExpectedSlugsAndTitles(t *testing.T) {
	docs := loadDocs(t)
	if len(docs) != len(expectedTitles) {
		t.Errorf("got %d docs, want %d", len(docs), len(expectedTitles))
	}
	seen := map[string]bool{}
	for _, d := range docs {
		seen[d.slug] = true
		want, ok := expectedTitles[d.slug]
		if !ok {
			t.Errorf("%s: unexpected doc", d.path)
			continue
		}
		if d.title != want {
			t.Errorf("%s: title %q, want %q", d.path, d.title, want)
		}
	}
	for slug := range expectedTitles {
		if !seen[slug] {
			t.Errorf("missing doc %s.md", slug)
		}
	}
}

func TestDocsFollowTheTemplate(t *testing.T) {
	for _, d := range loadDocs(t) {
		lines := strings.Split(strings.TrimLeft(d.body, "\n"), "\n")
		if lines[0] != "## "+d.title {
			t.Errorf("%s: body starts with %q, want the heading %q", d.path, lines[0], "## "+d.title)
		}
		for _, heading := range []string{"## Overview", "## Where it appears", "## Related"} {
			if !slices.Contains(lines, heading) {
				t.Errorf("%s: no %q section", d.path, heading)
			}
		}
		if !slices.ContainsFunc(lines, func(l string) bool {
			return l == "## How to use it" || l == "## How it works" || l == "## Steps"
		}) {
			t.Errorf("%s: no how-to section (How to use it, How it works or Steps)", d.path)
		}
		if lead := firstParagraph(lines[1:]); lead == "" || strings.HasPrefix(lead, "#") {
			t.Errorf("%s: no lead sentence under the title heading", d.path)
		}
	}
}

func firstParagraph(lines []string) string {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// Docs are sized so each splits into a few chunks that fit a prompt; the long
// ones must be structured with subsections so the chunker has places to cut.
func TestDocLengths(t *testing.T) {
	const minWords, maxWords, maxStructuredWords = 150, 450, 750
	for _, d := range loadDocs(t) {
		words := len(strings.Fields(d.body))
		structured := strings.Contains(d.body, "\n### ")
		switch {
		case words < minWords:
			t.Errorf("%s: %d words, want at least %d", d.path, words, minWords)
		case words > maxWords && !structured:
			t.Errorf("%s: %d words without ### subsections, want at most %d", d.path, words, maxWords)
		case words > maxStructuredWords:
			t.Errorf("%s: %d words, want at most %d", d.path, words, maxStructuredWords)
		}
	}
}

var markdownLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)

func TestRelatedLinksPointAtExistingDocs(t *testing.T) {
	for _, d := range loadDocs(t) {
		_, related, ok := strings.Cut(d.body, "\n## Related\n")
		if !ok {
			t.Errorf("%s: no Related section", d.path)
			continue
		}
		items := 0
		for _, line := range strings.Split(related, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if strings.HasPrefix(line, "#") {
				break // Related is the last section; stop at any section after it
			}
			m := markdownLink.FindStringSubmatch(line)
			if !strings.HasPrefix(line, "- ") || m == nil {
				t.Errorf("%s: Related line %q is not a list item with a link", d.path, line)
				continue
			}
			items++
			target := path.Join(path.Dir(d.path), m[2])
			if strings.Contains(m[2], "://") || strings.HasPrefix(m[2], "/") {
				t.Errorf("%s: Related link %q is not relative", d.path, m[2])
				continue
			}
			if _, err := fs.Stat(Docs(), target); err != nil {
				t.Errorf("%s: Related link %q points at %s, which does not exist", d.path, m[2], target)
				continue
			}
			if target == d.path {
				t.Errorf("%s: Related links to the doc itself", d.path)
			}
			targetSlug := strings.TrimSuffix(target, ".md")
			if want := expectedTitles[targetSlug]; m[1] != want {
				t.Errorf("%s: link text %q for %s, want its title %q", d.path, m[1], target, want)
			}
		}
		if items == 0 {
			t.Errorf("%s: Related section lists no docs", d.path)
		}
	}
}

// The chunker and renderer tests need real markdown variety from the corpus.
func TestKnowledgeBaseHasMarkdownVariety(t *testing.T) {
	var fences, tables, subsections int
	for _, d := range loadDocs(t) {
		for _, line := range strings.Split(d.body, "\n") {
			switch {
			case strings.HasPrefix(line, "```"):
				fences++
			case strings.HasPrefix(line, "| ---"):
				tables++
			case strings.HasPrefix(line, "### "):
				subsections++
			}
		}
		if n := strings.Count(d.body, "\n```"); n%2 != 0 {
			t.Errorf("%s: unbalanced code fence", d.path)
		}
	}
	if fences < 2 {
		t.Errorf("no fenced code block in the knowledge base")
	}
	if tables == 0 {
		t.Errorf("no markdown table in the knowledge base")
	}
	if subsections == 0 {
		t.Errorf("no ### subsection in the knowledge base")
	}
}

// The retrieval tests use "explain calendar" as a query with no answer, so
// the word must stay out of the knowledge base.
func TestNoDocMentionsCalendar(t *testing.T) {
	for _, d := range loadDocs(t) {
		all := strings.ToLower(d.title + " " + strings.Join(d.keywords, " ") + " " + d.body)
		if strings.Contains(all, "calendar") {
			t.Errorf("%s mentions calendar", d.path)
		}
	}
	if strings.Contains(strings.ToLower(Glossary()), "calendar") {
		t.Errorf("glossary mentions calendar")
	}
}

// The retrieval tests need terms that can only match body text, to tell the
// body field's contribution apart from the title and keyword fields.
func TestBodyOnlyTermsStayOutOfTitlesAndKeywords(t *testing.T) {
	terms := []string{"breadcrumb", "archive tray", "snapshot", "sandbox", "drag handle"}
	docs := loadDocs(t)
	for _, term := range terms {
		inBody := 0
		for _, d := range docs {
			if strings.Contains(strings.ToLower(d.body), term) {
				inBody++
			}
			head := strings.ToLower(d.title + "\n" + strings.Join(d.keywords, "\n"))
			if strings.Contains(head, term) {
				t.Errorf("%s: body-only term %q appears in its title or keywords", d.path, term)
			}
		}
		if inBody == 0 {
			t.Errorf("body-only term %q appears in no doc body", term)
		}
	}
}

func TestGlossaryDefinesTheCoreConcepts(t *testing.T) {
	g := Glossary()
	if err := checkText("_glossary.md", g); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(g, "# Core concepts\n") {
		t.Errorf("glossary does not start with %q", "# Core concepts")
	}
	for _, concept := range []string{"Home", "Dashboard", "Workspace", "Notes", "Recent", "Widget", "Panel"} {
		prefix := "- **" + concept + "**: "
		found := false
		for _, line := range strings.Split(g, "\n") {
			if def, ok := strings.CutPrefix(line, prefix); ok {
				found = true
				if len(strings.Fields(def)) < 5 {
					t.Errorf("glossary definition of %s is too short: %q", concept, def)
				}
			}
		}
		if !found {
			t.Errorf("glossary has no %q line", prefix)
		}
	}
}

func TestCheckTextRejectsControlAndFormatCharacters(t *testing.T) {
	for name, text := range map[string]string{
		"escape":      "title\x1b[31m red",
		"carriage":    "line\r\n",
		"bidi":        "safe\u202eevil",
		"zero width":  "zero\u200bwidth",
		"invalid utf": "bad \xff byte",
	} {
		if err := checkText(name, text); err == nil {
			t.Errorf("%s: checkText accepted %q", name, text)
		}
	}
	if err := checkText("plain", "plain text, with `code` and – dashes\n"); err != nil {
		t.Errorf("checkText rejected plain text: %v", err)
	}
}
