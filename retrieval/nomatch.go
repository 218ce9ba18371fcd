package retrieval

import (
	"strings"
	"unicode"

	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/retrieval/index"
	"github.com/docent-sh/docent/textsafe"
)

// RuleSmallTalk is the rule of a greeting, a thanks or a goodbye: the
// question is conversation, not a topic, so it gets a one-line reply and
// no retrieval.
const RuleSmallTalk = "small talk"

// Talk is a kind of conversation.
type Talk string

const (
	TalkGreeting Talk = "greeting"
	TalkThanks   Talk = "thanks"
	TalkGoodbye  Talk = "goodbye"
	TalkAck      Talk = "ack" // an acknowledgement: "ok great"
)

// The words of conversation, in general English: greetings, thanks,
// goodbyes and acknowledgements. A question made of these alone (with
// function words such as "you", "so", "there") is small talk. None of them
// may be a product's word: the list is the same for every doc set.
var (
	greetingWords = analysis.WordSet(`hello hi hey hiya howdy greetings yo morning afternoon evening`)
	thanksWords   = analysis.WordSet(`thanks thank thx ty cheers appreciate appreciated grateful`)
	goodbyeWords  = analysis.WordSet(`bye goodbye later`)
	// ackWords acknowledge, or fill out a greeting or a thanks ("good
	// morning", "thanks a lot", "hi all", "that's all I needed", "that
	// helped", "makes sense").
	ackWords = analysis.WordSet(`ok okay good great cool nice perfect awesome excellent fine alright sorry
		lot all everyone everybody folks see now needed wanted helped helpful worked makes sense fixed solved sorted`)
)

// smallTalk is the kind of conversation a question is when it is only
// conversation, and false for any other question.
func smallTalk(text string) (Talk, bool) {
	var greeting, thanks, goodbye, ack bool
	for _, w := range analysis.Tokens(text) {
		switch {
		case thanksWords[w]:
			thanks = true
		case goodbyeWords[w]:
			goodbye = true
		case greetingWords[w]:
			greeting = true
		case ackWords[w]:
			ack = true
		case !analysis.IsStopword(w):
			return "", false // a word that may name a topic
		}
	}
	switch {
	case thanks:
		return TalkThanks, true
	case goodbye:
		return TalkGoodbye, true
	case greeting:
		return TalkGreeting, true
	case ack:
		return TalkAck, true
	}
	return "", false
}

// informativeWords are the words of text that may name a topic, in their
// order and spelling, each once: not function words, not the intent words
// of a definitional question.
func informativeWords(text string) []string {
	var out []string
	seen := map[string]bool{}
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’' && r != '-'
	})
	for _, f := range fields {
		f = textsafe.Line(strings.Trim(f, "'’-"))
		informative := false
		for _, w := range analysis.Tokens(f) {
			if !analysis.IsStopword(w) && !intentWords[w] {
				informative = true
			}
		}
		if key := strings.ToLower(f); informative && !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	return out
}

// maxNearDocs is how many docs a no-match reply offers at most.
const maxNearDocs = 3

// nearDocs are the best-ranked docs whose title shares a word with the
// question (any variant of it), for a no-match reply to offer: a doc
// that only mentions the words somewhere is no lead worth a pill.
func (e *Engine) nearDocs(ix *unitIndex, docs []index.Hit, q normalizedQuery) []Option {
	var out []Option
	for _, h := range docs {
		if len(out) == maxNearDocs {
			break
		}
		if h.Title&^q.intent != 0 {
			out = append(out, optionFor(e.docs[ix.Units[h.Unit].Doc]))
		}
	}
	return out
}
