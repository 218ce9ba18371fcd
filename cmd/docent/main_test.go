package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/retrieval"
)

// cli runs docent in-process with an isolated environment: its own log and
// state directory, no database and no LLM keys unless extra sets them.
type cli struct {
	t   *testing.T
	env map[string]string
}

func newCLI(t *testing.T, extra ...string) *cli {
	t.Helper()
	// Conversations are recorded under XDG_DATA_HOME: never the tester's.
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir()}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return &cli{t: t, env: env}
}

func (c *cli) run(args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	return c.runContext(context.Background(), args...)
}

func (c *cli) runContext(ctx context.Context, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	return c.runWithInput(ctx, strings.NewReader(""), args...)
}

func (c *cli) runWithInput(ctx context.Context, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	code = run(ctx, args, stdin, &out, &errOut, func(k string) string { return c.env[k] })
	return out.String(), errOut.String(), code
}

func (c *cli) askJSON(args ...string) askOutput {
	c.t.Helper()
	out, errOut, code := c.run(append([]string{"ask", "--json"}, args...)...)
	if code != 0 {
		c.t.Fatalf("docent ask --json %q: exit %d: %s", args, code, errOut)
	}
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		c.t.Fatalf("docent ask --json %q: output is not one JSON object: %v\n%s", args, err, out)
	}
	return o
}

func resultSlugs(o askOutput) []string {
	var s []string
	for _, r := range o.Results {
		s = append(s, r.DocSlug)
	}
	return s
}

func optionSlugs(o askOutput) []string {
	var s []string
	for _, r := range o.Options {
		s = append(s, r.DocSlug)
	}
	return s
}

// acceptanceCases is the retrieval issue's acceptance table as cases.
const acceptanceCases = "../../testdata/acceptance.jsonl"

// The retrieval acceptance cases, through `docent ask --json` as a script
// or a support tool would drive it, judged by the same code as `docent
// eval decisions`.
func TestAskJSONAcceptance(t *testing.T) {
	f, err := os.Open(acceptanceCases)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := eval.ReadCases(f, acceptanceCases)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	for _, tc := range cases {
		t.Run(tc.Describe(), func(t *testing.T) {
			var args []string
			switch {
			case tc.Doc != "":
				args = []string{"--doc", tc.Doc}
			case tc.After != "":
				args = []string{"--after", tc.After}
			default:
				args = []string{tc.Query}
			}
			o := c.askJSON(args...)
			v := tc.Judge(eval.OutcomeOf(retrieval.Result{Status: o.Status, Results: o.Results, Options: o.Options}))
			if !v.Passed {
				t.Errorf("line %d: %s (rule %q, results %v, options %v)", tc.Line, v.Why, o.Rule, resultSlugs(o), optionSlugs(o))
			}
			if o.LLM.Provider != "extractive" {
				t.Errorf("llm.provider = %q, want extractive with no keys set", o.LLM.Provider)
			}
			wantCalled := o.Status == "found" || o.Status == "multi"
			if o.LLM.Called != wantCalled {
				t.Errorf("llm.called = %v for status %s", o.LLM.Called, o.Status)
			}
		})
	}
	// What the cases cannot say: the exact words of the no-match replies
	// and where an answer's evidence points.
	for q, want := range map[string]string{
		"explain calendar":   "I couldn't find anything about calendar in these docs.",
		"what's the weather": "I couldn't find anything about weather in these docs.",
		"how do I do it":     assistant.ReplyNoMatch,
		"hello":              assistant.ReplyGreeting,
		"thanks!":            assistant.ReplyThanks,
	} {
		o := c.askJSON(q)
		if o.Status != retrieval.StatusNoMatch || o.Reply != want {
			t.Errorf("%s: %s, reply = %q, want %q", q, o.Status, o.Reply, want)
		}
		if len(o.Options)+len(o.Results)+len(o.Candidates) != 0 {
			t.Errorf("%s: options %v, results %v, %d candidates; want none", q, optionSlugs(o), resultSlugs(o), len(o.Candidates))
		}
	}
	if o := c.askJSON("explain workspace"); len(o.Results) == 0 || o.Results[0].HeaderPath == "" {
		t.Error("explain workspace: first result has no header_path")
	}
}

