package retrieval

import (
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
)

// variantDocs: "archiving" appears exactly in one doc and only as a
// variant ("archived", "archive") in two others.
func variantDocs() []knowledge.Doc {
	return []knowledge.Doc{
		makeDoc("actions/archive", "Storage", nil, "An archived entry is read-only. Archive entries you no longer edit."),
		makeDoc("concepts/retention", "Retention", nil, "Archiving keeps an entry for seven years before it is deleted."),
		makeDoc("concepts/trash", "Trash", nil, "The trash keeps deleted notes for thirty days."),
		makeDoc("concepts/notes", "Notes", []string{"notes"}, "Notes hold text. A note has a title."),
	}
}

// A word's variants cover it ("archived" answers "archiving"), so they
// rank and count towards the decision; the exact word ranks higher.
func TestVariantsRankAndCover(t *testing.T) {
	e, err := New(knowledge.Bundle{Docs: variantDocs()}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	hits := e.Search("archiving", 10)
	var slugs []string
	for _, h := range hits {
		slugs = append(slugs, h.DocSlug)
	}
	// The exact word first, then the doc with only its variants; the
	// doc with neither is absent.
	if len(hits) != 2 || hits[0].DocSlug != "concepts/retention" || hits[1].DocSlug != "actions/archive" {
		t.Fatalf("Search(archiving) = %v, want concepts/retention then actions/archive", slugs)
	}
	if hits[1].Score != 1 {
		t.Errorf("a variant-only hit covers %v of the question, want all of it", hits[1].Score)
	}
	res := e.Ask(Query{Text: "archiving"})
	if len(res.Results) < 2 || res.Results[1].DocSlug != "actions/archive" || len(res.Results[1].MatchedTerms) != 1 {
		t.Errorf("Ask(archiving) should show the variant's doc second, matching the word: %+v", res.Results)
	}
}

func TestStemKeys(t *testing.T) {
	for word, want := range map[string]string{"archiving": "~archiv", "archived": "~archiv", "archive": "~archiv", "running": "~run", "notes": "~note", "callout": "~callout", "callouts": "~callout"} {
		if got := analysis.StemKey(word); got != want {
			t.Errorf("stemKey(%q) = %q, want %q", word, got, want)
		}
	}
}

// A doc titled in the plural is the doc a singular question asks for,
// and the other way round: titles are words like any other.
func TestTitlesMeetSingularAndPlural(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("reference/callouts", "Callouts", nil, "Use a callout to set a paragraph apart.",
			section{"Kinds", "Five kinds exist: note, tip, info, warning and danger."}),
		makeDoc("reference/formatting", "Formatting", nil, "Bold, italics and a callout or two make a page easier to scan.",
			section{"Callout syntax", "Write the kind in brackets at the start of a quote; see the callout page for the list."}),
		makeDoc("setup/theme", "Theme", nil, "Pick colors and fonts for the whole site."),
	}
	e := engineOf(t, knowledge.Bundle{Docs: docs})
	for _, q := range []string{"what is a callout", "callouts", "what are callouts"} {
		res := e.Ask(Query{Text: q})
		if len(res.Results) == 0 || res.Results[0].DocSlug != "reference/callouts" {
			t.Errorf("%q: first result %v, want reference/callouts", q, docsOf(res))
		}
		if len(res.Results) > 0 && !slices.Contains(res.Results[0].MatchExplain.Fields["title"], "callout") {
			t.Errorf("%q: the title match is not explained: %+v", q, res.Results[0].MatchExplain)
		}
	}
}

// "What is X" is answered by the section headed "What is X?" too, in a
// doc titled something else, ahead of the sections that use X most.
func TestDefinitionalQuestionFindsTheSectionHeadedSo(t *testing.T) {
	docs := []knowledge.Doc{
		makeDoc("intro", "What is Relay?", nil, "Relay forwards events between services.",
			section{"What is federation?", "Federation lets two Relay servers exchange events."},
			section{"Scaling", "Federation traffic grows with every server: federation queues, federation retries and federation limits all need tuning."}),
		makeDoc("admin/config", "Configuration", nil, "Environment variables.",
			section{"FEDERATION_MODE", "Sets how federation works: federation on, federation off, federation limited."}),
	}
	e := engineOf(t, knowledge.Bundle{Docs: docs})
	res := e.Ask(Query{Text: "what is federation?"})
	if len(res.Results) == 0 || res.Results[0].HeaderPath != "What is Relay? > What is federation?" {
		t.Fatalf("first result %+v, want the section headed \"What is federation?\"", res.Results)
	}
	if b := res.Results[0].MatchExplain.Biases; len(b) != 1 || !strings.Contains(b[0], "section titled so") {
		t.Errorf("biases %v, want the section bias explained", b)
	}
}
