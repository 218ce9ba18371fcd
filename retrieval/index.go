package retrieval

import (
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// The fields a unit is indexed under. The match score reads title,
// keywords and body; the rank score weighs all four.
const (
	fieldTitle = iota
	fieldKeywords
	fieldHeader
	fieldBody
	numFields
)

var fieldNames = [numFields]string{"title", "keywords", "header_path", "body"}

// bm25f holds the parameters of the rank score, a BM25 family scorer:
// each field is saturated on its own and the fields are summed with
// weights. Combining term frequencies before saturation (classic BM25F)
// lets a long body drown a title match; summing keeps "this unit is titled
// X" worth more than "this unit says X often". k1 and the body's b are the
// usual short-passage settings; the weights mirror the match score's
// title 3, keywords 2, body 1, with the header path (which repeats the
// title) in between.
//
// variants weighs a second body score computed over word stems (see
// stemKey), so "archiving" in a question also ranks a body that says
// "archive". It moves only the rank: the match score, the matched-terms
// count and so every decision read the exact terms alone. At 1 a variant
// is worth half of what the word itself is (the exact term scores in
// both), the usual equal weighting of an exact and a stemmed field.
type bm25f struct {
	k1       float64
	weight   [numFields]float64
	b        [numFields]float64
	variants float64
}

var defaultBM25F = bm25f{
	k1:       0.9,
	weight:   [numFields]float64{fieldTitle: 3.0, fieldKeywords: 2.0, fieldHeader: 0.5, fieldBody: 1.0},
	b:        [numFields]float64{fieldTitle: 0.3, fieldKeywords: 0.3, fieldHeader: 0.3, fieldBody: 0.4},
	variants: 1.0,
}

// unit is what the index retrieves: a chunk in Phase 2, a whole doc in
// Phase 1.
type unit struct {
	doc        int32 // index into Engine.docs
	chunk      int32 // index into the doc's Chunks; -1 for a whole doc
	contentLen int32 // index terms in the content: the match score's length
	// lead marks a doc's first answerable chunk (and every whole doc):
	// where docs say what their subject is.
	lead bool
}

// posting is one unit that contains a term. rank is the term's whole BM25F
// contribution, computed at build time so a query only adds numbers. Under
// a stem key, flags is 0: the posting ranks but matches nothing.
type posting struct {
	unit  int32
	rank  float32
	flags uint8 // bit f set when the term occurs in field f
}

// index is an inverted index over units.
type index struct {
	units    []unit
	postings map[string][]posting
	idf      map[string]float64
	known    map[string]bool // terms stemKey leaves whole, as the analyzer does
	scratch  sync.Pool       // *accumulator
	// display caches each unit's sanitized content and plain text the
	// first time a result shows it: converting markdown is the costliest
	// step of a turn, and popular chunks are shown again and again.
	display []atomic.Pointer[displayText]
}

type displayText struct {
	content string // sanitized markdown
	plain   string // prose for snippets and summaries
}

// fieldText is the text of one unit, field by field.
type fieldText [numFields]string

type buildPosting struct {
	unit int32
	tf   [numFields]uint16
}

// buildIndex analyzes every unit once and precomputes each posting's rank
// contribution.
func buildIndex(units []unit, texts func(i int) fieldText, an *analyzer, p bm25f) *index {
	ix := &index{units: units, postings: map[string][]posting{}, idf: map[string]float64{}, display: make([]atomic.Pointer[displayText], len(units))}
	table := newTermTable(an)
	var raw [][]buildPosting // by term id
	var counts [][numFields]uint16
	lens := make([][numFields]int32, len(units))
	var total [numFields]float64
	var ids, touched []int32
	for i := range units {
		ft := texts(i)
		touched = touched[:0]
		for f := 0; f < numFields; f++ {
			ids = table.appendIDs(ids[:0], ft[f])
			lens[i][f] = int32(len(ids))
			total[f] += float64(len(ids))
			for _, id := range ids {
				for int(id) >= len(counts) {
					counts = append(counts, [numFields]uint16{})
					raw = append(raw, nil)
				}
				c := &counts[id]
				if *c == ([numFields]uint16{}) {
					touched = append(touched, id)
				}
				if c[f] < math.MaxUint16 {
					c[f]++
				}
			}
		}
		units[i].contentLen = lens[i][fieldBody]
		for _, id := range touched {
			raw[id] = append(raw[id], buildPosting{unit: int32(i), tf: counts[id]})
			counts[id] = [numFields]uint16{}
		}
	}
	n := float64(len(units))
	var avg [numFields]float64
	for f := range avg {
		avg[f] = max(total[f]/max(n, 1), 1)
	}
	for id, list := range raw {
		if len(list) == 0 {
			continue
		}
		t := table.names[id]
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		out := make([]posting, len(list))
		for j, bp := range list {
			var rank float64
			var flags uint8
			for f := 0; f < numFields; f++ {
				if bp.tf[f] == 0 {
					continue
				}
				flags |= 1 << f
				tf := float64(bp.tf[f])
				norm := 1 - p.b[f] + p.b[f]*float64(lens[bp.unit][f])/avg[f]
				rank += p.weight[f] * tf * (p.k1 + 1) / (tf + p.k1*norm)
			}
			out[j] = posting{unit: bp.unit, rank: float32(idf * rank), flags: flags}
		}
		ix.postings[t] = out
		ix.idf[t] = idf
	}
	ix.known = an.known
	if p.variants > 0 {
		ix.addVariantPostings(table.names, raw, lens, avg, p)
	}
	return ix
}

type unitTF struct {
	unit int32
	tf   int
}

// addVariantPostings adds, under each stem key, the body score of every
// unit that contains any term with that stem: its term frequencies summed,
// then saturated and length-normalized like the body field itself.
func (ix *index) addVariantPostings(names []string, raw [][]buildPosting, lens [][numFields]int32, avg [numFields]float64, p bm25f) {
	groups := map[string][]int{} // stem key → term ids
	for id, t := range names {
		if len(raw[id]) > 0 {
			k := stemKey(t, ix.known)
			groups[k] = append(groups[k], id)
		}
	}
	n := float64(len(ix.units))
	b := p.b[fieldBody]
	var merged []unitTF
	for key, ids := range groups {
		merged = merged[:0]
		for _, id := range ids {
			for _, bp := range raw[id] {
				if bp.tf[fieldBody] > 0 {
					merged = append(merged, unitTF{bp.unit, int(bp.tf[fieldBody])})
				}
			}
		}
		if len(merged) == 0 {
			continue
		}
		// Each term's postings are in unit order already; only a group of
		// several terms needs sorting and summing.
		if len(ids) > 1 {
			slices.SortFunc(merged, func(x, y unitTF) int { return int(x.unit - y.unit) })
			j := 0
			for _, m := range merged[1:] {
				if m.unit == merged[j].unit {
					merged[j].tf += m.tf
				} else {
					j++
					merged[j] = m
				}
			}
			merged = merged[:j+1]
		}
		df := float64(len(merged))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		w := idf * p.variants * p.weight[fieldBody]
		out := make([]posting, len(merged))
		for j, m := range merged {
			f := float64(m.tf)
			norm := 1 - b + b*float64(lens[m.unit][fieldBody])/avg[fieldBody]
			out[j] = posting{unit: m.unit, rank: float32(w * f * (p.k1 + 1) / (f + p.k1*norm))}
		}
		ix.postings[key] = out
	}
}

// fieldFlags returns the fields of unit that contain term (bit f for field
// f). Postings are in unit order, so this is a binary search.
func (ix *index) fieldFlags(term string, unit int32) uint8 {
	list := ix.postings[term]
	i, found := slices.BinarySearchFunc(list, unit, func(p posting, u int32) int { return int(p.unit - u) })
	if !found {
		return 0
	}
	return list[i].flags
}

// df returns how many units contain term.
func (ix *index) df(term string) int { return len(ix.postings[term]) }

// accumulator is per-query scratch space, dense over units so adding a
// posting is an array write; only touched entries are reset afterwards.
type accumulator struct {
	acc     []unitAcc
	touched []int32
}

type unitAcc struct {
	seen    bool
	rank    float64
	matched uint16 // query terms found in any field
	title   uint16 // query terms found in the title
	kw      uint16 // … in the keywords
	body    uint16 // … in the body
}

func (ix *index) getScratch() *accumulator {
	if a, ok := ix.scratch.Get().(*accumulator); ok {
		return a
	}
	return &accumulator{acc: make([]unitAcc, len(ix.units))}
}

func (ix *index) putScratch(a *accumulator) {
	for _, u := range a.touched {
		a.acc[u] = unitAcc{}
	}
	a.touched = a.touched[:0]
	ix.scratch.Put(a)
}

// hit is one scored unit.
type hit struct {
	unit    int32
	rank    float64 // rank score (BM25F, biased)
	score   float64 // match score (biased)
	matched int     // matched-terms count as the decision rules read it
	title   int     // query terms in the title
	kw      int     // query terms in the keywords
	body    int     // query terms in the body
	phrase  bool    // the whole query is a phrase of the title
	divisor float64 // the length normalization applied
	biased  bool    // the definitional bias was added
}

// fieldHit says whether a title or keyword matched: without one, the unit
// only mentions the words somewhere and the policy will not be confident.
func (h hit) fieldHit() bool { return h.title > 0 || h.kw > 0 }

// scoring tells search how to turn accumulated counts into scores.
type scoring struct {
	bias       float64              // added to the match score of biased units
	rankUnit   float64              // rank units per match-score point (mean idf of the query terms)
	biasedDoc  func(doc int32) bool // which units get the bias; nil for none
	titleTerms func(doc int32) []string
	// rankOnly says the caller reads only the ranked hits, not
	// bestByScore, so search may skip units that cannot make the top.
	rankOnly bool
}

// searchResult is what one query produced over one index.
type searchResult struct {
	ranked  []hit // best rank first, at most the requested depth
	touched int   // units with any query term
	// bestByScore holds, for up to three distinct docs, their best hit by
	// match score: the rival the decision policy compares the top with
	// may rank below the returned depth.
	bestByScore []hit
}

// search scores every unit that contains a query term, or a variant of
// one, and returns the depth best by rank score. A unit with only variants
// has matched 0 and a match score of 0. The match score follows the product's formula:
// exact phrase in title +5, each term in title +3, in keywords +2, in body
// +1, divided by sqrt(body length), a divisor halved when the phrase is in
// the title; matched terms count the phrase as at least 2.
func (ix *index) search(terms []string, depth int, sc scoring) searchResult {
	a := ix.getScratch()
	defer ix.putScratch(a)
	for _, t := range terms {
		for _, p := range ix.postings[stemKey(t, ix.known)] {
			u := &a.acc[p.unit]
			if !u.seen {
				u.seen = true
				a.touched = append(a.touched, p.unit)
			}
			u.rank += float64(p.rank)
		}
		for _, p := range ix.postings[t] {
			u := &a.acc[p.unit]
			if !u.seen {
				u.seen = true
				a.touched = append(a.touched, p.unit)
			}
			u.rank += float64(p.rank)
			u.matched++
			if p.flags&(1<<fieldTitle) != 0 {
				u.title++
			}
			if p.flags&(1<<fieldKeywords) != 0 {
				u.kw++
			}
			if p.flags&(1<<fieldBody) != 0 {
				u.body++
			}
		}
	}
	res := searchResult{touched: len(a.touched)}
	top := topHits{less: rankOrder, depth: depth, items: make([]hit, 0, min(depth, len(a.touched)))}
	// Without a bias a unit's rank is what it accumulated, and the order
	// is by rank first: once the top is full, a unit ranking below its
	// weakest cannot enter, and only bestByScore would still read it.
	prune := sc.rankOnly && sc.biasedDoc == nil && depth > 0
	for _, id := range a.touched {
		if prune && len(top.items) == depth && a.acc[id].rank < top.items[0].rank {
			continue
		}
		h := ix.scoreUnit(id, a.acc[id], terms, sc)
		res.bestByScore = keepBestDocs(res.bestByScore, h, ix.units)
		top.offer(h)
	}
	res.ranked = top.sorted()
	return res
}

func (ix *index) scoreUnit(id int32, u unitAcc, terms []string, sc scoring) hit {
	un := ix.units[id]
	h := hit{unit: id, rank: u.rank, matched: int(u.matched), title: int(u.title), kw: int(u.kw), body: int(u.body)}
	if int(u.title) == len(terms) && sc.titleTerms != nil {
		h.phrase = containsPhrase(sc.titleTerms(un.doc), terms)
	}
	raw := 3*float64(h.title) + 2*float64(h.kw) + float64(h.body)
	div := math.Sqrt(float64(max(un.contentLen, 1)))
	if h.phrase {
		raw += 5
		div /= 2
		h.matched = max(h.matched, 2)
	}
	h.divisor = max(div, 1)
	h.score = raw / h.divisor
	// The bias favours the concept doc that is about the term (title or
	// keyword hit), not every concept doc that mentions it in passing. In
	// rank units it is worth as many body hits as the match score's bias
	// (a body hit of term t ranks about idf(t)).
	if sc.biasedDoc != nil && sc.biasedDoc(un.doc) && h.score > 0 && (h.fieldHit() || h.phrase) {
		h.rank += sc.bias * sc.rankUnit
		h.score += sc.bias
		h.biased = true
	}
	// "What is X" is answered by the definition, which docs put first: the
	// lead chunk of X's doc (a concept doc the bias picked, or the doc
	// titled exactly X) outranks its longer sections, whose bodies repeat the term
	// more often. Only the rank moves; the match score, and so the
	// decision, is the same for every chunk.
	if sc.biasedDoc != nil && un.lead && (h.biased || h.phrase && slices.Equal(sc.titleTerms(un.doc), terms)) {
		h.rank += sc.bias * sc.rankUnit
	}
	return h
}

// containsPhrase reports whether terms occur contiguously, in order, in
// title.
func containsPhrase(title, terms []string) bool {
	if len(terms) == 0 || len(terms) > len(title) {
		return false
	}
	for i := 0; i+len(terms) <= len(title); i++ {
		if slices.Equal(title[i:i+len(terms)], terms) {
			return true
		}
	}
	return false
}

// betterByScore orders hits for "the best doc by match score": higher
// score, then a concepts doc over another (the product's tie rule), then
// rank.
func betterByScore(a, b hit, isConcept func(int32) bool) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if ca, cb := isConcept(a.unit), isConcept(b.unit); ca != cb {
		return ca
	}
	return a.rank > b.rank
}

