package llm_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docent-sh/docent/internal/syncbuf"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/llm/extractive"
	"github.com/docent-sh/docent/llm/llmtest"
	"github.com/docent-sh/docent/prompt"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tokens"
)

// A fake key with the shape of a real one, so redaction by pattern and by
// value are both exercised.
const testKey = "sk-test-SECRET-0123456789abcdefXYZ"

type providerCase struct {
	provider  string
	keyEnv    string
	newServer func(testing.TB, llmtest.Script) *llmtest.Server
}

var providers = []providerCase{
	{provider: llm.ProviderOpenAI, keyEnv: llm.EnvOpenAIKey, newServer: llmtest.NewOpenAI},
	{provider: llm.ProviderAnthropic, keyEnv: llm.EnvAnthropicKey, newServer: llmtest.NewAnthropic},
	{provider: llm.ProviderOllama, newServer: llmtest.NewOllama},
}

// forEachProvider runs fn as a parallel subtest per provider.
func forEachProvider(t *testing.T, fn func(t *testing.T, pc providerCase)) {
	for _, pc := range providers {
		t.Run(pc.provider, func(t *testing.T) {
			t.Parallel()
			fn(t, pc)
		})
	}
}

// setup is a responder for pc pointed at a scripted server, with fast
// backoffs and a log buffer to check for leaks.
type setup struct {
	srv  *llmtest.Server
	resp *llm.Responder
	logs *syncbuf.Buffer
}

