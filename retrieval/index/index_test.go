package index

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/docent-sh/docent/retrieval/analysis"
)

// build indexes one unit per text, doc by doc as given.
func build(t *testing.T, docs []int32, texts []Fields) *Index {
	t.Helper()
	units := make([]Unit, len(texts))
	for i := range texts {
		units[i] = Unit{Doc: docs[i], Chunk: int32(i), Lead: i == 0 || docs[i] != docs[i-1]}
	}
	return Build(units, func(i int) Fields { return texts[i] }, &analysis.Analyzer{})
}

func keys(terms []string) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = analysis.StemKey(t)
	}
	return out
}

func TestSearchRanksTitlesAndCoverage(t *testing.T) {
	ix := build(t, []int32{0, 1, 2}, []Fields{
		{FieldTitle: "Archive a note", FieldBody: "Archiving moves the note out of the way."},
		{FieldTitle: "Notes", FieldBody: "A note holds text. Notes can be archived, moved and shared; archive them often."},
		{FieldTitle: "Widgets", FieldBody: "Widgets sit on the home page."},
	})
	terms := []string{"archive", "note"}
	sc := Scoring{Weights: ix.Weigh(keys(terms), 0, 0)}
	res := ix.Search(terms, keys(terms), 10, sc)
	if len(res.Ranked) != 2 || res.Touched != 2 {
		t.Fatalf("ranked %+v (touched %d), want the two units about notes", res.Ranked, res.Touched)
	}
	top := res.Ranked[0]
	if top.Unit != 0 || top.Cov != AllKeys(2) || top.Title != AllKeys(2) {
		t.Errorf("top %+v, want unit 0 covering both keys in its title", top)
	}
	if !(res.Ranked[0].Rank > res.Ranked[1].Rank) {
		t.Errorf("ranks not in order: %+v", res.Ranked)
	}
	// A stem reaches its variants: "archiving" and "archived" both count.
	if ix.FieldFlags(analysis.StemKey("archive"), 1)&(1<<FieldBody) == 0 {
		t.Error("unit 1's body says archived, but the stem key misses it")
	}
	if ix.DF("widget") != 1 || ix.DF("calendar") != 0 {
		t.Errorf("df widget %d, calendar %d", ix.DF("widget"), ix.DF("calendar"))
	}
	// A key no unit holds weighs the most: nothing covers half the question.
	ws := ix.Weigh(keys([]string{"calendar", "note"}), 0, 0)
	if s := ws.Share(1 << 1); !(s > 0 && s < 0.5) {
		t.Errorf("share of note beside an unknown word = %v, want under a half", s)
	}
	// In a long question an unknown word is likelier the asker's
	// circumstance: it weighs less the more words the question has.
	short := ix.Weigh(keys([]string{"archive", "calendar"}), 0, 0)
	long := ix.Weigh(keys([]string{"archive", "note", "widget", "home", "page", "text", "calendar"}), 0, 0)
	if got, want := long.idf[6], short.idf[1]*TopicKeys/7; math.Abs(got-want) > 1e-9 || short.idf[1] != ix.maxIDF() {
		t.Errorf("the unknown word weighs %v in a 7-word question, %v in a short one; want %v and the largest idf", got, short.idf[1], want)
	}
	// A rare string (bit 1) weighs half an unknown word: likely a slip.
	rare := ix.Weigh(keys([]string{"archive", "calendar"}), 0, 1<<1)
	if rare.idf[1] != short.idf[1]*rareWeight || rare.idf[0] != short.idf[0] {
		t.Errorf("a rare string weighs %v beside %v; want %v and the known word unchanged", rare.idf[1], rare.idf[0], short.idf[1]*rareWeight)
	}
	// … but a number no unit holds is a value, and weighs nothing.
	if s := ix.Weigh(keys([]string{"note", "10423"}), 0, 0).Share(1 << 0); s != 1 {
		t.Errorf("share of note beside an unknown number = %v, want all of it", s)
	}
	if got := ix.SearchDoc(terms, keys(terms), 1, sc); len(got) != 1 || got[0].Unit != 1 {
		t.Errorf("SearchDoc(doc 1) = %+v, want unit 1 alone", got)
	}
	if ix.SearchDoc(terms, keys(terms), 9, sc) != nil {
		t.Error("SearchDoc of an unknown doc returned hits")
	}
}

func TestWritesAll(t *testing.T) {
	ix := build(t, []int32{0}, []Fields{{FieldBody: "Set max_id and call Next.js once. HTTPResponse.getheader(name) is deprecated; .formData() is slow. Supports 1.26.x. OperationalError is raised; so are TooManyRedirects."}})
	writes := func(q string) bool {
		return ix.WritesAll(analysis.AppendIdentifiers(nil, q), analysis.AppendCalls(nil, q), analysis.AppendClasses(nil, q))
	}
	for q, want := range map[string]bool{
		"max_id":              true,
		"min_id":              false,
		"resp.getheader()":    true,  // the method the docs call, on another receiver
		"response.formData()": true,  // or on none
		"resp.getheader":      false, // named, not called: an identifier like any
		"resp.getheaders()":   false,
		"what is app.js()":    false,
		"upgrade 1.26 to 2.0": true, // a version names nothing
		"sqlite3.OperationalError: database is locked":          true,  // the class the docs name, raised from a module
		"requests.exceptions.TooManyRedirects":                  true,  // … whatever its number
		"sqlite3.IntegrityError":                                false, // a class the docs never name
		"sqlite3.operationalerror":                              false, // no class's spelling: a name like any
		"what is next.operationalerror":                         false,
		"django.core.exceptions.SynchronousOnlyOperation: nope": false,
	} {
		if got := writes(q); got != want {
			t.Errorf("WritesAll for %q = %v, want %v", q, got, want)
		}
	}
}

