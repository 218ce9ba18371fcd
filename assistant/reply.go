package assistant

import (
	"fmt"
	"strings"

	"github.com/docent-sh/docent/retrieval"
)

// The replies docent gives in its own words, word for word.
const (
	// ReplyNoMatch answers a question with no topic word in it ("how do I
	// do it"); one whose words the docs do not cover is told so by name.
	ReplyNoMatch  = "Which part should I explain?"
	ReplyMultiEnd = "Which one should I go deeper on?"

	ReplyGreeting = "Hello! What would you like to know about these docs?"
	ReplyThanks   = "You're welcome. Ask me anything else about these docs."
	ReplyGoodbye  = "Goodbye! Come back with any question about these docs."
	ReplyAck      = "Glad to help. Ask me anything else about these docs."

	ReplyNotesUnavailable = "I couldn't access your notes right now. Want to try again or search the docs?"
	ReplyNotesList        = "Here are the latest notes you can see. Pick one, or ask about something in them."
	ReplyNoNotes          = "There are no notes you can see in this workspace yet. Save one with /note, or with docent notes add."
)

// maxNotFoundWords is how many of the question's words the no-match reply
// repeats: a pasted ticket would otherwise be quoted whole.
const maxNotFoundWords = 8

// Reply is docent's own reply to a result the writer does not answer (see
// NeedsModel): the clarifying question of a weak or ambiguous result, the
// no-match reply, or the answer to small talk. Found and multi-intent
// results are the writer's to answer (Answer), so they have none here.
func Reply(res retrieval.Result) string {
	if res.Rule == RuleUnanswerable {
		return unanswerableReply(res.Options)
	}
	switch res.Status {
	case retrieval.StatusFound, retrieval.StatusMulti:
		return ""
	case retrieval.StatusWeak:
		if len(res.Options) > 0 {
			return fmt.Sprintf("I'm not sure which feature you mean. Are you asking about %s? If not, tell me the feature name.", res.Options[0].Label)
		}
	case retrieval.StatusAmbiguous:
		if res.Rule == retrieval.RuleCrossCorpus && len(res.Options) > 1 {
			docs := strings.TrimPrefix(res.Options[0].Label, "Docs: ")
			notes := strings.TrimPrefix(res.Options[1].Label, "Notes: ")
			return fmt.Sprintf("Both the docs (%s) and your team's notes (%s) cover this. Which should I answer from?", docs, notes)
		}
		if len(res.Options) > 1 {
			top, other := res.Options[0], res.Options[1]
			return fmt.Sprintf("Do you mean %s (%s) or %s (%s)?", top.Label, top.Category, other.Label, other.Category)
		}
	case retrieval.StatusNoMatch:
		switch res.Rule {
		case retrieval.RuleSmallTalk:
			return talkReply(res.Talk)
		case RuleNotesUnavailable:
			return ReplyNotesUnavailable
		case RuleNotesList:
			if len(res.Options) == 0 {
				return ReplyNoNotes
			}
			return ReplyNotesList
		}
		return notFoundReply(res.Topic)
	}
	return ReplyNoMatch
}

func talkReply(t retrieval.Talk) string {
	switch t {
	case retrieval.TalkThanks:
		return ReplyThanks
	case retrieval.TalkGoodbye:
		return ReplyGoodbye
	case retrieval.TalkGreeting:
		return ReplyGreeting
	}
	return ReplyAck
}

// notFoundReply says plainly that the docs do not cover the question,
// naming its informative words as the user wrote them; ReplyNoMatch when
// it has none.
func notFoundReply(topic []string) string {
	if len(topic) == 0 {
		return ReplyNoMatch
	}
	about := strings.Join(topic[:min(len(topic), maxNotFoundWords)], " ")
	if len(topic) > maxNotFoundWords {
		about += " …"
	}
	return fmt.Sprintf("I couldn't find anything about %s in these docs.", about)
}

// unanswerableReply says what a turn found that did not answer the
// question (RuleUnanswerable), naming up to two of its docs, and asks.
func unanswerableReply(found []retrieval.Option) string {
	if len(found) == 0 {
		return ReplyNoMatch
	}
	what := found[0].Label
	if len(found) > 1 {
		what += " and " + found[1].Label
	}
	return fmt.Sprintf("I found %s, but nothing there seems to answer this. What exactly do you want to know?", what)
}
