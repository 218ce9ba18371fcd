package analysis

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	porter "github.com/blevesearch/go-porterstemmer"
)

// The stems are index keys: docent's own stemmer must give exactly the
// stems of github.com/blevesearch/go-porterstemmer, which it replaces, on
// every word the analyzer can hand it, or built indexes and the decision
// policy's coverage would change under a rebuild. These tests hold it to
// that on the repository's documents, on generated words and, fuzzed, on
// arbitrary input.

// corpusDirs are the documents whose words the differential test stems:
// the ingest and eval test data and the demo knowledge base (kb/docs, what
// package kb embeds), relative to this package.
var corpusDirs = []string{"../../ingest/testdata", "../../eval/testdata", "../../kb/docs"}

// domainWords returns what StemKey sees for text: each token and its
// singular (the engine stems terms, which are singular tokens, and query
// words that a typo fix or synonym turned into known terms).
func domainWords(text string) []string {
	var out []string
	for _, w := range Tokens(text) {
		out = append(out, w)
		if s := Singular(w); s != w {
			out = append(out, s)
		}
	}
	return out
}

// corpusVocabulary returns the distinct domain words of every file under
// corpusDirs, failing when the folders hold too few to mean anything (a
// moved folder must not leave the test comparing nothing).
func corpusVocabulary(t testing.TB) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, dir := range corpusDirs {
		files := 0
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for _, w := range domainWords(string(b)) {
				seen[w] = true
			}
			return nil
		})
		if err != nil {
			t.Fatalf("read the words under %s: %v", dir, err)
		}
		if files == 0 {
			t.Fatalf("no files under %s", dir)
		}
	}
	if len(seen) < 2000 {
		t.Fatalf("vocabulary of %v has %d words, want at least 2000", corpusDirs, len(seen))
	}
	words := make([]string, 0, len(seen))
	for w := range seen {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
}

// endings are the suffixes of the paper's rules and the letter patterns its
// conditions look at (doubles, cvc endings, y), written out here rather than
// taken from porter.go so that a rule missing there is still exercised.
var endings = strings.Fields(`
s ss sses ies es eed ed ing y e ll l
at ate ated ating bl ble bled bling iz ize ized izing
bb dd ff gg hh jj kk mm nn pp rr tt vv zz ww xx yy
ational tional enci anci izer abli bli alli entli eli ousli
ization ation ator alism iveness fulness ousness aliti iviti biliti logi
icate ative alize iciti ical ful ness
al ance ence er ic able ible ant ement ment ent sion tion ion ou ism iti ous ive
ly ing ings edly ers ness es ement ments ations alities abilities
`)

// generatedWords are roots of up to three letters, from an alphabet with
// every kind of letter the algorithm tells apart, in front of one or two
// endings (which moves every measure boundary across every rule), and
// seeded random words that also carry digits, capitals and non-ASCII
// letters, raw and tokenized.
func generatedWords() []string {
	const alphabet = "aeiouybcdlstzwxr"
	roots := []string{""}
	for n, level := 0, []string{""}; n < 3; n++ {
		var next []string
		for _, r := range level {
			for _, c := range alphabet {
				next = append(next, r+string(c))
			}
		}
		roots = append(roots, next...)
		level = next
	}
	var words []string
	for _, r := range roots {
		for _, e := range endings {
			words = append(words, r+e)
		}
	}
	rng := rand.New(rand.NewPCG(1980, 0))
	pieces := []string{"a", "e", "i", "o", "u", "y", "y", "b", "c", "l", "s", "t", "z", "w", "x", "r", "n", "g",
		"0", "7", "Y", "E", "S", "é", "ß", "İ", "\u212a", "ǅ", "ω", "ю", "字", "\xff"}
	for range 30000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		for range rng.IntN(3) {
			b.WriteString(endings[rng.IntN(len(endings))])
		}
		w := b.String()
		words = append(words, w)
		words = append(words, domainWords(w)...)
	}
	return words
}

func TestPorterStemMatchesGoPorterstemmer(t *testing.T) {
	corpus := corpusVocabulary(t)
	generated := generatedWords()
	for name, words := range map[string][]string{"corpus": corpus, "generated": generated} {
		t.Run(name, func(t *testing.T) {
			differ := 0
			for _, w := range words {
				if got, want := porterStem(w), porter.StemString(w); got != want {
					if differ++; differ <= 20 {
						t.Errorf("porterStem(%q) = %q, go-porterstemmer gives %q", w, got, want)
					}
				}
			}
			if differ > 0 {
				t.Errorf("%d of %d words stem differently", differ, len(words))
			}
			t.Logf("%d words compared", len(words))
		})
	}
}

