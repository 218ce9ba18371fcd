package strictjson

import (
	"strings"
	"testing"
)

func TestObject(t *testing.T) {
	type reply struct {
		A int `json:"a"`
	}
	for _, tc := range []struct {
		in, err string
		want    int
	}{
		{` {"a": 2} `, "", 2},
		{`[1]`, "not a JSON object", 0},
		{``, "not a JSON object", 0},
		{`{"a": 1, "b": 2}`, "not the JSON asked for", 0},
		{`{"a": "x"}`, "not the JSON asked for", 0},
		{`{"a": 1} {"a": 2}`, "more after", 0},
		{`{"a": 1} tail`, "more after", 0},
	} {
		var r reply
		err := Object([]byte(tc.in), &r)
		switch {
		case tc.err == "" && (err != nil || r.A != tc.want):
			t.Errorf("%q: %+v, %v; want a=%d", tc.in, r, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: err %v, want one saying %q", tc.in, err, tc.err)
		}
	}
}

func FuzzObject(f *testing.F) {
	f.Add([]byte(`{"a": 1}`))
	f.Add([]byte("{\"a\": \"\x1b[2J\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v map[string]any
		if err := Object(data, &v); err != nil && strings.ContainsAny(err.Error(), "\n\x1b") {
			t.Fatalf("error %q is not one clean line", err)
		}
	})
}
