// Package index is docent's inverted index: units (chunks or whole docs)
// analyzed field by field, ranked with a BM25F-family score over words
// and their stems, with the query keys each unit covers, for the decision
// policy in retrieval to read. It knows nothing of docs or questions
// beyond the text it is given.
package index

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/docent-sh/docent/internal/sentence"
	"github.com/docent-sh/docent/retrieval/analysis"
)

// The fields a unit is indexed under. The match score reads title,
// keywords and body; the rank score weighs all four.
const (
	FieldTitle = iota
	FieldKeywords
	FieldHeader
	FieldBody
	NumFields
)

// FieldNames name the fields in explanations.
var FieldNames = [NumFields]string{"title", "keywords", "header_path", "body"}

// params holds the parameters of the rank score, a BM25 family scorer:
// each field is saturated on its own and the fields are summed with
// weights. Combining term frequencies before saturation (classic BM25F)
// lets a long body drown a title match; summing keeps "this unit is titled
// X" worth more than "this unit says X often". k1 and the body's b are the
// usual short-passage settings; the weights mirror the match score's
// title 3, keywords 2, body 1, with the header path (which repeats the
// title) in between.
//
// variants weighs a second score per field computed over word stems (see
// analysis.StemKey), so "archiving" in a question also ranks a body that says
// "archive" and a title that says "Archived notes". At 1 a variant is
// worth half of what the word itself is (the exact term scores in both),
// the usual equal weighting of an exact and a stemmed field.
type params struct {
	k1       float64
	weight   [NumFields]float64
	b        [NumFields]float64
	variants float64
}

var defaultParams = params{
	k1:       0.9,
	weight:   [NumFields]float64{FieldTitle: 3.0, FieldKeywords: 2.0, FieldHeader: 0.5, FieldBody: 1.0},
	b:        [NumFields]float64{FieldTitle: 0.3, FieldKeywords: 0.3, FieldHeader: 0.3, FieldBody: 0.4},
	variants: 1.0,
}

// bm25fScore is the BM25F sum over the fields of one unit's term frequencies
// (before idf), and the fields the term occurs in (bit f for field f).
func bm25fScore[T uint16 | int](p params, tf [NumFields]T, lens [NumFields]int32, avg [NumFields]float64) (float64, uint8) {
	var rank float64
	var flags uint8
	for f := 0; f < NumFields; f++ {
		if tf[f] == 0 {
			continue
		}
		flags |= 1 << f
		t := float64(tf[f])
		norm := 1 - p.b[f] + p.b[f]*float64(lens[f])/avg[f]
		rank += p.weight[f] * t * (p.k1 + 1) / (t + p.k1*norm)
	}
	return rank, flags
}

// Unit is what the index retrieves: a chunk in Phase 2, a whole doc in
// Phase 1.
type Unit struct {
	Doc   int32 // the caller's doc number; a doc's units are contiguous
	Chunk int32 // the caller's chunk number within the doc; -1 for a whole doc
	// lead marks a doc's first answerable chunk (and every whole doc):
	// where docs say what their subject is.
	Lead bool
}

// posting is one unit that contains a term (or, under a stem key, a
// variant of it). rank is the term's whole BM25F contribution, computed at
// build time so a query only adds numbers.
type posting struct {
	unit  int32
	rank  float32
	flags uint8 // bit f set when the term occurs in field f
}

// Index is an inverted index over units, safe for concurrent searches once built.
type Index struct {
	Units    []Unit
	postings map[string][]posting
	idf      map[string]float64 // by term and by stem key
	// docUnits holds, per doc, the range of its units: units are built
	// doc by doc, so a doc's are contiguous.
	docUnits map[int32][2]int32
	// Reader holds, per unit, the share of its body's sentences that
	// address the reader ("you", "your"): how much it is written to
	// the person asking rather than about objects (see readerShare).
	Reader []float32
	// identifiers holds the compound identifiers any unit writes
	// (analysis.AppendIdentifiers): the exact names the docs use.
	identifiers map[string]struct{}
	// words are the terms units write, as analyzed (not the stem keys
	// variants add): what a misspelt question word may have meant.
	words   []string
	scratch sync.Pool // *accumulator
}

// Words returns the terms the units write, in no particular order.
func (ix *Index) Words() []string { return ix.words }

// Fields is the text of one unit, field by field.
type Fields [NumFields]string

type buildPosting struct {
	unit int32
	tf   [NumFields]uint16
}

