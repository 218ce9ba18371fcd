package retrieval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/retrieval/index"
	"github.com/docent-sh/docent/textsafe"
)

// Snippet size, in bytes of plain text, and how many chunks of one doc
// a ranking keeps.
const (
	snippetWidth = 220
	perDocCap    = 2
)

// scoringFor returns how units of ix are scored for q. The units of the
// doc about the asked-for thing have their rank multiplied by
// 1 + DEFINITIONAL_BIAS: the doc whose title is the question (its title's
// words are the question's, by stem) or whose title of two words or more
// the question writes as a phrase ("how do I set up object storage":
// Object storage; "we run npm ci and it fails": npm-ci), and for a
// definitional question ("what is X") also the section whose own heading
// is X and a concept doc the knowledge base declares, when X is in its
// title or headings.
func (e *Engine) scoringFor(ix *unitIndex, q normalizedQuery) index.Scoring {
	// Ranking weighs every word of the question, intent words too: a
	// passage that says "definition" ranks for "definition of X".
	sc := index.Scoring{Weights: ix.Weigh(q.keys, 0, q.rare), Reader: q.firstPerson, Docs: q.allow}
	if !q.dated {
		sc.Damp = ix.damp
	}
	if !(e.cfg.DefinitionalBias > 0) || len(q.keys) == 0 {
		return sc
	}
	// What the question is about: its keys but the intent words'.
	var topic []string
	for i, k := range q.keys {
		if q.intent&(1<<i) == 0 {
			topic = append(topic, k)
		}
	}
	if len(topic) == 0 {
		return sc
	}
	all, n := index.AllKeys(len(q.keys))&^q.intent, len(topic)
	topicHash := keySetHash(slices.Sorted(slices.Values(topic)))
	sc.Bias = e.cfg.DefinitionalBias
	phrased := e.titlePhraseDocs(q.keys)
	sc.Biased = func(unit int32, title, head uint64) index.Bias {
		doc := ix.Units[unit].Doc
		d := &e.docs[doc]
		switch {
		case q.definitional && d.concept && head != 0:
			return index.BiasConcept
		case title == all && d.titleKeys == n, slices.Contains(phrased, doc):
			return index.BiasTitle
		case q.definitional && ix.section != nil && ix.section[unit] == topicHash:
			return index.BiasSection
		}
		return index.BiasNone
	}
	return sc
}

// titlePhraseDocs returns the docs whose title of two words or more keys
// write as a phrase: a question's keys leave out its function words, so
// "set up the object storage" writes "Object storage". Asked once a
// question, where the bias is asked once a unit: a question touches
// thousands of units, and few titles.
func (e *Engine) titlePhraseDocs(keys []string) []int32 {
	var out []int32
	for i, k := range keys {
		for _, doc := range e.titleStarts[k] {
			if p := e.docs[doc].titlePhrase; len(keys)-i >= len(p) && slices.Equal(keys[i:i+len(p)], p) && !slices.Contains(out, doc) {
				out = append(out, doc)
			}
		}
	}
	return out
}

// ranking is one query's results over one index, after the per-doc cap.
type ranking struct {
	hits    []index.Hit // at most TopK, best first
	trimmed int         // hits skipped by the per-doc cap while filling TopK
	docs    []index.Hit // each doc's best-ranked hit, best first, up to MaxCandidates
	// sections holds per doc the query keys its best-named unit carries
	// in title, keywords or headings (see searchResult).
	sections map[int32]uint64
	// covered holds per doc the query keys any of its units carries.
	covered map[int32]uint64
	// names are the keys of a longer question that are exact names (see
	// normalizedQuery.names): a doc that writes one names it, wherever.
	// A bare topic that is a name is decided as one (see formName).
	names uint64
	// fused holds each unit's scores in a hybrid ranking, whose order
	// (of hits and docs) is by fused score; nil in a lexical one. docs
	// then holds only docs with a word of the question in them, and
	// vectorDocs the docs the vector side alone found, best first, up to
	// maxNearDocs (see hybrid.go).
	fused      map[int32]fusedScore
	vectorDocs []index.Hit
}

