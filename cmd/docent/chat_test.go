package main

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/store/postgres/pgtest"
	"github.com/docent-sh/docent/tui"
)

// TestChatLoader starts docent as the chat does, on a folder with a broken
// file: progress counts the files, the broken one is listed as skipped
// (not written to a stderr the screen covers), and the docs' titles come
// back for the first suggested question.
func TestChatLoader(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Exporting reports\n---\n## Export\n\nChoose Export in the report menu.\n")
	writeFile(t, filepath.Join(dir, "guides", "import.md"), "---\ntitle: Importing data\n---\n## Import\n\nDrop a CSV file on the page.\n")
	writeFile(t, filepath.Join(dir, "admin", "bad.md"), "---\ntitle: [unclosed\n---\n## Bad\n")

	ready, reports := loadChat(t, "--docs", dir)
	if ready.Backend == nil {
		t.Fatal("the loader returned no backend")
	}
	var counted bool
	for _, p := range reports {
		counted = counted || (p.Step == "Reading 3 files" && p.Total == 3)
	}
	if !counted || reports[len(reports)-1].Step != "Building the index" {
		t.Errorf("progress reports %+v: want the 3 files counted, then the index", reports)
	}
	if ready.Status.Docs != 2 || ready.Status.Store == "" {
		t.Errorf("status %+v, want the 2 good docs and a store", ready.Status)
	}
	if len(ready.Skipped) != 1 || ready.Skipped[0].Path != "admin/bad.md" || !strings.Contains(ready.Skipped[0].Reason, "line 2: ") {
		t.Errorf("skipped %+v, want admin/bad.md with its line", ready.Skipped)
	}
	if len(ready.Notices) != 0 {
		t.Errorf("notices %q: the skipped file must be listed, not written as a line", ready.Notices)
	}
	if strings.Join(ready.Titles, ", ") != "Exporting reports, Importing data" {
		t.Errorf("titles %q", ready.Titles)
	}
}

// TestChatLoaderNotices: on a shared database a docs folder given as well
// is set aside, and the chat says so on screen.
func TestChatLoaderNotices(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	if _, errOut, code := newCLI(t).run("--db", dbURL, "seed"); code != 0 {
		t.Fatalf("seed the demo: exit %d: %s", code, errOut)
	}
	ready, _ := loadChat(t, "--db", dbURL, "--docs", t.TempDir())
	if len(ready.Notices) != 1 || !strings.HasPrefix(ready.Notices[0], "ignoring the docs folder ") {
		t.Errorf("notices %q, want the docs folder set aside, without the terminal's docent: note: prefix", ready.Notices)
	}
	if ready.Status.Docs == 0 || len(ready.Skipped) != 0 {
		t.Errorf("status %+v, skipped %+v: want the seeded docs", ready.Status, ready.Skipped)
	}
}

// loadChat runs the chat's loader with args as flags, and returns what it
// hands the screen and the progress it reported.
func loadChat(t *testing.T, args ...string) (tui.Ready, []tui.Progress) {
	t.Helper()
	root, e := newRoot(func(string) string { return "" })
	if err := root.ParseFlags(append(args, "--log", filepath.Join(t.TempDir(), "docent.log"))); err != nil {
		t.Fatal(err)
	}
	if err := e.cfg.validate(); err != nil {
		t.Fatal(err)
	}
	e.log = slog.New(slog.DiscardHandler)
	var started *app
	t.Cleanup(func() {
		if started != nil {
			started.Close()
		}
	})
	var reports []tui.Progress
	ready, err := e.chatLoader(&started)(t.Context(), func(p tui.Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatalf("chat loader %q: %v", args, err)
	}
	if started == nil {
		t.Fatal("the loader started no app")
	}
	return ready, reports
}

// The chat's /quiz writes offline over the store's docs, within the
// chat's scope, a new seed each time, and names a doc it does not have.
func TestChatQuizMaker(t *testing.T) {
	ready, _ := loadChat(t)
	if ready.Quiz == nil {
		t.Fatal("no quiz maker")
	}
	first, err := ready.Quiz(t.Context(), "", []string{"widgets"})
	if err != nil {
		t.Fatal(err)
	}
	if first.Generator != "offline" || len(first.Items) == 0 || len(first.Notes) != 0 {
		t.Fatalf("quiz = %+v", first)
	}
	for _, it := range first.Items {
		if !strings.HasPrefix(it.Citations[0], "widgets/") {
			t.Errorf("scope widgets, item cites %s", it.Citations[0])
		}
	}
	second, err := ready.Quiz(t.Context(), "concepts/workspace", nil)
	if err != nil || second.Seed == first.Seed || !strings.HasPrefix(second.Items[0].Citations[0], "concepts/workspace#") {
		t.Fatalf("second quiz = %+v, %v", second, err)
	}
	if _, err := ready.Quiz(t.Context(), "no/such", nil); err == nil || !strings.Contains(err.Error(), `"no/such"`) {
		t.Fatalf("err = %v", err)
	}
}
