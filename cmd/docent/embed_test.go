package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// embedDocsDir writes a small knowledge base whose chunks all differ.
func embedDocsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "guides", "invite.md"), "---\ntitle: Invite members\n---\n"+
		"Invite people to a workspace from the members page.\n\n## Pending invites\n\nPending invites expire after seven days.\n\n"+
		"## Resending\n\nResend an invite from its row.\n")
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export data\n---\n"+
		"Exports bundle projects into one archive.\n\n## Formats\n\nCSV and JSON are offered.\n")
	writeFile(t, filepath.Join(dir, "concepts", "workspace.md"), "---\ntitle: Workspace\n---\n"+
		"A workspace groups projects, members and billing.\n\n## Owners\n\nEvery workspace has at least one owner.\n")
	return dir
}

// embedServer is an OpenAI embeddings server serving the models given.
type embedServer struct {
	*llmtest.EmbedServer
	t    *testing.T
	seen int // requests already counted
}

func newEmbedServer(t *testing.T, models ...string) *embedServer {
	return &embedServer{EmbedServer: llmtest.NewOpenAIEmbeddings(t, llmtest.EmbedScript{Dimension: 8, Models: models}), t: t}
}

// newInputs returns the texts embedded since the last call.
func (s *embedServer) newInputs() []string {
	s.t.Helper()
	reqs := s.Requests()
	var out []string
	for _, r := range reqs[s.seen:] {
		in, err := s.Inputs(r)
		if err != nil {
			s.t.Fatalf("embeddings request: %v", err)
		}
		out = append(out, in...)
	}
	s.seen = len(reqs)
	return out
}

func embedCLI(t *testing.T, srv *embedServer, model string, extra ...string) *cli {
	return newCLI(t, append([]string{
		"OPENAI_BASE_URL", srv.BaseURL(), "OPENAI_API_KEY", "sk-test",
		"DOCENT_EMBED_PROVIDER", "openai", "DOCENT_EMBED_MODEL", model,
		"XDG_CACHE_HOME", t.TempDir(),
	}, extra...)...)
}

