package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

func TestReaderHeader(t *testing.T) {
	page := "Title: Taking deposits | Brightdesk Help Center\n\nURL Source: https://help.example.com/a/1\n\nPublished Time: 2025-01-02\n\nMarkdown Content:\nTaking deposits\n===============\n\nText."
	doc, err := ParseDoc("articles/1-taking-deposits.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Taking deposits | Brightdesk Help Center" {
		t.Errorf("title %q, want the header's", doc.Title)
	}
	var text strings.Builder
	for _, c := range doc.Chunks {
		text.WriteString(c.Text + " ")
	}
	checkInOrder(t, "plain text", text.String(), []string{"Taking deposits. Text."}, []string{"URL Source", "https", "Published", "Markdown Content", "Title:"})

	for _, body := range []string{
		"Title: A\n\nNo source line.",               // not a reader's header
		"Intro.\n\nTitle: A\nURL Source: https://x", // not at the start
		"Title: A\nText\nURL Source: https://x",     // a line between
	} {
		lines := strings.Split(body, "\n")
		if got, title := readerHeader(lines); title != "" || !slices.Equal(got, lines) {
			t.Errorf("readerHeader(%q) = %q, %q; want the body unchanged", body, got, title)
		}
	}
}

func TestStripSiteTitles(t *testing.T) {
	docs := strippedTitles([]string{
		"Taking deposits | Brightdesk Help Center", "No-show fees | Brightdesk Help Center",
		"Refunds | Brightdesk Help Center", "Time zones", "Install - Linux", "Upgrade - Linux",
		"Uninstall - Linux", "Export | CSV", "Import | CSV",
	})
	var got []string
	for _, d := range docs {
		got = append(got, d.Title)
		if !strings.HasPrefix(d.Chunks[len(d.Chunks)-1].HeaderPath, d.Title+" > ") {
			t.Errorf("%s: header path %q does not start with the title", d.Slug, d.Chunks[len(d.Chunks)-1].HeaderPath)
		}
	}
	want := []string{"Taking deposits", "No-show fees", "Refunds", "Time zones", "Install - Linux", "Upgrade - Linux",
		"Uninstall - Linux", "Export | CSV", "Import | CSV"} // a hyphen joins a title's parts; two docs are no site
	if !slices.Equal(got, want) {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// strippedTitles chunks a doc per title, each with a section under
// its title, and returns the docs after stripSiteTitles.
func strippedTitles(titles []string) []knowledge.Doc {
	var docs []knowledge.Doc
	for i, title := range titles {
		d := knowledge.Doc{Slug: fmt.Sprint("p", i), Title: title, Content: "# " + title + "\n\nText.\n\n## Part\n\nMore."}
		Chunk(&d)
		docs = append(docs, d)
	}
	stripSiteTitles(docs)
	return docs
}

// A site's name after a hyphen, as MkDocs writes titles, is left out when
// most pages end with it; so are a manual's name in brackets after each
// title, as makeinfo writes every page ("11 Arithmetic Evaluation
// (zsh)"), and a site's name and a colon before it ("libvirt: Client
// access control"), and chapter numbers without a full stop ("11
// Arithmetic Evaluation"). A few titles that use a hyphen, brackets, a
// colon or a number keep them.
func TestStripSiteTitlesMostPagesShare(t *testing.T) {
	for _, tc := range []struct{ titles, want []string }{
		{[]string{"Setup - Docs", "Admonitions - Docs", "Blog - Docs", "Icons - Docs", "Install - Linux"},
			[]string{"Setup", "Admonitions", "Blog", "Icons", "Install - Linux"}},
		{[]string{"Expansion (zsh)", "Options (zsh)", "Jobs (zsh)", "Tokens (API)", "Limits"},
			[]string{"Expansion", "Options", "Jobs", "Tokens (API)", "Limits"}},
		{[]string{"libvirt: Client access control", "libvirt: Storage pools", "libvirt: Networking", "Downloads"},
			[]string{"Client access control", "Storage pools", "Networking", "Downloads"}},
		{[]string{"FAQ: General", "FAQ: Billing", "FAQ: Accounts", "Install", "Upgrade", "Backups", "Tokens (API)"},
			[]string{"FAQ: General", "FAQ: Billing", "FAQ: Accounts", "Install", "Upgrade", "Backups", "Tokens (API)"}},
		// makeinfo numbers a manual's chapters without a full stop; one
		// number is a title's own.
		{[]string{"11 Arithmetic Evaluation (zsh)", "14 Expansion (zsh)", "14.3 Parameter Expansion (zsh)", "Index (zsh)"},
			[]string{"Arithmetic Evaluation", "Expansion", "Parameter Expansion", "Index"}},
		{[]string{"2024 Roadmap", "Install", "Upgrade", "Backups", "3 ways to log in"},
			[]string{"2024 Roadmap", "Install", "Upgrade", "Backups", "3 ways to log in"}},
	} {
		var got []string
		for _, d := range strippedTitles(tc.titles) {
			got = append(got, d.Title)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("titles %q, want %q", got, tc.want)
		}
	}
}
