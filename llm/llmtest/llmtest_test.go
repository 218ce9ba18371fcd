package llmtest_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

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
