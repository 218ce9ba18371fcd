package retrieval

// Decision rule names, as Result.Rule reports them.
const (
	RuleNoTerms           = "no query terms"
	RuleTopZero           = "nothing retrieved"
	RuleCoverage          = "coverage<MIN_COVERAGE"
	RuleSecondMeaning     = "second meaning"
	RuleNotNamed          = "not named in title or headings"
	RuleMentioned         = "only mentioned, in part"
	RuleContender         = "a close doc names it as well"
	RuleFound             = "found"
	RuleStandsOut         = "covered, no close doc"
	RuleFarAhead          = "covered in part, far ahead"
	RuleTopicFarAhead     = "named in part, far ahead"
	RuleNamedMore         = "found, from a close doc that names it more"
	RuleUnknownIdentifier = "an identifier the docs never write"
	RuleOthersThing       = "someone's own thing the docs never name"
	RuleMulti             = "multi-intent"
	RuleQuoted            = "quoted message"
	RuleLookup            = "lookup"
	RuleFollowUp          = "follow-up"
	RuleEndOfDoc          = "no further chunk"
	RuleUnknown           = "unknown resource"
	RuleDisabled          = "retrieval disabled"
	RuleGlossary          = "glossary"
	RuleGeneric           = "generic"
	RuleNoFollowUpOf      = "nothing to continue"
	// RuleChosen is no rule of the policy: the user chose the evidence
	// the answer is written from (assistant.Chosen).
	RuleChosen = "chosen evidence"
)

// candidate is what the decision policy knows about one doc: what it
// covers, what its best-named section names and the rank of its
// best-ranked unit. Every measure is a share or a ratio,
// so the policy means the same on any corpus and any chunk length.
type candidate struct {
	doc      int32   // index into Engine.docs
	rank     float64 // rank score: only ever compared as a ratio
	coverage float64 // share of the question's informative weight the doc covers, in any of its units
	together float64 // … its best-ranked unit covers: the words in one place
	naming   float64 // … carried by the doc's title, keywords or headings
	named    uint64  // the question's keys those carry (bit i: key i)
	// written: the docs write every informative word of the question,
	// and its best unit every name the question writes (capitalized in a
	// sentence: "Twitter", "VS Code"). A question with a word no doc
	// writes brings a thing the docs do not know of; in a question longer
	// than a topic (more than index.TopicKeys informative words) such a
	// word is likelier the asker's circumstance, and only the names count.
	written bool
}

// decision is the policy's verdict. rival indexes the candidates: the doc
// offered as the second meaning, -1 when there is none.
type decision struct {
	status     Status
	rule       string
	confidence float64 // relative margin of the top doc over the next
	rival      int
}

// thresholds are the policy's configurable limits, both shares.
type thresholds struct {
	minCoverage float64
	minMargin   float64
}

// inPart is half of MIN_COVERAGE: how much of a question a doc that
// answers it in part covers and names (see partial), and how much of a
// longer question a doc must name to be one meaning of it (see
// secondMeaning).
func (th thresholds) inPart() float64 { return th.minCoverage / 2 }

// bareTopicKeys is the most informative words a bare topic has: "tokens",
// "custom emoji". A bare topic says what, not what about it, so every doc
// that is about it (names its words as strongly) is a meaning the user may
// have in mind, however the ranking orders them; a longer question says
// more, and only a close rival is a real alternative. Part of the
// definition, not a knob: it counts words, the same on any corpus.
const bareTopicKeys = 2

// form is what shape of question the policy decides for.
type form uint8

const (
	// formQuestion is a longer question: it says what it asks about its
	// topic, and only a close doc is a real alternative.
	formQuestion form = iota
	// formTopic is a bare topic (see bareTopicKeys).
	formTopic
	// formName is a bare topic that is an exact name, an identifier
	// ("AUTHORIZED_FETCH", "mkdocs.yml") or a name in camel case
	// ("PgBouncer"): it names one thing, and a doc that mentions it
	// refers to that thing, whatever else it is about.
	formName
)

// bareRivalShare is how close to the top doc's rank, as a share of it,
// another doc that covers a bare topic must come to be a second meaning
// of it when its title and headings do not name it: "password" is the
// account security page's, and a status page guide that says as much
// about password-protected pages (half the top's rank or more) is another
// reading of it; one that mentions passwords in passing ranks far lower.
// Part of the definition, not a knob: a ratio of ranks, the same on any
// corpus.
const bareRivalShare = 0.5

// farAheadShare is how far below the top doc, as a share of its rank,
// the next doc must be for the top to answer a longer question its
// headings do not name and its best unit covers only in part (see
// decide): then no other page comes near saying it, and the question's
// remaining words are the asker's circumstances. For a bare topic its
// headings name only in part, the share is of the rank that would make
// the next doc a second meaning (bareRivalShare of the top's): far from
// being one. Part of the definition, not a knob: a ratio of ranks, the
// same on any corpus.
const farAheadShare = 0.5

