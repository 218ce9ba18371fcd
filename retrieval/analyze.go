package retrieval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenize lower-cases s and splits it into words: runs of letters and
// digits. An apostrophe between letters is dropped rather than treated as a
// break, so "user's" and "don't" stay one word each instead of leaving
// stray "s" and "t" tokens behind. Words are substrings of the lower-cased
// text where possible: indexing 100k chunks tokenizes millions of words.
func tokenize(s string) []string { return appendTokens(nil, s) }

// Tokens is the engine's tokenizer, for other packages that split text
// into words the way retrieval does (lower case, apostrophes kept inside a
// word).
func Tokens(s string) []string { return tokenize(s) }

// appendTokens is tokenize appending to words.
func appendTokens(words []string, s string) []string {
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
// working, it's broken): they name no topic a doc could be about. "What
// happens when" frames a question as "how do I" does: rare in docs, the
// verb would otherwise carry most of the question's weight.
var stopwords = toSet(strings.Fields(`
a about above after again against am an and any anyone are aren arent as at
be because been before being below between both but by
can cannot cant could couldn couldnt
define describe did didn didnt do does doesn doesnt doing don dont during
each either else even ever every explain
few for from further
get gets getting got
had happen happens happened happening hadn hadnt has hasn hasnt have haven havent having he her here hers herself him himself his
how hows
i if im in into is isn isnt it its itself ive
just
let lets
may me mean meant might mine more most much must my myself
neither no nobody none nor not nothing
of often on once only or other others ought our ours ourselves own
please
quite
rather really
same says shall she should shouldn shouldnt so some somebody someone something somehow
such sure
tell than that thats the their theirs them themselves then there theres these they this
those though through thus to too
under until us
very
want wants was wasn wasnt way we were weren what whats when whens where wheres whether which while
who whom whos whose why will with within without won wont would wouldn wouldnt
yes yet you your youre yours yourself yourselves
thing things stuff anything everything
hello hi hey thanks thank help ok okay
work works working worked broken wrong
`))

func toSet(words []string) map[string]bool {
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// isStopword reports whether w carries no topic.
func isStopword(w string) bool { return stopwords[w] }

// IsStopword is isStopword for other packages that pick a text's topic
// words the way retrieval does; w is lower-case.
func IsStopword(w string) bool { return stopwords[w] }

// stemPlural reduces a plural to its singular with the three rules the
// product asks for (ies → y, es after a sibilant, s) and nothing more;
// words under four letters are left alone. Titles and feature names are
// stemmed like every other word: "Callouts" must meet "what is a callout".
func stemPlural(w string) string {
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

// Singular is the engine's plural stemmer, for other packages that match
// words the way retrieval does.
func Singular(w string) string { return stemPlural(w) }

// pointer reports whether w, after prev, points at what the text says
// next ("the following commands", "edit it as follows") rather than naming
// the verb: technical docs say "the following" hundreds of times, and a
// question about following someone must not match them.
func pointer(prev, w string) bool {
	return prev == "the" && w == "following" || prev == "as" && w == "follows"
}

// analyzer turns document text into index terms with exactly the rules the
// query side uses, so a query term and a document term meet whenever the
// words are the same modulo case, punctuation and plural.
type analyzer struct {
	known map[string]bool // words of known terms: no synonym rewrites them, typos are fixed to them
}

// terms returns the index terms of text in order, stopwords removed.
func (a *analyzer) terms(text string) []string {
	words := tokenize(text)
	out := words[:0]
	prev := ""
	for _, w := range words {
		if t := a.term(w); t != "" && !pointer(prev, w) {
			out = append(out, t)
		}
		prev = w
	}
	return out
}

// term maps one word to its index term, "" for a stopword.
func (a *analyzer) term(w string) string {
	if isStopword(w) {
		return ""
	}
	return stemPlural(w)
}

// termTable numbers the index terms while an index is built and memoizes
// the word → term mapping: a corpus repeats a small vocabulary millions of
// times, and integers are cheaper to count than strings. Not safe for
// concurrent use; queries do not use it.
type termTable struct {
	an    *analyzer
	words map[string]int32 // word → term id, -1 for a stopword
	ids   map[string]int32 // term → id
	names []string         // id → term
	buf   []string
}

func newTermTable(an *analyzer) *termTable {
	return &termTable{an: an, words: map[string]int32{}, ids: map[string]int32{}}
}

// appendIDs appends the term ids of text to dst.
func (c *termTable) appendIDs(dst []int32, text string) []int32 {
	c.buf = appendTokens(c.buf[:0], text)
	for i, w := range c.buf {
		if i > 0 && pointer(c.buf[i-1], w) {
			continue
		}
		id, ok := c.words[w]
		if !ok {
			// Clone: w points into the lower-cased text, which the
			// index must not keep alive.
			w = strings.Clone(w)
			id = -1
			if t := c.an.term(w); t != "" {
				id, ok = c.ids[t]
				if !ok {
					t = strings.Clone(t)
					id = int32(len(c.names))
					c.ids[t] = id
					c.names = append(c.names, t)
				}
			}
			c.words[w] = id
		}
		if id >= 0 {
			dst = append(dst, id)
		}
	}
	return dst
}
