package server_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/docent-sh/docent/llm/llmtest"
)

// A stream outlives the server's ReadTimeout: that bounds reading the
// request, and must not cancel the answer being written.
func TestStreamOutlivesReadTimeout(t *testing.T) {
	_, sel := openAI(t, llmtest.Script{Chunks: []string{"a ", "b ", "c ", "d ", "e"}, Delay: 150 * time.Millisecond})
	f := newFixture(t, fixtureOptions{writer: sel})
	f.srv.Close()
	f.srv = httptest.NewUnstartedServer(f.srv.Config.Handler)
	f.srv.Config.ReadTimeout = 200 * time.Millisecond
	f.srv.Start()
	defer f.srv.Close()
	resp := postAsk(t, context.Background(), f, f.alice, `{"query": "explain workspace"}`)
	defer resp.Body.Close()
	frames := readFrames(t, resp, nil)
	if last := frames[len(frames)-1]; last.event != "done" || strings.Contains(last.data, `"stopped":true`) {
		t.Fatalf("last frame %v", last)
	}
}
