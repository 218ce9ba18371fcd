package retrieval

import (
	"testing"

	"github.com/docent-sh/docent/knowledge"
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

func TestVariantsRankButNeverMatch(t *testing.T) {
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
	if hits[1].Score != 0 {
		t.Errorf("a variant-only hit has match score %v, want 0: variants must not feed the decision", hits[1].Score)
	}

	// Ask shows only evidence it can explain: the variant-only doc is not
	// among its results.
	res := e.Ask(Query{Text: "archiving"})
	for _, ev := range res.Results {
		if ev.DocSlug == "actions/archive" {
			t.Errorf("Ask(archiving) shows %s, which only has variants of the word", ev.ChunkID)
		}
	}
}

func TestVariantsLeaveKnownTermsWhole(t *testing.T) {
	known := map[string]bool{"notes": true}
	if got := stemKey("notes", known); got != "~notes" {
		t.Errorf("stemKey(notes) = %q, want the known term whole", got)
	}
	for word, want := range map[string]string{"archiving": "~archiv", "archived": "~archiv", "archive": "~archiv", "running": "~run"} {
		if got := stemKey(word, known); got != want {
			t.Errorf("stemKey(%q) = %q, want %q", word, got, want)
		}
	}
	// "notes" names a feature here (a keyword): a body that only says
	// "note" the verb must not rank for it, through variants or otherwise.
	docs := append(variantDocs(), makeDoc("concepts/memo", "Memo", nil, "Note the time of every call."))
	e, err := New(knowledge.Bundle{Docs: docs}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range e.Search("notes", 10) {
		if h.DocSlug == "concepts/memo" {
			t.Errorf("Search(notes) ranks concepts/memo, which only says \"note\"")
		}
	}
}
