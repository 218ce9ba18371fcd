package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// brokenSwitch is a kill switch whose store does not answer.
type brokenSwitch struct{}

func (brokenSwitch) RetrievalEnabled(context.Context) (bool, error) {
	return false, errors.New("settings table unreachable")
}

// A warning the session logs while serving a request names the request
// as the access log line does, whether the caller gave the id or the
// server made one; so does the answer writer's line.
func TestSessionLogsCarryTheRequestID(t *testing.T) {
	f := newFixture(t, fixtureOptions{sw: brokenSwitch{}})
	for _, tc := range []struct{ path, given string }{
		{"/api/retrieve", "trace-42"}, {"/api/retrieve", ""}, {"/api/ask", "trace-ask"},
	} {
		given := tc.given
		req, err := http.NewRequest("POST", f.srv.URL+tc.path, strings.NewReader(`{"query": "explain workspace"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+f.alice)
		if given != "" {
			req.Header.Set("X-Request-Id", given)
		}
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		id := resp.Header.Get("X-Request-Id")
		if id == "" || given != "" && id != given {
			t.Fatalf("X-Request-Id %q, want %q or a made one", id, given)
		}
		// The access line is written once the handler returned, which
		// may be after the client read the response.
		var access, warning, retrieval, writer int
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			access, warning, retrieval, writer = countLines(t, f.log.String(), id)
			if access > 0 || time.Now().After(deadline) {
				break
			}
		}
		if access != 1 || warning != 1 || retrieval != 1 {
			t.Errorf("request %s: %d access lines, %d switch warnings and %d retrieval lines with its id, want 1 each:\n%s",
				id, access, warning, retrieval, f.log.String())
		}
		if wantWriter := tc.path == "/api/ask"; (writer == 1) != wantWriter {
			t.Errorf("request %s to %s: %d answer writer lines with its id", id, tc.path, writer)
		}
	}
}

// countLines counts the access lines, switch warnings, retrieval lines
// and answer writer lines of the log that name request id.
func countLines(t *testing.T, log, id string) (access, warning, retrieval, writer int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if strings.Count(line, `"request_id"`) > 1 {
			t.Errorf("request_id written twice: %s", line)
		}
		if m["request_id"] != id {
			continue
		}
		switch m["msg"] {
		case "request":
			access++
		case "read the retrieval switch; keeping the last state":
			warning++
		case "retrieval":
			retrieval++
		case "llm: answer":
			writer++
		}
	}
	return access, warning, retrieval, writer
}
