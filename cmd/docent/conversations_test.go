package main

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/tui"
)

// TestAskRecordsAndContinues: every `docent ask` turn is recorded; -c adds
// the next one to the last conversation, --conversation to a named one,
// and the model reads the same recent messages the chat would have sent.
func TestAskRecordsAndContinues(t *testing.T) {
	c := newCLI(t, "DOCENT_USER", "alice")
	first := c.askJSON("workspace")
	if first.Conversation == "" || first.Turn == nil || *first.Turn != 0 {
		t.Fatalf("first ask recorded as %q turn %v, want a new conversation's turn 0", first.Conversation, first.Turn)
	}
	pick := c.askJSON("-c", "--doc", "concepts/workspace", "workspace")
	if pick.Conversation != first.Conversation || *pick.Turn != 1 {
		t.Errorf("ask -c recorded as %q turn %v, want %q turn 1", pick.Conversation, *pick.Turn, first.Conversation)
	}
	other := c.askJSON("how do I invite members")
	if other.Conversation == first.Conversation {
		t.Error("an ask without -c continued the last conversation")
	}
	// --conversation takes a unique start of the id.
	third := c.askJSON("--conversation", first.Conversation[:8], "--doc", "actions/workspaces", "workspace")
	if third.Conversation != first.Conversation || *third.Turn != 2 {
		t.Errorf("ask --conversation recorded as %q turn %v, want %q turn 2", third.Conversation, *third.Turn, first.Conversation)
	}
	// The continued turn's prompt carried the conversation so far.
	if third.Context == nil || third.Context.Tokens.Recent == 0 {
		t.Fatalf("the continued turn sent no recent messages: %+v", third.Context)
	}
	if fresh := c.askJSON("--doc", "actions/workspaces", "workspace"); fresh.Context == nil || fresh.Context.Tokens.Recent != 0 {
		t.Errorf("a new conversation's turn sent recent messages: %+v", fresh.Context)
	}

	st := memory.NewConversationFiles(filepath.Join(c.env["XDG_DATA_HOME"], "docent", "conversations"), 0)
	conv, err := st.GetConversation(t.Context(), knowledge.Scope{Workspace: knowledge.DefaultConversationWorkspace, User: "alice"}, first.Conversation)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv.Turns) != 3 || conv.Turns[0].Status != "ambiguous" || conv.Turns[1].Picked != "concepts/workspace" || conv.Turns[1].Answer == "" {
		t.Errorf("stored turns %+v", conv.Turns)
	}

	// Each turn's retrieval event names it, so its rating joins the event.
	events := readEvents(t, filepath.Join(c.env["XDG_STATE_HOME"], "docent", eventsFile))
	want := []struct {
		id   string
		turn int
	}{{first.Conversation, 0}, {first.Conversation, 1}, {other.Conversation, 0}, {first.Conversation, 2}}
	if len(events) < len(want) {
		t.Fatalf("%d events, want at least %d", len(events), len(want))
	}
	for i, w := range want {
		if ev := events[i]; ev.ConversationID != w.id || ev.TurnIndex == nil || *ev.TurnIndex != w.turn {
			t.Errorf("event %d (%q) names turn %q %v, want %q %d", i, ev.Query, ev.ConversationID, ev.TurnIndex, w.id, w.turn)
		}
	}

	_, errOut, code := c.run("ask", "--conversation", "7c9e6679-7425-40de-944b-e07fc1f90ae7", "workspace")
	if code != 1 || !strings.Contains(errOut, "no conversation 7c9e6679-7425-40de-944b-e07fc1f90ae7 of alice") {
		t.Errorf("unknown conversation: exit %d, %q", code, errOut)
	}
	_, errOut, code = c.run("ask", "-c", "--conversation", first.Conversation, "workspace")
	if code != 2 {
		t.Errorf("-c with --conversation: exit %d, %q; want 2", code, errOut)
	}
	// Another user continues nothing of alice's.
	bob := &cli{t: t, env: map[string]string{"XDG_STATE_HOME": c.env["XDG_STATE_HOME"], "XDG_DATA_HOME": c.env["XDG_DATA_HOME"], "DOCENT_USER": "bob"}}
	if _, errOut, code := bob.run("ask", "-c", "workspace"); code != 1 || !strings.Contains(errOut, "no conversation of bob") {
		t.Errorf("bob -c: exit %d, %q", code, errOut)
	}
}