// Build analyzes every unit once and precomputes each posting's rank
// contribution.
func Build(units []Unit, texts func(i int) Fields, an *analysis.Analyzer) *Index {
	p := defaultParams
	ix := &Index{Units: units, postings: map[string][]posting{}, idf: map[string]float64{}, docUnits: map[int32][2]int32{}, Reader: make([]float32, len(units)), identifiers: map[string]struct{}{}}
	for i, u := range units {
		r, ok := ix.docUnits[u.Doc]
		if !ok {
			r[0] = int32(i)
		}
		r[1] = int32(i) + 1
		ix.docUnits[u.Doc] = r
	}
	table := newTermTable(an)
	var raw [][]buildPosting // by term id
	var counts [][NumFields]uint16
	lens := make([][NumFields]int32, len(units))
	var total [NumFields]float64
	var ids, touched []int32
	var idents, values []string
	for i := range units {
		ft := texts(i)
		ix.Reader[i] = readerShare(ft[FieldBody])
		touched = touched[:0]
		for f := 0; f < NumFields; f++ {
			idents = analysis.AppendCalls(analysis.AppendIdentifiers(idents[:0], ft[f]), ft[f])
			for _, id := range idents {
				ix.identifiers[id] = struct{}{}
			}
			ids = table.appendIDs(ids[:0], ft[f])
			lens[i][f] = int32(len(ids))
			total[f] += float64(len(ids))
			if f == FieldBody {
				// The kinds of value the body gives are words of it
				// (see analysis.AppendValueWords), though no part of
				// its length.
				values = analysis.AppendValueWords(values[:0], table.buf, ft[f])
				ids = table.appendWordIDs(ids, values)
			}
			for _, id := range ids {
				for int(id) >= len(counts) {
					counts = append(counts, [NumFields]uint16{})
					raw = append(raw, nil)
				}
				c := &counts[id]
				if *c == ([NumFields]uint16{}) {
					touched = append(touched, id)
				}
				if c[f] < math.MaxUint16 {
					c[f]++
				}
			}
		}
		for _, id := range touched {
			raw[id] = append(raw[id], buildPosting{unit: int32(i), tf: counts[id]})
			counts[id] = [NumFields]uint16{}
		}
	}
	n := float64(len(units))
	var avg [NumFields]float64
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
			rank, flags := bm25fScore(p, bp.tf, lens[bp.unit], avg)
			out[j] = posting{unit: bp.unit, rank: float32(idf * rank), flags: flags}
		}
		ix.postings[t] = out
		ix.idf[t] = idf
		ix.words = append(ix.words, t)
	}
	ix.addVariantPostings(table.names, raw, lens, avg, p)
	return ix
}

// readerShare is the share of text's sentences that address the reader,
// in [0, 1]: a user guide's steps say "you" sentence after sentence, an
// API reference's parameter lists and entity fields almost never do.
// A share, so a long page and a short one compare alike.
func readerShare(text string) float32 {
	ss := sentence.Split(text)
	if len(ss) == 0 {
		return 0
	}
	n := 0
	for _, s := range ss {
		if analysis.AddressesReader(s) {
			n++
		}
	}
	return float32(n) / float32(len(ss))
}

type unitTF struct {
	unit int32
	tf   [NumFields]int
}

// addVariantPostings adds, under each stem key, every unit that contains
// any term with that stem, its term frequencies summed per field, then
// saturated and length-normalized like the fields themselves (weighted by
// p.variants), with the fields it occurs in: the decision policy's
// coverage reads them.
func (ix *Index) addVariantPostings(names []string, raw [][]buildPosting, lens [][NumFields]int32, avg [NumFields]float64, p params) {
	groups := map[string][]int{} // stem key → term ids
	for id, t := range names {
		if len(raw[id]) > 0 {
			k := analysis.StemKey(t)
			groups[k] = append(groups[k], id)
		}
	}
	n := float64(len(ix.Units))
	var merged []unitTF
	for key, ids := range groups {
		merged = merged[:0]
		for _, id := range ids {
			for _, bp := range raw[id] {
				m := unitTF{unit: bp.unit}
				for f := range m.tf {
					m.tf[f] = int(bp.tf[f])
				}
				merged = append(merged, m)
			}
		}
		// Each term's postings are in unit order already; only a group of
		// several terms needs sorting and summing.
		if len(ids) > 1 {
			slices.SortFunc(merged, func(x, y unitTF) int { return int(x.unit - y.unit) })
			j := 0
			for _, m := range merged[1:] {
				if m.unit == merged[j].unit {
					for f := range m.tf {
						merged[j].tf[f] += m.tf[f]
					}
				} else {
					j++
					merged[j] = m
				}
			}
			merged = merged[:j+1]
		}
		df := float64(len(merged))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		out := make([]posting, len(merged))
		for j, m := range merged {
			rank, flags := bm25fScore(p, m.tf, lens[m.unit], avg)
			out[j] = posting{unit: m.unit, rank: float32(idf * p.variants * rank), flags: flags}
		}
		ix.postings[key] = out
		ix.idf[key] = idf
	}
}

