package ingest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/knowledge"
)

var (
	benchSubjects = []string{"The sync engine", "A workspace owner", "The Navigator", "Quick Capture", "Every note", "The Trash", "An entry admin", "The search index", "The Widget Manager", "A shared link"}
	benchVerbs    = []string{"keeps", "updates", "checks", "stores", "shows", "hides", "moves", "reindexes", "locks", "copies"}
	benchObjects  = []string{"the version history of each note", "the list of recent changes", "every pinned link in the sidebar", "notes that were edited offline", "the permissions of invited members", "attachments larger than ten megabytes", "the order of widgets on a dashboard", "the tags you typed in the title bar"}
	benchTails    = []string{"so that nothing is lost when two people edit at once.", "before the next sync starts.", "unless an administrator turned the feature off.", "and reports conflicts in the **Activity** panel.", "every few minutes while the app is open.", "when you press `Ctrl+S` or leave the note.", "as described in [Sync settings](../settings/sync.md)."}
)

func benchSentence(r *rand.Rand) string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	return pick(benchSubjects) + " " + pick(benchVerbs) + " " + pick(benchObjects) + " " + pick(benchTails)
}

// benchDoc generates a support doc shaped like the real ones: front
// matter, a title section, several ## sections with ### subsections,
// paragraphs, lists, code samples and tables, some sections long enough
// to be split.
func benchDoc(r *rand.Rand, i int) string {
	var b strings.Builder
	title := fmt.Sprintf("Topic %d", i)
	fmt.Fprintf(&b, "---\ntitle: %s\nkeywords: [topic %d, sync, notes]\n---\n## %s\n\n%s\n\n", title, i, title, benchSentence(r))
	for s := range 3 + r.IntN(5) {
		fmt.Fprintf(&b, "## Section %d\n\n", s)
		for range 1 + r.IntN(12) {
			switch r.IntN(8) {
			case 0:
				for k := range 3 + r.IntN(6) {
					fmt.Fprintf(&b, "%d. %s\n", k+1, benchSentence(r))
				}
			case 1:
				b.WriteString("```yaml\n")
				for k := range 4 + r.IntN(20) {
					fmt.Fprintf(&b, "option_%d: %d  # %s\n", k, r.IntN(1000), benchObjects[r.IntN(len(benchObjects))])
				}
				b.WriteString("```\n")
			case 2:
				b.WriteString("| Setting | Default | Effect |\n|---|---|---|\n")
				for k := range 3 + r.IntN(10) {
					fmt.Fprintf(&b, "| `setting_%d` | %t | %s |\n", k, r.IntN(2) == 0, benchSentence(r))
				}
			case 3:
				fmt.Fprintf(&b, "### Subsection %d\n", r.IntN(100))
			default:
				for range 2 + r.IntN(4) {
					b.WriteString(benchSentence(r) + " ")
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// benchDocs is the size of the benchmark corpus (about 1 MB).
const benchDocs = 60

func benchCorpus(n int) []knowledge.Doc {
	r := rand.New(rand.NewPCG(1, 2))
	var docs []knowledge.Doc
	for i := range n {
		d, err := ParseDoc(fmt.Sprintf("topics/topic-%d.md", i), []byte(benchDoc(r, i)))
		if err != nil {
			panic(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// BenchmarkChunk measures chunking throughput (parse + split + token
// counting) over the bodies of a generated corpus.
func BenchmarkChunk(b *testing.B) {
	docs := benchCorpus(benchDocs)
	size := 0
	for _, d := range docs {
		size += len(d.Content)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i := range docs {
			Chunk(&docs[i])
		}
	}
}

// BenchmarkParseDoc measures the whole per-file path: normalization,
// front matter, keywords and chunking.
func BenchmarkParseDoc(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	srcs := make([][]byte, benchDocs)
	size := 0
	for i := range srcs {
		srcs[i] = []byte(benchDoc(r, i))
		size += len(srcs[i])
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, src := range srcs {
			if _, err := ParseDoc(fmt.Sprintf("topics/topic-%d.md", i), src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestBenchCorpusIsChunkedCorrectly keeps the benchmark honest: the
// corpus it times must chunk the way every doc should. A sample is
// enough: the generator is the same for every doc.
func TestBenchCorpusIsChunkedCorrectly(t *testing.T) {
	docs := benchCorpus(12)
	split := 0
	for _, d := range docs {
		checkChunkInvariants(t, d)
		for i := 1; i < len(d.Chunks); i++ {
			if d.Chunks[i].HeaderPath == d.Chunks[i-1].HeaderPath {
				split++
			}
		}
	}
	if split == 0 {
		t.Error("no section of the corpus was long enough to be split")
	}
}

// hostileInputs are small files shaped to make a parser's work grow
// faster than their size: containers opened many times on one line,
// unmatched delimiters, openers that never close. Each is built from n
// repetitions of its unit.
var hostileInputs = []struct {
	name string
	gen  func(n int) string
}{
	{"nested-lists", func(n int) string { return strings.Repeat("- ", n) + "x" }},
	{"nested-quotes", func(n int) string { return strings.Repeat("> ", n) + "x" }},
	{"emphasis", func(n int) string { return strings.Repeat("*", n) + "x" + strings.Repeat("*", n) }},
	{"brackets", func(n int) string { return strings.Repeat("[", n) + "x" + strings.Repeat("](u)", n) }},
	{"backtick-runs", func(n int) string {
		var b strings.Builder
		for i := range n / 10 {
			b.WriteString(strings.Repeat("`", i%50+1) + " a ")
		}
		return b.String()
	}},
	{"unclosed-markup", func(n int) string { return strings.Repeat("{{< a [[b ++c {% d { .e ", n/5) }},
	{"unclosed-html", func(n int) string { return "<div>\n" + strings.Repeat("<a href='x ", n/4) }},
	{"definitions-and-callouts", func(n int) string { return strings.Repeat(": ", n) + "x\n" + strings.Repeat("> [!a] ", n/4) }},
	{"admonitions", func(n int) string {
		var b strings.Builder
		for i := range n / 20 {
			b.WriteString(strings.Repeat("    ", i%30) + "!!! note \"x\"\n")
		}
		return b.String()
	}},
	{"myst-and-gitbook", func(n int) string {
		return strings.Repeat("{ref}`a {doc}` {x}`` ```{note}\n(x)=\n:::{tip}\n:a: b\n{% tab title=\"t\" %}\n", n/60)
	}},
	{"readme-blocks", func(n int) string {
		// Magic blocks that never close, then a parameters table whose keys
		// ask for as many rows and columns as there are keys.
		var b strings.Builder
		b.WriteString(strings.Repeat("[block:callout]\n{\"title\": \"x\"\n", n/60))
		b.WriteString("[block:parameters]\n{\"data\": {")
		for i := range n / 40 {
			fmt.Fprintf(&b, "\"%d-0\": \"a\", \"0-%d\": \"b\", ", i, i)
		}
		b.WriteString("\"h-0\": \"c\"}}\n[/block]\n")
		return b.String()
	}},
	{"deep-indented-lists", func(n int) string {
		var b strings.Builder
		for i := range n / 40 {
			b.WriteString(strings.Repeat("  ", i%maxNesting) + "- x\n")
		}
		return b.String()
	}},
}

// BenchmarkHostile parses each hostile input at three sizes: the time per
// op must stay under a second and grow linearly (MB/s stays flat).
func BenchmarkHostile(b *testing.B) {
	for _, in := range hostileInputs {
		for _, n := range []int{25_000, 50_000, 100_000} {
			src := []byte(in.gen(n))
			for _, ext := range []string{".md", ".mdx", ".rst", ".adoc", ".html"} {
				b.Run(fmt.Sprintf("%s%s/%dk", in.name, ext, n/1000), func(b *testing.B) {
					b.SetBytes(int64(len(src)))
					for b.Loop() {
						_, _, _ = parseDoc("hostile"+ext, src)
					}
				})
			}
		}
	}
}

// TestHostileInputsAreReadOrReported keeps the benchmark honest: each
// hostile input is ingested, left out for showing no text, or reported as
// too deeply nested: the budget that keeps goldmark from a quadratic
// parse.
func TestHostileInputsAreReadOrReported(t *testing.T) {
	for _, in := range hostileInputs {
		for _, name := range []string{"hostile.md", "hostile.rst", "hostile.adoc", "hostile.html"} {
			_, _, err := parseDoc(name, []byte(in.gen(1000)))
			var w Warning
			switch {
			case err == nil:
			case errors.As(err, &w) && w.Kind == Excluded: // nothing a reader would see
			case errors.As(err, &w) && strings.Contains(w.Msg, "nested"):
				if !strings.HasPrefix(in.name, "nested-") {
					t.Errorf("%s as %s: %v", in.name, name, err)
				}
			default:
				t.Errorf("%s as %s: %v", in.name, name, err)
			}
		}
	}
}

// BenchmarkSiteChrome measures finding and cutting a crawled site's frame
// over the generated corpus with every page wrapped in one (see
// crawledPage): counting the lines at each end, then rebuilding the
// chunks of every doc, which all change. Compare with BenchmarkChunk.
func BenchmarkSiteChrome(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var docs []knowledge.Doc
	for i := range benchDocs {
		d, err := ParseDoc(fmt.Sprintf("topics/topic-%d.md", i), []byte(crawledPage(fmt.Sprintf("Topic %d", i), benchDoc(r, i), i%2)))
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
	}
	work := make([]knowledge.Doc, len(docs))
	b.ReportAllocs()
	for b.Loop() {
		copy(work, docs)
		stripSiteChrome(work)
	}
	if strings.Contains(work[0].Content, "Did this answer") {
		b.Fatal("the frame was not cut")
	}
}

// BenchmarkSiteChromeNone is BenchmarkSiteChrome over pages without a
// frame: the cost every load pays to look for one.
func BenchmarkSiteChromeNone(b *testing.B) {
	docs := benchCorpus(benchDocs)
	b.ReportAllocs()
	for b.Loop() {
		stripSiteChrome(docs)
	}
}

// BenchmarkLoad measures a whole load of a generated site of 300 pages
// (about 5 MB): walking, parsing and chunking each page, then the passes
// over all of them (site titles, copies, translations, frame).
func BenchmarkLoad(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	site := fstest.MapFS{}
	size := 0
	for i := range 300 {
		src := benchDoc(r, i)
		size += len(src)
		site[fmt.Sprintf("topics/topic-%d.md", i)] = &fstest.MapFile{Data: []byte(src)}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), site, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