// rank searches ix and fills TopK results, at most perDocCap per doc unless
// capped is false. It searches deeper when the cap left slots empty. With
// vector hits vh it ranks by fused score (see hybrid.go).
func (e *Engine) rank(ix *unitIndex, q normalizedQuery, capped bool, vh vectorHits) ranking {
	k := e.cfg.TopK
	depth := 4*k + 8
	for {
		sc := e.scoringFor(ix, q)
		sr := ix.Search(q.terms, q.keys, depth, sc)
		r := ranking{sections: sr.Sections, covered: sr.Covered}
		if len(q.keys) > bareTopicKeys {
			r.names = q.names
		}
		ranked := sr.Ranked
		if vh != nil {
			ranked = e.fuseRanking(ix, q, sc, sr, vh, &r)
		}
		perDoc := map[int32]int{}
		for _, h := range ranked {
			doc := ix.Units[h.Unit].Doc
			// A unit the vector side alone found is evidence, but no
			// candidate of the policy's (see hybrid.go).
			candidate := r.fused == nil || r.fused[h.Unit].keyword
			if candidate && len(r.docs) < MaxCandidates && !slices.ContainsFunc(r.docs, func(d index.Hit) bool { return ix.Units[d.Unit].Doc == doc }) {
				r.docs = append(r.docs, h)
			}
			if len(r.hits) == k {
				continue
			}
			if capped && perDoc[doc] >= perDocCap {
				r.trimmed++
				continue
			}
			perDoc[doc]++
			r.hits = append(r.hits, h)
		}
		if len(r.hits) < k && len(sr.Ranked) == depth && sr.Touched > depth {
			depth = sr.Touched
			continue
		}
		if r.fused != nil {
			r.vectorDocs = vectorOnlyDocs(ix, ranked, r)
		}
		return r
	}
}

// vectorOnlyDocs are the docs of a hybrid ranking that no unit holding a
// word of the question represents, each by its best unit, in fused order,
// up to maxNearDocs.
func vectorOnlyDocs(ix *unitIndex, ranked []index.Hit, r ranking) []index.Hit {
	var out []index.Hit
	has := func(hits []index.Hit, doc int32) bool {
		return slices.ContainsFunc(hits, func(d index.Hit) bool { return ix.Units[d.Unit].Doc == doc })
	}
	for _, h := range ranked {
		if len(out) == maxNearDocs {
			break
		}
		if doc := ix.Units[h.Unit].Doc; !r.fused[h.Unit].keyword && !has(out, doc) && !has(r.docs, doc) {
			out = append(out, h)
		}
	}
	return out
}

// candidatesOf measures each doc's best hit for the decision policy: the
// coverage of the doc (any of its units) and of the hit alone, and how
// much of the question the doc's best-named section carries in its title,
// keywords and headings. A page may answer in two sections what a
// question asks in one sentence: the doc covers it, though no one chunk
// does.
func (e *Engine) candidatesOf(ix *unitIndex, r ranking, ws index.Weights) []candidate {
	out := make([]candidate, len(r.docs))
	for i, h := range r.docs {
		doc := ix.Units[h.Unit].Doc
		rank := h.Rank
		if r.fused != nil {
			// The policy's margins compare ranks as ratios, in the order
			// the candidates come: by fused score in a hybrid ranking.
			rank = r.fused[h.Unit].fused
		}
		named := h.Head | r.sections[doc] | (h.Cov|r.covered[doc])&r.names
		out[i] = candidate{
			doc:      doc,
			rank:     rank,
			coverage: ws.Share(h.Cov | r.covered[doc]),
			together: ws.Share(h.Cov),
			naming:   ws.Share(named),
			named:    named,
		}
	}
	return out
}

// answer turns one question into a result over ix: a quoted message
// first, then multi-intent, then the single-question policy.
func (e *Engine) answer(ix *unitIndex, text string, q normalizedQuery, vh vectorHits) Result {
	if res, ok := e.answerQuote(ix, text, q); ok {
		return res
	}
	return e.answerAsked(ix, text, q, vh, true)
}

