package analysis

import (
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// SynonymRule is one knowledge.Synonym, tokenized as queries are.
type SynonymRule struct {
	From []string // tokenized left side
	To   []string // tokenized right side
}

// Synonyms are a bundle's synonyms compiled for the query normalizer. Phrase
// rules (more than one word on the left) apply before stopwords are
// removed, so a phrase may contain them; word rules apply to single tokens
// afterwards.
type Synonyms struct {
	Phrases []SynonymRule          // longest left side first
	Words   map[string]SynonymRule // keyed by the word and by its plural stem
}

// CompileSynonyms tokenizes the rules. A later rule for the same words
// replaces an earlier one, so rules added after a bundle's override it; a
// rule with an empty side, or that maps to itself once tokenized, does
// nothing and is dropped.
func CompileSynonyms(rules []knowledge.Synonym) Synonyms {
	t := Synonyms{Words: map[string]SynonymRule{}}
	phrase := map[string]int{} // left side → index in t.Phrases
	explicit := map[string]bool{}
	for _, s := range rules {
		r := SynonymRule{From: Tokens(s.From), To: Tokens(s.To)}
		if len(r.From) == 0 || len(r.To) == 0 || slices.Equal(r.From, r.To) {
			continue
		}
		if len(r.From) > 1 {
			key := strings.Join(r.From, " ")
			if i, seen := phrase[key]; seen {
				t.Phrases[i] = r
				continue
			}
			phrase[key] = len(t.Phrases)
			t.Phrases = append(t.Phrases, r)
			continue
		}
		w := r.From[0]
		t.Words[w] = r
		explicit[w] = true
		// The singular of a plural rule matches too ("shortcut" for
		// "shortcuts") unless a rule names it; stemmed without the
		// known-term guard on purpose: this only widens which query words
		// the rule recognizes.
		if stem := Singular(w); stem != w && !explicit[stem] {
			t.Words[stem] = r
		}
	}
	slices.SortStableFunc(t.Phrases, func(a, b SynonymRule) int { return len(b.From) - len(a.From) })
	return t
}