// The heap keeps exactly what a full sort would put first, in its order.
func TestTopHitsMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n, depth := r.IntN(60), r.IntN(12)
		all := make([]Hit, n)
		for i := range all {
			all[i] = Hit{Unit: int32(i), Rank: float64(r.IntN(8))} // ties on purpose
		}
		top := topHits{less: rankOrder, depth: depth}
		for _, h := range all {
			top.offer(h)
		}
		want := slices.Clone(all)
		slices.SortFunc(want, func(a, b Hit) int {
			if rankOrder(a, b) {
				return -1
			}
			return 1
		})
		want = want[:min(depth, n)]
		if got := top.sorted(); !slices.Equal(got, want) {
			t.Fatalf("n %d depth %d: heap kept %v, sort gives %v", n, depth, got, want)
		}
	}
}

// TestSearchDocsScope: with Scoring.Docs a query scores the allowed docs'
// units alone, each exactly as unrestricted (rank and coverage do not
// depend on the others), and SearchDoc of a doc outside it finds nothing.
func TestSearchDocsScope(t *testing.T) {
	ix := build(t, []int32{0, 0, 1, 2}, []Fields{
		{FieldTitle: "Archive a note", FieldBody: "Archiving moves the note out of the way."},
		{FieldTitle: "Archive a note", FieldBody: "An archived note can come back."},
		{FieldTitle: "Notes", FieldBody: "A note holds text. Notes can be archived."},
		{FieldTitle: "Widgets", FieldBody: "Widgets sit on the home page, notes beside them."},
	})
	terms := []string{"archive", "note"}
	all := ix.Search(terms, keys(terms), 10, Scoring{Weights: ix.Weigh(keys(terms), 0, 0)})
	for _, allow := range [][]bool{{false, true, true}, {true, false, false}, {false, false, true}, {false}, {}} {
		sc := Scoring{Weights: ix.Weigh(keys(terms), 0, 0), Docs: allow}
		got := ix.Search(terms, keys(terms), 10, sc)
		var want []Hit
		for _, h := range all.Ranked {
			if d := ix.Units[h.Unit].Doc; int(d) < len(allow) && allow[d] {
				want = append(want, h)
			}
		}
		if !slices.Equal(got.Ranked, want) || got.Touched != len(want) {
			t.Errorf("docs %v: ranked %+v (touched %d), want %+v", allow, got.Ranked, got.Touched, want)
		}
		for doc := int32(0); doc < 3; doc++ {
			in := int(doc) < len(allow) && allow[doc]
			if hits := ix.SearchDoc(terms, keys(terms), doc, sc); (len(hits) > 0) != in {
				t.Errorf("docs %v: SearchDoc(%d) = %d hits, allowed %v", allow, doc, len(hits), in)
			}
		}
	}
}

// A doc covers what any of its units holds, while each hit covers what its
// own unit holds: a question's words may sit in two sections of one page.
func TestSearchCoveredByDoc(t *testing.T) {
	ix := build(t, []int32{0, 0, 0, 1}, []Fields{
		{FieldTitle: "Billing", FieldBody: "Send an invoice from the Billing tab."},
		{FieldTitle: "Billing", FieldHeader: "Refunds", FieldBody: "A refund goes back to the card."},
		{FieldTitle: "Billing", FieldHeader: "Limits", FieldBody: "Nothing about the question here."},
		{FieldTitle: "Cards", FieldBody: "A card is charged once."},
	})
	terms := []string{"invoice", "refund", "card"}
	sc := Scoring{Weights: ix.Weigh(keys(terms), 0, 0)}
	res := ix.Search(terms, keys(terms), 10, sc)
	if got, want := res.Covered[0], AllKeys(3); got != want {
		t.Errorf("doc 0 covers %03b, want %03b (invoice in one section, refund and card in another)", got, want)
	}
	if got, want := res.Covered[1], uint64(1<<2); got != want {
		t.Errorf("doc 1 covers %03b, want %03b (card alone)", got, want)
	}
	for _, h := range res.Ranked {
		if ix.Units[h.Unit].Doc == 0 && h.Cov == AllKeys(3) {
			t.Errorf("unit %d covers every key alone, but no section of doc 0 holds them all", h.Unit)
		}
	}
	// A unit of a doc the scope leaves out covers nothing.
	scoped := ix.Search(terms, keys(terms), 10, Scoring{Weights: sc.Weights, Docs: []bool{false, true}})
	if _, ok := scoped.Covered[0]; ok {
		t.Errorf("scoped search reports doc 0, which it may not score: %v", scoped.Covered)
	}
}
