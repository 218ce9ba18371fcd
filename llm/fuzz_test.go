package llm

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// The stream validator reads whatever a server (or a proxy in front of
// it) sends. Whatever the bytes and however the network splits them, it
// must not panic, must decide the same way, must release only what the
// stream held, in order, and must word its error without a control
// character, since the error reaches a notice on the terminal.

func FuzzOpenAIStream(f *testing.F) {
	fuzzValidator(f, openAIStreamLine, false,
		"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n: keep-alive\n\ndata: [DONE]\n\n",
		"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":20}}\r\n\r\ndata: [DONE]\r\n\r\n",
		"event: x\nid: 1\nretry: 10\ndata:{\"choices\":[]}\ndata:[DONE]",
		"data: {\"choices\":[\n\n",
		"data: {\"error\":{\"message\":\"overloaded\"}}\n\n",
		"<html>502 Bad Gateway</html>\n",
		"data: [DONE]\n\ndata: not json after the end\n",
		"data: \"\x1b]0;title\x07\"\n",
		"data: {\"error\":{\"message\":\"\\u001b[31mred\\u0007\"}}\n\n",
	)
}

func FuzzAnthropicStream(f *testing.F) {
	fuzzValidator(f, anthropicStreamLine, true,
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":100,\"output_tokens\":1}}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n"+
			"event: ping\ndata: {\"type\":\"ping\"}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		"event: future_event\ndata: {\"type\":\"future_event\",\"x\":1}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		"data: {\"x\":1}\n\n",
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":\n\n",
		"data: {\"type\":\"error\",\"error\":{\"type\":\"\x1b[31m\",\"message\":\"\x9b2J\"}}\n",
	)
}

func FuzzOllamaStream(f *testing.F) {
	fuzzValidator(f, ollamaStreamLine, false,
		"{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true,\"prompt_eval_count\":100,\"eval_count\":20}\n",
		"{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"done\":true}",
		"{\"message\":{\"content\":\"Hi\"},\"done\":false}\n",
		"{\"message\":\n",
		"{\"error\":\"out of memory\"}\n",
		"\n\n{\"done\":true}\n",
		"{\"error\":\"\x1b]8;;http://x\x07link\"}\n",
	)
}

// fuzzValidator seeds f with streams and checks each input with
// checkValidator, the stream split at every size the fuzzer picks.
func fuzzValidator(f *testing.F, proto wireProtocol, drops bool, seeds ...string) {
	for _, seed := range seeds {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, stream []byte, split uint8) {
		checkValidator(t, proto, stream, int(split), drops)
	})
}

// checkValidator reads stream through the validator whole and in pieces
// of split+1 bytes, and checks that both readings agree and keep the
// validator's promises. drops says the protocol may leave lines out.
func checkValidator(t *testing.T, proto wireProtocol, stream []byte, split int, drops bool) {
	whole, wholeErr, wholeRes := validate(proto, bytes.NewReader(stream))
	pieces, piecesErr, piecesRes := validate(proto, &pieceReader{b: stream, n: split + 1})
	if !bytes.Equal(whole, pieces) || (wholeErr == nil) != (piecesErr == nil) || wholeRes.completed != piecesRes.completed {
		t.Fatalf("the reading depends on how the stream is split:\nwhole:  %q, %v\npieces: %q, %v", whole, wholeErr, pieces, piecesErr)
	}
	if wholeErr == nil {
		if !wholeRes.completed {
			t.Fatalf("a stream without its end marker passed: %q", stream)
		}
		if !drops && !bytes.Equal(whole, stream) {
			t.Fatalf("released %q, want the stream unchanged", whole)
		}
	} else {
		if wholeRes.streamErr == nil {
			t.Fatal("the attempt did not record the stream error")
		}
		if msg := wholeErr.Error(); !utf8.ValidString(msg) || strings.ContainsFunc(msg, unicode.IsControl) {
			t.Fatalf("error %q holds a control character or invalid UTF-8", msg)
		}
	}
	if !isSubsequenceOfLines(whole, stream) {
		t.Fatalf("released %q, which is not lines of the stream in order", whole)
	}
}

func validate(proto wireProtocol, r io.Reader) ([]byte, error, attemptResult) {
	a := &attempt{}
	body := &validatingBody{src: io.NopCloser(r), proto: proto, attempt: a}
	out, err := io.ReadAll(body)
	return out, err, a.snapshot()
}

// isSubsequenceOfLines reports whether out is made of whole lines of in,
// in their order (a line keeps its newline).
func isSubsequenceOfLines(out, in []byte) bool {
	for len(out) > 0 {
		if len(in) == 0 {
			return false
		}
		line := in
		if i := bytes.IndexByte(in, '\n'); i >= 0 {
			line = in[:i+1]
		}
		in = in[len(line):]
		if bytes.HasPrefix(out, line) {
			out = out[len(line):]
		}
	}
	return true
}

// pieceReader returns at most n bytes a read, as a network does.
type pieceReader struct {
	b []byte
	n int
}

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[n:]
	return n, nil
}