// onlyMessages is the messages of the one request the server got.
func (s setup) onlyMessages(t *testing.T) []llmtest.Message {
	t.Helper()
	reqs := s.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	msgs, err := s.srv.Messages(reqs[0])
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// noModel is the extractive responder: no model to call.
func noModel(t *testing.T) *llm.Responder {
	t.Helper()
	sel, err := llm.Resolve(llm.Config{Provider: llm.ProviderExtractive}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newSetup(t *testing.T, pc providerCase, script llmtest.Script, cfg llm.Config) setup {
	t.Helper()
	if pc.keyEnv != "" && script.APIKey == "" {
		script.APIKey = testKey
	}
	srv := pc.newServer(t, script)
	cfg.Provider = pc.provider
	if cfg.BaseURL == "" {
		cfg.BaseURL = srv.BaseURL()
	}
	if cfg.Model == "" {
		cfg.Model = "test-model"
	}
	env := map[string]string{}
	if pc.keyEnv != "" {
		env[pc.keyEnv] = testKey
	}
	sel, err := llm.Resolve(cfg, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	logs := &syncbuf.Buffer{}
	resp, err := llm.NewResponder(sel,
		llm.WithBackoff(time.Millisecond, 5*time.Millisecond),
		llm.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatalf("NewResponder: %v", err)
	}
	return setup{srv: srv, resp: resp, logs: logs}
}

// collector records what Stream emits.
type collector struct {
	mu     sync.Mutex
	chunks []string
	onEmit func(n int)
}

func (c *collector) emit(chunk string) {
	c.mu.Lock()
	c.chunks = append(c.chunks, chunk)
	n := len(c.chunks)
	c.mu.Unlock()
	if c.onEmit != nil {
		c.onEmit(n)
	}
}

func (c *collector) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.chunks, "")
}

func evidence() []retrieval.Evidence {
	return []retrieval.Evidence{
		{DocSlug: "concepts/workspace", Title: "Workspace", ChunkID: "concepts/workspace#chunk-0", HeaderPath: "Workspace", Score: 9,
			Content: "A workspace is an area inside an entry that holds a set of related notes."},
		{DocSlug: "actions/workspaces", Title: "Workspace actions", ChunkID: "actions/workspaces#chunk-2", HeaderPath: "Workspace actions > Archive", Score: 6,
			Content: "To archive a workspace, open it and choose More > Archive. You can restore it from the archive tray."},
	}
}

func testPrompt() prompt.Prompt {
	return prompt.Builder{}.Build(prompt.Input{
		Question: "What is a workspace?",
		Glossary: "- Entry: a top-level collection.\n- Workspace: an area of an entry.",
		Evidence: evidence(),
		Recent: []prompt.Message{
			{Role: "user", Text: "How do I open the navigator?"},
			{Role: "assistant", Text: "Press Ctrl+Shift+N. [widgets/navigator#chunk-0]"},
		},
	})
}

// checkInvariants holds for every answer: what was emitted is the text,
// and no secret appears anywhere.
func checkInvariants(t *testing.T, ans llm.Answer, c *collector, s setup) {
	t.Helper()
	if got := c.text(); got != ans.Text {
		t.Errorf("emitted %q but Answer.Text is %q", got, ans.Text)
	}
	if ans.Chunks != len(c.chunks) {
		t.Errorf("Answer.Chunks = %d, emitted %d", ans.Chunks, len(c.chunks))
	}
	for where, s := range map[string]string{"notice": ans.Notice, "text": ans.Text, "logs": s.logs.String(), "answer": fmt.Sprintf("%+v", ans)} {
		if strings.Contains(s, testKey) || strings.Contains(s, "SECRET") {
			t.Errorf("the API key leaks into the %s: %s", where, s)
		}
	}
	if strings.ContainsRune(ans.Notice, '\n') {
		t.Errorf("notice is more than one line: %q", ans.Notice)
	}
}

func TestStreamChunksArriveInOrder(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		chunks := []string{"A workspace ", "is an area ", "inside an entry ", "that holds notes. ", "[concepts/workspace#chunk-0]"}
		s := newSetup(t, pc, llmtest.Script{Chunks: chunks, Models: []string{"test-model"}}, llm.Config{})
		p := testPrompt()
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), p, c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if !slices.Equal(c.chunks, chunks) {
			t.Errorf("emitted %q, want %q", c.chunks, chunks)
		}
		if ans.Fallback || ans.Stopped || ans.Notice != "" {
			t.Errorf("answer = %+v, want a clean model answer", ans)
		}
		if ans.Provider != pc.provider || ans.Model != "test-model" {
			t.Errorf("answer by %s/%s, want %s/test-model", ans.Provider, ans.Model, pc.provider)
		}
		if ans.TTFT <= 0 || ans.Duration < ans.TTFT || ans.TokensPerSec <= 0 {
			t.Errorf("metrics TTFT %s, duration %s, %f tok/s", ans.TTFT, ans.Duration, ans.TokensPerSec)
		}
		if got := s.srv.Completed(); got != 1 {
			t.Errorf("server completed %d streams, want 1", got)
		}

		// The request carries the prompt: the system message, the earlier
		// turns in order, the chunk ids, and nothing beyond the budget.
		msgs := s.onlyMessages(t)
		var roles []string
		var all strings.Builder
		for _, m := range msgs {
			roles = append(roles, m.Role)
			all.WriteString(m.Text)
		}
		if want := []string{"system", "user", "assistant", "user"}; !slices.Equal(roles, want) {
			t.Errorf("request roles %v, want %v", roles, want)
		}
		if msgs[0].Text != p.System || !strings.Contains(msgs[0].Text, "Answer only from the documentation") {
			t.Errorf("system message is not the prompt's system prompt: %q", msgs[0].Text)
		}
		user := msgs[len(msgs)-1].Text
		for _, id := range []string{"concepts/workspace#chunk-0", "actions/workspaces#chunk-2"} {
			if !strings.Contains(user, `id="`+id+`"`) {
				t.Errorf("user message lacks chunk %s", id)
			}
		}
		if !strings.HasSuffix(user, "Question: What is a workspace?") {
			t.Errorf("user message does not end with the question: %q", user[max(0, len(user)-80):])
		}
		sent := tokens.Default().Count(all.String())
		if diff := sent - p.Report.Tokens.Total; diff < -8 || diff > 8 {
			t.Errorf("request holds %d prompt tokens, the builder reported %d", sent, p.Report.Tokens.Total)
		}
		if b := prompt.DefaultBudgets(); sent > b.Core+b.Docs+b.UI+b.Widgets+b.Recent {
			t.Errorf("request holds %d prompt tokens, over the 3000 budget", sent)
		}
	})
}

