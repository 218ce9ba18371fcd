package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/ingest"
)

// FuzzReadCases feeds the cases parser what a hand-written cases file may
// hold: it never panics, an error names the file, and every case it
// accepts asks one thing and expects a known status.
func FuzzReadCases(f *testing.F) {
	for _, s := range []string{
		`{"query": "explain workspace", "expect_status": "found", "expect_slugs": ["concepts/workspace"]}`,
		`{"doc": "a", "expect_status": "found", "expect_slugs": ["a|b"]}` + "\n\n" + `{"after": "a#chunk-0", "expect_status": "clarify"}`,
		`{"query": "a", "expect_status": "maybe"}`,
		`{"query": "a",`,
		"\x00\xff",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cases, err := ReadCases(strings.NewReader(src), "cases.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cases.jsonl") && !strings.HasPrefix(err.Error(), "read cases.jsonl") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, c := range cases {
			asks := 0
			for _, s := range []string{c.Query, c.Doc, c.After} {
				if strings.TrimSpace(s) != "" {
					asks++
				}
			}
			if asks != 1 || c.Line < 1 || !slices.Contains(expectable, c.ExpectStatus) {
				t.Fatalf("accepted an invalid case %+v", c)
			}
			for _, s := range c.ExpectSlugs {
				for _, alt := range strings.Split(s, "|") {
					if alt == "" || ingest.NormalizeSlug(alt) != alt {
						t.Fatalf("expect slug %q is not a slug as ingestion writes them", alt)
					}
				}
			}
		}
	})
}