// FuzzErrorResponse covers what the transport reads from an error
// response: the Retry-After header and the body's error code.
func FuzzErrorResponse(f *testing.F) {
	for _, seed := range []struct{ retryAfter, body string }{
		{"2", `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`},
		{"Wed, 21 Oct 2015 07:28:00 GMT", `{"type":"error","error":{"type":"rate_limit_error","message":"rate limited"}}`},
		{"-1", `{"error":"model \"x\" not found"}`},
		{"99999999999999999999", `{"error":{"code":503,"type":"server_error"}}`},
		{"Sunday, 06-Nov-94 08:49:37 GMT", `<html>502</html>`},
	} {
		f.Add(seed.retryAfter, []byte(seed.body))
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, retryAfter string, body []byte) {
		if d := parseRetryAfter(retryAfter, now); d < 0 || d > maxRetryAfter {
			t.Fatalf("parseRetryAfter(%q) = %s, outside [0, %s]", retryAfter, d, maxRetryAfter)
		}
		if code := errorCode(body); code != "" && !isCode(code) {
			t.Fatalf("errorCode(%q) = %q, not a short identifier", body, code)
		}
	})
}

// FuzzModelList covers the listing parser: any body, for any provider,
// gives names that are non-empty single lines without control characters.
func FuzzModelList(f *testing.F) {
	for _, seed := range []struct {
		provider uint8
		body     string
	}{
		{0, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1700000000,"owned_by":"system"}]}`},
		{1, `{"data":[{"type":"model","id":"claude-3-5-haiku-latest","display_name":"Claude"}],"has_more":true,"first_id":"a","last_id":"claude-3-5-haiku-latest"}`},
		{2, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`},
		{2, `{"models":[{"name":"","model":"\u001b[31mred"}]}`},
		{0, `{"data":null}`},
		{1, `<html>404</html>`},
	} {
		f.Add(seed.provider, []byte(seed.body))
	}
	providers := []string{ProviderOpenAI, ProviderAnthropic, ProviderOllama}
	f.Fuzz(func(t *testing.T, provider uint8, body []byte) {
		p := providers[int(provider)%len(providers)]
		names, next, err := parseModelList(p, body)
		if err != nil {
			if len(names) > 0 || next != "" {
				t.Fatalf("an error with names %q and next %q", names, next)
			}
			if msg := err.Error(); !utf8.ValidString(msg) || strings.ContainsFunc(msg, unicode.IsControl) {
				t.Fatalf("error %q holds a control character or invalid UTF-8", msg)
			}
		}
		for _, n := range names {
			if n == "" || !utf8.ValidString(n) || strings.ContainsFunc(n, unicode.IsControl) {
				t.Fatalf("model name %q is empty, invalid UTF-8 or holds a control character", n)
			}
		}
		if next != "" && p != ProviderAnthropic {
			t.Fatalf("%s listing asked for a next page", p)
		}
	})
}