// namedMoreFactor is how many times as strongly a close doc must name the
// question as the top doc to answer in its place (see namedMore). Part of
// the definition, not a knob: a ratio of two naming shares.
const namedMoreFactor = 2

// namedMore returns the candidate a question is answered from: the top,
// unless a doc ranked within MIN_MARGIN of it names the question at least
// namedMoreFactor times as strongly in its title or headings and covers
// at least cover of it ("instal ferrydock on ubuntu": Installation, named
// by two of its three words, a hair below Upgrading Ferrydock, named by
// the product's name alone). Ranks that close do not tell the docs
// apart; what their headings say does. Of several, the one naming most.
// It is asked once the policy has decided (see answer): a doc chosen so
// answers a question the rules found, or one a close doc naming it made
// weak, never one they found no answer to.
func namedMore(cands []candidate, th thresholds, cover float64) int {
	best := 0
	for i := 1; i < len(cands) && within(cands[i].rank, cands[0].rank, th.minMargin); i++ {
		c := cands[i]
		if c.naming >= namedMoreFactor*cands[0].naming-scoreEpsilon && c.naming > cands[0].naming &&
			c.coverage >= cover-scoreEpsilon && c.naming > cands[best].naming {
			best = i
		}
	}
	return best
}

// scoreEpsilon absorbs floating-point noise in threshold comparisons.
const scoreEpsilon = 1e-9

// decide applies the policy to the candidate docs in rank order. f says
// whether the question is a bare topic (see bareTopicKeys) or a name.
//
// Rules, in order:
//   - no candidate → no_match;
//   - the top doc covers less than MIN_COVERAGE of the question's
//     informative weight, in all its units together → no_match;
//   - another doc is a second meaning: it covers the question and names it
//     in its title or headings about as well as the top, by the words the
//     top names (any words, for a bare topic), and ranks within MIN_MARGIN
//     of it (any rank, for a bare topic) → ambiguous; of a longer
//     question, only when the top names half of MIN_COVERAGE of it. For a
//     bare topic that is no name, so is a doc whose text covers it, whose
//     title and headings name none of it, and whose rank is at least
//     bareRivalShare of the top's (a doc naming part of it is weighed by
//     its naming, as above: "Workspace" is no second meaning of "create
//     workspace" beside "Workspace actions"). Checked before the weak
//     rules: a close call between two docs is a question to ask;
//   - the top doc does not name the question (no word of it in its title,
//     keywords or headings; for a bare topic, less than MIN_COVERAGE of it)
//     → weak when its best unit covers every informative word ("are you
//     asking about X?"), no_match when it only mentions some of them (words
//     scattered over a page that does not name them are no answer). Except:
//     a longer question whose every informative word the top's best unit covers,
//     with no other doc within MIN_MARGIN of it, is found: its headings
//     put the answer in other words ("Maintenance windows" for "silence
//     alerts during a planned deployment"), and no other doc comes close
//     to saying it. A bare topic names only what it is about, and a doc
//     that does not name it is not about it. A longer question is found
//     too when the docs write all its words (beyond index.TopicKeys
//     informative words, its names: see candidate.written), the top's
//     best unit covers MIN_COVERAGE of it and writes every name it
//     capitalizes, and the next doc ranks at most farAheadShare of the
//     top ("the confirmation email never arrived": the sign-up page's
//     text says what to do, and no other page comes near). A bare topic
//     is found too when the top's best unit covers all of it, its
//     headings name part of it, and the next doc ranks at most
//     farAheadShare of what would make it a second meaning
//     (bareRivalShare of the top): "seat map" on Reserved seating,
//     whose section on the map names the seats, with no other page near;
//     a rival half as strong as a second meaning is a reading the asker
//     may have in mind, and the weak rule asks;
//   - a doc within MIN_MARGIN names a bare topic as strongly, or names
//     a longer question more strongly than the top though it covers less
//     of it by more than MIN_MARGIN: the top is not clearly the answer →
//     weak. A close doc that covers less and names no more is a worse
//     answer on every count, no doubt about the top ("put our status page
//     on status.example.com": Create a status page names the status page
//     as Custom domains does, and says nothing of the domain);
//   - else found.
func decide(cands []candidate, f form, th thresholds) decision {
	d := decision{rival: -1}
	bare := f != formQuestion
	if len(cands) == 0 || !(cands[0].rank > 0) {
		d.status, d.rule = StatusNoMatch, RuleTopZero
		return d
	}
	top := cands[0]
	d.confidence = 1
	if len(cands) > 1 {
		d.confidence = margin(top.rank, cands[1].rank)
	}
	contender := false // a close doc that names the question as strongly
	for i := 1; i < len(cands); i++ {
		near := within(cands[i].rank, top.rank, th.minMargin)
		if !bare && !near {
			break // candidates are in rank order: none after this is close
		}
		if top.secondMeaning(cands[i], f, th) {
			d.rival = i
			break
		}
		if bare {
			contender = contender || near && cands[i].naming > 0 && within(cands[i].naming, top.naming, th.minMargin)
		} else {
			// A close doc naming a longer question as strongly and
			// covering as much is a second meaning (above); one covering
			// less by more than MIN_MARGIN is a contender only when it
			// names more: else the top is the better answer on every
			// count.
			contender = contender || near && cands[i].naming > top.naming+scoreEpsilon &&
				!within(cands[i].coverage, top.coverage, th.minMargin)
		}
	}
	named := top.naming > 0
	if bare {
		named = top.naming >= th.minCoverage-scoreEpsilon
	}
	switch {
	case top.coverage < th.minCoverage-scoreEpsilon:
		d.status, d.rule = StatusNoMatch, RuleCoverage
	case d.rival >= 0:
		d.status, d.rule = StatusAmbiguous, RuleSecondMeaning
	case !bare && !named && top.together >= 1-scoreEpsilon && len(cands) > 1 && !within(cands[1].rank, top.rank, th.minMargin):
		d.status, d.rule = StatusFound, RuleStandsOut
	case bare && !named && top.naming > 0 && top.together >= 1-scoreEpsilon &&
		(len(cands) == 1 || cands[1].rank <= farAheadShare*bareRivalShare*top.rank):
		d.status, d.rule = StatusFound, RuleTopicFarAhead
	case !named && top.together >= 1-scoreEpsilon:
		d.status, d.rule = StatusWeak, RuleNotNamed
	case !bare && !named && top.written && top.together >= th.minCoverage-scoreEpsilon &&
		(len(cands) == 1 || cands[1].rank <= farAheadShare*top.rank):
		d.status, d.rule = StatusFound, RuleFarAhead
	case !named:
		d.status, d.rule = StatusNoMatch, RuleMentioned
	case contender:
		d.status, d.rule = StatusWeak, RuleContender
	default:
		d.status, d.rule = StatusFound, RuleFound
	}
	return d
}

