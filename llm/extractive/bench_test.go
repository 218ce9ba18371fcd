package extractive

import (
	"testing"

	"github.com/docent-sh/docent/internal/demo"
)

// BenchmarkAnswer is the offline answer's cost, which every
// fallback pays before its first piece.
func BenchmarkAnswer(b *testing.B) {
	p := demo.WorkspacePrompt(b)
	for b.Loop() {
		Answer(p)
	}
}