// answerAsked is answer without the quotes: multi-intent when multi is
// set (a quoted message is one thing, whatever commas it holds), then
// the single-question policy.
func (e *Engine) answerAsked(ix *unitIndex, text string, q normalizedQuery, vh vectorHits, multi bool) Result {
	ws := ix.Weigh(q.keys, q.intent, q.rare)
	r := e.rank(ix, q, true, vh)
	cands := e.candidatesOf(ix, r, ws)
	if multi {
		if res, ok := e.answerMulti(ix, text, q); ok {
			// Each part is ranked by its words: the question's vector
			// is of the whole question, not of either part.
			res.Candidates = e.explain(ix, r, cands)
			if vh != nil {
				res.Notes = append(res.Notes, "each part of a multi-intent question ranked by keywords alone")
			}
			return res
		}
	}
	f := formQuestion
	switch {
	case len(q.keys) > bareTopicKeys || q.definitional:
	case len(q.identifiers) > 0 || analysis.WritesName(text):
		f = formName
	default:
		f = formTopic
	}
	if len(cands) > 0 {
		cands[0].written = e.writes(ix, text, q, r.docs[0].Cov)
	}
	d := decide(cands, f, e.th)
	// A close doc that names the question twice as strongly answers it
	// in the top's place: a found question, when it covers as much as
	// the top; a question the contender rule made weak, when it covers
	// enough to be an answer itself.
	named := 0
	switch {
	case d.status == StatusFound:
		named = namedMore(cands, e.th, cands[0].coverage)
	case d.rule == RuleContender:
		if named = namedMore(cands, e.th, e.th.minCoverage); named > 0 {
			d.status = StatusFound
		}
	}
	if i := named; i > 0 {
		cands = slices.Concat(cands[i:i+1], cands[:i], cands[i+1:])
		r.docs = slices.Concat(r.docs[i:i+1], r.docs[:i], r.docs[i+1:])
		d.rule = RuleNamedMore
	}
	// An identifier ("Next.js", "max_id") is an exact name, and docs that
	// never write it do not document its thing, however well they cover
	// its parts ("next", "js"): not found, with the near docs offered,
	// rather than an answer or a guess at a page about something else.
	if d.status == StatusFound && !ix.WritesAll(q.identifiers, q.calls, q.classes) {
		d.status, d.rule = StatusNoMatch, RuleUnknownIdentifier
	}
	if d.status != StatusNoMatch && e.othersThing(ix, q) {
		d.status, d.rule = StatusNoMatch, RuleOthersThing
	}
	res := Result{
		NormalizedTokens: q.terms,
		Status:           d.status,
		Rule:             d.rule,
		Confidence:       d.confidence,
		Metrics:          Metrics{DedupeTrimmed: r.trimmed},
		Candidates:       e.explain(ix, r, cands),
	}
	for _, h := range r.hits {
		res.Results = append(res.Results, e.evidence(ix, h, q, ws, r.fused))
	}
	if r.fused != nil && (d.status == StatusFound || d.status == StatusWeak) {
		leadWith(res.Results, e.docs[cands[0].doc].slug)
	}
	if d.rule == RuleNamedMore {
		// The doc answered from leads the evidence, though the per-doc
		// cap may have left it out of the results.
		slug := e.docs[cands[0].doc].slug
		if !slices.ContainsFunc(res.Results, func(ev Evidence) bool { return ev.DocSlug == slug }) {
			res.Results = slices.Insert(res.Results, 0, e.evidence(ix, r.docs[0], q, ws, r.fused))
			res.Results = res.Results[:min(len(res.Results), e.cfg.TopK)]
		}
		leadWith(res.Results, slug)
	}
	switch d.status {
	case StatusNoMatch:
		res.Topic = informativeWords(text)
		res.Results = nil // not evidence of anything: the question is not covered
		res.Options = e.nearDocs(ix, r.docs, q)
		// A doc the vector side alone found is offered only when it ranks
		// above every doc holding the question's words: every doc is near
		// a question to some degree, and a cosine has no floor that means
		// "related" for every model (see hybrid.go).
		for _, h := range r.vectorDocs {
			if len(res.Options) == maxNearDocs || len(r.docs) > 0 && !(r.fused[h.Unit].fused > r.fused[r.docs[0].Unit].fused) {
				break
			}
			res.Options = append(res.Options, optionFor(e.docs[ix.Units[h.Unit].Doc]))
		}
	case StatusWeak:
		res.Options = []Option{optionFor(e.docs[cands[0].doc])}
	case StatusAmbiguous:
		res.Options = []Option{optionFor(e.docs[cands[0].doc]), optionFor(e.docs[cands[d.rival].doc])}
	}
	return res
}

// othersThing reports whether a question that is all topic (at most
// index.TopicKeys informative words) asks about a thing of someone's own
// that the docs do not know: a compound after a possessive whose first
// word no page writes and whose second word pages do ("how do I reset my
// gmail password", "cancel our netflix subscription"). The docs'
// password is their product's, not the asker's mail's, however well a
// page on resetting passwords covers the rest. A longer question tells
// circumstances ("our corporate proxy needs auth and requests keeps
// timing out"), where such a compound is the asker's setting, not the
// topic. A number is a value, not a kind ("my 2 accounts").
func (e *Engine) othersThing(ix *unitIndex, q normalizedQuery) bool {
	if len(q.owned) == 0 || q.informative() > index.TopicKeys {
		return false
	}
	for _, o := range q.owned {
		if ix.DF(o[0]) == 0 && !isNumber(strings.TrimPrefix(o[0], "~")) && ix.DF(o[1]) > 0 {
			return true
		}
	}
	return false
}

