package quiz_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/docent-sh/docent/quiz"
)

func TestParseItems(t *testing.T) {
	mc := `{"kind":"multiple_choice","question":"Q?","options":["a","b","c"],"answer":1,"explanation":"E","why_wrong":[{"option":0,"reason":"r0"},{"option":2,"reason":"r2"}],"citations":["x/y#chunk-1"]}`
	sa := `{"kind":"short_answer","question":"Q?","suggested_answer":"A","keywords":["k"],"explanation":"E","citations":[]}`
	for _, tc := range []struct {
		name, in string
		want     int
		err      string
	}{
		{"both kinds", `{"items":[` + mc + `,` + sa + `]}`, 2, ""},
		{"white space around", "\n " + `{"items":[` + mc + `]}` + " \n", 1, ""},
		{"prose", `Here: {"items":[]}`, 0, "not a JSON object"},
		{"code fence", "```json\n{\"items\":[]}\n```", 0, "not a JSON object"},
		{"trailing", `{"items":[` + mc + `]} ok`, 1, "more after"},
		{"unknown field", `{"items":[],"note":1}`, 0, "not the JSON asked for"},
		{"count", `{"items":[` + mc + `]}`, 2, "1 items, want 2"},
		{"no items", `{}`, 0, `no "items"`},
		{"answer out of range", strings.Replace(mc, `"answer":1`, `"answer":3`, 1), 1, `"answer"`},
		{"answer missing", strings.Replace(mc, `"answer":1,`, ``, 1), 1, `"answer"`},
		{"answer fraction", strings.Replace(mc, `"answer":1`, `"answer":1.5`, 1), 1, "not the JSON"},
		{"why_wrong missing one", strings.Replace(mc, `,{"option":2,"reason":"r2"}`, ``, 1), 1, "option 2 has no why_wrong"},
		{"why_wrong for the answer", strings.Replace(mc, `"option":2`, `"option":1`, 1), 1, "is the answer"},
		{"two options", strings.Replace(mc, `"options":["a","b","c"]`, `"options":["a","b"]`, 1), 1, "2 options"},
		{"repeated option", strings.Replace(mc, `"options":["a","b","c"]`, `"options":["a","b","A"]`, 1), 1, "repeats"},
		{"no keywords", strings.Replace(sa, `"keywords":["k"]`, `"keywords":[]`, 1), 1, "0 keywords"},
		{"mixed fields", strings.Replace(sa, `"keywords"`, `"options":["a","b","c"],"keywords"`, 1), 1, "multiple choice fields"},
		{"kind", strings.Replace(sa, `short_answer`, `essay`, 1), 1, "neither"},
		{"no citations list", strings.Replace(sa, `,"citations":[]`, ``, 1), 1, `no "citations"`},
		{"citation not an id", strings.Replace(mc, `x/y#chunk-1`, `the workspace doc`, 1), 1, "not a chunk id"},
		{"empty question", strings.Replace(sa, `"question":"Q?"`, `"question":"  "`, 1), 1, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if strings.HasPrefix(in, `{"kind"`) {
				in = `{"items":[` + in + `]}`
			}
			items, err := quiz.ParseItems([]byte(in), tc.want)
			if tc.err == "" {
				if err != nil || len(items) != tc.want {
					t.Fatalf("items %+v, err %v", items, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want one containing %q", err, tc.err)
			}
		})
	}
}

func TestParseLevelReply(t *testing.T) {
	got, err := quiz.ParseLevelReply([]byte(`{"levels":["Apply"," create "]}`), 2)
	if err != nil || got[0] != quiz.Apply || got[1] != quiz.Create {
		t.Fatalf("%v, %v", got, err)
	}
	for _, in := range []string{`{"levels":["apply"]}`, `{"levels":["apply","synthesis"]}`, `{"levels":"apply"}`, `["apply","apply"]`} {
		if _, err := quiz.ParseLevelReply([]byte(in), 2); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}

// FuzzParseItems: the parser never panics, and what it accepts is a
// well-formed item list: the count asked for, every field of its kind
// there, the answer an option's index, no control characters in any
// text, and the same list once more when written back in the format.
func FuzzParseItems(f *testing.F) {
	f.Add([]byte(`{"items":[{"kind":"multiple_choice","question":"Q?","options":["a","b","c"],"answer":1,"explanation":"E","why_wrong":[{"option":0,"reason":"r0"},{"option":2,"reason":"r2"}],"citations":["x/y#chunk-1"]}]}`), 1)
	f.Add([]byte(`{"items":[{"kind":"short_answer","question":"Q\u001b[2J?","suggested_answer":"A","keywords":["k"],"explanation":"E","citations":[" a#chunk-0 "]}]}`), 1)
	f.Add([]byte(`{"items":[]}`), 0)
	f.Add([]byte(`{"items":null}`), 0)
	f.Add([]byte(`{"items":[{"answer":-1}]}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, want int) {
		if want < 0 || want > 20 {
			return
		}
		items, err := quiz.ParseItems(data, want)
		if err != nil {
			if strings.ContainsFunc(err.Error(), unicode.IsControl) {
				t.Fatalf("error has a control character: %q", err)
			}
			return
		}
		if len(items) != want {
			t.Fatalf("%d items, want %d", len(items), want)
		}
		var wire []map[string]any
		for _, it := range items {
			for _, s := range append([]string{it.Question, it.Explanation, it.SuggestedAnswer}, append(it.Options, append(it.WhyWrong, it.Keywords...)...)...) {
				if strings.ContainsFunc(s, unicode.IsControl) {
					t.Fatalf("text has a control character: %q", s)
				}
			}
			w := map[string]any{"kind": it.Kind, "question": it.Question, "explanation": it.Explanation, "citations": it.Citations}
			switch it.Kind {
			case quiz.MultipleChoice:
				if it.Answer < 0 || it.Answer >= len(it.Options) || len(it.WhyWrong) != len(it.Options) {
					t.Fatalf("item %+v", it)
				}
				var why []map[string]any
				for k, r := range it.WhyWrong {
					if k != it.Answer {
						why = append(why, map[string]any{"option": k, "reason": r})
					}
				}
				w["options"], w["answer"], w["why_wrong"] = it.Options, it.Answer, why
			case quiz.ShortAnswer:
				if it.SuggestedAnswer == "" || len(it.Keywords) == 0 {
					t.Fatalf("item %+v", it)
				}
				w["suggested_answer"], w["keywords"] = it.SuggestedAnswer, it.Keywords
			default:
				t.Fatalf("kind %q", it.Kind)
			}
			wire = append(wire, w)
		}
		if wire == nil {
			wire = []map[string]any{}
		}
		out, err := json.Marshal(map[string]any{"items": wire})
		if err != nil {
			t.Fatal(err)
		}
		back, err := quiz.ParseItems(out, want)
		if err != nil {
			t.Fatalf("written back, not accepted: %v\n%s", err, out)
		}
		a, _ := json.Marshal(items)
		b, _ := json.Marshal(back)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the items:\n%s\n%s", a, b)
		}
	})
}

// FuzzParseLevelReply: never panics; what it accepts is want known levels.
func FuzzParseLevelReply(f *testing.F) {
	f.Add([]byte(`{"levels":["apply","create"]}`), 2)
	f.Add([]byte(`{"levels":["APPLY"]}`), 1)
	f.Add([]byte(`{"levels":[1]}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, want int) {
		if want < 0 || want > 20 {
			return
		}
		levels, err := quiz.ParseLevelReply(data, want)
		if err != nil {
			return
		}
		if len(levels) != want {
			t.Fatalf("%d levels, want %d", len(levels), want)
		}
		for _, l := range levels {
			if _, ok := quiz.ParseLevel(string(l)); !ok {
				t.Fatalf("level %q", l)
			}
		}
	})
}
