package ingest

import (
	"hash/fnv"
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// A documentation folder often holds the same page more than once: a
// Docusaurus site keeps every released version of its docs beside the
// current ones (versioned_docs/version-2.1/…), a Hugo site a folder per
// version, a shared drive "copy of" a playbook. Read as docs of their
// own, copies are rivals of the page they copy: every question about it
// gets "Do you mean A or A?". A page whose text is all but the same as
// another's is one page, so one of them is read: the one highest in the
// tree (the current docs sit above the versions, the original beside
// its copy). Pages that differ more than a few edits stay apart: two
// versions that say different things are two answers.

// minCopySimilarity is the share of their word sequences two docs must
// have in common (shingles' Jaccard similarity) to be copies: a page and
// its copy with a sentence changed stay above it. Two pages written from
// one template (an API endpoint per page) can share much, but not their
// title: pages with the same title need only minTitledCopySimilarity, as
// a page's version does with its numbers changed (Mastodon's bookmarks
// and favourites endpoints share between 0.6 and 0.7).
const (
	minCopySimilarity       = 0.9
	minTitledCopySimilarity = 0.7
)

// A shingle found in more than minCommonShingleDocs docs and more than
// one in commonShingleShare is boilerplate: a page's versions share their
// text in a few docs each, not in a tenth of all.
const (
	minCommonShingleDocs = 20
	commonShingleShare   = 10
)

// copyShingle is how many words make one shingle.
const copyShingle = 4

// copySketch is how many min-hashes find the candidate pairs: two docs
// with a similarity of 0.7 share at least one of eight with probability
// 1-0.3⁸ (0.99993), and docs sharing none are never compared, so the cost grows
// with the docs, not their pairs.
const copySketch = 8

// dropCopies leaves out of docs (sorted by slug or not) each doc whose
// text is a copy of a doc kept, with a note naming the doc kept.
func dropCopies(docs []knowledge.Doc, notices []Warning) ([]knowledge.Doc, []Warning) {
	if len(docs) < 2 {
		return docs, notices
	}
	sets := make([]map[uint64]struct{}, len(docs))
	df := map[uint64]int{}
	for i := range docs {
		sets[i] = shingles(docs[i])
		for h := range sets[i] {
			df[h]++
		}
	}
	// Word runs most docs share (a footer, a template's boilerplate) say
	// nothing of which docs are copies, and would put most docs in one
	// bucket: they are left out of every set.
	common := max(minCommonShingleDocs, len(docs)/commonShingleShare)
	for _, set := range sets {
		for h := range set {
			if df[h] > common {
				delete(set, h)
			}
		}
	}
	buckets := map[[2]uint64][]int{} // (sketch index, min-hash) → docs
	for i := range docs {
		if len(sets[i]) == 0 {
			continue
		}
		for k, h := range minHashes(sets[i]) {
			key := [2]uint64{uint64(k), h}
			buckets[key] = append(buckets[key], i)
		}
	}
	// Each doc is compared with the docs it shares a min-hash with; the
	// copy of a kept doc goes.
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return canonicalOrder(docs[a].SourcePath, docs[b].SourcePath) })
	copyOf := make([]int, len(docs))
	for i := range copyOf {
		copyOf[i] = -1
	}
	kept := make([]bool, len(docs))
	for _, i := range order {
		if len(sets[i]) == 0 {
			kept[i] = true
			continue
		}
		seen := map[int]bool{}
	find:
		for k, h := range minHashes(sets[i]) {
			for _, j := range buckets[[2]uint64{uint64(k), h}] {
				if j == i || !kept[j] || seen[j] {
					continue
				}
				seen[j] = true
				min := minCopySimilarity
				if sameTitle(docs[i].Title, docs[j].Title) {
					min = minTitledCopySimilarity
				}
				if jaccard(sets[i], sets[j], min) >= min {
					copyOf[i] = j
					break find
				}
			}
		}
		kept[i] = copyOf[i] < 0
	}
	// Copies are gone: a page and its copy no longer hold each other's
	// text, and only a page gathering several is left to find.
	for i, set := range sets {
		if !kept[i] {
			for h := range set {
				df[h]--
			}
		}
	}
	gathers := gatheringPages(sets, kept, df)
	out := docs[:0:0]
	for i, d := range docs {
		if gathers[i] {
			notices = append(notices, Warning{Path: d.SourcePath, Slug: d.Slug, Kind: Excluded,
				Msg: "the text of other pages gathered on one (a print or single-page version): read on those pages, not twice"})
			continue
		}
		if copyOf[i] < 0 {
			out = append(out, d)
			continue
		}
		notices = append(notices, Warning{Path: d.SourcePath, Slug: d.Slug, Kind: Excluded,
			Msg: "a copy of " + docs[copyOf[i]].SourcePath + " (the same text, or all but): read there, not twice"})
	}
	return out, notices
}

