package extractive

import (
	"github.com/docent-sh/docent/retrieval/analysis"

	"regexp"
	"slices"
	"strings"
)

// maxSubjectWords is the longest term a "what is X" question can ask
// about.
const maxSubjectWords = 6

// questionKind decides which sentences answer a question best.
type questionKind int

const (
	askOther       questionKind = iota
	askExplanation              // "what is X", "explain X": the sentence that defines X
	askHowTo                    // "how do I rename a workspace": the steps
)

// intent is what the extractive answer needs to know about a question.
type intent struct {
	kind    questionKind
	subject []string        // explanation: the normalized words of X, in order
	action  string          // the base form of the first action word asked about, if any
	terms   map[string]bool // the question's normalized content words
}

var (
	// howToAsk finds a request for steps anywhere in the question, so
	// "explain how to archive" and "what is the way to pin" are how-to.
	howToAsk = regexp.MustCompile(`\bhow\s+(?:do|can|could|would|should|to|does|did|i)\b|^(?:where|when)\s+(?:do|can|should)\s+i\b|^can\s+i\b|\b(?:is\s+it\s+possible|i\s+want|i\s+need|i'd\s+like|i\s+would\s+like|help\s+me|steps?|way)\s+to\b`)
	// explainAsk is a request for what something is; group 1 is the way it
	// was asked and group 2 what it asks about.
	explainAsk = regexp.MustCompile(`^(?:(?:please|so|ok|okay|hi|hey)[,\s]+)*(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?` +
		`(explain|describe|define|tell\s+me\s+about|tell\s+me\s+more\s+about|what\s+is\s+meant\s+by|what\s+is\s+the\s+meaning\s+of|` +
		`(?:the\s+)?meaning\s+of|(?:the\s+)?definition\s+of|what\s+is|what\s+are|what\s+does|what\s+do)\s+(.+)$`)
	// askedWhat and trailingVerb undo "explain what X is" and "what does X mean".
	askedWhat    = regexp.MustCompile(`^what\s+`)
	trailingVerb = regexp.MustCompile(`\s+(?:is|are|means|mean|does|do)$`)
	whWord       = regexp.MustCompile(`^(?:how|why|when|where|which|who|whom|whose|whether|if)\b`)
	contraction  = regexp.MustCompile(`\bwhat(?:'s|s)\b`)
)

// subjectEnds are the words after which a term asked about stops: in
// "what is a workspace in Notewell", X is "workspace".
var subjectEnds = map[string]bool{
	"in": true, "on": true, "for": true, "of": true, "within": true, "inside": true, "at": true,
	"from": true, "with": true, "to": true, "and": true, "or": true, "vs": true, "versus": true, "between": true,
}

func parseIntent(question string) intent {
	in := intent{terms: termSet(question)}
	q := strings.ToLower(strings.Join(strings.Fields(question), " "))
	q = strings.ReplaceAll(q, "’", "'")
	q = strings.TrimRight(q, "?!.;: ")
	q = contraction.ReplaceAllString(q, "what is")
	if !howToAsk.MatchString(q) {
		in.subject = explainedSubject(q)
	}
	// The action is the first action word outside the term asked about:
	// "what are quick links" asks for no linking.
	for _, w := range wordsOf(question) {
		if base, ok := analysis.ActionBase(w); ok && !slices.Contains(in.subject, base) {
			in.action = base
			break
		}
	}
	switch {
	case howToAsk.MatchString(q):
		in.kind = askHowTo
		if in.action == "" {
			in.action = askedVerb(q)
		}
		return in
	case len(in.subject) > 0:
		in.kind = askExplanation
		return in
	}
	// A bare imperative, "delete a workspace", asks for the steps too.
	if words := wordsOf(q); len(words) > 0 {
		if _, ok := analysis.ActionBase(words[0]); ok {
			in.kind = askHowTo
		}
	}
	return in
}

// askedVerb is the verb of a request for steps that names no action word
// of the short list analysis knows: the word right after "how do I",
// "how to", "can I", "I want to" and the like is what the asker wants to
// do ("how do I connect google calendar"), whatever verb it is, as
// English grammar puts it there. "" when the question is not asked so,
// or that word is a function word or a light verb.
func askedVerb(q string) string {
	loc := askedVerbAt.FindStringIndex(q)
	if loc == nil {
		return ""
	}
	words := wordsOf(q[loc[1]:])
	if len(words) == 0 || stopwords[words[0]] || lightVerbs[words[0]] {
		return ""
	}
	return normWord(words[0])
}

// askedVerbAt ends where a first- or second-person request for steps puts
// its verb. "how does billing work" asks how something works, not how to
// do it, and names no verb there.
var askedVerbAt = regexp.MustCompile(`\bhow\s+(?:do|can|could|should|would)\s+(?:i|we|you)\s+|\bhow\s+to\s+|^(?:can|could)\s+(?:i|we)\s+|\b(?:i|we)\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+|\b(?:is\s+it\s+possible|way|steps?)\s+to\s+`)

// lightVerbs say little of what is done ("set up a domain", "get a
// refund", "make a backup"): in too many sentences that are not steps to
// pick the step by, as analysis leaves "set" and "use" out of its action
// words.
var lightVerbs = wordSet(`set use get make have go put take keep let see give`)

// explainedSubject returns the normalized words of X when q asks what X
// is, or nil.
func explainedSubject(q string) []string {
	m := explainAsk.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	how, rest := strings.Join(strings.Fields(m[1]), " "), m[2]
	switch how {
	case "what does", "what do":
		// "what does X mean" and "what does X do" ask what X is;
		// "what does archiving keep" asks something else.
		if !strings.HasSuffix(rest, " mean") && !strings.HasSuffix(rest, " do") {
			return nil
		}
		rest = trailingVerb.ReplaceAllString(rest, "")
	default:
		if whWord.MatchString(rest) {
			return nil
		}
		if askedWhat.MatchString(rest) {
			rest = trailingVerb.ReplaceAllString(askedWhat.ReplaceAllString(rest, ""), "")
		}
	}
	var subject []string
	for i, w := range wordsOf(rest) {
		if articles[w] && len(subject) == 0 {
			continue
		}
		if subjectEnds[w] && i > 0 && len(subject) > 0 {
			break
		}
		subject = append(subject, normWord(w))
	}
	if len(subject) > maxSubjectWords {
		// A term is a few words; more is a question about something else.
		return nil
	}
	return subject
}
