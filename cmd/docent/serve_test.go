package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// tokens create, list and revoke on each store: the token file without a
// database, the api_tokens table with one. Neither keeps the token.
func TestTokensCommands(t *testing.T) {
	t.Run("file", func(t *testing.T) {
		data := t.TempDir()
		testTokensCommands(t, newCLI(t, "XDG_DATA_HOME", data), func(token string) string {
			file, err := os.ReadFile(filepath.Join(data, "docent", apiTokensFile))
			if err != nil {
				t.Fatal(err)
			}
			return string(file)
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dbURL := pgtest.NewDatabase(t)
		data := t.TempDir()
		testTokensCommands(t, newCLI(t, "XDG_DATA_HOME", data, "DATABASE_URL", dbURL), func(token string) string {
			if _, err := os.Stat(filepath.Join(data, "docent", apiTokensFile)); err == nil {
				t.Error("with a database, the token went to the token file")
			}
			conn, err := pgx.Connect(context.Background(), dbURL)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			var rows string
			if err := conn.QueryRow(context.Background(), `SELECT string_agg(t::text, E'\n') FROM api_tokens t`).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			return rows
		})
	})
}

func testTokensCommands(t *testing.T, c *cli, stored func(token string) string) {
	if _, errOut, code := c.run("tokens", "create", "--workspace", "acme"); code != 2 || !strings.Contains(errOut, "--user") {
		t.Errorf("create without --user: exit %d, %s", code, errOut)
	}
	if _, _, code := c.run("tokens", "create", "--user", "alice"); code != 2 {
		t.Errorf("create without --workspace: exit %d, want 2", code)
	}
	out, errOut, code := c.run("tokens", "create", "--workspace", "acme", "--user", "alice", "--name", "helpdesk")
	if code != 0 {
		t.Fatalf("create: exit %d: %s", code, errOut)
	}
	token := strings.TrimSpace(out)
	if !regexp.MustCompile(`^dct_[A-Za-z0-9_-]{43}$`).MatchString(token) {
		t.Fatalf("create printed %q, want the token alone", out)
	}
	if rows := stored(token); !strings.Contains(rows, "acme") || strings.Contains(rows, token[4:]) {
		t.Errorf("stored: %s", rows)
	}
	out, _, code = c.run("tokens", "list", "--json")
	var list []tokenListing
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].Workspace != "acme" || list[0].User != "alice" || list[0].Name != "helpdesk" {
		t.Fatalf("list: exit %d, %s", code, out)
	}
	if strings.Contains(out, token) {
		t.Error("list shows the token")
	}
	if _, errOut, code := c.run("tokens", "revoke", "nosuch"); code != 1 || !strings.Contains(errOut, "tokens list") {
		t.Errorf("revoke an unknown id: exit %d, %s", code, errOut)
	}
	if out, _, code := c.run("tokens", "revoke", list[0].ID); code != 0 || !strings.Contains(out, "revoked") {
		t.Errorf("revoke: exit %d, %s", code, out)
	}
	out, _, _ = c.run("tokens", "list", "--json")
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 || list[0].RevokedAt == nil {
		t.Errorf("list after revoke:\n%s", out)
	}
}

// buildDocent builds the real binary once per test run.
func buildDocent(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	bin := filepath.Join(t.TempDir(), "docent")
	build := exec.CommandContext(t.Context(), goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The real binary: a token made by tokens create opens the API of
// serve; SIGTERM during a stream stops new connections, lets the stream
// finish and exits 0.
func TestServeBinary(t *testing.T) {
	bin := buildDocent(t)
	t.Run("end to end", func(t *testing.T) { testServeEndToEnd(t, bin) })
	t.Run("second signal", func(t *testing.T) { testServeSecondSignal(t, bin) })
	t.Run("two instances on one PostgreSQL", func(t *testing.T) { testServeTwoInstances(t, bin) })
}

func testServeEndToEnd(t *testing.T, bin string) {
	llmSrv := llmtest.NewOpenAI(t, llmtest.Script{
		Chunks: []string{"A workspace ", "is an area ", "inside an entry ", "[concepts/workspace#chunk-0]."},
		Delay:  300 * time.Millisecond,
	})
	data := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+data, "XDG_STATE_HOME="+t.TempDir(),
		"DOCENT_PROVIDER=openai", "OPENAI_BASE_URL="+llmSrv.BaseURL(), "OPENAI_API_KEY=sk-test-e2e-secret", "DATABASE_URL=", "DOCENT_DB=")
	create := exec.Command(bin, "tokens", "create", "--workspace", "acme", "--user", "alice")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		t.Fatalf("tokens create: %v", err)
	}
	token := strings.TrimSpace(string(out))

	serve, base, lines := startServe(t, bin, env, "--shutdown-timeout", "20s",
		// Shorter than the stream: reading requests is bounded, streaming is not.
		"--read-timeout", "500ms")
	var logged []string

	get := func(path, tok string) int {
		req, _ := http.NewRequest("GET", base+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("/readyz", ""); code != 200 {
		t.Errorf("readyz %d", code)
	}
	if code := get("/api/docs", ""); code != 401 {
		t.Errorf("docs without a token: %d", code)
	}
	if code := get("/api/docs", token); code != 200 {
		t.Errorf("docs with the token: %d", code)
	}

	// Wait for the first token, then ask the server to stop.
	stream := streamToFirstToken(t, base, token)
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(stream)
	if err != nil {
		t.Fatalf("the stream was cut: %v", err)
	}
	if !strings.Contains(string(rest), "event: done") {
		t.Errorf("the stream in flight did not finish:\n%s", rest)
	}
	for l := range lines {
		logged = append(logged, l)
	}
	if err := serve.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v\n%s", err, strings.Join(logged, "\n"))
	}
	all := strings.Join(logged, "\n")
	if strings.Contains(all, token) || strings.Contains(all, "sk-test-e2e-secret") {
		t.Error("the log holds a secret")
	}
	if !strings.Contains(all, `"msg":"stopped"`) || !strings.Contains(all, `"request_id"`) {
		t.Errorf("the JSON log lacks the request lines or the stop:\n%s", all)
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Error("the server still accepts connections after it stopped")
	}
}

// startServe starts the binary's serve on a free port and returns the
// process, its base URL and its stderr's lines from then on.
func startServe(t *testing.T, bin string, env []string, args ...string) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	serve := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	serve.Env = env
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var logged []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve exited:\n%s", strings.Join(logged, "\n"))
			}
			logged = append(logged, l)
			if addr, ok := strings.CutPrefix(l, "docent: serving "); ok {
				return serve, addr, lines
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("serve did not start:\n%s", strings.Join(logged, "\n"))
		}
	}
}

