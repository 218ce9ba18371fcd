package retrieval

import porter "github.com/blevesearch/go-porterstemmer"

// stemKey is the index key under which a term's morphological variants
// meet for ranking: the Porter stem behind a prefix no analyzed term can
// start with (terms are letters and digits). Known terms keep their own
// key, as they escape plural stemming: "notes" the feature is not "note".
//
// Porter's stemmer conflates more than the conservative plural rule the
// decisions use ("running", "runs" and "run" meet), which is why its keys
// only ever add rank.
func stemKey(term string, known map[string]bool) string {
	if known[term] {
		return "~" + term
	}
	return "~" + porter.StemString(term)
}
