// Package analysis is how docent reads words, the same for documents and
// questions: the tokenizer, stopwords, plural and Porter stems, synonyms,
// typo fixes, the words that shape a question (definitional, action,
// follow-up, several intents) and the kinds of value a question asks for
// and a passage gives. The retrieval engine indexes and ranks with
// it, and the offline responder picks sentences with it, so both agree on
// what a question's words are. Pure: no I/O, no state beyond its tables.
package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens lower-cases s and splits it into words: runs of letters and
// digits. An apostrophe between letters is dropped rather than treated as a
// break, so "user's" and "don't" stay one word each instead of leaving
// stray "s" and "t" tokens behind. Words are substrings of the lower-cased
// text where possible: indexing 100k chunks tokenizes millions of words.
func Tokens(s string) []string { return AppendTokens(nil, s) }

// AppendTokens is Tokens appending to words.
func AppendTokens(words []string, s string) []string {
	lower := strings.ToLower(s)
	start, apostrophe := -1, false
	flush := func(end int) {
		if start >= 0 {
			w := lower[start:end]
			if apostrophe {
				w = strings.NewReplacer("'", "", "’", "").Replace(w)
			}
			words = append(words, w)
		}
		start, apostrophe = -1, false
	}
	for i := 0; i < len(lower); {
		r, size := rune(lower[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(lower[i:])
		}
		switch {
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'),
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if start < 0 {
				start = i
			}
		case (r == '\'' || r == '’') && start >= 0 && letterAt(lower, i+size):
			apostrophe = true
		default:
			flush(i)
		}
		i += size
	}
	flush(len(lower))
	return words
}

func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

// stopwords are function words and fillers that carry no topic. The list is
// deliberately free of words that name things in a product (open, new, up,
// back, next, home, list, …): removing a domain word would make a precise
// question vague. The intent words of definitional questions (explain,
// define, tell) are here too: they say how to answer, not what about. So
// are the words of conversation (hello, thanks, help: "can you help me"
// asks for nothing in particular) and of a vague complaint (it's not
// working, it's broken): they name no topic a doc could be about. So is
// the verb that reports what someone said, in every form ("customers say
// they never get our replies", "the carrier says", "they said"): the
// report is the topic, not the saying; and the verb that frames a
// question inside another ("the hotel's IT team wants to know which ports
// to open"): the ports are the topic. "Known" stays: known issues are a
// page of their own. "What
// happens when" frames a question as "how do I" does: rare in docs, the
// verb would otherwise carry most of the question's weight. So are the
// Latin abbreviations of running text (etc, e.g., i.e., vs): they join a
// question's parts and name nothing. A verb here is here in each of its
// forms: "have them explained on hover" asks no more about explaining than
// "explain" does. So are the vague quantities ("a bunch of plugins", "it
// only ships a couple"), but not "lot", a product's noun as often (a
// parking lot, an auction lot). So are "give", "put" and "take", light
// verbs whose object says what is asked ("give a colleague permission to
// deploy", "put our logo on the tracking page", "take a backup"), as "get"
// is. So is "able", whose "be able
// to" says "can" ("a volunteer should only be able to check people in");
// "unable" stays, an error's word ("unable to connect"). So do the
// determiners of "a specific release", "a certain domain", "a particular
// user": docs rarely write them, so they would weigh most of the question
// they only qualify.
var stopwords = toSet(strings.Fields(`
a about above after again against am an and any anyone are aren arent as at
be because been before being below between both but by
can cannot cant could couldn couldnt able
define describe describes described did didn didnt do does doesn doesnt doing don dont during
each either else even ever every explain explains explained
few for from further bunch couple
get gets getting got give gives gave given giving
put puts putting take takes took taking taken
had happen happens happened happening hadn hadnt has hasn hasnt have haven havent having he her here hers herself him himself his
how hows
i if im in into is isn isnt it its itself ive
just know knows knew knowing
let lets
may me mean means meant might mine more most much must my myself
neither no nobody none nor not nothing
of often on once only or other others ought our ours ourselves own
please
quite
rather really
same say said says shall she should shouldn shouldnt so some somebody someone something somehow somewhere anywhere everywhere nowhere
such sure specific certain particular already still anymore also actually
tell tells told telling than that thats the their theirs them themselves then there theres these they this
those though through thus to too
under until us
very
want wants wanted was wasn wasnt way we were weren what whats when whens where wheres whether which while
who whom whos whose why will with within without won wont would wouldn wouldnt
yes yet you your youre yours yourself yourselves
thing things stuff anything everything
hello hi hey thanks thank help helps helped helping ok okay
work works working worked broken wrong
etc eg ie vs versus
`))

// Prefixes are the English prefixes that make a word of another
// ("co" + "worker", "pre" + "build", "un" + "archive"), longest first
// where one begins another.
var Prefixes = strings.Fields(`multi micro super inter anti semi self under over post pre non sub auto dis mis out un re co de`)

// WordSet is the set of the whitespace-separated words of s: the form every
// word list of this package and of the engine is written in.
func WordSet(s string) map[string]bool { return toSet(strings.Fields(s)) }

func toSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// IsStopword reports whether w (lower-case) carries no topic. A single
// Latin letter never does: it is the piece of an abbreviation ("e.g."
// gives e and g, "i.e." i and e) or a stray key, and as a word few docs
// hold it would weigh the most in a question and sink its coverage.
func IsStopword(w string) bool {
	return len(w) == 1 && 'a' <= w[0] && w[0] <= 'z' || stopwords[w]
}

// Singular reduces a plural to its singular with the three rules the
// product asks for (ies → y, es after a sibilant, s) and nothing more;
// words under four letters are left alone. Titles and feature names are
// stemmed like every other word: "Callouts" must meet "what is a callout".
func Singular(w string) string {
	if utf8.RuneCountInString(w) < 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"),
		strings.HasSuffix(w, "zes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"),
		strings.HasSuffix(w, "is"), strings.HasSuffix(w, "'s"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// Pointer reports whether w, after prev, points at what the text says
// next ("the following commands", "edit it as follows") rather than naming
// the verb: technical docs say "the following" hundreds of times, and a
// question about following someone must not match them.
func Pointer(prev, w string) bool {
	return prev == "the" && w == "following" || prev == "as" && w == "follows"
}

// Analyzer turns document text into index terms with exactly the rules the
// query side uses, so a query term and a document term meet whenever the
// words are the same modulo case, punctuation and plural.
type Analyzer struct {
	Known map[string]bool // words of known terms: no synonym rewrites them, typos are fixed to them
}

// Terms returns the index terms of text in order, stopwords removed.
func (a *Analyzer) Terms(text string) []string {
	words := Tokens(text)
	out := words[:0]
	prev := ""
	for _, w := range words {
		if t := a.Term(w); t != "" && !Pointer(prev, w) {
			out = append(out, t)
		}
		prev = w
	}
	return out
}

// Term maps one word to its index term, "" for a stopword.
func (a *Analyzer) Term(w string) string {
	if IsStopword(w) {
		return ""
	}
	return Singular(w)
}
