package retrieval

import (
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// synonymRule is one knowledge.Synonym, tokenized as queries are.
type synonymRule struct {
	from []string // tokenized left side
	to   []string // tokenized right side
}

// synonymTable is a bundle's synonyms compiled for the normalizer. Phrase
// rules (more than one word on the left) apply before stopwords are
// removed, so a phrase may contain them; word rules apply to single tokens
// afterwards.
type synonymTable struct {
	phrases []synonymRule          // longest left side first
	words   map[string]synonymRule // keyed by the word and by its plural stem
}

// compileSynonyms tokenizes the rules. A later rule for the same words
// replaces an earlier one, so rules added after a bundle's override it; a
// rule with an empty side, or that maps to itself once tokenized, does
// nothing and is dropped.
func compileSynonyms(rules []knowledge.Synonym) synonymTable {
	t := synonymTable{words: map[string]synonymRule{}}
	phrase := map[string]int{} // left side → index in t.phrases
	explicit := map[string]bool{}
	for _, s := range rules {
		r := synonymRule{from: tokenize(s.From), to: tokenize(s.To)}
		if len(r.from) == 0 || len(r.to) == 0 || slices.Equal(r.from, r.to) {
			continue
		}
		if len(r.from) > 1 {
			key := strings.Join(r.from, " ")
			if i, seen := phrase[key]; seen {
				t.phrases[i] = r
				continue
			}
			phrase[key] = len(t.phrases)
			t.phrases = append(t.phrases, r)
			continue
		}
		w := r.from[0]
		t.words[w] = r
		explicit[w] = true
		// The singular of a plural rule matches too ("shortcut" for
		// "shortcuts") unless a rule names it; stemmed without the
		// known-term guard on purpose: this only widens which query words
		// the rule recognizes.
		if stem := stemPlural(w); stem != w && !explicit[stem] {
			t.words[stem] = r
		}
	}
	slices.SortStableFunc(t.phrases, func(a, b synonymRule) int { return len(b.from) - len(a.from) })
	return t
}
