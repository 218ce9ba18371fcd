package eval

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadDataset(t *testing.T) {
	ds, err := LoadDataset("testdata/tiny")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Name != "tiny" || len(ds.Corpus) != 4 || len(ds.Queries) != 3 {
		t.Fatalf("dataset %s: %d docs, %d queries", ds.Name, len(ds.Corpus), len(ds.Queries))
	}
	var judged []string
	for _, q := range ds.JudgedQueries() {
		judged = append(judged, q.ID)
	}
	if !slices.Equal(judged, []string{"q1", "q2"}) {
		t.Errorf("judged queries %v, want q1 q2 (q3 has no judgments)", judged)
	}
	if ds.Qrels["q1"]["d4"] != 0 || ds.Qrels["q2"]["d3"] != 3 || len(ds.Qrels["q1"]) != 3 {
		t.Errorf("qrels %v", ds.Qrels)
	}
}

// writeDataset writes a dataset whose files are the tiny one's unless
// overridden, and returns its directory.
func writeDataset(t *testing.T, override map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"corpus.jsonl", "queries.jsonl", "qrels/test.tsv"} {
		src, err := os.ReadFile(filepath.Join("testdata", "tiny", name))
		if err != nil {
			t.Fatal(err)
		}
		content, ok := override[name]
		if !ok {
			content = string(src)
		}
		if content == "<missing>" {
			continue
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadDatasetNamesWhatIsWrong(t *testing.T) {
	qrels := "query-id\tcorpus-id\tscore\nq1\td1\t2\n"
	for _, tc := range []struct {
		name     string
		override map[string]string
		want     []string // all in the error
	}{
		{"corpus missing", map[string]string{"corpus.jsonl": "<missing>"}, []string{"corpus.jsonl", "no such file"}},
		{"broken JSON", map[string]string{"corpus.jsonl": `{"_id": "d1", "text": "a"}` + "\n" + `{"_id": "d2", "text": ` + "\n"}, []string{"corpus.jsonl line 2", "invalid JSON"}},
		{"two values on a line", map[string]string{"corpus.jsonl": `{"_id": "d1"} {"_id": "d2"}` + "\n"}, []string{"corpus.jsonl line 1", "more than one"}},
		{"document without id", map[string]string{"corpus.jsonl": `{"title": "x", "text": "y"}` + "\n"}, []string{"corpus.jsonl line 1", "without _id"}},
		{"duplicate document", map[string]string{"corpus.jsonl": `{"_id": "d1", "text": "a"}` + "\n\n" + `{"_id": "d1", "text": "b"}` + "\n"}, []string{"corpus.jsonl line 3", `duplicate document _id "d1"`}},
		{"empty corpus", map[string]string{"corpus.jsonl": "\n"}, []string{"corpus.jsonl", "no documents"}},
		{"query without text", map[string]string{"queries.jsonl": `{"_id": "q1", "text": "  "}` + "\n"}, []string{"queries.jsonl line 1", `query "q1" has no text`}},
		{"duplicate query", map[string]string{"queries.jsonl": `{"_id": "q1", "text": "a"}` + "\n" + `{"_id": "q1", "text": "b"}` + "\n"}, []string{"queries.jsonl line 2", "duplicate query"}},
		{"qrels missing", map[string]string{"qrels/test.tsv": "<missing>"}, []string{"test.tsv", "no such file"}},
		{"qrels with spaces", map[string]string{"qrels/test.tsv": qrels + "q1 d3 1\n"}, []string{"test.tsv line 3", "separated by tabs"}},
		{"negative score", map[string]string{"qrels/test.tsv": qrels + "q1\td3\t-1\n"}, []string{"test.tsv line 3", `score "-1"`}},
		{"unknown query", map[string]string{"qrels/test.tsv": qrels + "q9\td3\t1\n"}, []string{"test.tsv line 3", `query "q9" is not in queries.jsonl`}},
		{"judged twice", map[string]string{"qrels/test.tsv": qrels + "q1\td1\t1\n"}, []string{"test.tsv line 3", "twice"}},
		{"nothing judged", map[string]string{"qrels/test.tsv": "query-id\tcorpus-id\tscore\n"}, []string{"test.tsv", "no query has judgments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadDataset(writeDataset(t, tc.override))
			if err == nil {
				t.Fatal("LoadDataset succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}

	if _, err := LoadDataset(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v, want fs.ErrNotExist", err)
	}
}

// A qrels file without the header line, as msmarco-5k ships, reads the
// same, and a judged document missing from the corpus is kept for the
// ideal ranking.
func TestQrelsWithoutHeader(t *testing.T) {
	dir := writeDataset(t, map[string]string{"qrels/test.tsv": "q1\td1\t2\nq1\td9\t3\r\n"})
	ds, err := LoadDataset(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Qrels["q1"]["d1"] != 2 || ds.Qrels["q1"]["d9"] != 3 {
		t.Fatalf("qrels %v", ds.Qrels)
	}
}
