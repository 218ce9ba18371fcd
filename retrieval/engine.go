// Package retrieval is docent's retrieval engine: it normalizes a question,
// scores the knowledge base's chunks (or whole docs), ranks them and decides
// whether the evidence is good enough to answer, calls for a clarifying
// question, or is no match at all. It is pure: the index is built once from
// docs in memory and every turn is computed from it, without I/O.
package retrieval

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/retrieval/index"
	"github.com/docent-sh/docent/textsafe"
	"github.com/docent-sh/docent/tokens"
)

// MaxQueryChars is the longest question the engine reads; the rest is cut
// off with a note, so a pasted log cannot stall a turn.
const MaxQueryChars = 4000

// Replies the engine gives without a language model, word for word.

// Query is one turn of a conversation. LastChunkID and Shown carry the
// session state that follow-ups ("tell me more") need.
type Query struct {
	Text        string
	LastChunkID string   // the chunk the previous answer came from
	Shown       []string // chunk ids already shown in this session
	// Vector is the question's embedding and VectorModel the model that
	// made it. When the model is the one the engine's chunk embeddings are
	// of (VectorInfo), the turn ranks by both signals (see hybrid.go);
	// otherwise, or when nil, by the question's words alone, and a
	// mismatch is said in Result.Notes.
	Vector      []float32
	VectorModel string
	// Categories, when not empty, scopes the turn to the docs of those
	// categories (docs folders, Engine.Categories): the others are left
	// out before scoring, so coverage, margins and the decision are of
	// the scope alone. A category the engine does not know matches no
	// doc; callers check them first with CheckCategories.
	Categories []string
	// Alpha, when not nil, weighs this turn's hybrid ranking instead of
	// Config.Alpha (same range, 0 to 1).
	Alpha *float64
}

// Hit is one ranked chunk as Search returns it: ranking only, no decision.
type Hit struct {
	DocSlug    string
	ChunkID    string
	ChunkIndex int
	RankScore  float64
	Score      float64
	FusedScore float64 // in a hybrid ranking (SearchQuery with a vector), else 0
	Source     Source  // keyword, or in a hybrid ranking embedding or hybrid
}

// Engine answers questions from an in-memory index. It is safe for
// concurrent use; build a new one when the knowledge base changes.
type Engine struct {
	cfg    Config
	th     thresholds
	docs   []docEntry
	bySlug map[string]int
	chunks *unitIndex // Phase 2; nil when no doc has a chunk with body text
	whole  *unitIndex // Phase 1; nil when there are no docs; see wholeIndex
	// wholeOnce guards the lazy build of whole.
	wholeOnce  sync.Once
	buildWhole func()
	glossary   []glossaryEntry
	// titleStarts holds, by the first stem key of a title of two words
	// or more, the docs so titled: a question's keys find the titles
	// they write as a phrase without reading every doc's (see
	// titlePhraseDocs).
	titleStarts map[string][]int32
	norm        *normalizer
	nChunks     int
	vec         vectors // the chunk embeddings of one model, for hybrid turns
}

// docEntry is a doc with what the engine precomputes for it. Display
// strings are sanitized once here so no control sequence from a doc can
// reach a terminal through a result.
type docEntry struct {
	doc       knowledge.Doc
	slug      string
	title     string
	category  string
	titleKeys int // distinct stem keys of the title: "the doc titled X" has as many as X
	// titlePhrase is the stem keys of the title's words, in order: a
	// question that writes them together names the doc (see scoringFor).
	titlePhrase []string
	concept     bool
	// nextChunk holds, by chunk index, the id of the chunk a follow-up
	// continues with (see nextChunks).
	nextChunk map[int]string
}

