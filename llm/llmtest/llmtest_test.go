package llmtest_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/docent-sh/docent/llm/llmtest"
)

// The servers also answer non-streaming requests, and Messages reads
// every protocol's request back into the same shape.
func TestServersAnswerWithoutStreaming(t *testing.T) {
	script := llmtest.Script{Chunks: []string{"Hello ", "there."}}
	cases := []struct {
		name string
		srv  *llmtest.Server
		new  func(base string) (llms.Model, error)
	}{
		{"openai", llmtest.NewOpenAI(t, script), func(base string) (llms.Model, error) {
			return openai.New(openai.WithToken("k"), openai.WithBaseURL(base), openai.WithModel("m"))
		}},
		{"anthropic", llmtest.NewAnthropic(t, script), func(base string) (llms.Model, error) {
			return anthropic.New(anthropic.WithToken("k"), anthropic.WithBaseURL(base), anthropic.WithModel("m"))
		}},
		{"ollama", llmtest.NewOllama(t, script), func(base string) (llms.Model, error) {
			return ollama.New(ollama.WithServerURL(base), ollama.WithModel("m"))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model, err := tc.new(tc.srv.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			resp, err := model.GenerateContent(context.Background(), []llms.MessageContent{
				llms.TextParts(llms.ChatMessageTypeSystem, "be brief"),
				llms.TextParts(llms.ChatMessageTypeHuman, "hi"),
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.Choices[0].Content; got != "Hello there." {
				t.Errorf("answer %q, want the chunks joined", got)
			}
			reqs := tc.srv.Requests()
			if len(reqs) != 1 || reqs[0].Method != http.MethodPost {
				t.Fatalf("requests %+v", reqs)
			}
			msgs, err := tc.srv.Messages(reqs[0])
			if err != nil {
				t.Fatal(err)
			}
			want := []llmtest.Message{{Role: "system", Text: "be brief"}, {Role: "user", Text: "hi"}}
			if !slices.Equal(msgs, want) {
				t.Errorf("messages %+v, want %+v", msgs, want)
			}
		})
	}
}

func TestServerRejectsOtherPaths(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{})
	resp, err := http.Post(srv.URL+"/v1/completions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", resp.StatusCode)
	}
}

// Each server reports the scripted usage where its protocol carries it,
// and langchaingo's clients read it back into GenerationInfo.
func TestServersReportUsage(t *testing.T) {
	script := llmtest.Script{Chunks: []string{"Hi."}, Usage: llmtest.Usage{PromptTokens: 321, CompletionTokens: 7}}
	cases := []struct {
		name               string
		srv                *llmtest.Server
		new                func(base string) (llms.Model, error)
		promptKey, compKey string
	}{
		{"openai", llmtest.NewOpenAI(t, script), func(base string) (llms.Model, error) {
			return openai.New(openai.WithToken("k"), openai.WithBaseURL(base), openai.WithModel("m"))
		}, "PromptTokens", "CompletionTokens"},
		{"anthropic", llmtest.NewAnthropic(t, script), func(base string) (llms.Model, error) {
			return anthropic.New(anthropic.WithToken("k"), anthropic.WithBaseURL(base), anthropic.WithModel("m"))
		}, "InputTokens", "OutputTokens"},
		{"ollama", llmtest.NewOllama(t, script), func(base string) (llms.Model, error) {
			return ollama.New(ollama.WithServerURL(base), ollama.WithModel("m"), ollama.WithRunnerNumCtx(4096))
		}, "PromptTokens", "CompletionTokens"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model, err := tc.new(tc.srv.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			resp, err := model.GenerateContent(context.Background(),
				[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")},
				llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
			if err != nil {
				t.Fatal(err)
			}
			info := resp.Choices[0].GenerationInfo
			if info[tc.promptKey] != 321 || info[tc.compKey] != 7 {
				t.Errorf("GenerationInfo %s=%v %s=%v, want 321 and 7", tc.promptKey, info[tc.promptKey], tc.compKey, info[tc.compKey])
			}
			if tc.name == "ollama" {
				if got := tc.srv.Requests()[0].NumCtx; got != 4096 {
					t.Errorf("recorded num_ctx %d, want 4096", got)
				}
			}
		})
	}
}

func TestServersListModels(t *testing.T) {
	models := []string{"alpha", "beta", "gamma"}
	cases := []struct {
		name, path string
		srv        *llmtest.Server
		want       string
	}{
		{"openai", "/v1/models", llmtest.NewOpenAI(t, llmtest.Script{Models: models}),
			`{"data":[{"created":1700000000,"id":"alpha","object":"model","owned_by":"llmtest"},{"created":1700000000,"id":"beta","object":"model","owned_by":"llmtest"},{"created":1700000000,"id":"gamma","object":"model","owned_by":"llmtest"}],"object":"list"}`},
		{"anthropic first page", "/v1/models?limit=2", llmtest.NewAnthropic(t, llmtest.Script{Models: models}),
			`{"data":[{"created_at":"2024-01-01T00:00:00Z","display_name":"alpha","id":"alpha","type":"model"},{"created_at":"2024-01-01T00:00:00Z","display_name":"beta","id":"beta","type":"model"}],"first_id":"alpha","has_more":true,"last_id":"beta"}`},
		{"anthropic last page", "/v1/models?limit=2&after_id=beta", llmtest.NewAnthropic(t, llmtest.Script{Models: models}),
			`{"data":[{"created_at":"2024-01-01T00:00:00Z","display_name":"gamma","id":"gamma","type":"model"}],"first_id":"gamma","has_more":false,"last_id":"gamma"}`},
		{"ollama", "/api/tags", llmtest.NewOllama(t, llmtest.Script{Models: models[:1]}),
			`{"models":[{"details":{"family":"llama","format":"gguf"},"digest":"llmtest","model":"alpha","modified_at":"2024-01-01T00:00:00Z","name":"alpha","size":1}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(tc.srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK || string(body) != tc.want {
				t.Errorf("GET %s = %d %s\nwant 200 %s", tc.path, resp.StatusCode, body, tc.want)
			}
		})
	}
}

// A 429 carries the scripted Retry-After, and OpenAI's exhausted quota has
// its own error code.
func TestServerRateLimitBodies(t *testing.T) {
	srv := llmtest.NewOpenAI(t, llmtest.Script{Statuses: []int{429}, RetryAfter: "7", InsufficientQuota: true})
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(string(body), `"code":"insufficient_quota"`) {
		t.Errorf("got %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

// A stalled stream sends its first chunks, then nothing, and holds the
// connection until the client leaves.
func TestServerStalls(t *testing.T) {
	srv := llmtest.NewOllama(t, llmtest.Script{Chunks: []string{"one ", "two"}, StallAfter: 1})
	model, err := ollama.New(ollama.WithServerURL(srv.BaseURL()), ollama.WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	_, _ = model.GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")},
		llms.WithStreamingFunc(func(_ context.Context, c []byte) error {
			got = append(got, string(c))
			cancel()
			return nil
		}))
	select {
	case <-srv.Disconnected():
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not see the client leave")
	}
	if !slices.Equal(got, []string{"one "}) || srv.Completed() != 0 {
		t.Errorf("streamed %q, completed %d; want only the first chunk", got, srv.Completed())
	}
}
