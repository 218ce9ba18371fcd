package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/server"
)

type frame struct {
	event string
	data  string
}

// readFrames reads server-sent events until the stream ends or stop says
// so after a frame.
func readFrames(t *testing.T, resp *http.Response, stop func(frame) bool) []frame {
	t.Helper()
	var frames []frame
	var cur frame
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		case line == "":
			frames = append(frames, cur)
			if stop != nil && stop(cur) {
				return frames
			}
			cur = frame{}
		default:
			t.Fatalf("not a server-sent event line: %q", line)
		}
	}
	return frames
}

func openAI(t *testing.T, script llmtest.Script) (*llmtest.Server, llm.Selection) {
	t.Helper()
	srv := llmtest.NewOpenAI(t, script)
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderOpenAI, BaseURL: srv.BaseURL(), Model: "gpt-test"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	return srv, sel
}

func postAsk(t *testing.T, ctx context.Context, f *fixture, token, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", f.srv.URL+"/api/ask", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// /api/ask streams status, evidence, the model's tokens as they come,
// its citations and done, in that order, through the real OpenAI client
// against llmtest's server.
func TestAskStreamsFramesInOrder(t *testing.T) {
	pieces := []string{"A workspace is an area ", "inside an entry [concepts/", "workspace#chunk-0]."}
	llmSrv, sel := openAI(t, llmtest.Script{Chunks: pieces, Usage: llmtest.Usage{PromptTokens: 321, CompletionTokens: 12}})
	f := newFixture(t, fixtureOptions{writer: sel})
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "explain workspace"}`)
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	frames := readFrames(t, resp, nil)
	var events []string
	for _, fr := range frames {
		if len(events) == 0 || events[len(events)-1] != fr.event {
			events = append(events, fr.event)
		}
	}
	if want := []string{"status", "evidence", "token", "citation", "done"}; !slices.Equal(events, want) {
		t.Fatalf("frames %v, want %v:\n%v", events, want, frames)
	}
	var status struct{ Status, Rule string }
	json.Unmarshal([]byte(frames[0].data), &status)
	if status.Status != "found" {
		t.Errorf("status frame %s", frames[0].data)
	}
	var ev struct {
		Evidence []struct {
			ChunkID string `json:"chunk_id"`
			Title   string
			Score   float64
		}
	}
	json.Unmarshal([]byte(frames[1].data), &ev)
	if len(ev.Evidence) == 0 || ev.Evidence[0].ChunkID == "" || ev.Evidence[0].Title == "" || ev.Evidence[0].Score <= 0 {
		t.Errorf("evidence frame %s", frames[1].data)
	}
	var text strings.Builder
	for _, fr := range frames {
		if fr.event == "token" {
			var tok struct{ Text string }
			json.Unmarshal([]byte(fr.data), &tok)
			text.WriteString(tok.Text)
		}
	}
	if text.String() != strings.Join(pieces, "") {
		t.Errorf("tokens make %q, want %q", text.String(), strings.Join(pieces, ""))
	}
	var cit struct {
		N     int
		ID    string
		Known bool
	}
	json.Unmarshal([]byte(frames[len(frames)-2].data), &cit)
	if cit.N != 1 || cit.ID != "concepts/workspace#chunk-0" || !cit.Known {
		t.Errorf("citation frame %s", frames[len(frames)-2].data)
	}
	var done struct {
		Called  bool
		Model   string
		Usage   llm.Usage
		Timings struct {
			RetrievalMS float64 `json:"retrieval_ms"`
			TotalMS     float64 `json:"total_ms"`
		}
	}
	json.Unmarshal([]byte(frames[len(frames)-1].data), &done)
	if !done.Called || done.Model != "gpt-test" || done.Usage != (llm.Usage{PromptTokens: 321, CompletionTokens: 12, Reported: true}) ||
		done.Timings.TotalMS <= 0 || done.Timings.TotalMS < done.Timings.RetrievalMS {
		t.Errorf("done frame %s", frames[len(frames)-1].data)
	}
	if llmSrv.Completed() != 1 {
		t.Errorf("model calls completed: %d, want 1", llmSrv.Completed())
	}
}

// A clarification streams docent's own reply and no model call.
func TestAskClarifiesWithoutTheModel(t *testing.T) {
	llmSrv, sel := openAI(t, llmtest.Script{Chunks: []string{"never"}})
	f := newFixture(t, fixtureOptions{writer: sel})
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "what's the weather in Berlin"}`)
	defer resp.Body.Close()
	frames := readFrames(t, resp, nil)
	if len(frames) < 3 || frames[0].event != "status" || !strings.Contains(frames[0].data, `"no_match"`) || frames[len(frames)-1].event != "done" {
		t.Fatalf("frames %v", frames)
	}
	if len(llmSrv.Requests()) != 0 {
		t.Errorf("a clarification called the model")
	}
}

