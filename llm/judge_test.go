package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/llmtest"
)

var judgePassages = []llm.Passage{
	{ID: "a/one#0", Title: "One", Text: "first passage"},
	{ID: "b/two#1", Title: "Two", Text: "second passage"},
}

func TestRerankThroughEachProvider(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		reply := `{"scores":[{"id":"b/two#1","score":0.9},{"id":"a/one#0","score":0.25}]}`
		s := newSetup(t, pc, llmtest.Script{Replies: []string{reply}}, llm.Config{})
		got, err := s.resp.Rerank(context.Background(), "which one?", judgePassages)
		if err != nil {
			t.Fatalf("Rerank: %v", err)
		}
		if got["b/two#1"] != 0.9 || got["a/one#0"] != 0.25 || len(got) != 2 {
			t.Fatalf("scores = %v", got)
		}
		msgs := s.onlyMessages(t)
		user := msgs[len(msgs)-1].Text
		for _, want := range []string{"which one?", "[id: a/one#0] One", "[id: b/two#1] Two", "second passage"} {
			if !strings.Contains(user, want) {
				t.Errorf("user message lacks %q:\n%s", want, user)
			}
		}
		if msgs[0].Role != "system" || !strings.Contains(msgs[0].Text, `{"scores":[`) {
			t.Errorf("system message = %+v", msgs[0])
		}
	})
}

func TestJudgeFailures(t *testing.T) {
	pc := providers[0] // openai
	t.Run("bad JSON", func(t *testing.T) {
		s := newSetup(t, pc, llmtest.Script{Replies: []string{"Sure! Here are the scores."}}, llm.Config{})
		_, err := s.resp.Rerank(context.Background(), "q", judgePassages)
		if err == nil || !strings.Contains(err.Error(), "not a JSON object") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		s := newSetup(t, pc, llmtest.Script{Replies: []string{`{"answerable":true}`}, ReplyDelay: 2 * time.Second}, llm.Config{})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := s.resp.Answerable(ctx, "q", judgePassages)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer in time") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("server error, key redacted", func(t *testing.T) {
		s := newSetup(t, pc, llmtest.Script{Statuses: []int{401}, EchoKey: true}, llm.Config{})
		_, err := s.resp.Rerank(context.Background(), "q", judgePassages)
		if err == nil || !strings.Contains(err.Error(), "authentication failed (401)") || strings.Contains(err.Error(), testKey) {
			t.Fatalf("err = %v", err)
		}
		if n := len(s.srv.Requests()); n != 1 {
			t.Fatalf("%d requests: a judging call is not retried", n)
		}
	})
	t.Run("extractive", func(t *testing.T) {
		if _, err := noModel(t).Rerank(context.Background(), "q", judgePassages); !errors.Is(err, llm.ErrNoModel) {
			t.Fatalf("err = %v, want ErrNoModel", err)
		}
	})
}

func TestAnswerable(t *testing.T) {
	s := newSetup(t, providers[0], llmtest.Script{Replies: []string{
		`{"answerable":false,"reason":"the passages are about billing"}`, ` {"answerable":true,"reason":"ok"} `}}, llm.Config{})
	v, err := s.resp.Answerable(context.Background(), "q", judgePassages)
	if err != nil || v.Answerable || v.Reason != "the passages are about billing" {
		t.Fatalf("first = %+v, %v", v, err)
	}
	v, err = s.resp.Answerable(context.Background(), "q", judgePassages)
	if err != nil || !v.Answerable || v.Reason != "ok" {
		t.Fatalf("second = %+v, %v", v, err)
	}
}