func TestAskJSONPillAndFollowUp(t *testing.T) {
	c := newCLI(t)
	pill := c.askJSON("--doc", "concepts/workspace")
	if pill.Status != "found" || len(pill.Results) == 0 {
		t.Fatalf("--doc: status %s, %d results", pill.Status, len(pill.Results))
	}
	firstChunk := pill.Results[0]
	if firstChunk.DocSlug != "concepts/workspace" || firstChunk.Snippet == "" {
		t.Fatalf("--doc answered from %s with snippet %q; want a chunk of concepts/workspace with body text", firstChunk.ChunkID, firstChunk.Snippet)
	}
	next := c.askJSON("--after", firstChunk.ChunkID)
	if len(next.Results) == 0 {
		t.Fatalf("--after %s: no result", firstChunk.ChunkID)
	}
	got := next.Results[0]
	if got.DocSlug != "concepts/workspace" || got.ChunkIndex <= firstChunk.ChunkIndex {
		t.Fatalf("--after %s gave %s, want a later chunk of concepts/workspace", firstChunk.ChunkID, got.ChunkID)
	}
}

func TestAskJSONReportsContextAndMetrics(t *testing.T) {
	o := newCLI(t).askJSON("explain workspace")
	if o.Context == nil || o.Context.Tokens.Total == 0 || o.Context.Tokens.Core == 0 || o.Context.Tokens.Docs == 0 {
		t.Fatalf("context = %+v, want token counts for a found answer", o.Context)
	}
	if o.Context.Tokens.Total > 3000 {
		t.Errorf("context total %d tokens, over the ~3000 budget", o.Context.Tokens.Total)
	}
	if o.Metrics.Phase != 2 || o.Metrics.RetrievalMS <= 0 {
		t.Errorf("metrics = %+v, want phase 2 and a latency", o.Metrics)
	}
	if !strings.Contains(o.Reply, "[concepts/workspace#chunk-") {
		t.Errorf("reply %q cites no workspace chunk", o.Reply)
	}
}

func TestAskPhaseFlag(t *testing.T) {
	o := newCLI(t).askJSON("--phase", "1", "explain workspace")
	if o.Metrics.Phase != 1 {
		t.Fatalf("metrics.phase = %d, want 1", o.Metrics.Phase)
	}
}

// A question longer than the engine reads is answered from its topic
// words, and the output says so.
func TestAskReducesVeryLongQuestions(t *testing.T) {
	o := newCLI(t).askJSON(strings.Repeat("workspace ", 600))
	if o.Query != "workspace" || len(o.Notes) == 0 || !strings.Contains(o.Notes[0], "the text has 5999 characters, over the 4000") {
		t.Fatalf("query %q, notes %v; want the topic word and a note saying why", o.Query, o.Notes)
	}
}

func TestAskStreamsTextWithOptions(t *testing.T) {
	out, errOut, code := newCLI(t).run("ask", "workspace")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Do you mean", "docent ask --doc concepts/workspace", "docent ask --doc actions/workspaces"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	emptyDir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"empty question", []string{"ask", ""}, "needs a question"},
		{"punctuation only", []string{"ask", "?!..."}, "no words"},
		{"question and --after", []string{"ask", "--after", "concepts/home#chunk-0", "home"}, "--after alone"},
		{"--doc and --after", []string{"ask", "--doc", "concepts/home", "--after", "concepts/home#chunk-0"}, "--after alone"},
		{"bad phase", []string{"ask", "--phase", "3", "home"}, "phase 3: want 1 or 2"},
		{"top-k out of range", []string{"ask", "--top-k", "101", "home"}, "top-k 101: want 1 to 100"},
		{"missing docs folder", []string{"seed", "--docs", filepath.Join(emptyDir, "nope")}, "nope"},
		{"docs folder without docs", []string{"seed", "--docs", emptyDir}, emptyDir},
		{"migrate without a database", []string{"migrate", "status"}, "--db"},
		{"unknown flag", []string{"seed", "--no-such-flag"}, "no-such-flag"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := newCLI(t).run(tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q does not mention %q", errOut, tc.want)
			}
		})
	}
}