// New builds the engine's indexes from a knowledge base and its
// vocabulary: the glossary's headwords are known terms and its definitions
// the last fallback, the synonyms rewrite queries, and the concept docs
// take the definitional bias. It fails on an invalid config or duplicate
// slugs.
func New(b knowledge.Bundle, cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	docs := b.Docs
	e := &Engine{
		cfg:    cfg,
		th:     thresholds{minCoverage: cfg.MinCoverage, minMargin: cfg.MinMargin},
		bySlug: make(map[string]int, len(docs)),
	}
	for i, d := range docs {
		if d.Slug == "" {
			return nil, fmt.Errorf("retrieval: doc %d (%q): empty slug", i, d.SourcePath)
		}
		if j, dup := e.bySlug[d.Slug]; dup {
			return nil, fmt.Errorf("retrieval: duplicate doc slug %q (%s and %s)", d.Slug, docs[j].SourcePath, d.SourcePath)
		}
		e.bySlug[d.Slug] = i
	}

	entries := parseGlossary(b.Glossary, &analysis.Analyzer{})
	known, knownPhrases, naming := knownTerms(docs, entries)
	an := &analysis.Analyzer{Known: known}
	for i := range entries {
		entries[i].terms = an.Terms(entries[i].term)
	}
	e.glossary = entries

	e.docs = make([]docEntry, len(docs))
	for i, d := range docs {
		title := d.Title
		if title == "" {
			title = d.Slug
		}
		category := d.Category
		if category == "" {
			category, _, _ = strings.Cut(d.Slug, "/")
		}
		e.docs[i] = docEntry{
			doc:         d,
			slug:        textsafe.Line(d.Slug),
			title:       textsafe.Line(title),
			category:    textsafe.Line(category),
			titleKeys:   len(sortedKeys(an.Terms(title))),
			titlePhrase: stemKeys(an.Terms(title)),
			concept:     b.IsConcept(d.Slug),
			nextChunk:   nextChunks(d),
		}
		e.nChunks += len(d.Chunks)
	}
	e.titleStarts = map[string][]int32{}
	for i, d := range e.docs {
		if len(d.titlePhrase) > 1 {
			e.titleStarts[d.titlePhrase[0]] = append(e.titleStarts[d.titlePhrase[0]], int32(i))
		}
	}
	e.buildIndexes(an)
	if err := e.buildVectors(); err != nil {
		return nil, err
	}

	e.norm = &normalizer{
		an:           an,
		knownPhrases: knownPhrases,
		inVocabulary: e.inVocabulary,
		writesPhrase: rememberPhrases(e.writesPhrase),
		synonyms:     analysis.CompileSynonyms(b.Synonyms),
		typos:        analysis.NewTypoFixer(naming, e.docFrequency),
		// Loaded on first use: most questions never ask it.
		common: func(w string) bool { return tokens.Default().Whole(w) },
	}
	if ix := e.vocabularyIndex(); ix != nil {
		words := make(map[string]bool, len(ix.Words()))
		stems := map[string]string{} // stem key → its most frequent word
		for _, w := range ix.Words() {
			words[w] = true
			k := analysis.StemKey(w)
			if best, ok := stems[k]; !ok || ix.DF(w) > ix.DF(best) || ix.DF(w) == ix.DF(best) && w < best {
				stems[k] = w
			}
		}
		e.norm.slips = analysis.NewTypoFixer(words, e.docFrequency)
		keys := make(map[string]bool, len(stems))
		for k := range stems {
			keys[k] = true
		}
		e.norm.stemSlips = analysis.NewTypoFixer(keys, func(k string) int { return ix.DF(stems[k]) })
		e.norm.stemWords = stems
	}
	return e, nil
}

// headerSep separates the headings of a chunk's header path.
const headerSep = " > "