// margin is how far next falls below top, relatively, in [0, 1]. A ratio
// that is not a number (both infinite, or a NaN score) gives no margin:
// the builtin min and max would pass the NaN on.
func margin(top, next float64) float64 {
	m := 1 - next/top
	switch {
	case !(m >= 0):
		return 0
	case m > 1:
		return 1
	}
	return m
}

// within reports whether v is within margin of ref, relatively.
func within(v, ref, margin float64) bool {
	return v >= (1-margin)*ref-scoreEpsilon
}

// secondMeaning reports whether other is a real alternative to c: it
// covers the question about as well and names the question's words in its
// title or headings about as strongly. A doc that only mentions the words
// is no second meaning, nor is one the question's other words rule out;
// nor is anything a second meaning of a doc that names none of the
// question itself: that doc is no meaning of it, and the not-named rules
// decide. Of a longer question, a meaning is named by at least half of
// MIN_COVERAGE of it (as a part answered in part is: see partial): two
// docs whose headings share a minor word of it ("fee" in "whats
// ticketlys service fee per ticket", 0.07 of it) are not two readings of
// the question, which their text covers alike; the rules after decide it.
func (c candidate) secondMeaning(other candidate, f form, th thresholds) bool {
	if c.naming > 0 && f == formTopic && other.naming == 0 && other.coverage >= c.coverage-scoreEpsilon && within(other.rank, c.rank, 1-bareRivalShare) {
		return true
	}
	bare := f != formQuestion
	if !bare && c.naming < th.inPart()-scoreEpsilon {
		return false
	}
	return c.sameWords(other, bare) && c.naming > 0 && other.naming > 0 &&
		within(other.coverage, c.coverage, th.minMargin) &&
		within(other.naming, c.naming, th.minMargin)
}

// sameWords reports whether other names the question by the words c's
// title or headings name (and maybe more). A bare topic has one or two
// words, and any doc naming it is a reading of it; a longer question can
// be named in part by one doc and in another part by another: those are
// partial matches, which coverage and rank already weigh, not two
// readings of the same words.
func (c candidate) sameWords(other candidate, bare bool) bool {
	return bare || other.named&c.named == c.named
}

// strong reports whether a doc is good enough to stand as one part of a
// multi-intent question: covered and named in its title or headings,
// without the margin (a part may well name two related docs). A part
// that is a topic (short: see topicPart) needs coverage alone: the other
// part already shows that two things are asked, and a few words a doc's
// text carries are that doc's answer to them though its headings put
// them otherwise ("sell a 10-class pass": Packages and memberships).
func (c candidate) strong(th thresholds, topic bool) bool {
	return c.coverage >= th.minCoverage-scoreEpsilon && (c.naming > 0 || topic)
}

// partial reports whether a doc answers a part of a two-part question in
// part, when the other part is strong: its title or headings name at
// least half of --min-coverage of the part, and it covers as much. A
// second part often says its subject in the asker's words, not the docs'
// ("invite the rest of the team": Invite new users), and the strong part
// already shows that two things are asked. Naming, not coverage alone: a
// part that tells circumstances ("now none of the reports run") is
// covered here and there by pages that are not about it.
func (c candidate) partial(th thresholds) bool {
	return c.coverage >= th.inPart()-scoreEpsilon && c.naming >= th.inPart()-scoreEpsilon
}
