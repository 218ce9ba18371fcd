package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/eval"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

const tinyDataset = "../../eval/testdata/tiny"

func runEval(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut, func(k string) string { return env[k] })
	return out.String(), errOut.String(), code
}

func TestRetrieval(t *testing.T) {
	out, errOut, code := runEval(t, nil, "retrieval", "--dataset", tinyDataset, "--engines", "bleve,docent", "--rounds", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r eval.RetrievalReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	var names []string
	for _, e := range r.Engines {
		names = append(names, e.Name)
		if e.MRR10 != 1 || e.NDCG10 <= 0 {
			t.Errorf("%s: %+v", e.Name, e)
		}
	}
	// Report order is fixed, whatever order --engines gives.
	if r.Dataset != "tiny" || r.Queries != 2 || !slices.Equal(names, []string{"docent", "bleve"}) {
		t.Fatalf("report %+v", r)
	}
	if !strings.Contains(errOut, "eval: docent: indexing 4 documents") {
		t.Errorf("progress should go to stderr: %q", errOut)
	}

	out, _, code = runEval(t, nil, "retrieval", "--dataset", tinyDataset, "--engines", "docent")
	if code != 0 || !strings.Contains(out, "nDCG@10") || !strings.Contains(out, "docent") {
		t.Fatalf("table, exit %d:\n%s", code, out)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "name a command"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"retrieval", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"retrieval", "extra"}, "unknown command \"extra\""},
		{[]string{"retrieval"}, "needs --dataset"},
		{[]string{"retrieval", "--dataset", "nope", "--engines", "docent"}, "nope"},
		{[]string{"retrieval", "--dataset", tinyDataset, "--engines", "docent,lucene"}, `unknown engine "lucene"`},
		{[]string{"retrieval", "--dataset", tinyDataset, "--engines", "docent,docent"}, "docent given twice"},
		{[]string{"retrieval", "--dataset", tinyDataset, "--engines", "postgres"}, "engine postgres needs a database"},
		{[]string{"retrieval", "--dataset", tinyDataset, "--rounds", "0"}, "--rounds must be at least 1"},
		{[]string{"retrieval", "--dataset", tinyDataset, "--engines", "docent", "--synonyms", "nope.txt"}, "synonyms file"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, errOut, code := runEval(t, nil, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// The postgres engine runs in the database DOCENT_DB names, in a
// temporary table, and leaves nothing in it.
func TestRetrievalOnPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	out, errOut, code := runEval(t, map[string]string{"DOCENT_DB": dbURL}, "retrieval", "--dataset", tinyDataset, "--engines", "postgres,docent", "--rounds", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r eval.RetrievalReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if len(r.Engines) != 2 || r.Engines[1].Name != "postgres" || r.Engines[1].MRR10 != 1 {
		t.Fatalf("engines %+v", r.Engines)
	}
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var tables int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("the database holds %d tables after eval: it should keep nothing (no migration, a temporary index)", tables)
	}
}

// A wrong password never shows up in what docent-eval prints, and the
// error still names the host. Nothing listens on port 1, so no server is
// needed.
func TestConnectionErrorHidesPassword(t *testing.T) {
	const db = "postgres://docent_nobody:s3cret-pw@127.0.0.1:1/docent?sslmode=disable&connect_timeout=2"
	_, errOut, code := runEval(t, nil, "retrieval", "--db", db, "--dataset", tinyDataset, "--engines", "postgres")
	if code != 1 || strings.Contains(errOut, "s3cret-pw") || !strings.Contains(errOut, "127.0.0.1:1") {
		t.Fatalf("exit %d, stderr %q; want 1, the host named and no password", code, errOut)
	}
}

// docent-hybrid embeds the passages and the queries through the
// configured provider (here llmtest's OpenAI embeddings server, found as
// docent finds it: DOCENT_EMBED_PROVIDER and OPENAI_BASE_URL), the queries
// in one batch before they are timed, and is measured beside docent.
func TestRetrievalHybrid(t *testing.T) {
	srv := llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Dimension: 16})
	env := map[string]string{"DOCENT_EMBED_PROVIDER": "openai", "OPENAI_BASE_URL": srv.BaseURL()}
	out, errOut, code := runEval(t, env, "retrieval", "--dataset", tinyDataset, "--engines", "docent-hybrid,docent", "--rounds", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r eval.RetrievalReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if len(r.Engines) != 2 || r.Engines[0].Name != "docent" || r.Engines[1].Name != "docent-hybrid" {
		t.Fatalf("engines %+v, want docent then docent-hybrid", r.Engines)
	}
	if h := r.Engines[1]; h.NDCG10 <= 0 || h.Recall100 != 1 {
		t.Errorf("docent-hybrid %+v: want every judged document found", h)
	}
	var inputs [][]string
	for _, req := range srv.Requests() {
		in, err := srv.Inputs(req)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, in)
	}
	// The 4 passages (one chunk each) in one request, then the 2 judged
	// queries in another; none during the timed rounds.
	if len(inputs) != 2 || len(inputs[0]) != 4 || !slices.Equal(inputs[1], []string{"solar electricity", "stored energy"}) {
		t.Errorf("embedding requests %q: want the 4 passages, then the 2 queries", inputs)
	}
}

// Without a provider docent-hybrid is skipped, saying so, and the other
// engines run.
func TestRetrievalHybridSkipped(t *testing.T) {
	out, errOut, code := runEval(t, nil, "retrieval", "--dataset", tinyDataset, "--engines", "docent,docent-hybrid", "--rounds", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "docent-hybrid skipped: no embedding provider (set --embed-provider)") {
		t.Errorf("stderr %q does not say docent-hybrid was skipped", errOut)
	}
	var r eval.RetrievalReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if len(r.Engines) != 1 || r.Engines[0].Name != "docent" {
		t.Errorf("engines %+v, want docent alone", r.Engines)
	}
}