// TestPorterStemAlgorithm checks stems against the algorithm itself, not
// the old implementation: words of Porter's paper and of his published
// sample vocabulary, and docent's own cases from StemKey's comment.
func TestPorterStemAlgorithm(t *testing.T) {
	for _, c := range []struct{ word, stem string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"cats", "cat"}, {"caress", "caress"},
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"}, {"hopping", "hop"}, {"tanned", "tan"},
		{"falling", "fall"}, {"hissing", "hiss"}, {"fizzed", "fizz"}, {"failing", "fail"},
		{"filing", "file"}, {"happy", "happi"}, {"sky", "sky"},
		{"relational", "relat"}, {"conditional", "condit"}, {"rational", "ration"},
		{"valenci", "valenc"}, {"digitizer", "digit"}, {"conformabli", "conform"},
		{"radicalli", "radic"}, {"differentli", "differ"}, {"vileli", "vile"},
		{"analogousli", "analog"}, {"vietnamization", "vietnam"}, {"predication", "predic"},
		{"operator", "oper"}, {"feudalism", "feudal"}, {"decisiveness", "decis"},
		{"hopefulness", "hope"}, {"callousness", "callous"}, {"formaliti", "formal"},
		{"sensitiviti", "sensit"}, {"sensibiliti", "sensibl"}, {"triplicate", "triplic"},
		{"formative", "form"}, {"formalize", "formal"}, {"electrical", "electr"},
		{"hopeful", "hope"}, {"goodness", "good"}, {"revival", "reviv"},
		{"allowance", "allow"}, {"inference", "infer"}, {"airliner", "airlin"},
		{"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
		{"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"},
		{"dependent", "depend"}, {"adoption", "adopt"}, {"communism", "commun"},
		{"activate", "activ"}, {"homologous", "homolog"}, {"effective", "effect"},
		{"bowdlerize", "bowdler"}, {"probate", "probat"}, {"rate", "rate"},
		{"cease", "ceas"}, {"controlling", "control"}, {"rolling", "roll"},
		{"generalizations", "gener"}, {"oscillators", "oscil"}, {"connection", "connect"},
		// docent's own pairs: they must meet under one key.
		{"deleting", "delet"}, {"delete", "delet"}, {"moving", "move"}, {"move", "move"},
		// The departures the old stemmer made and docent keeps.
		{"ies", "ie"}, {"ated", "at"}, {"archaeologi", "archaeolog"}, {"as", "as"},
		{"Moving", "move"}, {"", ""},
	} {
		if got := porterStem(c.word); got != c.stem {
			t.Errorf("porterStem(%q) = %q, want %q", c.word, got, c.stem)
		}
	}
}

// TestPorterStemAllocations: an ASCII word that only loses a suffix is
// stemmed without allocating, as StemKey runs for every term of an index.
func TestPorterStemAllocations(t *testing.T) {
	for _, w := range []string{"connections", "deleting", "account"} {
		if n := testing.AllocsPerRun(100, func() { porterStem(w) }); n != 0 {
			t.Errorf("porterStem(%q) allocates %v times, want 0", w, n)
		}
	}
}

// FuzzPorterStem compares the two stemmers byte for byte on the words the
// analyzer makes of arbitrary input, and, since docent matches the old
// stemmer everywhere, on the raw input too (which may be invalid UTF-8);
// neither call may panic.
func FuzzPorterStem(f *testing.F) {
	for _, s := range []string{"", "a", "ies", "eed", "ated", "yyyy", "Connections", "generalizations",
		"İstanbul", "\u212aindness", "naïveté", "\xff\xfeing", "hopping 3rd-party user's", "ǅungla", "sses"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range append([]string{s}, domainWords(s)...) {
			got, want := porterStem(w), porter.StemString(w)
			if got != want {
				t.Errorf("porterStem(%q) = %q, go-porterstemmer gives %q", w, got, want)
			}
			if utf8.ValidString(w) && !utf8.ValidString(got) {
				t.Errorf("porterStem(%q) = %q, invalid UTF-8", w, got)
			}
		}
	})
}

// BenchmarkStem stems the repository's vocabulary with docent's stemmer and
// with the one it replaces, one word per iteration.
func BenchmarkStem(b *testing.B) {
	words := corpusVocabulary(b)
	for _, s := range []struct {
		name string
		stem func(string) string
	}{{"docent", porterStem}, {"go-porterstemmer", porter.StemString}} {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.stem(words[i%len(words)])
			}
		})
	}
}
