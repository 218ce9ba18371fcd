package retrieval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

// section is one "## Heading" and its body in a hand-built doc.
type section struct{ heading, body string }

// makeDoc builds a doc the way ingestion shapes one: a title chunk, then
// one chunk per section, with header paths and ids.
func makeDoc(slug, title string, keywords []string, intro string, sections ...section) knowledge.Doc {
	category, _, _ := strings.Cut(slug, "/")
	d := knowledge.Doc{Slug: slug, Category: category, Title: title, Keywords: keywords,
		SourcePath: slug + ".md", ContentHash: "hash-" + slug}
	var all []string
	add := func(header, content string, headingOnly bool) {
		d.Chunks = append(d.Chunks, knowledge.Chunk{
			DocSlug: slug, Category: category, Title: title, HeaderPath: header,
			Index: len(d.Chunks), Content: content, Keywords: keywords,
			Hash: fmt.Sprintf("h%d", len(d.Chunks)), HeadingOnly: headingOnly, BodyChars: len(content),
		})
		all = append(all, content)
	}
	first := "## " + title
	if intro != "" {
		first += "\n\n" + intro
	}
	add(title, first, intro == "")
	for _, s := range sections {
		add(title+" > "+s.heading, "## "+s.heading+"\n\n"+s.body, strings.TrimSpace(s.body) == "")
	}
	d.Content = strings.Join(all, "\n\n")
	return d
}

// testDocs is a small knowledge base with the shapes the policy cares
// about: a concept and an action doc sharing a word, a widget, a doc whose
// only mention of a word is in its body.
func testDocs() []knowledge.Doc {
	return []knowledge.Doc{
		makeDoc("concepts/workspace", "Workspace", []string{"workspace", "workspaces"},
			"A workspace is an area inside an entry that holds related notes.",
			section{"Overview", "Each workspace belongs to one entry. Workspaces divide an entry into focused areas such as onboarding or recipes, and every note lives in exactly one workspace."},
			section{"Settings", "Open a workspace and choose Workspace settings to change its name, description and default template."}),
		makeDoc("actions/workspaces", "Workspace Actions", []string{"workspace actions", "create workspace", "rename workspace"},
			"How to create, rename and delete the workspaces of an entry.",
			section{"Create a workspace", "Press Ctrl+Alt+N or choose File > New workspace, type a name and click Create."},
			section{"Delete a workspace", "Choose More > Delete workspace and confirm. The workspace goes to the Trash for thirty days."}),
		makeDoc("widgets/quick-links", "Quick Links", []string{"quick links", "pinned links"},
			"The Quick Links widget holds links that you pin yourself.",
			section{"Overview", "A quick link can point to a note, a workspace or a web address. The widget holds up to thirty links."},
			section{"Related", "- [Recent](../widgets/recent.md)\n- [Widgets](../concepts/widgets.md)"}),
		makeDoc("concepts/home", "Home", []string{"home", "start page"},
			"Home is the dashboard of your main entry.",
			section{"Overview", "Home shows widgets such as Recent and Quick Links. Press Ctrl+Shift+H to return to Home from anywhere."}),
		makeDoc("widgets/recent", "Recent", []string{"recent", "history"},
			"Recent lists the notes you opened most recently.",
			section{"Overview", "Each row shows a note title and the time you opened it. The tangerine badge marks notes edited by others."},
			section{"Empty", ""},
			section{"Settings", "Choose how many rows Recent shows, from five to fifty."}),
	}
}

const testGlossary = `# Core concepts
- **Home**: The dashboard of your main entry.
- **Workspace**: An area inside an entry that holds related notes.
- **Widget**: A small panel of functionality placed on a dashboard.
`

// testSynonyms are the rewrites the small knowledge base declares.
var testSynonyms = []knowledge.Synonym{{From: "shortcuts", To: "quick links"}, {From: "homepage", To: "home"}, {From: "dashboard", To: "home"}}

// testBundle is docs with the small knowledge base's vocabulary: its
// glossary, synonyms and concepts/* as the concept docs.
func testBundle(docs []knowledge.Doc) knowledge.Bundle {
	return knowledge.Bundle{Docs: docs, Glossary: testGlossary, Synonyms: testSynonyms, Concepts: []string{"concepts/*"}}
}

func newTestEngine(t testing.TB, mutate func(*Config)) *Engine {
	t.Helper()
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	e, err := New(testBundle(testDocs()), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return e
}
