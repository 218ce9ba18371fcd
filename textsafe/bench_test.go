package textsafe

import (
	"strings"
	"testing"
)

const benchProse = "Open the navigator, pick a workspace and its notes appear in the panel on the right. "

// benchAnswer is prose with styling and line endings to remove, as a
// model might write it.
var benchAnswer = strings.Repeat(benchProse+"\x1b[1mbold\x1b[0m ünïcode\r\n", 20)

func BenchmarkStringClean(b *testing.B) {
	for b.Loop() {
		_ = String(benchProse)
	}
}

func BenchmarkStringDirty(b *testing.B) {
	b.SetBytes(int64(len(benchAnswer)))
	for b.Loop() {
		_ = String(benchAnswer)
	}
}

func BenchmarkLine(b *testing.B) {
	s := "  Workspace >\tOverview \x1b[31m— café\n"
	for b.Loop() {
		_ = Line(s)
	}
}

// BenchmarkStream cleans a model answer arriving in small pieces, as a
// provider streams it.
func BenchmarkStream(b *testing.B) {
	s := benchAnswer
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		var st Stream
		for i := 0; i < len(s); i += 7 {
			_ = st.Write(s[i:min(i+7, len(s))])
		}
		_ = st.Flush()
	}
}
