package index

import (
	"math"
	"strings"
)

// Weights are a question's informative weights over one index: each stem
// key's idf (the first maxQueryKeys keys).
type Weights struct {
	idf   []float64
	total float64
	// shares holds share(bits) for every bit set of a short question,
	// which search reads for each unit it scores.
	shares []float64
}

// sharesTableKeys is the longest question whose shares are tabled: 2^8
// entries cost less to fill than a few hundred units cost to sum.
const sharesTableKeys = 8

// TopicKeys is how many informative words a question may have and still
// be all topic: "how do I export invoices", "reset the terminal PIN". A
// longer one also tells its circumstances ("our customer in Toronto says
// her parcel has been held for a week"), names and places the docs cannot
// have written. Part of the definition, not a knob: a count of words, the
// same on any corpus.
const TopicKeys = 5

// rareWeight is the share of an unseen key's weight a rare string keeps:
// a word neither the docs nor a vocabulary of common words hold, not
// written as a name ("emjoi", "bandwith", "ubunto"), is as likely a slip
// the typo fixer could not place as a word of the question's own, so it
// counts for half. A common word the docs never write ("gmail", "laptop")
// keeps its whole weight: it says the question is about something they
// do not cover. Part of the definition, not a knob: an even chance.
const rareWeight = 0.5

// Weigh measures the question's keys. A key no unit contains gets the
// largest idf: it is the most informative word of the question, and
// nothing covers it. In a question of more than TopicKeys informative
// words, such a key weighs that largest idf times TopicKeys over their
// number: the longer the question, the likelier an unknown word is its
// circumstance rather than its topic, and the less one decides it. A
// number no unit contains weighs nothing: it is a value the question
// gives ("roll back to release 35", "order 10423"), not a word the docs
// could have written; a number they do write ("error 429") weighs as any
// word. The keys in intent (bit i: keys[i]) weigh nothing. An unseen key
// in rare weighs rareWeight of what it would: a string no common word
// is, which the question does not write as a name.
func (ix *Index) Weigh(keys []string, intent, rare uint64) Weights {
	n := min(len(keys), maxQueryKeys)
	ws := Weights{idf: make([]float64, n)}
	informative := 0
	for i := range keys[:n] {
		if intent&(1<<i) == 0 {
			informative++
		}
	}
	unseen := ix.maxIDF()
	if informative > TopicKeys {
		unseen *= TopicKeys / float64(informative)
	}
	for i, k := range keys[:n] {
		if intent&(1<<i) != 0 {
			continue
		}
		idf, ok := ix.idf[k]
		if !ok && isNumber(k) {
			continue
		}
		if !ok {
			idf = unseen
			if rare&(1<<i) != 0 {
				idf *= rareWeight
			}
		}
		ws.idf[i] = idf
		ws.total += idf
	}
	if n <= sharesTableKeys && ws.total > 0 {
		ws.shares = make([]float64, 1<<n)
		for bits := range ws.shares {
			ws.shares[bits] = ws.sum(uint64(bits))
		}
	}
	return ws
}

// Share is the part of the question's informative weight that the keys
// in bits carry, in [0, 1].
func (ws Weights) Share(bits uint64) float64 {
	if ws.total <= 0 {
		return 0
	}
	if ws.shares != nil {
		return ws.shares[bits&uint64(len(ws.shares)-1)]
	}
	return ws.sum(bits)
}

func (ws Weights) sum(bits uint64) float64 {
	var sum float64
	for i, w := range ws.idf {
		if bits&(1<<i) != 0 {
			sum += w
		}
	}
	return min(sum/ws.total, 1)
}

// AllKeys is the bit set of a question's first n keys.
func AllKeys(n int) uint64 {
	if n >= maxQueryKeys {
		return math.MaxUint64
	}
	return 1<<n - 1
}

// isNumber reports whether a key is digits only: a number's term or its
// stem key ("~" and the term).
func isNumber(k string) bool {
	k = strings.TrimPrefix(k, "~")
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return k != ""
}
