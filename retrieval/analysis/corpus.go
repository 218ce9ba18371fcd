package analysis

import (
	"regexp"
	"strings"

	"github.com/docent-sh/docent/knowledge"
)

// The phrases that say where to look. Only a phrase about notes or docs
// as such counts: "notes" alone is a word many products use for a
// feature of their own, and a doc's term alone says nothing of where.
var (
	notesIntent = regexp.MustCompile(`(?i)\b(?:` +
		`(?:search|find|look|looking)(?:\s+(?:in|through))?(?:\s+(?:my|our|the(?:\s+team'?s?)?|team'?s?))?\s+notes?(?:\s+(?:for|about|on))?` +
		`|(?:in|from)\s+(?:my|our|the\s+team'?s?|team'?s?)\s+notes?` +
		`|(?:my|our|team'?s?)\s+notes?` +
		`|notes?\s+(?:titled|called|named)` +
		`|in\s+notes` +
		`)\b`)
	docsIntent = regexp.MustCompile(`(?i)\b(?:` +
		`(?:in|from|search|according\s+to)\s+the\s+(?:docs|documentation|manual)` +
		`|(?:the\s+)?(?:docs|documentation)\s+says?` +
		`|what\s+(?:do\s+)?the\s+docs\s+say` +
		`)\b`)
)

// CorpusIntent reports where a question explicitly asks to look, and the
// question without the words that said so: "search my notes for
// workspace" is (notes, "workspace"); "what does the documentation say
// about exports" is (docs, "what does about exports"). A question that
// names neither is (auto, text).
func CorpusIntent(text string) (knowledge.Corpus, string) {
	for _, c := range []struct {
		corpus knowledge.Corpus
		re     *regexp.Regexp
	}{{knowledge.CorpusNotes, notesIntent}, {knowledge.CorpusDocs, docsIntent}} {
		if loc := c.re.FindStringIndex(text); loc != nil {
			rest := strings.Join(strings.Fields(text[:loc[0]]+" "+text[loc[1]:]), " ")
			return c.corpus, rest
		}
	}
	return knowledge.CorpusAuto, text
}