// storedEmbeddings counts the chunks by embedding model ("" for none)
// and checks each vector is whole.
func storedEmbeddings(t *testing.T, dbURL string) (models map[string]int, contents []string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT coalesce(embedding_model, ''), coalesce(cardinality(embedding), 0), coalesce(embedding_dim, 0), content FROM docs_knowledge_chunks`)
	models = map[string]int{}
	var (
		model   string
		n, dim  int
		content string
	)
	_, err = pgx.ForEachRow(rows, []any{&model, &n, &dim, &content}, func() error {
		models[model]++
		contents = append(contents, content)
		if model != "" && (n != 8 || dim != 8) {
			t.Errorf("a chunk of %s has %d values, dimension %d; want 8", model, n, dim)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("read stored embeddings: %v", err)
	}
	return models, contents
}

func TestSeedEmbedsOnPostgres(t *testing.T) {
	dbURL := pgtest.NewDatabase(t)
	dir := embedDocsDir(t)
	srv := newEmbedServer(t, "emb-a", "emb-b")
	c := embedCLI(t, srv, "emb-a", "DATABASE_URL", dbURL, "DOCENT_DOCS", dir)

	// The first seed embeds every chunk, content alone.
	_, errOut, code := c.run("seed")
	if code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	models, contents := storedEmbeddings(t, dbURL)
	total := len(contents)
	if total < 6 || models["emb-a"] != total {
		t.Fatalf("after the first seed: %v of %d chunks, want all of emb-a", models, total)
	}
	sent := srv.newInputs()
	slices.Sort(sent)
	slices.Sort(contents)
	if !slices.Equal(sent, contents) {
		t.Errorf("embedded texts are not the chunks' contents, once each:\nsent %q\nstored %q", sent, contents)
	}
	if !strings.Contains(errOut, "embedding 0/") || !strings.Contains(errOut, "chunks with openai emb-a") {
		t.Errorf("no progress on stderr: %q", errOut)
	}

	// An unchanged re-seed embeds nothing.
	out, errOut, code := c.run("seed")
	if code != 0 {
		t.Fatalf("re-seed: exit %d: %s", code, errOut)
	}
	if want := "0 embedded, " + strconv.Itoa(total) + " reused (openai emb-a)"; !strings.Contains(out, want) {
		t.Errorf("re-seed report does not say %q:\n%s", want, out)
	}
	if in := srv.newInputs(); len(in) != 0 {
		t.Errorf("an unchanged re-seed embedded %d texts", len(in))
	}

	// Editing one section re-embeds that chunk alone.
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export data\n---\n"+
		"Exports bundle projects into one archive.\n\n## Formats\n\nCSV, JSON and Parquet are offered.\n")
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed after an edit: exit %d: %s", code, errOut)
	}
	if in := srv.newInputs(); len(in) != 1 || !strings.Contains(in[0], "Parquet") {
		t.Errorf("after editing one section, embedded %q; want that chunk alone", in)
	}
	if models, _ := storedEmbeddings(t, dbURL); models["emb-a"] != total {
		t.Errorf("after the edit: %v, want all %d of emb-a", models, total)
	}

	// Another model re-embeds everything, and says so.
	c.env["DOCENT_EMBED_MODEL"] = "emb-b"
	_, errOut, code = c.run("seed")
	if code != 0 {
		t.Fatalf("seed with another model: exit %d: %s", code, errOut)
	}
	if want := "embedding model changed from emb-a to emb-b: re-embedding " + strconv.Itoa(total) + " chunks"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q does not say %q", errOut, want)
	}
	if in := srv.newInputs(); len(in) != total {
		t.Errorf("a model change embedded %d texts, want %d", len(in), total)
	}
	if models, _ := storedEmbeddings(t, dbURL); models["emb-b"] != total {
		t.Errorf("after a model change: %v, want all %d of emb-b", models, total)
	}

	// A failing embedder fails the seed, naming provider and model, and
	// nothing is written, the edit included.
	gen := knowledgeGeneration(t, dbURL)
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export data\n---\n"+
		"Exports bundle projects into one archive.\n\n## Formats\n\nOnly CSV is offered now.\n")
	c.env["DOCENT_EMBED_MODEL"] = "emb-missing"
	_, errOut, code = c.run("seed")
	if code == 0 {
		t.Fatalf("seed with a failing embedder succeeded: %s", errOut)
	}
	if !strings.Contains(errOut, "openai emb-missing") || !strings.Contains(errOut, "nothing was written") {
		t.Errorf("stderr %q does not name openai emb-missing and say nothing was written", errOut)
	}
	if got := knowledgeGeneration(t, dbURL); got != gen {
		t.Errorf("knowledge generation %d after a failed seed, want %d", got, gen)
	}
	models, contents = storedEmbeddings(t, dbURL)
	if models["emb-b"] != total || slices.ContainsFunc(contents, func(s string) bool { return strings.Contains(s, "Only CSV") }) {
		t.Errorf("a failed seed wrote: %v", models)
	}

	// Reading a shared store never embeds nor writes.
	srv.newInputs()
	c.env["DOCENT_EMBED_MODEL"] = "emb-a"
	if _, errOut, code := c.run("docs", "list"); code != 0 {
		t.Fatalf("docs list: exit %d: %s", code, errOut)
	}
	if in := srv.newInputs(); len(in) != 0 {
		t.Errorf("docs list on PostgreSQL embedded %d texts", len(in))
	}
	if got := knowledgeGeneration(t, dbURL); got != gen {
		t.Errorf("docs list moved the knowledge generation to %d", got)
	}
}

func TestEmbeddedStoreReusesTheEmbeddingsCache(t *testing.T) {
	dir := embedDocsDir(t)
	srv := newEmbedServer(t, "emb-a", "emb-b")
	c := embedCLI(t, srv, "emb-a", "DOCENT_DOCS", dir)
	cacheDir := filepath.Join(c.env["XDG_CACHE_HOME"], "docent", "embeddings")

	if _, errOut, code := c.run("docs", "list"); code != 0 {
		t.Fatalf("docs list: exit %d: %s", code, errOut)
	}
	first := srv.newInputs()
	if len(first) < 6 {
		t.Fatalf("the first start embedded %d texts, want every chunk", len(first))
	}
	files, _ := filepath.Glob(filepath.Join(cacheDir, "*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}

	// The next start reuses the cache: nothing is embedded.
	if _, errOut, code := c.run("docs", "list"); code != 0 {
		t.Fatalf("second docs list: exit %d: %s", code, errOut)
	}
	if in := srv.newInputs(); len(in) != 0 {
		t.Errorf("a start with a warm cache embedded %d texts", len(in))
	}

	// An edit embeds the changed chunk alone.
	writeFile(t, filepath.Join(dir, "guides", "export.md"), "---\ntitle: Export data\n---\n"+
		"Exports bundle projects into one archive.\n\n## Formats\n\nCSV, JSON and Parquet are offered.\n")
	if _, errOut, code := c.run("docs", "list"); code != 0 {
		t.Fatalf("docs list after an edit: exit %d: %s", code, errOut)
	}
	if in := srv.newInputs(); len(in) != 1 || !strings.Contains(in[0], "Parquet") {
		t.Errorf("after an edit, embedded %q; want the changed chunk alone", in)
	}

	// A corrupt cache is ignored with a warning: everything is embedded
	// again and the cache rewritten.
	if err := os.WriteFile(files[0], []byte("docentE\x01garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := c.run("docs", "list")
	if code != 0 {
		t.Fatalf("docs list with a corrupt cache: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "ignoring the embeddings cache") {
		t.Errorf("stderr %q does not warn about the corrupt cache", errOut)
	}
	if in := srv.newInputs(); len(in) != len(first) {
		t.Errorf("with a corrupt cache, embedded %d texts, want %d", len(in), len(first))
	}
	if _, _, code := c.run("docs", "list"); code != 0 || len(srv.newInputs()) != 0 {
		t.Errorf("the rewritten cache was not reused (exit %d)", code)
	}

	// Another model embeds everything, says so, and gets its own file;
	// going back finds the first model's file still there.
	c.env["DOCENT_EMBED_MODEL"] = "emb-b"
	_, errOut, code = c.run("docs", "list")
	if code != 0 {
		t.Fatalf("docs list with another model: exit %d: %s", code, errOut)
	}
	if want := "embedding model changed from emb-a to emb-b: re-embedding " + strconv.Itoa(len(first)) + " chunks"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q does not say %q", errOut, want)
	}
	if in := srv.newInputs(); len(in) != len(first) {
		t.Errorf("a model change embedded %d texts, want %d", len(in), len(first))
	}
	c.env["DOCENT_EMBED_MODEL"] = "emb-a"
	if _, errOut, code = c.run("docs", "list"); code != 0 || len(srv.newInputs()) != 0 || strings.Contains(errOut, "model changed") {
		t.Errorf("back to the first model: exit %d, %q; want its cache reused", code, errOut)
	}

	// A failing embedder does not stop the start: lexical only, said.
	c.env["DOCENT_EMBED_MODEL"] = "emb-missing"
	out, errOut, code := c.run("docs", "list")
	if code != 0 || !strings.Contains(out, "guides/export") {
		t.Fatalf("docs list with a failing embedder: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "embeddings off") || !strings.Contains(errOut, "openai emb-missing") {
		t.Errorf("stderr %q does not say embeddings are off, naming openai emb-missing", errOut)
	}

	// docent seed on the embedded store fails instead.
	if _, errOut, code := c.run("seed"); code == 0 || !strings.Contains(errOut, "nothing was written") {
		t.Errorf("seed with a failing embedder: exit %d: %s", code, errOut)
	}
}

func TestEmbedProviderIsChecked(t *testing.T) {
	_, errOut, code := newCLI(t, "DOCENT_EMBED_PROVIDER", "bogus").run("docs", "list")
	if code != 2 || !strings.Contains(errOut, "--embed-provider") {
		t.Errorf("an unknown embedding provider: exit %d, %q; want exit 2 naming --embed-provider", code, errOut)
	}
}

// With an embedding provider, docent ask ranks by words and meaning
// together: the question is embedded with the docs' model, and the
// evidence says so.
func TestAskRanksHybridWithAnEmbedder(t *testing.T) {
	dir := embedDocsDir(t)
	srv := newEmbedServer(t, "emb-a")
	// The offline writer answers: the server speaks embeddings only.
	c := embedCLI(t, srv, "emb-a", "DOCENT_DOCS", dir, "DOCENT_PROVIDER", "extractive")
	out, errOut, code := c.run("ask", "--json", "export formats")
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	var o askOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("ask --json: %v\n%s", err, out)
	}
	hybrid := false
	for _, r := range o.Results {
		hybrid = hybrid || r.Source == retrieval.SourceHybrid || r.Source == retrieval.SourceEmbedding
	}
	if !hybrid || len(o.Results) == 0 {
		t.Fatalf("results %+v: want hybrid ranking with the question embedded", o.Results)
	}
	// The question was embedded: the server saw it.
	if in := srv.newInputs(); !slices.Contains(in, "export formats") {
		t.Errorf("embedded %q, want the question among them", in)
	}
}
