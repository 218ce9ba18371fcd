package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/store"
)

func TestShellQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"concepts/workspace", "concepts/workspace"},
		{"", "''"},
		{"z$({touch,pwned})", `'z$({touch,pwned})'`},
		{"it's", `'it'\''s'`},
		{"a b", "'a b'"},
		{"bell\a", `$'bell\x07'`},
		{"bad\xffbyte", `$'bad\xffbyte'`},
		{"new\nline 'q'", `$'new\x0aline \'q\''`},
	} {
		if got := shellQuote(tc.in); got != tc.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// argsOf runs a suggested command through a real shell, with docent
// replaced by a function that prints its arguments, in an empty directory:
// what the shell makes of it, and whether it ran anything else.
func argsOf(t *testing.T, command string) []string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to paste the command into")
	}
	dir := t.TempDir()
	script := `docent() { printf '%s\0' "$@"; }; ` + command
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", command, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Fatalf("pasting %q created %v", command, entries)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// A doc named `z$({touch,pwned}).md` is offered as an option; the command
// suggested for it, pasted into a shell, passes its slug and the session's
// docs folder as they are and runs nothing else.
func TestSuggestedCommandIsSafeToPaste(t *testing.T) {
	docs := filepath.Join(t.TempDir(), "my docs")
	if err := os.CopyFS(docs, kb.Docs()); err != nil {
		t.Fatal(err)
	}
	const name = "z$({touch,pwned})"
	if err := os.Rename(filepath.Join(docs, "concepts", "workspace.md"), filepath.Join(docs, "concepts", name+".md")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := newCLI(t).run("ask", "--docs", docs, "workspace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var suggested string
	for _, line := range strings.Split(out, "\n") {
		if _, cmd, ok := strings.Cut(line, "→ "); ok && strings.Contains(cmd, "touch") {
			suggested = cmd
		}
	}
	if suggested == "" {
		t.Fatalf("no option for concepts/%s in:\n%s", name, out)
	}
	got := argsOf(t, suggested)
	// The turn was recorded: the pick continues its conversation.
	var conversation string
	if len(got) > 6 && got[5] == "--conversation" {
		conversation = got[6]
	}
	want := []string{"ask", "--docs", docs, "--doc", "concepts/" + name, "--conversation", conversation, "workspace"}
	if conversation == "" || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("pasting %s passes %q, want %q", suggested, got, want)
	}
}

// The database URL given on the command line is repeated in suggested
// commands, without its password.
func TestCommandCarriesTheDatabaseWithoutPassword(t *testing.T) {
	e := &env{dbFromFlag: true}
	e.cfg.dbURL = "postgres://docent:s3cret@db.internal:5432/kb?sslmode=disable&password=s3cret"
	got := e.command("ask", "--doc", "-rf")
	if strings.Contains(got, "s3cret") {
		t.Fatalf("command %q shows the password", got)
	}
	want := []string{"ask", "--db", "postgres://docent@db.internal:5432/kb?sslmode=disable", "--doc=-rf"}
	if args := argsOf(t, got); strings.Join(args, " ") != strings.Join(want, " ") {
		t.Errorf("command %q passes %q, want %q", got, args, want)
	}
	e.dbFromFlag = false // from DATABASE_URL: the pasted command reads it too
	if got := e.command("seed"); got != "docent seed" {
		t.Errorf("command with the database from the environment = %q", got)
	}
}

// stdout carries the answer alone: the model's failure note goes to
// stderr, without the key, and the answer still comes (extractive).
func TestAskModelFailureNoteGoesToStderr(t *testing.T) {
	const key = "sk-proj-Zq81HxT0aL93mNb7Kd"
	c := newCLI(t, "OPENAI_API_KEY", key)
	out, errOut, code := c.run("ask", "--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--connect-timeout", "1s", "explain workspace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "note: ") || strings.Contains(out, "note:") {
		t.Errorf("the failure note is not on stderr alone:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	if !strings.Contains(out, "A workspace is") || !strings.Contains(out, "[1] Workspace — concepts/workspace.md") {
		t.Errorf("stdout lacks the extractive answer and its source:\n%s", out)
	}
	if strings.Contains(out+errOut, "Zq81HxT0aL93mNb7Kd") {
		t.Errorf("the key reached the terminal:\n%s%s", out, errOut)
	}
}

// ask --docs names the files it skipped, on stderr.
func TestAskNamesSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export the dashboard\n---\n## Export\n\nUse **Share → Export** to export the dashboard as PDF.\n")
	writeFile(t, filepath.Join(dir, "guides", "broken.md"), "---\ntitle: [unclosed\n---\n## Broken\n")
	out, errOut, code := newCLI(t).run("ask", "--docs", dir, "how to export the dashboard")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !regexp.MustCompile(`(?m)^warning: skipped guides/broken\.md:2: `).MatchString(errOut) {
		t.Errorf("stderr does not name the skipped file:\n%s", errOut)
	}
	if strings.Contains(out, "broken") {
		t.Errorf("stdout mentions the skipped file:\n%s", out)
	}
}

// The events file sits beside --log, where README says it is.
func TestEventsFileSitsBesideTheLog(t *testing.T) {
	logDir := filepath.Join(t.TempDir(), "logs")
	c := newCLI(t)
	c.askJSON("--log", filepath.Join(logDir, "docent.log"), "explain workspace")
	if _, err := os.Stat(filepath.Join(logDir, eventsFile)); err != nil {
		t.Errorf("no events file beside the log: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c.env["XDG_STATE_HOME"], "docent", eventsFile)); err == nil {
		t.Error("the events file also went to the state directory")
	}
}

// confirmingInput stands in for a person at a terminal.
type confirmingInput struct{ *strings.Reader }

func (confirmingInput) IsTerminal() bool { return true }

func TestMigrateDownAllAsksOnATerminal(t *testing.T) {
	c := newCLI(t)
	closedDB := "postgres://docent@127.0.0.1:1/docent?sslmode=disable"
	_, errOut, code := c.runWithInput(t.Context(), confirmingInput{strings.NewReader("no\n")}, "--db", closedDB, "migrate", "down")
	if code != 1 || !strings.Contains(errOut, "Type yes") || !strings.Contains(errOut, "not confirmed") {
		t.Errorf("answering no: exit %d, stderr %q; want 1, the question and not confirmed", code, errOut)
	}
	_, errOut, code = c.run("--db", closedDB, "migrate", "down")
	if code != 2 || !strings.Contains(errOut, "--all") {
		t.Errorf("off a terminal: exit %d, stderr %q; want 2 naming --all", code, errOut)
	}
}

// A skipped file keeps its doc, and a folder that could not be read keeps
// every doc under it, spelt the way ingest spells slugs.
func TestSeedOptionsKeepWhatWasSkipped(t *testing.T) {
	res := ingest.Result{Warnings: []ingest.Warning{
		{Path: "guides/broken.md", Line: 2, Msg: "broken front matter", Slug: "guides/broken"},
		{Path: "Release Notes/v1.2", Msg: "cannot read: permission denied"},
	}}
	got := seedOptions(res, true, 0.5)
	want := store.SeedOptions{Keep: []string{"guides/broken"}, KeepUnder: []string{"release-notes/v1.2/"}, MaxDeleteShare: 0.5, Prune: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seedOptions = %+v, want %+v", got, want)
	}
}
