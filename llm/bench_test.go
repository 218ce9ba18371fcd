package llm

import (
	"testing"

	"github.com/docent-sh/docent/internal/demo"
)

// BenchmarkToMessages is the prompt's conversion for langchaingo, paid
// before every model call.
func BenchmarkToMessages(b *testing.B) {
	p := demo.WorkspacePrompt(b)
	for b.Loop() {
		toMessages(p)
	}
}