// A second signal during the grace period cuts the streams in flight and
// stops at once.
func testServeSecondSignal(t *testing.T, bin string) {
	llmSrv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"A workspace ", "never ends"}, StallAfter: 1})
	data := t.TempDir()
	env := append(os.Environ(), "XDG_DATA_HOME="+data, "XDG_STATE_HOME="+t.TempDir(),
		"DOCENT_PROVIDER=openai", "OPENAI_BASE_URL="+llmSrv.BaseURL(), "OPENAI_API_KEY=sk-test", "DATABASE_URL=", "DOCENT_DB=")
	create := exec.Command(bin, "tokens", "create", "--workspace", "acme", "--user", "alice")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		t.Fatalf("tokens create: %v", err)
	}
	serve, base, lines := startServe(t, bin, env, "--shutdown-timeout", "5m")
	go func() {
		for range lines {
		}
	}()
	streamToFirstToken(t, base, strings.TrimSpace(string(out)))
	serve.Process.Signal(syscall.SIGTERM)
	time.Sleep(300 * time.Millisecond) // the first signal's shutdown is under way
	began := time.Now()
	serve.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- serve.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after two signals: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve still waits for the stream after a second signal")
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("stopping took %s after the second signal", d)
	}
	select {
	case <-llmSrv.Disconnected():
	case <-time.After(5 * time.Second):
		t.Error("the stalled model call was not cancelled")
	}
}

