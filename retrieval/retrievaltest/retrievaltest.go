// Package retrievaltest holds a small hand-built knowledge base with the
// shapes the decision policy cares about, for the tests of retrieval and
// of the packages that word its results (assistant).
package retrievaltest

import (
	"fmt"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// Section is one "## Heading" and its body in a hand-built doc.
type Section struct{ Heading, Body string }

// Doc builds a doc the way ingestion shapes one: a title chunk, then
// one chunk per section, with header paths and ids.
func Doc(slug, title string, keywords []string, intro string, sections ...Section) knowledge.Doc {
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
		add(title+" > "+s.Heading, "## "+s.Heading+"\n\n"+s.Body, strings.TrimSpace(s.Body) == "")
	}
	d.Content = strings.Join(all, "\n\n")
	return d
}

// Docs is a small knowledge base with the shapes the policy cares
// about: a concept and an action doc sharing a word, a widget, a doc whose
// only mention of a word is in its body.
func Docs() []knowledge.Doc {
	return []knowledge.Doc{
		Doc("concepts/workspace", "Workspace", []string{"workspace", "workspaces"},
			"A workspace is an area inside an entry that holds related notes.",
			Section{"Overview", "Each workspace belongs to one entry. Workspaces divide an entry into focused areas such as onboarding or recipes, and every note lives in exactly one workspace."},
			Section{"Settings", "Open a workspace and choose Workspace settings to change its name, description and default template."}),
		Doc("actions/workspaces", "Workspace Actions", []string{"workspace actions", "create workspace", "rename workspace"},
			"How to create, rename and delete the workspaces of an entry.",
			Section{"Create a workspace", "Press Ctrl+Alt+N or choose File > New workspace, type a name and click Create."},
			Section{"Delete a workspace", "Choose More > Delete workspace and confirm. The workspace goes to the Trash for thirty days."}),
		Doc("widgets/quick-links", "Quick Links", []string{"quick links", "pinned links"},
			"The Quick Links widget holds links that you pin yourself.",
			Section{"Overview", "A quick link can point to a note, a workspace or a web address. The widget holds up to thirty links."},
			Section{"Related", "- [Recent](../widgets/recent.md)\n- [Widgets](../concepts/widgets.md)"}),
		Doc("concepts/home", "Home", []string{"home", "start page"},
			"Home is the dashboard of your main entry.",
			Section{"Overview", "Home shows widgets such as Recent and Quick Links. Press Ctrl+Shift+H to return to Home from anywhere."}),
		Doc("widgets/recent", "Recent", []string{"recent", "history"},
			"Recent lists the notes you opened most recently.",
			Section{"Overview", "Each row shows a note title and the time you opened it. The tangerine badge marks notes edited by others."},
			Section{"Empty", ""},
			Section{"Settings", "Choose how many rows Recent shows, from five to fifty."}),
	}
}

// Glossary is the small knowledge base's core concepts.
const Glossary = `# Core concepts
- **Home**: The dashboard of your main entry.
- **Workspace**: An area inside an entry that holds related notes.
- **Widget**: A small panel of functionality placed on a dashboard.
`

// Synonyms are the rewrites the small knowledge base declares.
var Synonyms = []knowledge.Synonym{{From: "shortcuts", To: "quick links"}, {From: "homepage", To: "home"}, {From: "dashboard", To: "home"}}

// Bundle is docs with the small knowledge base's vocabulary: its
// glossary, synonyms and concepts/* as the concept docs.
func Bundle(docs []knowledge.Doc) knowledge.Bundle {
	return knowledge.Bundle{Docs: docs, Glossary: Glossary, Synonyms: Synonyms, Concepts: []string{"concepts/*"}}
}