func TestHistoryListsAndExports(t *testing.T) {
	c := newCLI(t, "DOCENT_USER", "alice", "DOCENT_WORKSPACE", "acme")
	out, errOut, code := c.run("history")
	if code != 0 || out != "" || !strings.Contains(errOut, "no conversations of alice in workspace acme yet") {
		t.Errorf("empty history: exit %d, %q, %q", code, out, errOut)
	}
	a := c.askJSON("workspace")
	c.askJSON("-c", "--doc", "concepts/workspace", "workspace")
	b := c.askJSON("how do I invite members")

	out, _, code = c.run("history")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], b.Conversation[:8]) || !strings.HasPrefix(lines[1], a.Conversation[:8]) ||
		!strings.Contains(lines[1], "2 turns  workspace") {
		t.Errorf("history: exit %d\n%s", code, out)
	}
	out, _, _ = c.run("history", "--json")
	var list []knowledge.ConversationSummary
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 || list[1].ID != a.Conversation || list[1].Turns != 2 {
		t.Errorf("history --json: %v\n%s", err, out)
	}

	dir := t.TempDir()
	t.Chdir(dir)
	out, errOut, code = c.run("history", "export", a.Conversation[:8])
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	name := strings.TrimSpace(out)
	if !strings.HasSuffix(name, "-workspace.md") {
		t.Errorf("default export name %q, want the date and the first question", name)
	}
	md, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	// The pick's answer cites the demo docs, linked to their files.
	if !strings.Contains(string(md), "# workspace\n") || !strings.Contains(string(md), "](<concepts/workspace.md>)") {
		t.Errorf("export:\n%s", md)
	}
	// A second export of the same conversation does not overwrite the first.
	out, _, code = c.run("history", "export", a.Conversation)
	if code != 0 || strings.TrimSpace(out) == name || !strings.HasSuffix(strings.TrimSpace(out), "-workspace-2.md") {
		t.Errorf("second export: exit %d, %q", code, out)
	}
	out, _, code = c.run("history", "export", a.Conversation, "-")
	if code != 0 || out != string(md) {
		t.Errorf("export to stdout: exit %d, differs from the file", code)
	}
	if _, errOut, code = c.run("history", "export", a.Conversation, name); code != 1 || !strings.Contains(errOut, "exists") {
		t.Errorf("export over an existing file: exit %d, %q", code, errOut)
	}
	if _, _, code = c.run("history", "export"); code != 2 {
		t.Errorf("export without an id: exit %d, want 2", code)
	}
}

// TestChatResumes: `docent --resume` opens the chat on the last
// conversation `docent ask` recorded, `--resume ID` on a named one, and
// the chat's backend goes on recording in it.
func TestChatResumes(t *testing.T) {
	c := newCLI(t, "DOCENT_USER", "alice")
	first := c.askJSON("workspace")
	second := c.askJSON("how do I invite members")

	chatLogDir := t.TempDir()
	load := func(args ...string) tui.Ready {
		t.Helper()
		root, e := newRoot(func(k string) string { return c.env[k] })
		if err := root.ParseFlags(append(args, "--user", "alice", "--log", filepath.Join(chatLogDir, "docent.log"))); err != nil {
			t.Fatal(err)
		}
		if err := root.Args(root, root.Flags().Args()); err != nil {
			t.Fatalf("docent %q: %v", args, err)
		}
		e.log = slog.New(slog.DiscardHandler)
		var started *app
		t.Cleanup(func() {
			if started != nil {
				started.Close()
			}
		})
		ready, err := e.chatLoader(&started)(t.Context(), func(tui.Progress) {})
		if err != nil {
			t.Fatalf("docent %q: %v", args, err)
		}
		return ready
	}
	if r := load("--resume"); r.Conversation == nil || r.Conversation.ID != second.Conversation {
		t.Errorf("--resume opened %+v, want the last conversation %s", r.Conversation, second.Conversation)
	}
	r := load("--resume", first.Conversation[:8])
	if r.Conversation == nil || r.Conversation.ID != first.Conversation || len(r.Conversation.Turns) != 1 {
		t.Fatalf("--resume ID opened %+v, want %s", r.Conversation, first.Conversation)
	}
	k, ok := r.Backend.(tui.ConversationKeeper)
	if !ok {
		t.Fatalf("the chat's backend %T keeps no conversations", r.Backend)
	}
	if err := k.RateLast(t.Context(), knowledge.TurnFeedback{Rating: knowledge.RatingUp}); err != nil {
		t.Errorf("rating in the resumed conversation: %v", err)
	}
	// The chat's next turn continues it, and its event says so.
	if _, err := r.Backend.Retrieve(t.Context(), assistant.Request{Query: "workspace"}); err != nil {
		t.Fatal(err)
	}
	events := readEvents(t, filepath.Join(chatLogDir, eventsFile))
	if ev := events[len(events)-1]; ev.ConversationID != first.Conversation || ev.TurnIndex == nil || *ev.TurnIndex != 1 {
		t.Errorf("the chat's event names turn %q %v, want %q 1", ev.ConversationID, ev.TurnIndex, first.Conversation)
	}
	if r := load(); r.Conversation != nil {
		t.Errorf("without --resume the chat opened %s", r.Conversation.ID)
	}

	root, e := newRoot(func(k string) string { return c.env[k] })
	if err := root.ParseFlags([]string{"--resume=" + first.Conversation}); err != nil || e.resume != first.Conversation {
		t.Errorf("--resume=ID: %v, %q", err, e.resume)
	}
	if _, _, code := c.run("stray"); code != 2 {
		t.Errorf("an argument without --resume: exit %d, want 2", code)
	}
}

