// Package eval measures docent: ranking quality and speed on BEIR-format
// datasets against reference engines, and the decision policy against
// cases with expected statuses. It is the code behind `docent eval`.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Document is one corpus entry of a dataset.
type Document struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one query of a dataset.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels maps a query id to its judged documents and their graded scores:
// 0 judged not relevant, 1 and up relevant.
type Qrels map[string]map[string]int

// Dataset is a BEIR dataset: corpus.jsonl, queries.jsonl and
// qrels/test.tsv in one directory.
type Dataset struct {
	Name    string // the directory's base name
	Dir     string
	Corpus  []Document
	Queries []Query
	Qrels   Qrels
}

// JudgedQueries returns the queries that have judgments, in file order:
// every measure skips the others.
func (d *Dataset) JudgedQueries() []Query {
	var out []Query
	for _, q := range d.Queries {
		if len(d.Qrels[q.ID]) > 0 {
			out = append(out, q)
		}
	}
	return out
}

// LoadDataset reads the BEIR dataset in dir. Errors name the file and the
// line that is wrong.
func LoadDataset(dir string) (*Dataset, error) {
	d := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Dir: dir, Qrels: Qrels{}}
	if info, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	} else if !info.IsDir() {
		return nil, fmt.Errorf("dataset %s: not a directory", dir)
	}

	docIDs := map[string]bool{}
	err := readJSONLines(filepath.Join(dir, "corpus.jsonl"), func(raw []byte) error {
		var doc Document
		if err := decodeLine(raw, &doc, false); err != nil {
			return fmt.Errorf("invalid JSON: %w", err)
		}
		if doc.ID == "" {
			return errors.New("document without _id")
		}
		if docIDs[doc.ID] {
			return fmt.Errorf("duplicate document _id %q", doc.ID)
		}
		docIDs[doc.ID] = true
		d.Corpus = append(d.Corpus, doc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(d.Corpus) == 0 {
		return nil, fmt.Errorf("%s: no documents", filepath.Join(dir, "corpus.jsonl"))
	}

	queryIDs := map[string]bool{}
	err = readJSONLines(filepath.Join(dir, "queries.jsonl"), func(raw []byte) error {
		var q Query
		if err := decodeLine(raw, &q, false); err != nil {
			return fmt.Errorf("invalid JSON: %w", err)
		}
		if q.ID == "" {
			return errors.New("query without _id")
		}
		if strings.TrimSpace(q.Text) == "" {
			return fmt.Errorf("query %q has no text", q.ID)
		}
		if queryIDs[q.ID] {
			return fmt.Errorf("duplicate query _id %q", q.ID)
		}
		queryIDs[q.ID] = true
		d.Queries = append(d.Queries, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := readQrels(filepath.Join(dir, "qrels", "test.tsv"), d.Qrels, queryIDs); err != nil {
		return nil, err
	}
	if len(d.JudgedQueries()) == 0 {
		return nil, fmt.Errorf("%s: no query has judgments", filepath.Join(dir, "qrels", "test.tsv"))
	}
	return d, nil
}

// decodeLine decodes the one JSON value of a JSON Lines line into v and
// fails if anything follows it. BEIR files often carry metadata, so
// unknown fields pass unless strict says otherwise.
func decodeLine(raw []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// readJSONLines calls fn with each non-blank line of a JSON Lines file.
func readJSONLines(path string, fn func(raw []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	// A BEIR passage can be long; a line over 16 MiB is a broken file.
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if err := fn(sc.Bytes()); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// readQrels reads "query-id corpus-id score" rows, tab-separated. BEIR
// files start with a header line; it is recognized by a score that is not
// a number on line 1, so a file without one reads the same.
//
// A judged document missing from the corpus is kept: trec_eval counts it
// in the ideal ranking, and subsets of larger collections have them.
func readQrels(path string, qrels Qrels, queryIDs map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return fmt.Errorf("%s line %d: want query-id, corpus-id and score separated by tabs, got %d fields", path, n, len(fields))
		}
		score, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil && n == 1 {
			continue // the header
		}
		if err != nil || score < 0 {
			return fmt.Errorf("%s line %d: score %q: want an integer >= 0", path, n, fields[2])
		}
		qid, did := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
		if !queryIDs[qid] {
			return fmt.Errorf("%s line %d: query %q is not in queries.jsonl", path, n, qid)
		}
		if qrels[qid] == nil {
			qrels[qid] = map[string]int{}
		}
		if _, dup := qrels[qid][did]; dup {
			return fmt.Errorf("%s line %d: query %q judges document %q twice", path, n, qid, did)
		}
		qrels[qid][did] = score
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}
