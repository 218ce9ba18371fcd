package ingest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

// benchNote generates a note of about 300 words, shaped like support
// notes: a few paragraphs, a numbered workaround, sometimes a code
// sample; a third written as plain text with capitals headings, a third
// as markdown, a third as TipTap JSON.
func benchNote(r *rand.Rand, i int) knowledge.Note {
	var paras [][]string // sentences per paragraph
	words := 0
	for words < 300 {
		var p []string
		for range 2 + r.IntN(4) {
			s := benchSentence(r)
			p = append(p, s)
			words += len(strings.Fields(s))
		}
		paras = append(paras, p)
	}
	n := knowledge.Note{
		ID:    fmt.Sprintf("00000000-0000-0000-0000-%012d", i),
		Title: fmt.Sprintf("Workaround %d for sync", i),
		Tags:  []string{"Sync", fmt.Sprintf("case-%d", i%7)},
	}
	switch i % 3 {
	case 0, 1:
		var b strings.Builder
		for k, p := range paras {
			switch {
			case k == 1 && i%3 == 0:
				b.WriteString("KNOWN WORKAROUND\n")
			case k == 1:
				b.WriteString("## Known workaround\n\n")
			}
			if k == 2 {
				for j, s := range p {
					fmt.Fprintf(&b, "%d. %s\n", j+1, s)
				}
			} else {
				b.WriteString(strings.Join(p, " ") + "\n")
			}
			b.WriteString("\n")
		}
		if i%5 == 0 {
			b.WriteString("```bash\ndocent sync --force\n```\n")
		}
		n.Format, n.Body = knowledge.FormatMarkdown, b.String()
	default:
		blocks := []string{`{"type":"heading","attrs":{"level":2},"content":[` + ttText("Known workaround") + `]}`}
		for _, p := range paras {
			var inl []string
			for j, s := range p {
				if j == 1 {
					inl = append(inl, ttText(s+" ", bold))
				} else {
					inl = append(inl, ttText(s+" "))
				}
			}
			blocks = append(blocks, ttPara(inl...))
		}
		n.Format, n.Body = knowledge.FormatTipTap, ttDoc(blocks...)
	}
	return n
}

// BenchmarkChunkNote chunks 1,000 notes of about 300 words per op: what
// an import or a reindex of a team's notes costs.
func BenchmarkChunkNote(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	notes := make([]knowledge.Note, 1000)
	for i := range notes {
		notes[i] = benchNote(r, i)
	}
	chunks := 0
	b.ReportAllocs()
	for b.Loop() {
		chunks = 0
		for i := range notes {
			n := notes[i]
			if err := ChunkNote(&n); err != nil {
				b.Fatal(err)
			}
			chunks += len(n.Chunks)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(notes)), "ns/note")
	b.ReportMetric(float64(chunks)/float64(len(notes)), "chunks/note")
}