// writes reports whether the docs write every informative word of the
// question, and the unit whose keys are cov every name it writes (see
// candidate.written). A question of more than index.TopicKeys
// informative words is held to the names alone: it tells the asker's
// circumstances, and a word of theirs no page writes ("porch",
// "sunset", "5ghz") is likelier one of those than its topic, as its
// weight says (see index.Index.Weigh).
func (e *Engine) writes(ix *unitIndex, text string, q normalizedQuery, cov uint64) bool {
	if q.informative() <= index.TopicKeys {
		for i, k := range q.keys {
			if q.intent&(1<<i) == 0 && ix.DF(k) == 0 {
				return false
			}
		}
	}
	for _, c := range analysis.AppendCapitalized(nil, text) {
		if i := slices.Index(q.keys, analysis.StemKey(c)); i >= 0 && cov&(1<<i) == 0 {
			return false
		}
	}
	return true
}

// minQuoteWords is how many words a quote has at least to be a message
// ("error: token expired"); fewer is a term the question stresses
// ("'deprecated'"), which the question's words already carry.
const minQuoteWords = 3

// answerQuote answers a question that quotes a message (see
// analysis.Quotes) on the message alone, when the doc that answers it
// writes the message word for word: "Hi, a customer's job fails with
// 'error: token expired' though nobody changed anything, what should
// they do?" is about the page that lists that error, whatever else the
// question says of the customer. A message no doc writes as it was
// quoted, or one the docs do not answer as found, leaves the question as
// asked.
//
// A message pasted after its severity or its exception's name
// (analysis.Messages) is answered so too, when the doc writes the start
// of it, its first half at least, word for word: the asker's values
// inside it (a host, a user name, a table) are theirs, not the docs',
// and where it ends is a guess (the asker's sentence may go on).
func (e *Engine) answerQuote(ix *unitIndex, text string, q normalizedQuery) (Result, bool) {
	quotes := analysis.Quotes(text)
	for i, quote := range append(quotes, analysis.Messages(text)...) {
		message := i >= len(quotes)
		pattern := quotePattern(quote)
		need := pattern.words() // a quote is written whole
		bare := quote
		if message {
			bare = withoutQuotes(quote)
			pattern = messagePattern(quote)
			need = max(minQuoteWords, (pattern.words()+1)/2)
		}
		if pattern.words() < minQuoteWords || quote == strings.TrimSpace(text) {
			continue
		}
		written := pattern.upTo(need)
		qq := e.norm.normalize(quote)
		if len(qq.terms) == 0 {
			continue
		}
		if message {
			// The names a message quotes are the asker's values, which
			// no doc need write ("host \"10.2.3.44\"").
			qq.identifiers, qq.classes = analysis.AppendIdentifiers(nil, bare), analysis.AppendClasses(nil, bare)
		}
		qq.allow, qq.alpha = q.allow, q.alpha
		res := e.answerAsked(ix, quote, qq, nil, false)
		if res.Status != StatusFound || len(res.Results) == 0 || !written.writtenIn(res.Results[0].Content) {
			// The page about the thing the message names may rank above
			// the one that prints it ("could not serialize access due
			// to concurrent update": serialization failure handling
			// above Transaction Isolation): the best-ranked doc that
			// writes it answers, as the policy finds it on its own or,
			// when the policy finds its headings name nothing of the
			// message (a page of common errors), from the chunk that
			// prints it. A pasted message's writer may rank below every
			// candidate: its words find it (messageWriter).
			w := e.writerOf(res.Candidates, written, q.allow)
			if w < 0 && message {
				w = e.messageWriter(written, q.allow)
			}
			if w < 0 {
				continue
			}
			qq.allow = make([]bool, len(e.docs))
			qq.allow[w] = true
			if res = e.answerAsked(ix, quote, qq, nil, false); res.Status != StatusFound {
				c, ok := e.writerChunk(w, written)
				if !ok {
					continue
				}
				res = e.chunkAnswer(w, c, RuleQuoted)
			}
		}
		res.Rule = RuleQuoted
		res.Notes = append(res.Notes, "answered on the quoted message: "+textsafe.Line(quote))
		return res, true
	}
	return Result{}, false
}

// writerOf returns the doc number of the best-ranked candidate that the
// turn allows (allow nil: any) and one of whose chunks writes the
// pattern, -1 when none does.
func (e *Engine) writerOf(cands []Candidate, p wordPattern, allow []bool) int {
	for _, c := range cands {
		i, ok := e.bySlug[c.DocSlug]
		if !ok || allow != nil && !allow[i] {
			continue
		}
		if _, ok := e.writerChunk(i, p); ok {
			return i
		}
	}
	return -1
}