// The usage each provider reports reaches the Answer; an answer the
// model did not finish, or a server that reports none, has none.
func TestStreamReportsUsage(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"A workspace ", "is an area."}, Usage: llmtest.Usage{PromptTokens: 321, CompletionTokens: 7}}, llm.Config{})
		ans, err := s.resp.Stream(context.Background(), testPrompt(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := (llm.Usage{PromptTokens: 321, CompletionTokens: 7, Reported: true}); ans.Usage != want {
			t.Errorf("usage %+v, want %+v", ans.Usage, want)
		}

		broken := newSetup(t, pc, llmtest.Script{Chunks: []string{"A workspace ", "is"}, BreakAfter: 1}, llm.Config{})
		ans, err = broken.resp.Stream(context.Background(), testPrompt(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !ans.Fallback || ans.Usage != (llm.Usage{}) {
			t.Errorf("broken stream: fallback %v, usage %+v; want the fallback and no usage", ans.Fallback, ans.Usage)
		}
	})
}

func TestStreamWithoutReportedUsage(t *testing.T) {
	for _, pc := range []providerCase{providers[0], providers[2]} {
		t.Run(pc.provider, func(t *testing.T) {
			s := newSetup(t, pc, llmtest.Script{Chunks: []string{"Local answer."}, OmitUsage: true}, llm.Config{})
			ans, err := s.resp.Stream(context.Background(), testPrompt(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if ans.Fallback || ans.Usage != (llm.Usage{}) {
				t.Errorf("answer = %+v, want the model's answer without usage", ans)
			}
		})
	}
}

// The prompt tokens stay within budget even when the evidence is far
// larger than the docs budget.
func TestStreamRequestWithinBudget(t *testing.T) {
	pc := providers[0]
	s := newSetup(t, pc, llmtest.Script{Chunks: []string{"ok"}}, llm.Config{})
	var ev []retrieval.Evidence
	for i := range 12 {
		ev = append(ev, retrieval.Evidence{
			DocSlug: "docs/big", Title: "Big", ChunkID: fmt.Sprintf("docs/big#chunk-%d", i), Score: float64(20 - i),
			Content: strings.Repeat(fmt.Sprintf("Sentence %d explains workspaces in detail. ", i), 40),
		})
	}
	p := prompt.Builder{}.Build(prompt.Input{Question: "What is a workspace?", Evidence: ev})
	if _, err := s.resp.Stream(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.srv.Messages(s.srv.Requests()[0])
	if err != nil {
		t.Fatal(err)
	}
	user := msgs[len(msgs)-1].Text
	docs := prompt.ParseDocBlocks(user)
	if len(docs) == 0 || len(docs) == len(ev) {
		t.Fatalf("request holds %d of %d chunks; the budget should keep some and drop some", len(docs), len(ev))
	}
	var docTokens int
	for _, d := range docs {
		docTokens += tokens.Default().Count(prompt.RenderDocBlock(d))
	}
	if budget := prompt.DefaultBudgets().Docs; docTokens > budget {
		t.Errorf("docs in the request take %d tokens, over the %d budget", docTokens, budget)
	}
	if docs[0].ID != "docs/big#chunk-0" {
		t.Errorf("first chunk sent is %s, want the highest-scored", docs[0].ID)
	}
}

func TestStreamCancelClosesConnection(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		chunks := slices.Repeat([]string{"word "}, 50)
		s := newSetup(t, pc, llmtest.Script{Chunks: chunks, Delay: 20 * time.Millisecond}, llm.Config{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &collector{onEmit: func(n int) {
			if n == 2 {
				cancel() // Esc in the TUI, Ctrl+C in ask
			}
		}}
		ans, err := s.resp.Stream(ctx, testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if !ans.Stopped || ans.Fallback || ans.Notice != "" {
			t.Errorf("answer = %+v, want stopped without fallback or notice", ans)
		}
		if ans.Text != "word word " {
			t.Errorf("partial text %q, want the two chunks before the cancel", ans.Text)
		}
		waitDisconnected(t, s.srv, "the server never saw the client disconnect")
		if len(s.srv.Requests()) != 1 || s.srv.Completed() != 0 {
			t.Errorf("requests %d, completed %d; want 1 and 0", len(s.srv.Requests()), s.srv.Completed())
		}
	})
}

func TestStreamRetriesBeforeFirstToken(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"Fine ", "now."}, Statuses: []int{429, 503}}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if ans.Text != "Fine now." || ans.Fallback || ans.Notice != "" {
			t.Errorf("answer = %+v, want the model's answer after retrying", ans)
		}
		if n := len(s.srv.Requests()); n != 3 {
			t.Errorf("server got %d requests, want 3 (429, 503, 200)", n)
		}
	})
}

func TestStreamGivesUpAfterThreeRetries(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"never"}, Statuses: []int{500, 502, 503, 500, 500}}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if n := len(s.srv.Requests()); n != 4 {
			t.Errorf("server got %d requests, want 4 (1 + 3 retries)", n)
		}
		want := pc.provider + ": server error (500) after 3 retries"
		if ans.Notice != want {
			t.Errorf("notice %q, want %q", ans.Notice, want)
		}
		assertExtractiveFallback(t, ans)
	})
}