// maxIDF is the idf of a word no unit contains: the most informative
// word a question can have.
func (ix *Index) maxIDF() float64 {
	n := float64(len(ix.Units))
	return math.Log(1 + (n+0.5)/0.5)
}

// FieldFlags returns the fields of unit that contain term (bit f for field
// f). Postings are in unit order, so this is a binary search.
func (ix *Index) FieldFlags(term string, unit int32) uint8 {
	list := ix.postings[term]
	i, found := slices.BinarySearchFunc(list, unit, func(p posting, u int32) int { return int(p.unit - u) })
	if !found {
		return 0
	}
	return list[i].flags
}

// DF returns how many units contain term.
func (ix *Index) DF(term string) int { return len(ix.postings[term]) }

// UnitsWithBoth calls yield, in unit order, for each unit that contains
// both terms, until yield returns false. An empty b matches every unit
// that contains a.
func (ix *Index) UnitsWithBoth(a, b string, yield func(unit int32) bool) {
	pa, pb := ix.postings[a], ix.postings[b]
	if b == "" {
		for _, p := range pa {
			if !yield(p.unit) {
				return
			}
		}
		return
	}
	for i, j := 0, 0; i < len(pa) && j < len(pb); {
		switch {
		case pa[i].unit < pb[j].unit:
			i++
		case pa[i].unit > pb[j].unit:
			j++
		default:
			if !yield(pa[i].unit) {
				return
			}
			i++
			j++
		}
	}
}

// accumulator is per-query scratch space, dense over units so adding a
// posting is an array write; only touched entries are reset afterwards.
type accumulator struct {
	acc     []unitAcc
	touched []int32
}

// maxQueryKeys is how many of a question's stem keys coverage tracks, one
// bit each; a longer question still ranks on every word.
const maxQueryKeys = 64

// headFields are the fields that name what a unit is about.
const headFields = 1<<FieldTitle | 1<<FieldKeywords | 1<<FieldHeader

type unitAcc struct {
	seen  bool
	rank  float64
	cov   uint64 // query keys the unit contains, in any field (bit i: key i)
	head  uint64 // … in its title, keywords or heading path
	title uint64 // … in its title
}

func (ix *Index) getScratch() *accumulator {
	if a, ok := ix.scratch.Get().(*accumulator); ok {
		return a
	}
	return &accumulator{acc: make([]unitAcc, len(ix.Units))}
}

func (ix *Index) putScratch(a *accumulator) {
	for _, u := range a.touched {
		a.acc[u] = unitAcc{}
	}
	a.touched = a.touched[:0]
	ix.scratch.Put(a)
}

// Hit is one scored unit.
type Hit struct {
	Unit  int32
	Rank  float64 // rank score (BM25F, biased)
	Cov   uint64  // query keys covered anywhere (bit i: key i)
	Head  uint64  // … in the title, keywords or heading path
	Title uint64  // … in the title
	Bias  Bias    // why the definitional bias was applied; BiasNone when it was not
}

// Bias says why a unit got the definitional bias.
type Bias uint8

const (
	BiasNone    Bias = iota
	BiasTitle        // its doc's title is the asked-for thing
	BiasSection      // its own heading is the asked-for thing
	BiasConcept      // its doc is a declared concept doc naming the thing
)

// Scoring tells search how to turn what a unit accumulated into its rank.
type Scoring struct {
	// Weights weighs the query's keys: a unit's rank is multiplied by the
	// share of the question's weight it covers (a coordination factor), so
	// a unit that answers the whole question outranks one that matches a
	// single heavy word, however strongly.
	Weights Weights
	Bias    float64 // the rank of a biased unit is multiplied by 1+bias
	// Biased says which units get the bias, and why, given the query keys
	// in the unit's title and heading fields; nil for none.
	Biased func(unit int32, title, head uint64) Bias
	// Reader says the question speaks for its asker ("how do I delete
	// my account"): a unit's rank is multiplied by 1 + its reader share,
	// so the page written to the asker outranks the reference that
	// names the same words.
	Reader bool
	// Docs, when not nil, holds by doc number the docs a query may score:
	// a unit of any other doc is skipped while accumulating, so it never
	// takes part in a rank, a coverage or a depth (a scope applied before
	// scoring, not a filter of the results). A doc number beyond its end
	// is not allowed.
	Docs []bool
	// Damp, when not nil, holds by unit a factor in (0, 1] its rank is
	// multiplied by: a prior that only lowers a rank, so pruning, which
	// bounds how much a rank may rise, holds.
	Damp []float32
}