// writerChunk returns the first chunk of doc that writes the pattern.
func (e *Engine) writerChunk(doc int, p wordPattern) (knowledge.Chunk, bool) {
	for _, c := range e.docs[doc].doc.Chunks {
		if p.writtenIn(c.Content) {
			return c, true
		}
	}
	return knowledge.Chunk{}, false
}

// withoutQuotes drops the quoted spans of a message: the values a log
// line quotes ("10.2.3.44", `tokio-util`) are the asker's.
func withoutQuotes(msg string) string {
	var b strings.Builder
	from := 0
	for _, at := range analysis.QuoteSpans(msg) {
		b.WriteString(msg[from:at[0]])
		b.WriteByte(' ')
		from = at[1]
	}
	b.WriteString(msg[from:])
	return b.String()
}

// explain describes the docs the policy weighed, for Result.Candidates,
// then in a hybrid ranking the docs the vector side alone found, which it
// did not weigh (coverage and naming 0).
func (e *Engine) explain(ix *unitIndex, r ranking, cands []candidate) []Candidate {
	out := make([]Candidate, len(r.docs), len(r.docs)+len(r.vectorDocs))
	for i, h := range r.docs {
		u := ix.Units[h.Unit]
		de := e.docs[u.Doc]
		c := cands[i]
		out[i] = Candidate{DocSlug: de.slug, Title: de.title, Rank: h.Rank, Coverage: c.coverage, Together: c.together, Naming: c.naming}
		if r.fused != nil {
			out[i].FusedScore = r.fused[h.Unit].fused
		}
		if u.Chunk >= 0 {
			out[i].ChunkID = textsafe.Line(knowledge.ChunkID(de.doc.Slug, de.doc.Chunks[u.Chunk].Index))
		}
	}
	for _, h := range r.vectorDocs {
		u := ix.Units[h.Unit]
		de := e.docs[u.Doc]
		out = append(out, Candidate{DocSlug: de.slug, Title: de.title, FusedScore: r.fused[h.Unit].fused,
			ChunkID: textsafe.Line(knowledge.ChunkID(de.doc.Slug, de.doc.Chunks[u.Chunk].Index))})
	}
	return out
}

// leadWith moves the first evidence of the doc the policy decided on to
// the front, keeping the others' order: a hybrid ranking may put a chunk
// the vector side alone found first, and the answer's first chunk must be
// the decided doc's.
func leadWith(results []Evidence, slug string) {
	i := slices.IndexFunc(results, func(ev Evidence) bool { return ev.DocSlug == slug })
	if i > 0 {
		ev := results[i]
		copy(results[1:i+1], results[:i])
		results[0] = ev
	}
}

func optionFor(d docEntry) Option {
	return Option{Label: d.title, DocSlug: d.slug, Category: d.category}
}

// topicPart reports whether q, one of parts, is a topic of a question in
// two parts: it has more informative words than a bare topic and at most
// index.TopicKeys. Three parts or more are more often one question
// listing things than three questions; a long part tells circumstances,
// and a bare topic names only what it is about: for either, only a doc
// naming its words can be trusted to answer it.
func topicPart(parts []string, q normalizedQuery) bool {
	n := q.informative()
	return len(parts) == 2 && n > bareTopicKeys && n <= index.TopicKeys
}

