package configfile

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add("top-k: 8\nmodel: m\nroles:\n  a: text\nprices:\n  m: {input-per-mtok: 1, output-per-mtok: 2}\n")
	f.Add("top_kk: 3\n")
	f.Add("a: &x [1, 2]\nb: *x\n")
	f.Add("roles: {a: *missing}\n")
	f.Add("? {a: b}\n: c\n")
	f.Add("model: \"\\x1b[31mred\"\n")
	f.Add("--- \n...\n---\nx: 1\n")
	f.Add("prices:\n  m: {input-per-mtok: .inf, output-per-mtok: NaN}\n")
	f.Fuzz(func(t *testing.T, src string) {
		file, err := Parse("fuzz.yaml", []byte(src), testKeys)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) || !strings.HasPrefix(err.Error(), "config file fuzz.yaml") {
				t.Fatalf("error %v does not name the file", err)
			}
			if strings.ContainsAny(err.Error(), "\x1b\r\n") {
				t.Errorf("control characters in the error %q", err)
			}
			return
		}
		for _, s := range file.Settings {
			if !slices.Contains(testKeys, s.Key) || s.Line < 1 {
				t.Errorf("setting %+v: not a known key, or no line", s)
			}
		}
		for _, r := range file.Roles {
			if !ValidRoleName(r.Name) || strings.TrimSpace(r.Text) == "" || r.Line < 1 {
				t.Errorf("role %+v", r)
			}
		}
		for _, p := range file.Prices {
			if p.InputPerMTok < 0 || p.OutputPerMTok < 0 || p.InputPerMTok != p.InputPerMTok || p.Line < 1 {
				t.Errorf("price %+v", p)
			}
		}
	})
}