// Retry-After is honoured in both of its forms, beyond the backoff's
// ceiling (5 ms in these tests): the retry does not arrive before the
// server said.
func TestStreamHonoursRetryAfter(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		for _, form := range []string{"seconds", "date"} {
			t.Run(form, func(t *testing.T) {
				t.Parallel()
				header := "1"
				if form == "date" {
					header = time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)
				}
				s := newSetup(t, pc, llmtest.Script{Chunks: []string{"Fine."}, Statuses: []int{429}, RetryAfter: header}, llm.Config{})
				ans, err := s.resp.Stream(context.Background(), testPrompt(), nil)
				if err != nil {
					t.Fatal(err)
				}
				if ans.Text != "Fine." || ans.Fallback {
					t.Fatalf("answer = %+v, want the model's answer after one retry", ans)
				}
				reqs := s.srv.Requests()
				if len(reqs) != 2 {
					t.Fatalf("server got %d requests, want 2", len(reqs))
				}
				notBefore := reqs[0].Time.Add(time.Second)
				if form == "date" {
					at, err := http.ParseTime(header)
					if err != nil {
						t.Fatal(err)
					}
					notBefore = at
				}
				// The slack covers the wall clock's rounding, not the wait.
				if early := notBefore.Sub(reqs[1].Time); early > 10*time.Millisecond {
					t.Errorf("retry came %s before the Retry-After %q allowed", early, header)
				}
			})
		}
	})
}

// A Retry-After longer than the cap ends the retries at once, saying so.
func TestStreamRetryAfterOverTheCap(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"x"}, Statuses: []int{429, 429}, RetryAfter: "120"},
			llm.Config{RetryAfterMax: time.Second})
		c := &collector{}
		ans := streamWithin(t, s.resp, 30*time.Second, c.emit)
		checkInvariants(t, ans, c, s)
		assertFellBack(t, ans, s, pc.provider+": rate limited (429): the server asks to wait 2m0s, longer than the 1s cap", 1)
	})
}

// An exhausted quota is a 429 that waiting does not cure: no retry.
func TestStreamQuotaExhaustedIsNotRetried(t *testing.T) {
	pc := providers[0]
	s := newSetup(t, pc, llmtest.Script{Chunks: []string{"x"}, Statuses: []int{429, 429, 429, 429}, InsufficientQuota: true}, llm.Config{})
	c := &collector{}
	ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, ans, c, s)
	assertFellBack(t, ans, s, "openai: quota exhausted (429 insufficient_quota): check the plan and billing of the account", 1)
}

// waitDisconnected fails the test with complaint when the server does not
// see its client go away within a few seconds.
func waitDisconnected(t *testing.T, srv *llmtest.Server, complaint string) {
	t.Helper()
	select {
	case <-srv.Disconnected():
	case <-time.After(5 * time.Second):
		t.Fatal(complaint)
	}
}