func TestParseRerank(t *testing.T) {
	ids := []string{"x", "y"}
	for _, tc := range []struct {
		in   string
		want map[string]float64 // nil: rejected
	}{
		{`{"scores":[{"id":"x","score":1},{"id":"y","score":0}]}`, map[string]float64{"x": 1, "y": 0}},
		{"\n {\"scores\":[{\"score\":0.5,\"id\":\"y\"},{\"id\":\"x\",\"score\":1e-1}]}\t", map[string]float64{"x": 0.1, "y": 0.5}},
		{`{"scores":[{"id":"x","score":1}]}`, nil},                                                  // y missing
		{`{"scores":[{"id":"x","score":1},{"id":"y","score":0},{"id":"z","score":0}]}`, nil},        // unknown id
		{`{"scores":[{"id":"x","score":1},{"id":"x","score":0}]}`, nil},                             // twice
		{`{"scores":[{"id":"x","score":"1"},{"id":"y","score":0}]}`, nil},                           // a string
		{`{"scores":[{"id":"x","score":1.5},{"id":"y","score":0}]}`, nil},                           // out of range
		{`{"scores":[{"id":"x","score":-0.1},{"id":"y","score":0}]}`, nil},                          // negative
		{`{"scores":[{"id":"x","score":null},{"id":"y","score":0}]}`, nil},                          // null
		{`{"scores":[{"id":"x"},{"id":"y","score":0}]}`, nil},                                       // no score
		{`{"scores":[{"id":"x","score":1,"why":"a"},{"id":"y","score":0}]}`, nil},                   // unknown field
		{`{"scores":[{"id":"x","score":1},{"id":"y","score":0}]} and more`, nil},                    // trailing
		{`{"scores":[{"id":"x","score":1},{"id":"y","score":0}]}{}`, nil},                           // two objects
		{"```json\n{\"scores\":[{\"id\":\"x\",\"score\":1},{\"id\":\"y\",\"score\":0}]}\n```", nil}, // fenced
		{`{}`, nil},
		{``, nil},
	} {
		got, err := llm.ParseRerank([]byte(tc.in), ids)
		switch {
		case tc.want == nil && err == nil:
			t.Errorf("%q: accepted as %v", tc.in, got)
		case tc.want != nil && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.want != nil && (len(got) != len(tc.want) || got["x"] != tc.want["x"] || got["y"] != tc.want["y"]):
			t.Errorf("%q: got %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestParseAnswerable(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
		v  llm.Verdict
	}{
		{`{"answerable":true,"reason":"yes"}`, true, llm.Verdict{Answerable: true, Reason: "yes"}},
		{`{"answerable":false}`, true, llm.Verdict{}},
		{`{"answerable":false,"reason":"a\u001b[31mb\nc"}`, true, llm.Verdict{Reason: "ab c"}},
		{`{"answerable":"true"}`, false, llm.Verdict{}},
		{`{"reason":"x"}`, false, llm.Verdict{}},
		{`{"answerable":true,"extra":1}`, false, llm.Verdict{}},
		{`true`, false, llm.Verdict{}},
	} {
		v, err := llm.ParseAnswerable([]byte(tc.in))
		if (err == nil) != tc.ok || tc.ok && v != tc.v {
			t.Errorf("%q: %+v, %v", tc.in, v, err)
		}
	}
}

// FuzzParseRerank: the parser never panics, and what it accepts is
// exactly the given ids, each once, each a number from 0 to 1, and
// survives being written back and read again unchanged.
func FuzzParseRerank(f *testing.F) {
	f.Add([]byte(`{"scores":[{"id":"x","score":1},{"id":"y","score":0.5}]}`), "x", "y")
	f.Add([]byte(`{"scores":[{"id":"\xff","score":0}]}`), "\xff", "")
	f.Add([]byte("{\"scores\":[]}"), "", "")
	f.Add([]byte(`{"scores":[{"id":"x","score":1e400}]}`), "x", "x")
	f.Fuzz(func(t *testing.T, data []byte, a, b string) {
		ids := []string{a}
		if b != a {
			ids = append(ids, b)
		}
		got, err := llm.ParseRerank(data, ids)
		if err != nil {
			if got != nil {
				t.Fatalf("rejected with scores %v", got)
			}
			return
		}
		if len(got) != len(ids) {
			t.Fatalf("%d scores for %d ids", len(got), len(ids))
		}
		type entry struct {
			ID    string  `json:"id"`
			Score float64 `json:"score"`
		}
		var again []entry
		for _, id := range ids {
			v, ok := got[id]
			if !ok || math.IsNaN(v) || v < 0 || v > 1 {
				t.Fatalf("id %q: %v, %v", id, v, ok)
			}
			// An id the JSON decoder had to repair (invalid UTF-8) never
			// equals the raw bytes, so it cannot have been accepted.
			if !utf8.ValidString(id) {
				t.Fatalf("accepted an id of invalid UTF-8: %q", id)
			}
			again = append(again, entry{ID: id, Score: v})
		}
		out, err := json.Marshal(map[string]any{"scores": again})
		if err != nil {
			t.Fatal(err)
		}
		back, err := llm.ParseRerank(out, ids)
		if err != nil {
			t.Fatalf("own output %s rejected: %v", out, err)
		}
		for id, v := range got {
			if back[id] != v {
				t.Fatalf("id %q: %v then %v", id, v, back[id])
			}
		}
	})
}

// FuzzParseAnswerable: never panics; an accepted reason is one clipped
// line of valid UTF-8 without control characters.
func FuzzParseAnswerable(f *testing.F) {
	f.Add([]byte(`{"answerable":true,"reason":"ok"}`))
	f.Add([]byte("{\"answerable\":false,\"reason\":\"\xff\x1b[2J\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := llm.ParseAnswerable(data)
		if err != nil {
			if v != (llm.Verdict{}) {
				t.Fatalf("rejected with %+v", v)
			}
			return
		}
		if !utf8.ValidString(v.Reason) || strings.ContainsAny(v.Reason, "\n\r\x1b\x00") || utf8.RuneCountInString(v.Reason) > 200 {
			t.Fatalf("reason %q", v.Reason)
		}
	})
}

// Complete hands back the model's text as it came, for callers that parse
// their own format; without a model it is ErrNoModel.
func TestComplete(t *testing.T) {
	s := newSetup(t, providers[0], llmtest.Script{Replies: []string{" {\"items\":[]} "}}, llm.Config{})
	out, err := s.resp.Complete(context.Background(), "system says", "user says")
	if err != nil || string(out) != ` {"items":[]} ` {
		t.Fatalf("Complete = %q, %v", out, err)
	}
	msgs, err := s.srv.Messages(s.srv.Requests()[0])
	if err != nil || msgs[0].Text != "system says" || msgs[len(msgs)-1].Text != "user says" {
		t.Fatalf("messages = %+v, %v", msgs, err)
	}
	if _, err := noModel(t).Complete(context.Background(), "s", "u"); !errors.Is(err, llm.ErrNoModel) {
		t.Fatalf("extractive: err = %v, want ErrNoModel", err)
	}
}