func readEvents(t *testing.T, path string) []knowledge.RetrievalEvent {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []knowledge.RetrievalEvent
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev knowledge.RetrievalEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, ev)
	}
	return out
}

// TestAskPickContinuesTheConversation: the commands `docent ask` prints
// for its pills continue the turn's conversation, so history shows one
// exchange, not a new conversation per pick.
func TestAskPickContinuesTheConversation(t *testing.T) {
	c := newCLI(t, "DOCENT_USER", "alice")
	out, errOut, code := c.run("ask", "workspace")
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	var suggested []string
	for _, line := range strings.Split(out, "\n") {
		if _, cmd, ok := strings.Cut(line, "→ docent ask "); ok {
			suggested = strings.Fields(cmd)
			break
		}
	}
	if len(suggested) < 5 || suggested[2] != "--conversation" {
		t.Fatalf("the pick's command %q does not continue the conversation:\n%s", suggested, out)
	}
	// The suggestion's words are plain here (a uuid, a slug, one word), so
	// they need no shell to be split.
	pick := c.askJSON(suggested...)
	if pick.Conversation != suggested[3] || pick.Turn == nil || *pick.Turn != 1 {
		t.Errorf("the pick was recorded as %q turn %v, want turn 1 of %q", pick.Conversation, pick.Turn, suggested[3])
	}
}

// TestHistoryShowsADamagedConversation: one conversation file that cannot
// be read is listed as such, naming the file, and neither hides the others
// from history nor stops -c from going on with the latest readable one.
func TestHistoryShowsADamagedConversation(t *testing.T) {
	c := newCLI(t, "DOCENT_USER", "alice")
	older := c.askJSON("how do I invite members")
	newer := c.askJSON("workspace")
	path := filepath.Join(c.env["XDG_DATA_HOME"], "docent", "conversations", knowledge.DefaultConversationWorkspace, "alice", newer.Conversation+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := append(data, []byte("{\"turn\": {\"index\": 1,\n")...) // cut short
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}

	out, errOut, code := c.run("history")
	if code != 0 {
		t.Fatalf("history: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, newer.Conversation[:8]+"  ") || !strings.Contains(out, "unreadable: conversation file "+path) ||
		!strings.Contains(out, "how do I invite members") {
		t.Errorf("history does not list the damaged conversation beside the other:\n%s", out)
	}
	next := c.askJSON("-c", "--doc", "actions/workspaces", "how do I invite members")
	if next.Conversation != older.Conversation || next.Turn == nil || *next.Turn != 1 {
		t.Errorf("ask -c went to %q turn %v, want turn 1 of the readable %q", next.Conversation, next.Turn, older.Conversation)
	}
	if after, err := os.ReadFile(path); err != nil || string(after) != string(damaged) {
		t.Errorf("the damaged file changed (%v)", err)
	}
}