// assertFellBack checks a call that failed: its notice, how many requests
// the server got, and the extractive answer after it.
func assertFellBack(t *testing.T, ans llm.Answer, s setup, wantNotice string, wantRequests int) {
	t.Helper()
	if ans.Notice != wantNotice {
		t.Errorf("notice %q, want %q", ans.Notice, wantNotice)
	}
	if n := len(s.srv.Requests()); n != wantRequests {
		t.Errorf("server got %d requests, want %d", n, wantRequests)
	}
	assertExtractiveFallback(t, ans)
}

func assertExtractiveFallback(t *testing.T, ans llm.Answer) {
	t.Helper()
	if !ans.Fallback || ans.Provider != llm.ProviderExtractive || ans.Model != extractive.ModelName {
		t.Errorf("answer by %s/%s fallback=%v, want the extractive fallback", ans.Provider, ans.Model, ans.Fallback)
	}
	if !strings.Contains(ans.Text, "A workspace is an area inside an entry that holds a set of related notes. [concepts/workspace#chunk-0]") {
		t.Errorf("fallback text is not the extractive answer: %q", ans.Text)
	}
}

func TestStreamBreaksAfterFirstToken(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"A workspace ", "is ", "never finished"}, BreakAfter: 2}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if n := len(s.srv.Requests()); n != 1 {
			t.Errorf("server got %d requests: a failure after the first token must not be retried", n)
		}
		if !strings.HasPrefix(ans.Text, "A workspace is "+llm.MidStreamSeparator) {
			t.Errorf("text %q does not keep the partial answer and mark the fallback", ans.Text)
		}
		if !strings.HasPrefix(ans.Notice, pc.provider+": the answer broke off after 2 chunks") {
			t.Errorf("notice %q", ans.Notice)
		}
		assertExtractiveFallback(t, ans)
	})
}

func TestStreamMalformed(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Malformed: true}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if !strings.HasPrefix(ans.Notice, pc.provider+": malformed stream: ") {
			t.Errorf("notice %q, want a malformed-stream line", ans.Notice)
		}
		if n := len(s.srv.Requests()); n != 1 {
			t.Errorf("server got %d requests; a malformed stream is not retried", n)
		}
		assertExtractiveFallback(t, ans)
	})
}

func TestStreamAuthFailure(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"x"}, APIKey: "the-right-key-0000"}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		want := pc.provider + ": authentication failed (401): check " + pc.keyEnv
		if pc.keyEnv == "" {
			want = pc.provider + ": authentication failed (401): the server refused the request"
		}
		if ans.Notice != want {
			t.Errorf("notice %q, want %q", ans.Notice, want)
		}
		if n := len(s.srv.Requests()); n != 1 {
			t.Errorf("server got %d requests; 401 is not retried", n)
		}
		assertExtractiveFallback(t, ans)
	})
}

func TestStreamForbidden(t *testing.T) {
	pc := providers[1]
	s := newSetup(t, pc, llmtest.Script{Statuses: []int{403}}, llm.Config{})
	ans, _ := s.resp.Stream(context.Background(), testPrompt(), nil)
	if want := "anthropic: authentication failed (403): check ANTHROPIC_API_KEY"; ans.Notice != want {
		t.Errorf("notice %q, want %q", ans.Notice, want)
	}
}

func TestStreamUnknownModel(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"x"}, Models: []string{"known-model"}}, llm.Config{Model: "no-such-model"})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if want := pc.provider + `: model "no-such-model" not found (404)`; !strings.HasPrefix(ans.Notice, want) {
			t.Errorf("notice %q, want it to start with %q", ans.Notice, want)
		}
		if !strings.Contains(ans.Notice, "--model") {
			t.Errorf("notice %q does not say what to check", ans.Notice)
		}
		assertExtractiveFallback(t, ans)
	})
}

// freeAddr is a local address that was just free: nothing listens there.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestStreamConnectionRefused(t *testing.T) {
	addr := freeAddr(t)

	forEachProvider(t, func(t *testing.T, pc providerCase) {
		base := "http://" + addr
		if pc.provider != llm.ProviderOllama {
			base += "/v1"
		}
		s := newSetup(t, pc, llmtest.Script{}, llm.Config{BaseURL: base})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		want := fmt.Sprintf("%s: cannot connect to %s (connection refused): is the server running?", pc.provider, addr)
		if ans.Notice != want {
			t.Errorf("notice %q, want %q", ans.Notice, want)
		}
		assertExtractiveFallback(t, ans)
	})
}