// A page can also be a copy of many: mdBook's print.html, Sphinx's
// singlehtml build and a wiki's "all pages" export put every page's text
// on one. Read as a doc it is a rival of every page it gathers, and
// longer than any: it matches every question. Such a page is left out
// when at least minGatheredShare of its word runs are other docs', no
// one doc holds more than half of those, and it is longer than each: it
// gathers several pages. A page drawing on one doc is its copy or its original (see
// above; every page of a book is all in its print version), and a page
// written by hand shares a few sentences, not nine tenths of its text.
const minGatheredShare = minCopySimilarity

// gatheringPages reports, per doc, whether it gathers other docs' text
// (see minGatheredShare). sets are the docs' shingles without the
// boilerplate, so a shingle is held by few docs; only the docs kept are
// read, and df counts the kept docs holding each shingle.
func gatheringPages(sets []map[uint64]struct{}, kept []bool, df map[uint64]int) []bool {
	out := make([]bool, len(sets))
	// A doc most of whose text other docs hold is a candidate; only for
	// those are the holders of each word run listed.
	holders := map[uint64][]int32{}
	var cands []int
	for i, set := range sets {
		if !kept[i] || len(set) == 0 {
			continue
		}
		shared := 0
		for h := range set {
			if df[h] > 1 {
				shared++
			}
		}
		if float64(shared) >= minGatheredShare*float64(len(set)) {
			cands = append(cands, i)
			for h := range set {
				if df[h] > 1 {
					holders[h] = nil
				}
			}
		}
	}
	if len(cands) == 0 {
		return out
	}
	for j, set := range sets {
		if !kept[j] {
			continue
		}
		for h := range set {
			if hs, ok := holders[h]; ok {
				holders[h] = append(hs, int32(j))
			}
		}
	}
	for _, i := range cands {
		shared := 0
		from := map[int32]int{}
		for h := range sets[i] {
			if df[h] < 2 {
				continue
			}
			shared++
			for _, j := range holders[h] {
				if int(j) != i {
					from[j]++
				}
			}
		}
		most, longer := 0, true
		for j, n := range from {
			most = max(most, n)
			longer = longer && len(sets[i]) > len(sets[j])
		}
		out[i] = 2*most <= shared && longer
	}
	return out
}

// canonicalOrder puts first the path a copy is least likely to be: the
// one with fewer folders (the current docs above their versions), then
// one in no folder of another language than English (a manual's da/ and
// de/ folders hold the English page where no translation was made, as
// Apache httpd's do: the page is en/'s), then the shorter (an original
// beside "copy of …"), then the first by name.
func canonicalOrder(a, b string) int {
	if da, db := strings.Count(a, "/"), strings.Count(b, "/"); da != db {
		return da - db
	}
	if fa, fb := inForeignFolder(a), inForeignFolder(b); fa != fb {
		if fa {
			return 1
		}
		return -1
	}
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// shingles hashes each run of copyShingle words of a doc's title and
// text, lower-cased.
func shingles(d knowledge.Doc) map[uint64]struct{} {
	var words []string
	words = append(words, strings.Fields(strings.ToLower(d.Title))...)
	for _, c := range d.Chunks {
		words = append(words, strings.Fields(strings.ToLower(c.Text))...)
	}
	set := map[uint64]struct{}{}
	add := func(ws []string) {
		h := fnv.New64a()
		for _, w := range ws {
			h.Write([]byte(w))
			h.Write([]byte{0})
		}
		set[h.Sum64()] = struct{}{}
	}
	for i := 0; i+copyShingle <= len(words); i++ {
		add(words[i : i+copyShingle])
	}
	if len(words) > 0 && len(words) < copyShingle {
		add(words)
	}
	return set
}

// minHashes is a set's sketch: for each of copySketch hash functions
// (the shingle hash mixed with a constant), the least value.
func minHashes(set map[uint64]struct{}) [copySketch]uint64 {
	var mins [copySketch]uint64
	for k := range mins {
		mins[k] = ^uint64(0)
	}
	for h := range set {
		for k := range mins {
			if v := mix(h ^ sketchSalt[k]); v < mins[k] {
				mins[k] = v
			}
		}
	}
	return mins
}

var sketchSalt = [copySketch]uint64{
	0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb, 0xd6e8feb86659fd93,
	0xa0761d6478bd642f, 0xe7037ed1a0b428db, 0x8ebc6af09c88c6e3, 0x589965cc75374cc3,
}

// mix is splitmix64's finalizer: a cheap, well-spread permutation.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func sameTitle(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// jaccard is the sets' similarity, or 0 when it cannot reach min.
func jaccard(a, b map[uint64]struct{}, min float64) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	// The smaller set bounds the similarity: skip the count when it
	// cannot reach the threshold.
	if float64(len(a)) < min*float64(len(b)) {
		return 0
	}
	inter := 0
	for h := range a {
		if _, ok := b[h]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// inForeignFolder reports a path inside a folder named by a language code
// other than English's ("da/caching", "pt-br/ssl/index").
func inForeignFolder(p string) bool {
	dirs := strings.Split(p, "/")
	return slices.ContainsFunc(dirs[:len(dirs)-1], func(seg string) bool {
		seg = strings.ToLower(seg)
		return isLanguageCode(seg) && seg != "en" && !strings.HasPrefix(seg, "en-") && !strings.HasPrefix(seg, "en_")
	})
}