// answerMulti handles "X and Y", "X + Y", "X, Y": when at least two parts
// each have a strong top doc, and the docs differ, the result offers both,
// each option's best evidence first in the same order, so the answer can
// take each part in turn and ask which to go deeper on. In a question of
// two parts, one strong part is enough to show that two things are asked:
// the other then needs only a doc that answers it in part (see partial).
func (e *Engine) answerMulti(ix *unitIndex, text string, whole normalizedQuery) (Result, bool) {
	parts := analysis.SplitIntents(text)
	if len(parts) < 2 {
		return Result{}, false
	}
	type partPick struct {
		asked   string
		best    index.Hit
		ranking ranking
	}
	var picks []partPick
	var partial *partPick // a two-part question's part answered in part
	for _, p := range parts {
		q := e.norm.normalize(p)
		if len(q.terms) == 0 {
			continue
		}
		q.definitional = q.definitional || whole.definitional
		q.allow, q.alpha = whole.allow, whole.alpha
		r := e.rank(ix, q, false, nil)
		if len(r.docs) == 0 {
			continue
		}
		best := r.docs[0]
		pick := partPick{asked: textsafe.Line(p), best: best, ranking: r}
		if c := e.candidatesOf(ix, r, ix.Weigh(q.keys, q.intent, q.rare))[0]; !c.strong(e.th, topicPart(parts, q)) {
			if len(parts) == 2 && c.partial(e.th) {
				partial = &pick
			}
			continue
		}
		if slices.ContainsFunc(picks, func(pp partPick) bool { return ix.Units[pp.best.Unit].Doc == ix.Units[best.Unit].Doc }) {
			continue
		}
		picks = append(picks, pick)
	}
	if len(picks) == 1 && partial != nil && ix.Units[partial.best.Unit].Doc != ix.Units[picks[0].best.Unit].Doc {
		// The options follow the question's order.
		if partial.asked == textsafe.Line(parts[0]) {
			picks = []partPick{*partial, picks[0]}
		} else {
			picks = append(picks, *partial)
		}
	}
	if len(picks) < 2 {
		return Result{}, false
	}
	picks = picks[:2] // two summaries keep the clarification short
	res := Result{
		NormalizedTokens: whole.terms,
		Status:           StatusMulti,
		Rule:             RuleMulti,
		Confidence:       1,
	}
	ws := ix.Weigh(whole.keys, whole.intent, whole.rare)
	seen := map[int32]bool{}
	for _, p := range picks {
		o := optionFor(e.docs[ix.Units[p.best.Unit].Doc])
		o.Asked = p.asked
		res.Options = append(res.Options, o)
		// The picks' docs differ, so each best unit is new: Results[i] is
		// option i's evidence.
		seen[p.best.Unit] = true
		res.Results = append(res.Results, e.evidence(ix, p.best, whole, ws, nil))
	}
	// Then the rest of each part's results, interleaved, so the evidence
	// covers both questions; no per-doc cap for a multi-intent question.
	for i := 0; len(res.Results) < e.cfg.TopK; i++ {
		added := false
		for _, p := range picks {
			if i < len(p.ranking.hits) {
				added = true
				h := p.ranking.hits[i]
				if !seen[h.Unit] && len(res.Results) < e.cfg.TopK {
					seen[h.Unit] = true
					res.Results = append(res.Results, e.evidence(ix, h, whole, ws, nil))
				}
			}
		}
		if !added {
			break
		}
	}
	return res, true
}

// evidence describes one hit, with the reasons it matched: the question's
// words found in each field, a word counting where any variant of it is.
func (e *Engine) evidence(ix *unitIndex, h index.Hit, q normalizedQuery, ws index.Weights, fused map[int32]fusedScore) Evidence {
	u := ix.Units[h.Unit]
	de := e.docs[u.Doc]
	fields := map[string][]string{}
	var matched []string
	for _, t := range q.terms {
		flags := ix.FieldFlags(analysis.StemKey(t), h.Unit)
		if flags == 0 {
			continue
		}
		matched = append(matched, t)
		for f := 0; f < index.NumFields; f++ {
			if flags&(1<<f) != 0 {
				fields[index.FieldNames[f]] = append(fields[index.FieldNames[f]], t)
			}
		}
	}
	ev := Evidence{
		DocSlug:      de.slug,
		Title:        de.title,
		Category:     de.category,
		Score:        ws.Share(h.Cov),
		RankScore:    h.Rank,
		ContentHash:  de.doc.ContentHash,
		ChunkIndex:   -1,
		SourcePath:   textsafe.Line(de.doc.SourcePath),
		MatchedTerms: matched,
		Source:       SourceKeyword,
		MatchExplain: MatchExplain{
			Fields:      fields,
			ExactPhrase: len(q.keys) > 0 && h.Title|q.intent == index.AllKeys(len(q.keys)),
			Synonyms:    q.synonyms,
			TypoFixes:   q.typos,
			Stemmed:     q.stemmed,
		},
	}
	if f, ok := fused[h.Unit]; ok {
		ev.Source = f.source()
		ev.FusedScore = f.fused
		ev.VectorScore = f.vector
	}
	if h.Bias != index.BiasNone {
		ev.MatchExplain.Biases = []string{"definitional ×" + strconv.FormatFloat(1+e.cfg.DefinitionalBias, 'g', -1, 64) + " (" + biasReasons[h.Bias] + ")"}
	}
	if ix.damp != nil && ix.damp[h.Unit] < 1 && !q.dated {
		ev.MatchExplain.Biases = append(ev.MatchExplain.Biases, "release log ×"+strconv.FormatFloat(releaseLogDamp, 'g', -1, 64))
	}
	if r := ix.Reader[h.Unit]; q.firstPerson && r > 0 {
		ev.MatchExplain.Biases = append(ev.MatchExplain.Biases, "reader ×"+strconv.FormatFloat(1+float64(r), 'f', 2, 64)+" (written to the asker)")
	}
	ev.HeaderPath = de.title
	if u.Chunk >= 0 {
		c := de.doc.Chunks[u.Chunk]
		ev.HeaderPath = textsafe.Line(c.HeaderPath)
		ev.ChunkIndex = c.Index
		ev.ChunkID = textsafe.Line(knowledge.ChunkID(de.doc.Slug, c.Index))
		ev.ChunkHash = c.Hash
		ev.HeadingOnly = c.HeadingOnly
		ev.BodyChars = c.BodyChars
		ev.NextChunkID = de.nextChunk[c.Index]
	}
	dt := e.displayOf(ix, h.Unit)
	ev.Content = dt.content
	ev.Snippet = snippetOf(dt.plain, matched, snippetWidth)
	return ev
}

