package retrieval

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// Synonyms rewrites words and phrases of a query into the vocabulary the
// documentation uses. Phrase rules (more than one word on the left) apply
// before stopwords are removed, so a phrase may contain them; word rules
// apply to single tokens afterwards.
type Synonyms struct {
	rules []synonymRule
}

type synonymRule struct {
	from []string // tokenized left side
	to   []string // tokenized right side
}

// Len returns the number of rules.
func (s Synonyms) Len() int { return len(s.rules) }

// DefaultSynonyms maps what support staff say to what the demo product's
// documentation calls it.
func DefaultSynonyms() Synonyms {
	s, err := ParseSynonyms([]byte(defaultSynonymsSrc))
	if err != nil {
		panic("retrieval: default synonyms: " + err.Error())
	}
	return s
}

const defaultSynonymsSrc = `# what users say => what the docs say
shortcuts => quick links
homepage => home
dashboard => home
`

// forbiddenTargets are rewrites that would change what a question is about:
// "docs" is the knowledge base itself, "notes" a feature of the product, and
// conflating them answers a question nobody asked.
var forbiddenTargets = map[string][]string{
	"notes": {"doc", "docs", "documentation", "documentations"},
	"note":  {"doc", "docs", "documentation"},
}

// ParseSynonyms reads rules, one per line: "from => to". Several
// left-hand sides may share a right-hand side: "shortcut, shortcuts => quick
// links". Blank lines and lines starting with # are ignored. Errors name the
// line.
func ParseSynonyms(src []byte) (Synonyms, error) {
	var s Synonyms
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		left, right, ok := strings.Cut(text, "=>")
		if !ok {
			return Synonyms{}, fmt.Errorf("synonyms line %d: %q: want \"from => to\"", line, textsafe.Clip(text, 60))
		}
		to := tokenize(right)
		if len(to) == 0 {
			return Synonyms{}, fmt.Errorf("synonyms line %d: nothing to the right of \"=>\"", line)
		}
		froms := strings.Split(left, ",")
		for _, f := range froms {
			from := tokenize(f)
			if len(from) == 0 {
				return Synonyms{}, fmt.Errorf("synonyms line %d: empty word or phrase to the left of \"=>\"", line)
			}
			if slices.Equal(from, to) {
				return Synonyms{}, fmt.Errorf("synonyms line %d: %q maps to itself", line, strings.Join(from, " "))
			}
			target := strings.Join(to, " ")
			if slices.Contains(forbiddenTargets[target], strings.Join(from, " ")) {
				return Synonyms{}, fmt.Errorf("synonyms line %d: %q => %q is not allowed: the docs are the knowledge base, notes are a product feature", line, strings.Join(from, " "), target)
			}
			s.rules = append(s.rules, synonymRule{from: from, to: to})
		}
	}
	if err := sc.Err(); err != nil {
		return Synonyms{}, fmt.Errorf("synonyms line %d: %w", line+1, err)
	}
	return s, nil
}

// synonymTable is Synonyms compiled against one index's known terms.
type synonymTable struct {
	phrases []synonymRule          // longest left side first
	words   map[string]synonymRule // keyed by the word and by its plural stem
}

func compileSynonyms(s Synonyms) synonymTable {
	t := synonymTable{words: map[string]synonymRule{}}
	for _, r := range s.rules {
		if len(r.from) > 1 {
			t.phrases = append(t.phrases, r)
			continue
		}
		w := r.from[0]
		t.words[w] = r
		// The singular of a plural rule matches too ("shortcut" for
		// "shortcuts"); stemmed without the known-term guard on purpose:
		// this only widens which query words the rule recognizes.
		if stem := stemPlural(w, nil); stem != w {
			if _, exists := t.words[stem]; !exists {
				t.words[stem] = r
			}
		}
	}
	slices.SortStableFunc(t.phrases, func(a, b synonymRule) int { return len(b.from) - len(a.from) })
	return t
}
