package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// page is a doc's source: a title, n sentences of its own on topic and
// shared sentences every page written from one template has.
func page(title, topic string, n, shared int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\ntitle: %s\n---\n\n", title)
	for i := range n {
		fmt.Fprintf(&b, "Step %d for %s: open the %s screen, pick %s number %d and save it within %d minutes.\n\n", i+1, topic, topic, topic, i, 10+i)
	}
	for i := range shared {
		fmt.Fprintf(&b, "Every request needs an API key sent in the Authorization header, and the response lists at most %d items per page in JSON.\n\n", 100+i)
	}
	return b.String()
}

func TestDropCopies(t *testing.T) {
	current := page("Backups", "backup", 12, 0)
	fsys := fstest.MapFS{
		"guide/backups.md": {Data: []byte(current)},
		// The same page, as an older version keeps it: read once, where the
		// current docs are.
		"versioned_docs/version-1.0/guide/backups.md": {Data: []byte(current)},
		// A version with a number changed and a sentence added: the same
		// title, most of the text.
		"versioned_docs/version-0.9/guide/backups.md": {Data: []byte(strings.Replace(current, "within 15 minutes", "within 45 minutes", 1) + "\nThis changed in 0.9.\n")},
		// Pages from one template: much in common, not their title.
		"api/backups.md":  {Data: []byte(page("List backups", "snapshots", 2, 10))},
		"api/restores.md": {Data: []byte(page("List restores", "restores", 2, 10))},
		// Another page altogether.
		"guide/restores.md": {Data: []byte(page("Restores", "restore", 12, 0))},
	}
	res, slugs := loadSlugs(t, fsys)
	if want := []string{"api/backups", "api/restores", "guide/backups", "guide/restores"}; !slices.Equal(slugs, want) {
		t.Fatalf("docs %q, want %q", slugs, want)
	}
	notes := noticeLines(res)
	checkNotes(t, notes, []string{
		"versioned_docs/version-0.9/guide/backups.md: a copy of guide/backups.md",
		"versioned_docs/version-1.0/guide/backups.md: a copy of guide/backups.md",
	})
}

// A print version gathers every page's text on one: it is left out, and
// the pages stay. A page quoting one other page in full is that page's
// copy or original, not a gathering; a short page sharing its title with
// longer ones is none either.
func TestDropGatheringPages(t *testing.T) {
	pages := []string{page("Backups", "backup", 8, 0), page("Restores", "restore", 8, 0), page("Exports", "export", 8, 0), page("Imports", "import", 8, 0)}
	var print strings.Builder
	print.WriteString("---\ntitle: Print\n---\n\n")
	for _, p := range pages {
		_, body, _ := strings.Cut(strings.TrimPrefix(p, "---\n"), "---\n")
		print.WriteString(body)
	}
	fsys := fstest.MapFS{
		"guide/backups.md":  {Data: []byte(pages[0])},
		"guide/restores.md": {Data: []byte(pages[1])},
		"guide/exports.md":  {Data: []byte(pages[2])},
		"guide/imports.md":  {Data: []byte(pages[3])},
		"print.md":          {Data: []byte(print.String())},
		// A stub naming a page: short, though its words are elsewhere.
		"old/backups.md": {Data: []byte("---\ntitle: Backups\n---\n\nStep 1 for backup: open the backup screen.\n")},
	}
	res, slugs := loadSlugs(t, fsys)
	if want := []string{"guide/backups", "guide/exports", "guide/imports", "guide/restores", "old/backups"}; !slices.Equal(slugs, want) {
		t.Fatalf("docs %q, want %q", slugs, want)
	}
	notes := noticeLines(res)
	checkNotes(t, notes, []string{"print.md: the text of other pages gathered on one"})
}

func TestCanonicalOrder(t *testing.T) {
	paths := []string{"versioned_docs/version-1.0/a.md", "copy of a.md", "b/a.md", "a.md"}
	slices.SortFunc(paths, canonicalOrder)
	if want := []string{"a.md", "copy of a.md", "b/a.md", "versioned_docs/version-1.0/a.md"}; !slices.Equal(paths, want) {
		t.Errorf("order %q, want %q", paths, want)
	}
	// The English page a manual's other languages hold where no
	// translation was made is en/'s.
	paths = []string{"da/bind.html", "pt-br/bind.html", "en/bind.html", "de/bind.html", "it-team/bind.html"}
	slices.SortFunc(paths, canonicalOrder)
	if want := []string{"en/bind.html", "it-team/bind.html", "da/bind.html", "de/bind.html", "pt-br/bind.html"}; !slices.Equal(paths, want) {
		t.Errorf("order %q, want %q", paths, want)
	}
}

// BenchmarkDropCopies measures the copy search on 3,000 pages, a third of
// them copies: it runs once per load.
func BenchmarkDropCopies(b *testing.B) {
	fsys := fstest.MapFS{}
	for i := range 2000 {
		fsys[fmt.Sprintf("docs/p%d.md", i)] = &fstest.MapFile{Data: []byte(page(fmt.Sprintf("Page %d", i), fmt.Sprintf("topic%d", i), 20, 2))}
	}
	for i := range 1000 {
		fsys[fmt.Sprintf("v1/docs/p%d.md", i)] = fsys[fmt.Sprintf("docs/p%d.md", i)]
	}
	res, err := Load(b.Context(), fsys, "kb")
	if err != nil {
		b.Fatal(err)
	}
	docs := res.Docs // the copies are left out already: add them back
	for i := range 1000 {
		d := docs[i]
		d.SourcePath, d.Slug = "v1/"+d.SourcePath, "v1/"+d.Slug
		docs = append(docs, d)
	}
	b.ResetTimer()
	for b.Loop() {
		dropCopies(slices.Clone(docs), nil)
	}
}