// keySetHash identifies a sorted set of keys (FNV-1a over the keys, each
// ended by a 0 byte, which no key contains); 0 for the empty set.
func keySetHash(sorted []string) uint64 {
	if len(sorted) == 0 {
		return 0
	}
	h := fnv.New64a()
	for _, k := range sorted {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// sortedKeys returns the distinct stem keys of terms, sorted.
func sortedKeys(terms []string) []string {
	keys := stemKeys(terms)
	slices.Sort(keys)
	return keys
}

// stemKeys returns the distinct stem keys of terms, in their order, as a
// question's keys are (see normalize).
func stemKeys(terms []string) []string {
	var keys []string
	for _, t := range terms {
		if k := analysis.StemKey(t); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// knownTerms collects the words that name things in this knowledge base:
// titles, keywords and glossary headwords are known terms, which no
// synonym rewrites; those and the words of every heading make the naming
// vocabulary, which typos are corrected to (with keywords only declared
// ones, a feature's name is often only in a heading).
func knownTerms(docs []knowledge.Doc, glossary []glossaryEntry) (known, phrases, naming map[string]bool) {
	known, phrases, naming = map[string]bool{}, map[string]bool{}, map[string]bool{}
	addWords := func(set map[string]bool, text string) []string {
		toks := analysis.Tokens(text)
		for _, t := range toks {
			if !analysis.IsStopword(t) {
				set[t] = true
			}
		}
		return toks
	}
	add := func(term string) {
		if toks := addWords(known, term); len(toks) > 0 {
			phrases[strings.Join(toks, " ")] = true
		}
	}
	seen := map[string]bool{} // header paths repeat chunk after chunk
	for _, d := range docs {
		add(d.Title)
		for _, k := range d.Keywords {
			add(k)
		}
		for _, c := range d.Chunks {
			for _, k := range c.Keywords {
				add(k)
			}
			if !seen[c.HeaderPath] {
				seen[c.HeaderPath] = true
				addWords(naming, c.HeaderPath)
			}
			addWords(naming, innerHeadings(c.Content))
		}
	}
	for _, g := range glossary {
		add(g.term)
	}
	for w := range known {
		naming[w] = true
	}
	return known, phrases, naming
}

func (e *Engine) buildIndexes(an *analysis.Analyzer) {
	var wholeUnits []index.Unit
	var chunkUnits []index.Unit
	slugs, titles := make([]string, len(e.docs)), make([]string, len(e.docs))
	for i, d := range e.docs {
		slugs[i], titles[i] = d.doc.Slug, d.doc.Title
	}
	logs := releaseSeries(slugs, titles)
	for i, d := range e.docs {
		logs[i] = logs[i] || releaseLog(d.doc.Content)
		wholeUnits = append(wholeUnits, index.Unit{Doc: int32(i), Chunk: -1, Lead: true})
		lead := true
		for j, c := range d.doc.Chunks {
			// A heading-only chunk has nothing to answer with, and its
			// headings already appear in the next chunk's header path. A
			// chunk that is only a list of links ("Related") is the same:
			// its words are the names of other docs, which are indexed in
			// their own right, and it would otherwise outscore them on
			// their own titles.
			if answerable(c) {
				chunkUnits = append(chunkUnits, index.Unit{Doc: int32(i), Chunk: int32(j), Lead: lead})
				lead = false
			}
		}
	}
	if len(chunkUnits) > 0 {
		e.chunks = newUnitIndex(index.Build(chunkUnits, e.chunkFields(chunkUnits), an), logs)
		// Section headings repeat chunk after chunk in a long doc, and
		// their stems are costly: each heading is hashed once.
		e.chunks.section = make([]uint64, len(chunkUnits))
		hashes := map[string]uint64{}
		for i, u := range chunkUnits {
			path := e.docs[u.Doc].doc.Chunks[u.Chunk].HeaderPath
			if j := strings.LastIndex(path, headerSep); j >= 0 {
				path = path[j+len(headerSep):]
			}
			h, ok := hashes[path]
			if !ok {
				h = keySetHash(sortedKeys(an.Terms(path)))
				hashes[path] = h
			}
			e.chunks.section[i] = h
		}
	}
	// The whole-doc index is built on first use when Phase 2 runs: it is
	// only a fallback there, and building it doubles the start-up cost.
	e.buildWhole = func() {
		if len(wholeUnits) > 0 {
			e.whole = newUnitIndex(index.Build(wholeUnits, e.docFields(wholeUnits), an), logs)
		}
	}
	if e.cfg.Phase == 1 || e.chunks == nil {
		e.wholeOnce.Do(e.buildWhole)
	}
}

// wholeIndex returns the Phase 1 index, building it on first use.
func (e *Engine) wholeIndex() *unitIndex {
	e.wholeOnce.Do(e.buildWhole)
	return e.whole
}

// answerable reports whether a chunk has body text of its own.
func answerable(c knowledge.Chunk) bool {
	return !c.HeadingOnly && strings.TrimSpace(c.Content) != "" && !linksOnly(c.Content)
}

func (e *Engine) docFields(units []index.Unit) func(int) index.Fields {
	return func(i int) index.Fields {
		d := e.docs[units[i].Doc].doc
		var headers []string
		for _, c := range d.Chunks {
			if !slices.Contains(headers, c.HeaderPath) {
				headers = append(headers, c.HeaderPath)
			}
		}
		return index.Fields{
			index.FieldTitle:    d.Title,
			index.FieldKeywords: strings.Join(d.Keywords, ", "),
			index.FieldHeader:   joinNonEmpty(" ; ", strings.Join(headers, " ; "), innerHeadings(d.Content)),
			index.FieldBody:     d.Content,
		}
	}
}

func (e *Engine) chunkFields(units []index.Unit) func(int) index.Fields {
	// A doc stored before ingestion rendered plain text has none in any
	// chunk; a chunk of code alone has none in a doc that has some.
	hasText := map[int32]bool{}
	for _, u := range units {
		if e.docs[u.Doc].doc.Chunks[u.Chunk].Text != "" {
			hasText[u.Doc] = true
		}
	}
	return func(i int) index.Fields {
		d := e.docs[units[i].Doc].doc
		c := d.Chunks[units[i].Chunk]
		keywords := c.Keywords
		if len(keywords) == 0 {
			keywords = d.Keywords
		}
		body := c.Text // what a reader sees: no URLs, markup or code
		if !hasText[units[i].Doc] {
			body = c.Content
		}
		return index.Fields{
			index.FieldTitle:    d.Title,
			index.FieldKeywords: strings.Join(keywords, ", "),
			index.FieldHeader:   joinNonEmpty(" ; ", c.HeaderPath, innerHeadings(c.Content)),
			index.FieldBody:     body,
		}
	}
}

// vocabularyIndex is the index whose terms count as the vocabulary: the
// configured phase's, so the typo fixer agrees with what can match.
func (e *Engine) vocabularyIndex() *unitIndex {
	if e.cfg.Phase == 2 && e.chunks != nil {
		return e.chunks
	}
	return e.wholeIndex()
}

// inVocabulary reports whether the corpus has term or a variant of it
// ("migrate" when the docs say "migrating"): such a word is no typo.
func (e *Engine) inVocabulary(term string) bool {
	ix := e.vocabularyIndex()
	return ix != nil && (ix.DF(term) > 0 || ix.DF(analysis.StemKey(term)) > 0)
}

// maxRememberedPhrases bounds the phrases rememberPhrases keeps: question
// words are outside input, and a long-running server must not grow
// without end.
const maxRememberedPhrases = 4096

// rememberPhrases returns writes, answering a phrase it was asked before
// from memory: the docs do not change under an engine, and a phrase
// lookup reads units' text, while a question that needs one ("turn on")
// is asked again and again.
func rememberPhrases(writes func(a, b string) bool) func(a, b string) bool {
	var mu sync.Mutex
	known := map[[2]string]bool{}
	return func(a, b string) bool {
		k := [2]string{a, b}
		mu.Lock()
		v, ok := known[k]
		mu.Unlock()
		if ok {
			return v
		}
		v = writes(a, b)
		mu.Lock()
		if len(known) < maxRememberedPhrases {
			known[k] = v
		}
		mu.Unlock()
		return v
	}
}

// maxPhraseUnits is how many units holding both words writesPhrase reads
// at most: a question's rare compound asks it, and a few units that write
// both are enough to find the phrase if the docs use it.
const maxPhraseUnits = 64

// writesPhrase reports whether some unit writes word a directly followed
// by word b (in its title, headings or text, as tokenized). A function
// word is not indexed: the units holding the other word are read.
func (e *Engine) writesPhrase(a, b string) bool {
	ix := e.vocabularyIndex()
	if ix == nil {
		return false
	}
	first, second := a, b
	switch {
	case analysis.IsStopword(b) && ix.DF(b) == 0:
		second = ""
	case analysis.IsStopword(a) && ix.DF(a) == 0:
		first, second = b, ""
	}
	found, read := false, 0
	ix.UnitsWithBoth(first, second, func(unit int32) bool {
		u := ix.Units[unit]
		d := e.docs[u.Doc].doc
		texts := []string{d.Title, d.Content}
		if u.Chunk >= 0 {
			c := d.Chunks[u.Chunk]
			body := c.Text // what the index reads (see chunkFields)
			if body == "" {
				body = c.Content
			}
			texts = []string{d.Title, c.HeaderPath, body}
		}
		for _, t := range texts {
			words := analysis.Tokens(t)
			for i := 0; i+1 < len(words) && !found; i++ {
				found = words[i] == a && words[i+1] == b
			}
		}
		read++
		return !found && read < maxPhraseUnits
	})
	return found
}

// Knows reports whether word (one word, as a question would write it)
// is the knowledge base's own: the docs write it or a variant of it, or a
// synonym rule names it. A word the docs never write finds nothing, so
// query enhancement adds no other: a model's invention must not reach a
// query unseen.
func (e *Engine) Knows(word string) bool {
	toks := analysis.Tokens(word)
	if len(toks) != 1 {
		return false
	}
	w := toks[0]
	if e.inVocabulary(w) || e.inVocabulary(analysis.Singular(w)) {
		return true
	}
	syn := e.norm.synonyms
	if _, ok := syn.Words[w]; ok {
		return true
	}
	for _, r := range syn.Words {
		if slices.Contains(r.To, w) {
			return true
		}
	}
	for _, r := range syn.Phrases {
		if slices.Contains(r.From, w) || slices.Contains(r.To, w) {
			return true
		}
	}
	return false
}

func (e *Engine) docFrequency(term string) int {
	if ix := e.vocabularyIndex(); ix != nil {
		return ix.DF(analysis.Singular(term))
	}
	return 0
}

// Size returns how many docs and chunks the engine was built from.
func (e *Engine) Size() (docs, chunks int) { return len(e.docs), e.nChunks }

// Config returns the configuration the engine was built with.
func (e *Engine) Config() Config { return e.cfg }

// Ask answers one turn. A follow-up ("tell me more", "more", "go on",
// "continue") continues the resource of q.LastChunkID.
func (e *Engine) Ask(q Query) Result {
	start := time.Now()
	text, notes := truncateQuery(q.Text)
	talk, isTalk := smallTalk(text)
	var res Result
	switch {
	case analysis.IsFollowUp(text) && q.LastChunkID != "":
		res = e.continueFrom(q.LastChunkID, q.Shown)
	case analysis.IsFollowUp(text):
		res = e.noMatch(RuleNoFollowUpOf)
		res.Notes = append(res.Notes, "nothing to continue: no earlier answer in this session")
	case isTalk:
		res = e.noMatch(RuleSmallTalk)
		res.Talk = talk
	case !e.cfg.Enabled:
		res = e.noMatch(RuleDisabled)
		res.Notes = append(res.Notes, "retrieval is disabled")
	default:
		res = e.search(text, q)
	}
	res.Query = textsafe.Line(text)
	res.Notes = append(notes, res.Notes...)
	return e.finish(res, start)
}

// Lookup answers from a doc chosen by slug without a question: its
// overview, the first chunk that is not heading-only. Pick with the
// question is what picking a pill does.
func (e *Engine) Lookup(slug string) Result { return e.Pick(slug, "") }

// Continue answers with the chunk after chunkID in the same doc that is
// neither heading-only nor already shown.
func (e *Engine) Continue(chunkID string, shown []string) Result {
	start := time.Now()
	res := e.continueFrom(chunkID, shown)
	res.Query = textsafe.Line(chunkID)
	return e.finish(res, start)
}

func (e *Engine) finish(res Result, start time.Time) Result {
	res.Metrics.RetrievalMS = float64(time.Since(start).Nanoseconds()) / 1e6
	if res.NormalizedTokens == nil {
		res.NormalizedTokens = []string{}
	}
	if res.Options == nil {
		res.Options = []Option{}
	}
	if res.Results == nil {
		res.Results = []Evidence{}
	}
	return res
}

// truncateQuery cuts text to MaxQueryChars characters.
func truncateQuery(text string) (string, []string) {
	if utf8.RuneCountInString(text) <= MaxQueryChars {
		return text, nil
	}
	return string([]rune(text)[:MaxQueryChars]), []string{fmt.Sprintf("query truncated to %d characters", MaxQueryChars)}
}

func (e *Engine) noMatch(rule string) Result {
	return Result{Status: StatusNoMatch, Rule: rule, Metrics: Metrics{Phase: e.cfg.Phase}}
}

// errNoUnits is a phase's failure when its index holds nothing.
var errNoUnits = errors.New("index is empty")

// search runs the configured phase and the fallback chain: Phase 2 →
// Phase 1 → glossary → generic reply.
func (e *Engine) search(text string, query Query) Result {
	q := e.norm.normalize(text)
	if len(q.terms) == 0 {
		// A question of function words alone ("how do I do it") names
		// nothing; its vector's nearest chunks would be noise.
		return e.noMatch(RuleNoTerms)
	}
	var notes []string
	q.alpha = e.alphaOf(query)
	if len(query.Categories) > 0 {
		q.allow = e.allowed(query.Categories)
		notes = append(notes, "scope: "+strings.Join(query.Categories, ", "))
	}
	vh, note := e.vectorSearch(query, q.alpha, q.allow, 3*e.cfg.TopK)
	if vh != nil {
		note = "ranked by keywords and embeddings (alpha " + strconv.FormatFloat(q.alpha, 'g', -1, 64) + ")"
	}
	if note != "" {
		notes = append(notes, note)
	}
	var fallback string
	phases := []int{2, 1}
	if e.cfg.Phase == 1 {
		phases = []int{1}
	}
	for i, p := range phases {
		res, err := e.runPhase(p, text, q, vh)
		if err == nil {
			res.Metrics.Fallback = fallback
			res.Notes = append(notes, res.Notes...)
			return res
		}
		notes = append(notes, fmt.Sprintf("phase %d failed: %v", p, err))
		if i+1 < len(phases) {
			fallback = "phase" + strconv.Itoa(phases[i+1])
		}
	}
	var res Result
	if q.allow != nil {
		// The glossary is no doc of any category: a scoped turn does not
		// fall back to it.
		res = e.noMatch(RuleGeneric)
		res.NormalizedTokens = q.terms
		res.Metrics.Fallback = "generic"
	} else {
		res = e.glossaryAnswer(q)
	}
	res.Metrics.Phase = phases[len(phases)-1]
	res.Notes = append(notes, res.Notes...)
	return res
}

// runPhase answers from one index, or fails with errNoUnits when the
// knowledge base gives that phase nothing to rank: no answerable chunk for
// Phase 2 (docs that are all headings or links), no doc for Phase 1.
func (e *Engine) runPhase(phase int, text string, q normalizedQuery, vh vectorHits) (Result, error) {
	ix := e.chunks
	if phase == 1 {
		ix = e.wholeIndex()
		vh = nil // vector ids are chunk units
	}
	if ix == nil {
		return Result{}, errNoUnits
	}
	res := e.answer(ix, text, q, vh)
	res.Metrics.Phase = phase
	return res, nil
}

// glossaryAnswer is the fallback when no index could answer: the core
// concept whose headword shares most terms with the question, or the
// generic reply.
func (e *Engine) glossaryAnswer(q normalizedQuery) Result {
	best, bestN := -1, 0
	for i, g := range e.glossary {
		n := 0
		for _, t := range g.terms {
			if slices.Contains(q.terms, t) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		res := e.noMatch(RuleGeneric)
		res.NormalizedTokens = q.terms
		res.Metrics.Fallback = "generic"
		return res
	}
	g := e.glossary[best]
	ev := Evidence{
		DocSlug:      "glossary",
		Title:        g.term,
		Category:     "glossary",
		Snippet:      g.definition,
		Content:      g.definition,
		HeaderPath:   "Core concepts > " + g.term,
		ChunkIndex:   -1,
		MatchedTerms: intersect(q.terms, g.terms),
		Source:       SourceKeyword,
		MatchExplain: MatchExplain{Fields: map[string][]string{"glossary": intersect(q.terms, g.terms)}},
	}
	return Result{
		NormalizedTokens: q.terms,
		Status:           StatusFound,
		Results:          []Evidence{ev},
		Confidence:       1,
		Rule:             RuleGlossary,
		Metrics:          Metrics{Fallback: "glossary"},
	}
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