func TestStreamFirstTokenTimeout(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"too late"}, Delay: 10 * time.Second},
			llm.Config{FirstTokenTimeout: 100 * time.Millisecond})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if want := pc.provider + ": no answer within 100ms (first-token timeout)"; ans.Notice != want {
			t.Errorf("notice %q, want %q", ans.Notice, want)
		}
		assertExtractiveFallback(t, ans)
		waitDisconnected(t, s.srv, "the abandoned request was never closed")
	})
}

// A stream that stalls after its first token ends at the idle timeout:
// the partial answer stays, the extractive answer follows, the notice says
// why and the connection is closed.
func TestStreamIdleTimeout(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"A workspace ", "never comes"}, StallAfter: 1},
			llm.Config{IdleTimeout: 100 * time.Millisecond})
		c := &collector{}
		ans := streamWithin(t, s.resp, 30*time.Second, c.emit)
		checkInvariants(t, ans, c, s)
		if !strings.HasPrefix(ans.Text, "A workspace "+llm.MidStreamSeparator) {
			t.Errorf("text %q does not keep the partial answer and mark the fallback", ans.Text)
		}
		// A stall after the first token is not retried.
		assertFellBack(t, ans, s, pc.provider+": the answer broke off after 1 chunk (idle timeout: no new token within 100ms)", 1)
		waitDisconnected(t, s.srv, "the stalled request was never closed")
	})
}

// The idle timeout is between tokens, not for the whole answer: a stream
// slower in total than the timeout, but never silent that long, completes.
func TestStreamSlowButSteadyIsNotCut(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		chunks := slices.Repeat([]string{"word "}, 8)
		s := newSetup(t, pc, llmtest.Script{Chunks: chunks, Delay: 100 * time.Millisecond},
			llm.Config{IdleTimeout: 500 * time.Millisecond})
		c := &collector{}
		ans := streamWithin(t, s.resp, 30*time.Second, c.emit)
		checkInvariants(t, ans, c, s)
		if ans.Fallback || ans.Notice != "" || ans.Text != strings.Join(chunks, "") {
			t.Errorf("answer = %+v, want the whole model answer", ans)
		}
	})
}

// streamWithin streams prompt() and fails the test, instead of hanging
// it, when the answer does not end within limit: a guard against a wait
// without a limit, not a speed measure.
func streamWithin(t *testing.T, r *llm.Responder, limit time.Duration, emit func(string)) llm.Answer {
	t.Helper()
	type result struct {
		ans llm.Answer
		err error
	}
	done := make(chan result, 1)
	go func() {
		ans, err := r.Stream(context.Background(), testPrompt(), emit)
		done <- result{ans, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			t.Fatal(res.err)
		}
		return res.ans
	case <-time.After(limit):
		t.Fatalf("Stream did not return within %s", limit)
		return llm.Answer{}
	}
}

