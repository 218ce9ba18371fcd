package llm

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	const key = "abcd1234efgh5678"
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{name: "known key", in: "request with " + key + " failed", secrets: []string{key}, want: "request with [redacted] failed"},
		{name: "bearer header", in: `header "Authorization: Bearer tok_live_998877"`, want: `header "Authorization: [redacted]"`},
		{name: "bearer alone", in: "sent Bearer tok_live_998877 to host", want: "sent Bearer [redacted] to host"},
		{name: "x-api-key header", in: "x-api-key: sk-ant-api03-zzzz", want: "x-api-key: [redacted]"},
		{name: "json api key", in: `{"api-key":"secretvalue"}`, want: `{"api-key":"[redacted]"}`},
		{name: "openai key shape", in: "Incorrect API key provided: sk-proj-AbCdEfGh12345678.", want: "Incorrect API key provided: [redacted]."},
		{name: "query parameter", in: "GET https://h/v1/models?key=AIzaSyXYZ&x=1", want: "GET https://h/v1/models?key=[redacted]&x=1"},
		{name: "url password", in: `Post "https://bob:pa55word@proxy:8080/v1": EOF`, want: `Post "https://bob:[redacted]@proxy:8080/v1": EOF`},
		{name: "short secret ignored", in: "the cat sat", secrets: []string{"at"}, want: "the cat sat"},
		{name: "plain error untouched", in: "dial tcp 127.0.0.1:9: connect: connection refused", want: "dial tcp 127.0.0.1:9: connect: connection refused"},
		{name: "port is not a password", in: "http://localhost:11434/api/chat", want: "http://localhost:11434/api/chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.in, tt.secrets...); got != tt.want {
				t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	got := redactURL("https://alice:s3cr3tpass@llm.example.com/v1?api_key=k123456")
	if strings.Contains(got, "s3cr3tpass") || strings.Contains(got, "k123456") {
		t.Errorf("redactURL leaks: %q", got)
	}
	if !strings.Contains(got, "alice") || !strings.Contains(got, "llm.example.com/v1") {
		t.Errorf("redactURL lost the host or user: %q", got)
	}
	if got := redactURL("http://127.0.0.1:11434"); got != "http://127.0.0.1:11434" {
		t.Errorf("redactURL changed a plain URL: %q", got)
	}
}

func TestRedactLeavesProseAlone(t *testing.T) {
	for _, in := range []string{
		"basic auth is not enabled",
		"a bearer token is required",
		"model gpt-4o-mini not found",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}