func TestSeedStrictFailsOnWarnings(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "guides", "good.md"), "---\ntitle: Good\n---\n## Good\n\nFine text.\n")
	writeFile(t, filepath.Join(dir, "guides", "broken.md"), "---\ntitle: [unclosed\n---\n## Broken\n")
	c := newCLI(t)

	out, errOut, code := c.run("seed", "--docs", dir)
	if code != 0 {
		t.Fatalf("seed without --strict: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "guides/broken.md:2") {
		t.Errorf("stderr %q does not name the broken file and line", errOut)
	}
	if !strings.Contains(out, "1 inserted") {
		t.Errorf("report %q does not show the good doc inserted", out)
	}
	if _, _, code := c.run("seed", "--strict", "--docs", dir); code != 1 {
		t.Errorf("seed --strict with a warning: exit %d, want 1", code)
	}
}

func TestDocsListEmbedded(t *testing.T) {
	out, errOut, code := newCLI(t).run("docs", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+19 {
		t.Fatalf("docs list printed %d lines, want a header and 19 docs:\n%s", len(lines), out)
	}
	if f := strings.Fields(lines[1]); len(f) < 5 || len(f[len(f)-1]) != 8 {
		t.Errorf("line %q: want slug, category, title, chunk count and 8 hex of the hash", lines[1])
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRetrievalCanBeTurnedOff(t *testing.T) {
	o := newCLI(t, "DOC_RETRIEVAL_ENABLED", "false").askJSON("explain workspace")
	if o.Status != "no_match" || len(o.Results) != 0 || o.LLM.Called {
		t.Fatalf("with retrieval off: status %s, %d results, model called %v", o.Status, len(o.Results), o.LLM.Called)
	}
}

func TestSynonymsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synonyms.txt")
	writeFile(t, path, "# support slang\nbookmarks => quick links\n")
	o := newCLI(t, "DOCENT_SYNONYMS", path).askJSON("bookmarks")
	if got := resultSlugs(o); len(got) == 0 || got[0] != "widgets/quick-links" {
		t.Fatalf("bookmarks with a synonyms file: results %v, want widgets/quick-links first", got)
	}

	writeFile(t, path, "bookmarks quick links\n")
	_, errOut, code := newCLI(t, "DOCENT_SYNONYMS", path).run("ask", "bookmarks")
	if code != 2 || !strings.Contains(errOut, path) || !strings.Contains(errOut, "line 1") {
		t.Fatalf("bad synonyms file: exit %d, stderr %q; want 2 naming the file and line", code, errOut)
	}
}

// Every turn leaves a retrieval event: with the embedded store, one JSON
// line beside the log.
func TestAskRecordsARetrievalEvent(t *testing.T) {
	c := newCLI(t)
	c.askJSON("explain workspace")
	c.askJSON("workspace")
	data, err := os.ReadFile(filepath.Join(c.env["XDG_STATE_HOME"], "docent", "retrieval-events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d events, want 2:\n%s", len(lines), data)
	}
	var ev struct {
		Query      string   `json:"query"`
		Tokens     []string `json:"normalized_tokens"`
		Action     string   `json:"action"`
		TopResults []struct {
			Slug string `json:"slug"`
		} `json:"top_results"`
		Phase int `json:"phase"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Query != "workspace" || ev.Action != "ambiguous" || len(ev.TopResults) == 0 || ev.Phase != 2 {
		t.Fatalf("event = %+v", ev)
	}
}

func TestAskWithAppState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	writeFile(t, state, `{"page": "dashboard", "widgets": [{"name": "Recent", "state": "collapsed"}]}`)
	o := newCLI(t, "DOCENT_CONTEXT", state).askJSON("explain workspace")
	if o.Context == nil || o.Context.Tokens.UI == 0 || o.Context.Tokens.Widgets == 0 {
		t.Fatalf("context = %+v, want UI and widget tokens from the app state", o.Context)
	}

	broken := filepath.Join(dir, "broken.json")
	writeFile(t, broken, `{"page": `)
	_, errOut, code := newCLI(t).run("ask", "--context", broken, "explain workspace")
	if code != 2 || !strings.Contains(errOut, broken) {
		t.Fatalf("broken app state: exit %d, stderr %q; want 2 naming the file", code, errOut)
	}
}

func TestInterruptedCommandExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as if Ctrl+C arrived while the command ran
	var out, errOut bytes.Buffer
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir()}
	code := run(ctx, []string{"ask", "explain workspace"}, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] })
	if code != exitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
		t.Fatalf("exit %d, stderr %q; want %d and a word that it was interrupted", code, errOut.String(), exitInterrupted)
	}
}