// A client that leaves mid-answer cancels the model call.
func TestAskDisconnectCancelsTheModelCall(t *testing.T) {
	llmSrv, sel := openAI(t, llmtest.Script{Chunks: []string{"A workspace ", "is ", "never finished"}, StallAfter: 1})
	f := newFixture(t, fixtureOptions{writer: sel})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := postAsk(t, ctx, f, f.alice, `{"query": "explain workspace"}`)
	defer resp.Body.Close()
	frames := readFrames(t, resp, func(fr frame) bool { return fr.event == "token" })
	if frames[len(frames)-1].event != "token" {
		t.Fatalf("no token before the stall: %v", frames)
	}
	cancel()
	select {
	case <-llmSrv.Disconnected():
	case <-time.After(10 * time.Second):
		t.Fatal("the model call went on after the client left")
	}
	// The stream is no longer counted.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, body := f.do("GET", "/metrics", "", "")
		if strings.Contains(string(body), "docent_sse_streams_in_flight 0") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream is still counted in flight")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A model that fails is stood in for by the extractive answer: done says
// so, and the fallback is counted.
func TestAskModelFailureFallsBack(t *testing.T) {
	_, sel := openAI(t, llmtest.Script{Statuses: []int{500, 500, 500, 500}})
	f := newFixture(t, fixtureOptions{writer: sel})
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "explain workspace"}`)
	defer resp.Body.Close()
	frames := readFrames(t, resp, nil)
	last := frames[len(frames)-1]
	if last.event != "done" || !strings.Contains(last.data, `"fallback":true`) || !strings.Contains(last.data, `"notice"`) {
		t.Fatalf("last frame %v", last)
	}
	_, body := f.do("GET", "/metrics", "", "")
	if !strings.Contains(string(body), `docent_fallbacks_total{kind="writer"} 1`) {
		t.Errorf("the writer's fallback is not counted")
	}
}

// A stream that outlasts --stream-timeout ends with a timeout error frame,
// and its model call is cancelled.
func TestAskStreamTimeout(t *testing.T) {
	llmSrv, sel := openAI(t, llmtest.Script{Chunks: []string{"A workspace ", "never ends"}, StallAfter: 1})
	f := newFixture(t, fixtureOptions{writer: sel, limits: server.Limits{StreamTimeout: 500 * time.Millisecond}})
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "explain workspace"}`)
	defer resp.Body.Close()
	frames := readFrames(t, resp, nil)
	last := frames[len(frames)-1]
	if last.event != "error" || !strings.Contains(last.data, `"code":"timeout"`) {
		t.Fatalf("last frame %v", last)
	}
	select {
	case <-llmSrv.Disconnected():
	case <-time.After(5 * time.Second):
		t.Fatal("the model call went on after the stream timed out")
	}
}

// A model's answer counts its time to first token and the tokens its
// provider reported.
func TestAskModelMetrics(t *testing.T) {
	_, sel := openAI(t, llmtest.Script{Chunks: []string{"A workspace ", "is an area."}, Usage: llmtest.Usage{PromptTokens: 321, CompletionTokens: 12}})
	f := newFixture(t, fixtureOptions{writer: sel})
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "explain workspace"}`)
	readFrames(t, resp, nil)
	resp.Body.Close()
	_, body := f.do("GET", "/metrics", "", "")
	for _, want := range []string{
		`docent_llm_tokens_total{kind="prompt"} 321`,
		`docent_llm_tokens_total{kind="completion"} 12`,
		`docent_llm_time_to_first_token_seconds_count 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