// Result is what one query produced over one index.
type Result struct {
	Ranked  []Hit // best rank first, at most the requested depth
	Touched int   // units with any query word or variant
	// sections holds, for each doc of the ranked hits, the query keys its
	// best-named unit carries in its title, keywords or headings: the
	// section most about the question, wherever the ranking put it.
	Sections map[int32]uint64
	// Covered holds, for each doc of the ranked hits, the query keys any
	// of its units carries: what the doc covers, wherever it says it.
	Covered map[int32]uint64
}

// Search scores every unit that contains a query term, or a variant of
// one, and returns the depth best by rank score, with the query keys each
// covers.
func (ix *Index) Search(terms, keys []string, depth int, sc Scoring) Result {
	a := ix.getScratch()
	defer ix.putScratch(a)
	ix.accumulate(a, terms, keys, 0, int32(len(ix.Units)), sc.Docs)
	res := Result{Touched: len(a.touched)}
	top := topHits{less: rankOrder, depth: depth, items: make([]Hit, 0, min(depth, len(a.touched)))}
	// Without a bias a unit's rank is what it accumulated: once the top
	// is full, a unit ranking below its weakest cannot enter.
	// Callers read only the best hits by rank (and, for their docs, the
	// accumulated sections), so a unit that cannot make the top is not
	// scored. Coordination only lowers a rank (the share is at most 1) and
	// the bias raises it at most twice, so a unit whose accumulated rank so
	// raised stays below the weakest kept hit cannot enter.
	prune := depth > 0
	boost := 1.0
	if sc.Biased != nil {
		boost = (1 + sc.Bias) * (1 + sc.Bias)
	}
	if sc.Reader {
		boost *= 2 // 1 + a share
	}
	for _, id := range a.touched {
		if prune && len(top.items) == depth && a.acc[id].rank*boost < top.items[0].Rank {
			continue
		}
		top.offer(ix.scoreUnit(id, a.acc[id], sc))
	}
	res.Ranked = top.sorted()
	res.Sections, res.Covered = ix.docKeys(res.Ranked, a, sc.Weights)
	return res
}

// accumulate adds up, in a, what each unit numbered from lo up to hi
// holds of the query: its rank contributions and the keys it covers. With
// allow not nil, only units of the docs it allows.
func (ix *Index) accumulate(a *accumulator, terms, keys []string, lo, hi int32, allow []bool) {
	// The scope test is written out in both loops rather than a closure:
	// unscoped, it is one nil check per posting in a turn's hottest loop
	// (BenchmarkAsk10k unchanged within noise).
	touch := func(unit int32) *unitAcc {
		u := &a.acc[unit]
		if !u.seen {
			u.seen = true
			a.touched = append(a.touched, unit)
		}
		return u
	}
	for i, k := range keys {
		var bit uint64
		if i < maxQueryKeys {
			bit = 1 << i
		}
		for _, p := range ix.postings[k] {
			if p.unit < lo || p.unit >= hi || allow != nil && !ix.allowed(p.unit, allow) {
				continue
			}
			u := touch(p.unit)
			u.rank += float64(p.rank)
			u.cov |= bit
			if p.flags&headFields != 0 {
				u.head |= bit
			}
			if p.flags&(1<<FieldTitle) != 0 {
				u.title |= bit
			}
		}
	}
	for _, t := range terms {
		for _, p := range ix.postings[t] {
			if p.unit < lo || p.unit >= hi || allow != nil && !ix.allowed(p.unit, allow) {
				continue
			}
			touch(p.unit).rank += float64(p.rank)
		}
	}
}

// allowed reports whether unit's doc is one allow lets through.
func (ix *Index) allowed(unit int32, allow []bool) bool {
	d := ix.Units[unit].Doc
	return d >= 0 && int(d) < len(allow) && allow[d]
}

