package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/docent-sh/docent/textsafe"
)

// Passage is one retrieved chunk a judging call shows the model.
type Passage struct {
	ID    string // the chunk id the model must answer with
	Title string
	Text  string
}

// Verdict is the model's answer to whether passages answer a question.
type Verdict struct {
	Answerable bool
	Reason     string // one line, clipped, without control sequences
}

// maxPassageChars bounds each passage's text in a judging prompt: the
// model judges relevance, for which the start of a chunk is enough, and
// top_k × 3 whole chunks would cost more than the answer.
const maxPassageChars = 1200

// maxReasonChars bounds the reason of a verdict shown in a note.
const maxReasonChars = 200

// ErrNoModel is returned by the judging calls when there is no model to
// ask: the provider is extractive, or it lacks its key.
var ErrNoModel = errors.New("no model to ask: the provider is extractive or not set up")

// judgeError is a failed judging call: its message is the one-line,
// redacted notice the classifier wrote; errors.Is still sees the cause
// (context.DeadlineExceeded on a timeout).
type judgeError struct {
	notice string
	err    error
}

func (e *judgeError) Error() string { return e.notice }
func (e *judgeError) Unwrap() error { return e.err }

const rerankSystem = `You rank documentation passages by how well they answer a question.
Reply with JSON only, no prose and no code fence, exactly of this form:
{"scores":[{"id":"<passage id>","score":<number from 0 to 1>}]}
Give every passage id listed exactly once and no other id. 1 means the passage answers the question, 0 that it is unrelated.`

const answerableSystem = `You check whether documentation passages answer a question.
Reply with JSON only, no prose and no code fence, exactly of this form:
{"answerable":true,"reason":"<one short sentence>"}
answerable is true only if the passages contain what is needed to answer the question; otherwise false, and the reason says what is missing.`

// Rerank asks the model to score each passage's relevance to question,
// in one non-streaming call, and returns the scores by passage id. The
// reply is parsed strictly (ParseRerank): any id missing, unknown or
// repeated, or a score that is not a number from 0 to 1, fails the call.
// ctx bounds the call; the caller sets its timeout.
func (r *Responder) Rerank(ctx context.Context, question string, passages []Passage) (map[string]float64, error) {
	out, err := r.judge(ctx, rerankSystem, judgePrompt(question, passages))
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(passages))
	for i, p := range passages {
		ids[i] = p.ID
	}
	scores, err := ParseRerank(out, ids)
	if err != nil {
		return nil, fmt.Errorf("%s: rerank: %w", r.sel.Provider, err)
	}
	return scores, nil
}

// Answerable asks the model whether passages answer question, in one
// non-streaming call; the reply is parsed strictly (ParseAnswerable).
func (r *Responder) Answerable(ctx context.Context, question string, passages []Passage) (Verdict, error) {
	out, err := r.judge(ctx, answerableSystem, judgePrompt(question, passages))
	if err != nil {
		return Verdict{}, err
	}
	v, err := ParseAnswerable(out)
	if err != nil {
		return Verdict{}, fmt.Errorf("%s: answerability: %w", r.sel.Provider, err)
	}
	return v, nil
}

// CanJudge reports whether there is a model to make judging calls to:
// false for the extractive provider and for one without its key.
func (r *Responder) CanJudge() bool { return r.model != nil }

// judgePrompt lists the question and the passages, each under its id.
func judgePrompt(question string, passages []Passage) string {
	var b strings.Builder
	b.WriteString("Question: " + textsafe.Line(question) + "\n\nPassages:\n")
	for _, p := range passages {
		fmt.Fprintf(&b, "\n[id: %s] %s\n%s\n", p.ID, textsafe.Line(p.Title), textsafe.Clip(p.Text, maxPassageChars))
	}
	return b.String()
}