// keepBestDocs keeps the best hit by match score of up to three distinct
// docs. Ties prefer the higher rank; the concepts tie rule is applied later
// by the caller, which knows the categories.
func keepBestDocs(best []hit, h hit, units []unit) []hit {
	doc := units[h.unit].doc
	for i := range best {
		if units[best[i].unit].doc == doc {
			if h.score > best[i].score || h.score == best[i].score && h.rank > best[i].rank {
				best[i] = h
				sortByScore(best)
			}
			return best
		}
	}
	if len(best) < 3 {
		best = append(best, h)
		sortByScore(best)
		return best
	}
	last := len(best) - 1
	if h.score > best[last].score || h.score == best[last].score && h.rank > best[last].rank {
		best[last] = h
		sortByScore(best)
	}
	return best
}

func sortByScore(hs []hit) {
	slices.SortStableFunc(hs, func(a, b hit) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		}
		return 0
	})
}

// rankOrder is the result order: rank score, then match score, then index
// order (earlier docs and chunks first) so equal scores sort stably.
func rankOrder(a, b hit) bool {
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.unit < b.unit
}

// topHits keeps the depth best hits under less in a min-heap whose root
// is the weakest kept hit. It is typed rather than container/heap: a query
// offers every unit it touched, thousands on a large corpus, and boxing
// each hit in an interface cost an allocation apiece.
type topHits struct {
	items []hit
	less  func(a, b hit) bool
	depth int
}

func (t *topHits) offer(h hit) {
	if len(t.items) < t.depth {
		t.items = append(t.items, h)
		t.up(len(t.items) - 1)
		return
	}
	if t.depth > 0 && t.less(h, t.items[0]) {
		t.items[0] = h
		t.down(0)
	}
}

// weaker reports whether item i ranks below item j.
func (t *topHits) weaker(i, j int) bool { return t.less(t.items[j], t.items[i]) }

func (t *topHits) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !t.weaker(i, parent) {
			return
		}
		t.items[i], t.items[parent] = t.items[parent], t.items[i]
		i = parent
	}
}

func (t *topHits) down(i int) {
	n := len(t.items)
	for {
		weakest := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < n && t.weaker(c, weakest) {
				weakest = c
			}
		}
		if weakest == i {
			return
		}
		t.items[i], t.items[weakest] = t.items[weakest], t.items[i]
		i = weakest
	}
}

// sorted returns the kept hits, best first.
func (t *topHits) sorted() []hit {
	slices.SortFunc(t.items, func(a, b hit) int {
		switch {
		case t.less(a, b):
			return -1
		case t.less(b, a):
			return 1
		}
		return 0
	})
	return t.items
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