// A first-token timeout also bounds the retries: 429s for longer than the
// timeout end in the timeout notice, not in endless waiting.
func TestFirstTokenTimeoutBoundsRetries(t *testing.T) {
	pc := providers[0]
	srv := pc.newServer(t, llmtest.Script{Statuses: []int{429, 429, 429, 429}, APIKey: testKey})
	sel, err := llm.Resolve(llm.Config{Provider: pc.provider, BaseURL: srv.BaseURL(), FirstTokenTimeout: 50 * time.Millisecond},
		func(k string) string { return map[string]string{pc.keyEnv: testKey}[k] })
	if err != nil {
		t.Fatal(err)
	}
	resp, err := llm.NewResponder(sel, llm.WithBackoff(time.Second, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ans, _ := resp.Stream(context.Background(), testPrompt(), nil)
	if want := "openai: no answer within 50ms (first-token timeout)"; ans.Notice != want {
		t.Errorf("notice %q, want %q", ans.Notice, want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server got %d requests; the timeout fell during the first backoff", n)
	}
}

func TestStreamStripsControlSequences(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{Chunks: []string{"safe \x1b[3", "1mred\x1b[0m", " \x1b]0;title\x07text\r\n"}}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if ans.Text != "safe red text\n" {
			t.Errorf("text %q, want the control sequences removed", ans.Text)
		}
	})
}

func TestStreamMissingKey(t *testing.T) {
	for _, pc := range providers[:2] {
		t.Run(pc.provider, func(t *testing.T) {
			sel, err := llm.Resolve(llm.Config{Provider: pc.provider}, func(string) string { return "" })
			if err == nil || !strings.Contains(err.Error(), pc.keyEnv) {
				t.Fatalf("Resolve error %v, want one naming %s", err, pc.keyEnv)
			}
			resp, err := llm.NewResponder(sel)
			if err != nil {
				t.Fatal(err)
			}
			c := &collector{}
			ans, err := resp.Stream(context.Background(), testPrompt(), c.emit)
			if err != nil {
				t.Fatal(err)
			}
			if want := pc.provider + ": no API key: set " + pc.keyEnv; ans.Notice != want {
				t.Errorf("notice %q, want %q", ans.Notice, want)
			}
			if c.text() != ans.Text {
				t.Errorf("emitted %q, text %q", c.text(), ans.Text)
			}
			assertExtractiveFallback(t, ans)
		})
	}
}

func TestStreamExtractiveProvider(t *testing.T) {
	sel, err := llm.Resolve(llm.Config{}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	resp, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	c := &collector{}
	ans, err := resp.Stream(context.Background(), testPrompt(), c.emit)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Provider != llm.ProviderExtractive || ans.Fallback || ans.Notice != "" {
		t.Errorf("answer = %+v, want a plain extractive answer", ans)
	}
	if len(c.chunks) < 3 || c.text() != ans.Text {
		t.Errorf("streamed %d pieces %q, text %q", len(c.chunks), c.chunks, ans.Text)
	}
	if !strings.Contains(ans.Text, "[concepts/workspace#chunk-0]") {
		t.Errorf("answer does not cite its chunk: %q", ans.Text)
	}
}

func TestStreamRejectsEmptyPrompt(t *testing.T) {
	sel, _ := llm.Resolve(llm.Config{}, nil)
	resp, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resp.Stream(context.Background(), prompt.Prompt{System: "x"}, nil); err == nil {
		t.Error("Stream accepted a prompt without a user message")
	}
}

func TestNewResponderRejectsUnresolved(t *testing.T) {
	for _, sel := range []llm.Selection{{}, {Provider: "auto"}, {Provider: "gemini"}, {Provider: "ollama", BaseURL: "::"}} {
		if _, err := llm.NewResponder(sel); err == nil {
			t.Errorf("NewResponder(%#v) succeeded", sel)
		}
	}
}

// A server that echoes the credentials in its error body: the provider's
// message reaches the notice, the key does not.
func TestStreamRedactsEchoedKey(t *testing.T) {
	for _, pc := range providers[:2] {
		t.Run(pc.provider, func(t *testing.T) {
			s := newSetup(t, pc, llmtest.Script{Statuses: []int{400}, EchoKey: true}, llm.Config{})
			c := &collector{}
			ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, ans, c, s)
			if !strings.HasPrefix(ans.Notice, pc.provider+": request rejected (400): ") || !strings.Contains(ans.Notice, "[redacted]") {
				t.Errorf("notice %q, want the provider's message with the key redacted", ans.Notice)
			}
			if !strings.Contains(s.logs.String(), "[redacted]") {
				t.Errorf("the log does not show the redacted error: %s", s.logs.String())
			}
		})
	}
}

// answerFrom streams prompt() from a responder built on sel.
func answerFrom(t *testing.T, sel llm.Selection) llm.Answer {
	t.Helper()
	resp, err := llm.NewResponder(sel)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := resp.Stream(context.Background(), testPrompt(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

// An OpenAI-compatible server (vLLM, llama.cpp, LM Studio) usually runs
// without a key; docent talks to it without one.
func TestStreamOpenAICompatibleWithoutKey(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Chunks: []string{"Local ", "answer."}})
	ans := answerFrom(t, resolveFor(t, llm.Config{Provider: "openai", BaseURL: srv.BaseURL(), Model: "qwen2.5"}, nil))
	if ans.Text != "Local answer." || ans.Fallback || ans.Provider != llm.ProviderOpenAI || ans.Model != "qwen2.5" {
		t.Errorf("answer = %+v", ans)
	}
}

// ANTHROPIC_BASE_URL is taken as Anthropic's SDKs take it, without /v1:
// the request reaches the server it names, not the public endpoint.
func TestStreamAnthropicBaseURLFromEnvironment(t *testing.T) {
	srv := llmtest.NewAnthropic(t, llmtest.Script{Chunks: []string{"Via ", "the gateway."}, APIKey: testKey})
	env := map[string]string{llm.EnvAnthropicKey: testKey, llm.EnvAnthropicBaseURL: srv.URL}
	ans := answerFrom(t, resolveFor(t, llm.Config{Provider: "anthropic"}, env))
	if ans.Text != "Via the gateway." || ans.Fallback || ans.Provider != llm.ProviderAnthropic {
		t.Errorf("answer = %+v, want the gateway's answer", ans)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Path != "/v1/messages" {
		t.Errorf("requests %+v, want one POST /v1/messages", reqs)
	}
}

// Every Ollama request asks for a context window that holds its prompt
// and the answer: a ~3.2k-token prompt on a server whose default window is
// 2048 tokens would otherwise be cut from the front without a word. The
// window is the same for every question of a session, so Ollama does not
// reload the model between them.
func TestStreamOllamaAsksForAWindowThatFits(t *testing.T) {
	s := newSetup(t, providers[2], llmtest.Script{Chunks: []string{"ok"}}, llm.Config{})
	budgets := prompt.Budgets{Docs: 3000}
	var ev []retrieval.Evidence
	for i := range 12 {
		ev = append(ev, retrieval.Evidence{
			DocSlug: "docs/big", Title: "Big", ChunkID: fmt.Sprintf("docs/big#chunk-%d", i), Score: float64(20 - i),
			Content: strings.Repeat(fmt.Sprintf("Sentence %d explains workspaces in detail. ", i), 30),
		})
	}
	big := prompt.Builder{Budgets: budgets}.Build(prompt.Input{Question: "What is a workspace?", Glossary: "- Workspace: an area.", Evidence: ev})
	small := prompt.Builder{Budgets: budgets}.Build(prompt.Input{Question: "What is a workspace?", Evidence: ev[:1]})
	if big.Report.Tokens.Total < 3000 || small.Report.Tokens.Total > 1000 {
		t.Fatalf("prompts of %d and %d tokens; the test wants one over 3000 and one under 1000", big.Report.Tokens.Total, small.Report.Tokens.Total)
	}
	for _, p := range []prompt.Prompt{big, small} {
		if _, err := s.resp.Stream(context.Background(), p, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("server got %d requests, want 2", len(reqs))
	}
	numCtx := reqs[0].NumCtx
	if need := big.Report.Tokens.Total + llm.DefaultAnswerTokens; numCtx < need {
		t.Errorf("num_ctx %d, want at least the prompt's %d tokens plus %d for the answer", numCtx, big.Report.Tokens.Total, llm.DefaultAnswerTokens)
	}
	if numCtx%1024 != 0 {
		t.Errorf("num_ctx %d is not a multiple of 1024", numCtx)
	}
	if reqs[1].NumCtx != numCtx {
		t.Errorf("num_ctx %d then %d: one session's questions should ask for the same window", numCtx, reqs[1].NumCtx)
	}
}

func TestStreamErrorReportedInStream(t *testing.T) {
	forEachProvider(t, func(t *testing.T, pc providerCase) {
		s := newSetup(t, pc, llmtest.Script{StreamError: "model overloaded"}, llm.Config{})
		c := &collector{}
		ans, err := s.resp.Stream(context.Background(), testPrompt(), c.emit)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, ans, c, s)
		if !strings.HasPrefix(ans.Notice, pc.provider+": the server reported an error in the stream: ") ||
			!strings.Contains(ans.Notice, "model overloaded") {
			t.Errorf("notice %q", ans.Notice)
		}
		assertExtractiveFallback(t, ans)
	})
}