// displayOf returns a unit's display text, converting it on first use.
func (e *Engine) displayOf(ix *unitIndex, id int32) *displayText {
	if dt := ix.display[id].Load(); dt != nil {
		return dt
	}
	u := ix.Units[id]
	d := e.docs[u.Doc].doc
	var dt *displayText
	if u.Chunk >= 0 {
		c := d.Chunks[u.Chunk]
		dt = &displayText{content: textsafe.String(c.Content), plain: chunkPlain(c)}
	} else {
		dt = &displayText{content: textsafe.String(d.Content), plain: docPlain(d)}
	}
	ix.display[id].Store(dt)
	return dt
}

// chunkPlain is a chunk's prose to show: the plain text ingestion rendered
// from its markdown, less the heading that opens it, which the header path
// shown above it already says; for a chunk stored before there was one,
// this package's own conversion.
func chunkPlain(c knowledge.Chunk) string {
	if c.Text == "" {
		return plainText(c.Content)
	}
	heading := c.HeaderPath
	if i := strings.LastIndex(heading, " > "); i >= 0 {
		heading = heading[i+len(" > "):]
	}
	if strings.ContainsRune(".!?:;…", lastRune(heading)) {
		if rest, ok := strings.CutPrefix(c.Text, heading+" "); ok {
			return rest
		}
		return strings.TrimPrefix(c.Text, heading)
	}
	if rest, ok := strings.CutPrefix(c.Text, heading+". "); ok {
		return rest
	}
	return strings.TrimPrefix(c.Text, heading+".")
}