// judge makes one non-streaming call and returns the model's text. There
// are no retries: a judging call is an optional refinement under a short
// timeout, and the turn goes on without it.
func (r *Responder) judge(ctx context.Context, system, user string) ([]byte, error) {
	if r.model == nil {
		return nil, ErrNoModel
	}
	// langchaingo's Ollama client leaves "stream": false out of a request
	// without a streaming function, and Ollama streams by default: the
	// client then reads the stream whole, so it is validated as one.
	a := &attempt{whole: r.sel.Provider != ProviderOllama}
	resp, err := r.model.GenerateContent(withAttempt(ctx, a), []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, system),
		llms.TextParts(llms.ChatMessageTypeHuman, user),
	}, llms.WithTemperature(0))
	if err == nil && a.snapshot().streamErr != nil {
		err = a.snapshot().streamErr
	}
	if err == nil && (resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil) {
		err = errEmptyAnswer
	}
	if err != nil {
		fail := r.classify(err, a.snapshot(), context.Cause(ctx))
		if ctx.Err() != nil {
			fail.notice = fmt.Sprintf("%s: no answer in time (%v)", r.sel.Provider, context.Cause(ctx))
			err = errors.Join(err, ctx.Err())
		}
		return nil, &judgeError{notice: textsafe.Clip(Redact(fail.notice, r.sel.apiKey), 240), err: err}
	}
	return []byte(resp.Choices[0].Content), nil
}

// ParseRerank reads a reranking reply: one JSON object
// {"scores":[{"id":"…","score":0.8},…]} and nothing else but white space,
// naming every id of ids exactly once and no other, each score a number
// from 0 to 1. Anything else is an error: a reply that does not follow
// the format is not trusted in part.
func ParseRerank(data []byte, ids []string) (map[string]float64, error) {
	var reply struct {
		Scores []struct {
			ID    *string         `json:"id"`
			Score json.RawMessage `json:"score"`
		} `json:"scores"`
	}
	if err := decodeStrict(data, &reply); err != nil {
		return nil, err
	}
	if reply.Scores == nil {
		return nil, errors.New(`no "scores" list`)
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	out := make(map[string]float64, len(ids))
	for i, s := range reply.Scores {
		if s.ID == nil {
			return nil, fmt.Errorf("score %d has no id", i)
		}
		id := *s.ID
		if !want[id] {
			return nil, fmt.Errorf("score %d names an id not given: %q", i, textsafe.Clip(textsafe.Line(id), 60))
		}
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("id %q scored twice", textsafe.Clip(textsafe.Line(id), 60))
		}
		v, err := unitNumber(s.Score)
		if err != nil {
			return nil, fmt.Errorf("score of %q: %w", textsafe.Clip(textsafe.Line(id), 60), err)
		}
		out[id] = v
	}
	if len(out) != len(want) {
		return nil, fmt.Errorf("%d of %d ids scored", len(out), len(want))
	}
	return out, nil
}

// ParseAnswerable reads an answerability reply: one JSON object
// {"answerable":true|false,"reason":"…"} and nothing else but white
// space; answerable is required and must be a boolean, reason a string
// when present.
func ParseAnswerable(data []byte) (Verdict, error) {
	var reply struct {
		Answerable *bool   `json:"answerable"`
		Reason     *string `json:"reason"`
	}
	if err := decodeStrict(data, &reply); err != nil {
		return Verdict{}, err
	}
	if reply.Answerable == nil {
		return Verdict{}, errors.New(`no "answerable" boolean`)
	}
	v := Verdict{Answerable: *reply.Answerable}
	if reply.Reason != nil {
		v.Reason = textsafe.Clip(textsafe.Line(*reply.Reason), maxReasonChars)
	}
	return v, nil
}

// decodeStrict decodes exactly one JSON object into v, refusing unknown
// fields and anything after it but white space.
func decodeStrict(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("the reply is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the reply is not the JSON asked for: %s", textsafe.Clip(textsafe.Line(err.Error()), 120))
	}
	if dec.More() || dec.InputOffset() != int64(len(trimmed)) {
		return errors.New("the reply has more after its JSON object")
	}
	return nil
}

// unitNumber is a JSON number from 0 to 1.
func unitNumber(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return 0, errors.New("not a number")
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, errors.New("not a number")
	}
	if math.IsNaN(v) || v < 0 || v > 1 {
		return 0, fmt.Errorf("%v is not from 0 to 1", v)
	}
	return v, nil
}

// Complete makes one non-streaming call with the given system and user
// messages, at temperature 0, and returns the model's text as it came:
// for callers that ask for their own strict JSON (the quiz generator and
// its level classifier) and parse it themselves. It fails like the
// judging calls: ErrNoModel without a model, a one-line redacted error
// otherwise, with no retries.
func (r *Responder) Complete(ctx context.Context, system, user string) ([]byte, error) {
	return r.judge(ctx, system, user)
}
