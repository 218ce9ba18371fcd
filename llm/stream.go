package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// Stream validation covers what langchaingo v0.1.14's clients let through
// (checked against each client with llmtest's servers):
//   - OpenAI: a data line that is not JSON and an {"error": …} frame are
//     skipped without a word, and a stream that ends without "data: [DONE]"
//     is taken for a complete answer;
//   - Ollama: a stream that ends before its "done": true line is taken for
//     a complete answer, and an {"error": …} line becomes an error carrying
//     only the message;
//   - Anthropic: an error event becomes a Go map printed into a string, a
//     stream closed before message_stop becomes "no response", and an
//     unknown event type is written with the standard logger, over the TUI.
//
// So each provider's stream passes through one line check before the
// client reads it, and every client then sees the same clear failure: a
// read error, recorded on the attempt.

// wireProtocol checks one line of a provider's stream: it says whether to
// pass the line on, drop it, or take it as the stream's end marker, and
// returns an error when the line is malformed or reports a failure.
type wireProtocol func(line []byte) (lineAction, error)

type lineAction int

const (
	linePass lineAction = iota
	lineDrop
	lineEnd
)

// errMalformed marks a stream that does not follow its protocol.
var errMalformed = errors.New("malformed stream")

// streamFailure is an error the provider reported inside a 200 stream.
// Its message is cleaned when made: it came from the network and goes to
// notices and logs.
type streamFailure struct{ message string }

func newStreamFailure(message string) *streamFailure {
	return &streamFailure{message: textsafe.Line(message)}
}

func (e *streamFailure) Error() string { return "error in stream: " + e.message }

// openAIStreamLine checks OpenAI chat-completions server-sent events.
func openAIStreamLine(line []byte) (lineAction, error) {
	data, ok, err := sseData(line)
	if !ok || err != nil {
		return linePass, err
	}
	if string(data) == "[DONE]" {
		return lineEnd, nil
	}
	var frame struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &frame); err != nil {
		return linePass, fmt.Errorf("%w: data is not JSON %s", errMalformed, excerpt(data))
	}
	if frame.Error != nil {
		return linePass, newStreamFailure(frame.Error.Message)
	}
	return linePass, nil
}

// anthropicStreamLine checks Anthropic messages server-sent events.
func anthropicStreamLine(line []byte) (lineAction, error) {
	data, ok, err := sseData(line)
	if !ok || err != nil {
		return linePass, err
	}
	var event struct {
		Type  string `json:"type"`
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &event); err != nil {
		return linePass, fmt.Errorf("%w: data is not JSON %s", errMalformed, excerpt(data))
	}
	switch event.Type {
	case "":
		return linePass, fmt.Errorf("%w: event without a type %s", errMalformed, excerpt(data))
	case "message_stop":
		return lineEnd, nil
	case "error":
		msg := "unknown error"
		if event.Error != nil {
			msg = strings.TrimSpace(event.Error.Type + ": " + event.Error.Message)
		}
		return linePass, newStreamFailure(msg)
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "ping":
		return linePass, nil
	}
	// Anthropic may add event types; langchaingo's client reports unknown
	// ones with the standard logger, which would write over the TUI, so
	// they are dropped here (a client must ignore them anyway).
	return lineDrop, nil
}

// ollamaStreamLine checks Ollama /api/chat newline-delimited JSON.
func ollamaStreamLine(line []byte) (lineAction, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return linePass, nil
	}
	var frame struct {
		Done  bool   `json:"done"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &frame); err != nil {
		return linePass, fmt.Errorf("%w: line is not JSON %s", errMalformed, excerpt(line))
	}
	if frame.Error != "" {
		return linePass, newStreamFailure(frame.Error)
	}
	if frame.Done {
		return lineEnd, nil
	}
	return linePass, nil
}

// sseData returns the payload of a "data:" line. Blank lines, comments and
// the other SSE fields are valid and carry no data; anything else is not
// server-sent events at all.
func sseData(line []byte) ([]byte, bool, error) {
	line = bytes.TrimRight(line, "\r")
	if len(line) == 0 || line[0] == ':' {
		return nil, false, nil
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	switch string(field) {
	case "data":
		return bytes.TrimSpace(value), true, nil
	case "event", "id", "retry":
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("%w: not a server-sent event line %s", errMalformed, excerpt(line))
}

// excerpt shows the start of a bad frame in a notice: enough to recognize
// it, cleaned of anything a terminal would interpret.
func excerpt(b []byte) string {
	return "(" + textsafe.Clip(string(b), 32) + ")"
}

// validatingBody passes a stream through line by line, releasing a line to
// the client only after the protocol accepted it. A malformed line, a
// failure reported in the stream or an end before the end marker becomes a
// read error (and is recorded on the attempt), so every client sees the
// same clear failure instead of skipping bad frames or, as langchaingo's
// Ollama client does, taking a truncated stream for a complete one.
type validatingBody struct {
	src     io.ReadCloser
	proto   wireProtocol
	attempt *attempt

	raw  []byte // read but not yet split into lines
	out  []byte // validated, waiting for the client
	done bool   // end marker seen: the rest passes unchecked
	err  error  // sticky
	buf  [4096]byte
}

func (b *validatingBody) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		n, err := b.src.Read(b.buf[:])
		b.raw = append(b.raw, b.buf[:n]...)
		b.releaseLines()
		if err != nil && b.err == nil {
			b.finish(err)
		}
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

func (b *validatingBody) releaseLines() {
	for b.err == nil {
		i := bytes.IndexByte(b.raw, '\n')
		if i < 0 {
			return
		}
		line := b.raw[:i+1]
		keep := b.check(bytes.TrimRight(line, "\r\n"))
		if b.err != nil {
			return
		}
		if keep {
			b.out = append(b.out, line...)
		}
		b.raw = b.raw[i+1:]
	}
}

// check validates one line and reports whether to pass it on.
func (b *validatingBody) check(line []byte) bool {
	if b.done {
		return true
	}
	action, err := b.proto(line)
	if err != nil {
		b.fail(err)
		return false
	}
	switch action {
	case lineEnd:
		b.done = true
		b.attempt.setCompleted()
	case lineDrop:
		return false
	}
	return true
}

// finish handles the end of the source: a last line without a newline,
// then either a clean end after the marker or a broken stream.
func (b *validatingBody) finish(readErr error) {
	if len(b.raw) > 0 {
		keep := b.check(b.raw)
		if b.err != nil {
			return
		}
		if keep {
			b.out = append(b.out, b.raw...)
		}
		b.raw = nil
	}
	switch {
	case readErr == io.EOF && b.done:
		b.err = io.EOF
	case readErr == io.EOF:
		b.fail(fmt.Errorf("stream ended before its end marker: %w", io.ErrUnexpectedEOF))
	default:
		b.fail(fmt.Errorf("stream broke off: %w", readErr))
	}
}

func (b *validatingBody) fail(err error) {
	b.err = err
	b.attempt.setStreamErr(err)
}

func (b *validatingBody) Close() error { return b.src.Close() }