// docPlain is a whole doc's prose to show: its chunks' in order.
func docPlain(d knowledge.Doc) string {
	parts := make([]string, 0, len(d.Chunks))
	for _, c := range d.Chunks {
		if c.Text == "" {
			return plainText(d.Content)
		}
		if p := chunkPlain(c); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// chunkEvidence describes a chunk reached without a query (lookup and
// follow-up).
func (e *Engine) chunkEvidence(doc int, c knowledge.Chunk) Evidence {
	de := e.docs[doc]
	return Evidence{
		DocSlug:      de.slug,
		Title:        de.title,
		Category:     de.category,
		Snippet:      snippetOf(chunkPlain(c), nil, snippetWidth),
		Content:      textsafe.String(c.Content),
		HeaderPath:   textsafe.Line(c.HeaderPath),
		ContentHash:  de.doc.ContentHash,
		ChunkIndex:   c.Index,
		ChunkID:      textsafe.Line(knowledge.ChunkID(de.doc.Slug, c.Index)),
		ChunkHash:    c.Hash,
		HeadingOnly:  c.HeadingOnly,
		BodyChars:    c.BodyChars,
		NextChunkID:  de.nextChunk[c.Index],
		SourcePath:   textsafe.Line(de.doc.SourcePath),
		MatchedTerms: []string{},
		Source:       SourceKeyword,
		MatchExplain: MatchExplain{Fields: map[string][]string{}},
	}
}

// nextChunks maps each chunk index of d to the id of the chunk a
// follow-up after it continues with (firstBodyChunk's choice), when there
// is one: worked out once per doc, since every piece of evidence says it.
func nextChunks(d knowledge.Doc) map[int]string {
	chunks := slices.Clone(d.Chunks)
	slices.SortStableFunc(chunks, func(a, b knowledge.Chunk) int { return a.Index - b.Index })
	next := make(map[int]string, len(chunks))
	id := ""
	for i := len(chunks) - 1; i >= 0; i-- {
		if id != "" {
			next[chunks[i].Index] = id
		}
		if answerable(chunks[i]) {
			id = textsafe.Line(chunks[i].ID())
		}
	}
	return next
}

// firstBodyChunk returns the first chunk after index after that has body
// text of its own (not heading-only, not just links) and whose id is not in
// shown.
func firstBodyChunk(d knowledge.Doc, after int, shown []string) (knowledge.Chunk, bool) {
	byIndex := func(a, b knowledge.Chunk) int { return a.Index - b.Index }
	chunks := d.Chunks // stores and ingestion keep them in order; sort a copy otherwise
	if !slices.IsSortedFunc(chunks, byIndex) {
		chunks = slices.Clone(chunks)
		slices.SortStableFunc(chunks, byIndex)
	}
	for _, c := range chunks {
		if c.Index <= after || !answerable(c) {
			continue
		}
		if slices.Contains(shown, c.ID()) {
			continue
		}
		return c, true
	}
	return knowledge.Chunk{}, false
}

func (e *Engine) lookup(slug string) Result {
	i, ok := e.bySlug[strings.TrimSpace(slug)]
	if !ok {
		res := e.noMatch(RuleUnknown)
		res.Notes = []string{fmt.Sprintf("no doc with slug %q", textsafe.Clip(slug, 80))}
		return res
	}
	c, ok := firstBodyChunk(e.docs[i].doc, -1, nil)
	if !ok {
		res := e.noMatch(RuleEndOfDoc)
		res.Notes = []string{fmt.Sprintf("doc %q has no chunk with body text", e.docs[i].slug)}
		return res
	}
	return e.chunkAnswer(i, c, RuleLookup)
}

func (e *Engine) continueFrom(chunkID string, shown []string) Result {
	slug, idx, ok := knowledge.ParseChunkID(chunkID)
	i, known := e.bySlug[slug]
	if !ok || !known {
		res := e.noMatch(RuleUnknown)
		res.Notes = []string{fmt.Sprintf("no chunk with id %q", textsafe.Clip(chunkID, 80))}
		return res
	}
	c, ok := firstBodyChunk(e.docs[i].doc, idx, shown)
	if !ok {
		res := e.noMatch(RuleEndOfDoc)
		res.Notes = []string{fmt.Sprintf("nothing more in %q after chunk %d", e.docs[i].slug, idx)}
		return res
	}
	return e.chunkAnswer(i, c, RuleFollowUp)
}

func (e *Engine) chunkAnswer(doc int, c knowledge.Chunk, rule string) Result {
	return Result{
		NormalizedTokens: []string{},
		Status:           StatusFound,
		Options:          []Option{},
		Results:          []Evidence{e.chunkEvidence(doc, c)},
		Confidence:       1,
		Rule:             rule,
		Metrics:          Metrics{Phase: e.cfg.Phase},
	}
}

// Search ranks chunks for text by rank score alone, without the per-doc cap
// or a decision: the evaluation harness compares ranking quality with
// reference engines through it. It falls back to whole docs when no chunk
// is indexed.
func (e *Engine) Search(text string, limit int) []Hit {
	return e.SearchQuery(Query{Text: text}, limit)
}

// SearchQuery is Search for a whole query: when q carries a vector of the
// engine's model (see VectorInfo), chunks are ranked by fused score, the
// vector side returning max(limit, TopK×3) chunks, and each Hit says its
// FusedScore and Source; otherwise it is Search exactly.
func (e *Engine) SearchQuery(q Query, limit int) []Hit {
	text, _ := truncateQuery(q.Text)
	nq := e.norm.normalize(text)
	nq.alpha = e.alphaOf(q)
	if len(q.Categories) > 0 {
		nq.allow = e.allowed(q.Categories)
	}
	ix := e.chunks
	if ix == nil {
		ix = e.wholeIndex()
	}
	if ix == nil || len(nq.terms) == 0 || limit <= 0 {
		return nil
	}
	sc := e.scoringFor(ix, nq)
	sr := ix.Search(nq.terms, nq.keys, limit, sc)
	ranked := sr.Ranked
	var r ranking
	if ix == e.chunks && len(q.Vector) > 0 {
		if vh, _ := e.vectorSearch(q, nq.alpha, nq.allow, max(limit, 3*e.cfg.TopK)); vh != nil {
			r.sections, r.covered = sr.Sections, sr.Covered
			ranked = e.fuseRanking(ix, nq, sc, sr, vh, &r)
			ranked = ranked[:min(limit, len(ranked))]
		}
	}
	ws := sc.Weights
	out := make([]Hit, len(ranked))
	for i, h := range ranked {
		u := ix.Units[h.Unit]
		d := &e.docs[u.Doc].doc
		out[i] = Hit{DocSlug: d.Slug, ChunkIndex: -1, RankScore: h.Rank, Score: ws.Share(h.Cov), Source: SourceKeyword}
		if f, ok := r.fused[h.Unit]; ok {
			out[i].FusedScore, out[i].Source = f.fused, f.source()
		}
		if u.Chunk >= 0 {
			c := &d.Chunks[u.Chunk]
			out[i].ChunkIndex = c.Index
			out[i].ChunkID = c.ID()
		}
	}
	return out
}
