package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestValidatingBody(t *testing.T) {
	const openAIGood = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n: keep-alive\n\ndata: [DONE]\n\n"
	const anthropicGood = "event: message_start\ndata: {\"type\":\"message_start\"}\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	const ollamaGood = "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true}\n"
	tests := []struct {
		name      string
		proto     wireProtocol
		stream    string
		wantErr   error  // nil: the stream passes through unchanged
		wantText  string // in the error
		completed bool
	}{
		{name: "openai complete", proto: openAIStreamLine, stream: openAIGood, completed: true},
		{name: "openai no done", proto: openAIStreamLine, stream: "data: {\"choices\":[]}\n\n", wantErr: io.ErrUnexpectedEOF, wantText: "end marker"},
		{name: "openai bad json", proto: openAIStreamLine, stream: "data: {\"choices\":[\n\n", wantErr: errMalformed, wantText: "not JSON"},
		{name: "openai not sse", proto: openAIStreamLine, stream: "<html>502 Bad Gateway</html>\n", wantErr: errMalformed, wantText: "not a server-sent event"},
		{name: "openai error frame", proto: openAIStreamLine, stream: "data: {\"error\":{\"message\":\"overloaded\"}}\n\n", wantText: "error in stream: overloaded"},
		{name: "anthropic complete", proto: anthropicStreamLine, stream: anthropicGood, completed: true},
		{name: "anthropic untyped", proto: anthropicStreamLine, stream: "data: {\"x\":1}\n\n", wantErr: errMalformed, wantText: "without a type"},
		{name: "anthropic error event", proto: anthropicStreamLine,
			stream: "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", wantText: "overloaded_error: Overloaded"},
		{name: "ollama complete", proto: ollamaStreamLine, stream: ollamaGood, completed: true},
		{name: "ollama last line without newline", proto: ollamaStreamLine, stream: strings.TrimSuffix(ollamaGood, "\n"), completed: true},
		{name: "ollama truncated", proto: ollamaStreamLine, stream: "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n", wantErr: io.ErrUnexpectedEOF},
		{name: "ollama bad line", proto: ollamaStreamLine, stream: "{\"message\":\n", wantErr: errMalformed},
		{name: "ollama error line", proto: ollamaStreamLine, stream: "{\"error\":\"out of memory\"}\n", wantText: "out of memory"},
	}
	for _, tt := range tests {
		for _, reader := range []struct {
			name string
			wrap func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"byte by byte", iotest.OneByteReader}} {
			t.Run(tt.name+"/"+reader.name, func(t *testing.T) {
				a := &attempt{}
				body := &validatingBody{src: io.NopCloser(reader.wrap(strings.NewReader(tt.stream))), proto: tt.proto, attempt: a}
				got, err := io.ReadAll(body)
				res := a.snapshot()
				if tt.wantErr == nil && tt.wantText == "" {
					if err != nil || string(got) != tt.stream {
						t.Fatalf("ReadAll = %q, %v; want the stream unchanged", got, err)
					}
				} else {
					if err == nil {
						t.Fatalf("ReadAll = %q with no error", got)
					}
					if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
						t.Errorf("error %v is not %v", err, tt.wantErr)
					}
					if !strings.Contains(err.Error(), tt.wantText) {
						t.Errorf("error %q does not contain %q", err, tt.wantText)
					}
					if res.streamErr == nil {
						t.Errorf("the attempt did not record the stream error")
					}
					if !strings.HasPrefix(tt.stream, string(got)) {
						t.Errorf("released %q, which is not a prefix of the stream", got)
					}
				}
				if res.completed != tt.completed {
					t.Errorf("completed = %v, want %v", res.completed, tt.completed)
				}
			})
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	for in, want := range map[string]string{"": "0s", "3": "3s", " 10 ": "10s", "-1": "0s", "Wed, 21 Oct 2015 07:28:00 GMT": "0s"} {
		if got := parseRetryAfter(in, time.Now()).String(); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

// Unknown Anthropic events are dropped before langchaingo's client would
// report them with the standard logger.
func TestValidatingBodyDropsUnknownAnthropicEvents(t *testing.T) {
	stream := "event: future_event\ndata: {\"type\":\"future_event\",\"x\":1}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	a := &attempt{}
	body := &validatingBody{src: io.NopCloser(strings.NewReader(stream)), proto: anthropicStreamLine, attempt: a}
	got, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	want := "event: future_event\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	if string(got) != want {
		t.Errorf("released %q, want %q", got, want)
	}
	if !a.snapshot().completed {
		t.Error("stream not marked complete")
	}
}

func TestParseRetryAfterForms(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"Sat, 01 Mar 2025 12:00:30 GMT":    30 * time.Second, // IMF-fixdate
		"Saturday, 01-Mar-25 12:01:00 GMT": time.Minute,      // RFC 850
		"Sat Mar  1 12:00:05 2025":         5 * time.Second,  // ANSI C asctime
		"Sat, 01 Mar 2025 11:59:00 GMT":    0,                // already past
		"120":                              2 * time.Minute,
		"99999999999999999999":             0, // not an integer Go can hold
		"9999999999999":                    maxRetryAfter,
		"1.5":                              0,
		"soon":                             0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestErrorCode(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`: "insufficient_quota",
		`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`:                       "rate_limit_exceeded",
		`{"error":{"message":"x","type":"server_error","code":null}}`:                                                     "server_error",
		`{"error":{"message":"x","type":"server_error","code":503}}`:                                                      "server_error",
		`{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`:                                   "rate_limit_error",
		`{"error":"model \"x\" not found"}`:                                                                               "",
		`<html>502 Bad Gateway</html>`:                                                                                    "",
		`{"error":{"code":"not a code, a sentence","type":"server_error"}}`:                                               "server_error",
		`{"error":{"code":"\u001b[31mred","type":"x\u0000"}}`:                                                             "",
	} {
		if got := errorCode([]byte(body)); got != want {
			t.Errorf("errorCode(%s) = %q, want %q", body, got, want)
		}
	}
}
