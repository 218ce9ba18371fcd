package tui_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/tui"
)

const testModel = "docent-test-model"

// openAISession is the real session answering through the real OpenAI
// client, talking to srv.
func openAISession(t *testing.T, srv *llmtest.Server) (*tui.SessionBackend, tui.Status) {
	t.Helper()
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.BaseURL(), Model: testModel},
		func(name string) string {
			if name == llm.EnvOpenAIKey {
				return "test-key"
			}
			return ""
		})
	if err != nil {
		t.Fatalf("resolve openai: %v", err)
	}
	return tui.NewSessionBackend(newSession(t, sel)), demoStatus(t, sel)
}

// words are the streamed answer's pieces: one numbered word each, so the
// screen shows exactly how far the stream got.
func words(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("word%02d ", i+1)
	}
	return out
}

func TestOpenAIStreamAppearsProgressivelyAndEscStopsIt(t *testing.T) {
	const delay = 100 * time.Millisecond
	chunks := words(20)
	last := strings.TrimSpace(chunks[len(chunks)-1])
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: chunks, Delay: delay})
	b, st := openAISession(t, srv)
	s := start(t, b, st, 100, 30)
	s.typeText("what is quick links")
	s.enter()

	// Progressively: first one word, then more, while still answering.
	s.waitFor("the first word, alone", func(f string) bool {
		return strings.Contains(f, "Answering…") && strings.Contains(f, "word01") && !strings.Contains(f, "word03")
	})
	s.waitFor("more words, not all", func(f string) bool {
		return strings.Contains(f, "Answering…") && strings.Contains(f, "word03") && !strings.Contains(f, last)
	})

	s.press(tea.KeyEscape, 0)
	select {
	case <-srv.Disconnected():
	case <-time.After(5 * time.Second):
		t.Fatal("Esc did not close the HTTP stream: the server never saw the client go")
	}
	s.waitIdle("word01 word02 word03", "⏹ stopped")
	stopped := s.screen.current()
	if strings.Contains(stopped, last) {
		t.Fatalf("the whole answer arrived before Esc could stop it:\n%s", stopped)
	}

	// The rest never comes: the server would have sent several more words
	// in this time had the stream still been open.
	time.Sleep(3 * delay)
	if now := s.screen.current(); now != stopped {
		t.Errorf("the screen changed after the stream was stopped:\nat stop:\n%s\nlater:\n%s", stopped, now)
	}
	if n := srv.Completed(); n != 0 {
		t.Errorf("the server finished %d streams; the stopped one must not have ended", n)
	}

	// The debug pane says who wrote it and how soon the first word came.
	s.press(tea.KeyF3, 0)
	s.press(tea.KeyTab, 0)
	for range 30 {
		s.press(tea.KeyDown, 0)
	}
	ttft := regexp.MustCompile(`ttft +(\d+) ms`)
	s.waitFor("the answer in the debug pane", func(f string) bool {
		return strings.Contains(f, "model     openai · "+testModel) && ttft.MatchString(f)
	})
	frame := s.screen.current()
	ms, _ := strconv.Atoi(ttft.FindStringSubmatch(frame)[1])
	if ms < int(delay.Milliseconds()) {
		t.Errorf("ttft %d ms, but the server waited %v before the first word:\n%s", ms, delay, frame)
	}
	if !strings.Contains(frame, "openai · "+testModel+" │") {
		t.Errorf("the status bar does not name the provider and model:\n%s", frame)
	}
}

// flat is a frame with its lines joined, so text wrapped across lines can
// be found.
func flat(frame string) string { return strings.Join(strings.Fields(frame), " ") }

// say types a line and waits until the frame, unwrapped, shows want.
func (s *session) say(line string, want ...string) {
	s.t.Helper()
	s.typeText(line)
	s.enter()
	s.waitFor(strings.Join(want, ", "), func(f string) bool {
		return !strings.Contains(f, "Loading the context") && !strings.Contains(f, "Answering…") &&
			containsAll(flat(f), want...)
	})
}

func TestContextCommandAttachesAppState(t *testing.T) {
	t.Chdir(t.TempDir())
	state := `{
  "page": "settings",
  "plan": "pro",
  "widgets": [
    {"name": "Recent", "state": "collapsed", "items": 12},
    {"name": "Quick Links", "links": 3},
    {"name": "Calendar", "state": "expanded"}
  ]
}`
	broken := "{\n  \"page\": \"settings\",\n  \"widgets\": [\n}\n"
	for name, data := range map[string]string{"state.json": state, "broken.json": broken} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Pin ", "it."}})
	b, st := openAISession(t, srv)
	s := start(t, b, st, 100, 30)

	s.say("/context", "No context attached: /context FILE attaches")
	s.say("/context state.json", "Context loaded from state.json: page: settings (2 lines, 3 widgets)")
	s.say("what is quick links", "› what is quick links Pin it.")
	body := lastRequest(t, srv)
	for _, want := range []string{"page: settings", "widget Recent: collapsed, 12 items", "widget Calendar: expanded"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("the answer's request lacks the attached %q:\n…%s", want, tail(body))
		}
	}

	s.say("/context broken.json", "Context not loaded: app state broken.json: invalid JSON at line 4, column 1",
		"(state.json stays attached)")
	s.say("/context missing.json", "Context not loaded: read app state: open missing.json: no such file or directory")
	s.say("/context", "Context attached from state.json: page: settings (2 lines, 3 widgets)")

	s.say("/context off", "Context from state.json detached.")
	s.say("explain workspace", "› explain workspace Pin it.")
	if body := lastRequest(t, srv); bytes.Contains(body, []byte("widget Recent")) {
		t.Errorf("the app state is still sent after /context off:\n…%s", tail(body))
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2: commands must not reach it", n)
	}
}

func lastRequest(t *testing.T, srv *llmtest.Server) []byte {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	return reqs[len(reqs)-1].Body
}

// tail is the end of a request body, where the session context and the
// question are.
func tail(body []byte) []byte { return body[max(len(body)-600, 0):] }