// streamToFirstToken asks /api/ask a question and reads its stream up to
// the first token frame; the rest is the caller's to read.
func streamToFirstToken(t *testing.T, base, token string) *bufio.Reader {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/api/ask", strings.NewReader(`{"query":"explain workspace"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	stream := bufio.NewReader(resp.Body)
	for {
		line, err := stream.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before a token: %v", err)
		}
		if line == "event: token\n" {
			return stream
		}
	}
}

// Two instances on one PostgreSQL database: a seed, and the kill switch,
// reach both within two seconds, with no restart.
func testServeTwoInstances(t *testing.T, bin string) {
	dbURL := pgtest.NewDatabase(t)
	docs := t.TempDir()
	writeFile(t, filepath.Join(docs, "guides", "billing.md"), "---\ntitle: Billing\n---\n## Invoices\n\nDownload your invoices from the billing page.\n")
	writeFile(t, filepath.Join(docs, "guides", "export.md"), "---\ntitle: Export\n---\n## Export a note\n\nExport a note as PDF from its menu.\n")
	env := append(os.Environ(), "XDG_DATA_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(),
		"DATABASE_URL="+dbURL, "DOCENT_PROVIDER=extractive", "DOCENT_DOCS=")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("docent %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return string(out)
	}
	run("seed", "--docs", docs)
	token := strings.TrimSpace(run("tokens", "create", "--workspace", "acme", "--user", "alice"))
	_, baseA, linesA := startServe(t, bin, env)
	_, baseB, linesB := startServe(t, bin, env)
	for _, lines := range []<-chan string{linesA, linesB} {
		go func() {
			for range lines {
			}
		}()
	}
	retrieve := func(base, query string) askOutput {
		t.Helper()
		req, _ := http.NewRequest("POST", base+"/api/retrieve", strings.NewReader(fmt.Sprintf(`{"query": %q}`, query)))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var o askOutput
		if err := json.NewDecoder(resp.Body).Decode(&o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	// within polls until ok holds, and fails past two seconds (and a
	// little for the request itself).
	within := func(what string, ok func() bool) {
		t.Helper()
		began := time.Now()
		for !ok() {
			if time.Since(began) > 2500*time.Millisecond {
				t.Fatalf("%s: not within 2 s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("%s after %v", what, time.Since(began).Round(time.Millisecond))
	}
	if o := retrieve(baseB, "zebra crossing rules"); o.Status == "found" {
		t.Fatalf("before the seed: %s", o.Status)
	}
	writeFile(t, filepath.Join(docs, "guides", "zebra.md"), "---\ntitle: Zebra crossings\n---\n## Zebra crossing rules\n\nStop for anyone waiting at a zebra crossing.\n")
	run("seed", "--docs", docs)
	for name, base := range map[string]string{"A": baseA, "B": baseB} {
		within("instance "+name+" answers from the new seed", func() bool {
			o := retrieve(base, "zebra crossing rules")
			return o.Status == "found" && len(o.Results) > 0 && o.Results[0].DocSlug == "guides/zebra"
		})
	}
	run("admin", "retrieval", "off")
	for name, base := range map[string]string{"A": baseA, "B": baseB} {
		within("instance "+name+" obeys the kill switch", func() bool { return retrieve(base, "export a note").Rule == retrieval.RuleDisabled })
	}
	run("admin", "retrieval", "on")
	for name, base := range map[string]string{"A": baseA, "B": baseB} {
		within("instance "+name+" answers again", func() bool { return retrieve(base, "export a note").Status == "found" })
	}
}