// SearchDoc scores the units of one doc that contain a query term, or a
// variant of one, best rank first: a picked doc answers from its own
// sections that match the question.
func (ix *Index) SearchDoc(terms, keys []string, doc int32, sc Scoring) []Hit {
	r, ok := ix.docUnits[doc]
	if !ok {
		return nil
	}
	a := ix.getScratch()
	defer ix.putScratch(a)
	ix.accumulate(a, terms, keys, r[0], r[1], sc.Docs)
	hits := make([]Hit, 0, len(a.touched))
	for _, id := range a.touched {
		hits = append(hits, ix.scoreUnit(id, a.acc[id], sc))
	}
	slices.SortFunc(hits, func(x, y Hit) int {
		if rankOrder(x, y) {
			return -1
		}
		return 1
	})
	return hits
}

// docKeys finds, for each doc of ranked, the unit whose title, keywords
// and headings carry the largest share of the question (sections), and
// the keys any of its units carries (covered).
func (ix *Index) docKeys(ranked []Hit, a *accumulator, ws Weights) (sections, covered map[int32]uint64) {
	sections = make(map[int32]uint64, len(ranked))
	covered = make(map[int32]uint64, len(ranked))
	for _, h := range ranked {
		doc := ix.Units[h.Unit].Doc
		if _, done := sections[doc]; done {
			continue
		}
		r := ix.docUnits[doc]
		best, bestShare, cov := uint64(0), -1.0, uint64(0)
		for u := r[0]; u < r[1]; u++ {
			cov |= a.acc[u].cov
			if bits := a.acc[u].head; bits != 0 {
				if s := ws.Share(bits); s > bestShare {
					best, bestShare = bits, s
				}
			}
		}
		sections[doc], covered[doc] = best, cov
	}
	return sections, covered
}

func (ix *Index) scoreUnit(id int32, u unitAcc, sc Scoring) Hit {
	un := ix.Units[id]
	coord := 1.0
	if sc.Weights.total > 0 {
		coord = sc.Weights.Share(u.cov)
	}
	h := Hit{Unit: id, Rank: u.rank * coord, Cov: u.cov, Head: u.head, Title: u.title}
	if sc.Reader {
		h.Rank *= 1 + float64(ix.Reader[id])
	}
	if sc.Damp != nil {
		h.Rank *= float64(sc.Damp[id])
	}
	// "What is X" is answered by the doc about X, and by its definition,
	// which docs put first: the biased doc's lead chunk is biased twice,
	// so it outranks the doc's longer sections, whose bodies repeat the
	// term more often.
	if sc.Biased != nil {
		h.Bias = sc.Biased(id, u.title, u.head)
	}
	if h.Bias != BiasNone {
		h.Rank *= 1 + sc.Bias
		if un.Lead {
			h.Rank *= 1 + sc.Bias
		}
	}
	return h
}

// rankOrder is the result order: rank score, then index order (earlier
// docs and chunks first) so equal scores sort stably.
func rankOrder(a, b Hit) bool {
	if a.Rank != b.Rank {
		return a.Rank > b.Rank
	}
	return a.Unit < b.Unit
}

// topHits keeps the depth best hits under less in a min-heap whose root
// is the weakest kept hit. It is typed rather than container/heap: a query
// offers every unit it touched, thousands on a large corpus, and boxing
// each hit in an interface cost an allocation apiece.
type topHits struct {
	items []Hit
	less  func(a, b Hit) bool
	depth int
}

func (t *topHits) offer(h Hit) {
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
func (t *topHits) sorted() []Hit {
	slices.SortFunc(t.items, func(a, b Hit) int {
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

// WritesAll reports whether some unit writes each of the identifiers,
// an identifier the question calls as a method ("resp.getheader()", in
// calls as AppendCalls gives them) counting as written where some unit
// calls that method, on any receiver or none, and a qualified class name
// (in classes, as AppendClasses gives them) where some unit writes the
// class's name, with any path or none.
func (ix *Index) WritesAll(identifiers, calls, classes []string) bool {
	for _, id := range identifiers {
		if _, ok := ix.identifiers[id]; ok {
			continue
		}
		dot := strings.LastIndexByte(id, '.')
		if dot < 0 {
			return false
		}
		if slices.Contains(classes, id) && ix.DF(analysis.Singular(id[dot+1:])) > 0 {
			continue
		}
		call := id[dot:] + "("
		if _, ok := ix.identifiers[call]; !ok || !slices.Contains(calls, call) {
			return false
		}
	}
	return true
}
