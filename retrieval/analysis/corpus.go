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
	// The team's notes, named as such: explicit wherever they appear.
	teamNotes = regexp.MustCompile(`(?i)\b(?:` +
		`(?:in|from)\s+(?:our|the\s+team'?s?|team'?s?)\s+notes?` +
		`|(?:our|team'?s?)\s+notes?` +
		`|notes?\s+(?:titled|called|named)` +
		`)\b`)
	// Searching notes, or the asker's own ("my notes"): explicit, except
	// in a question that asks how to do something ("how do I find my
	// notes", "how do I search notes for tags"), which is the voice of a
	// customer asking about a product's own notes feature, for the docs
	// to explain.
	ownNotes = regexp.MustCompile(`(?i)\b(?:` +
		`(?:search|find|look|looking)(?:\s+(?:in|through))?(?:\s+(?:my|our|the(?:\s+team'?s?)?|team'?s?))?\s+notes?(?:\s+(?:for|about|on))?` +
		`|(?:in|from)\s+my\s+notes?` +
		`|my\s+notes?` +
		`|in\s+notes` +
		`)\b`)
	howTo      = regexp.MustCompile(`(?i)^\W*(?:how\s+(?:do|can|could|should|would|to)|can\s+i|could\s+i|where\s+(?:do|can)\s+i|why\s+(?:can'?t|cannot|won'?t|doesn'?t|does|do)|is\s+it\s+possible)\b`)
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
	own := ownNotes
	if howTo.MatchString(text) {
		own = nil
	}
	for _, c := range []struct {
		corpus knowledge.Corpus
		re     *regexp.Regexp
	}{{knowledge.CorpusNotes, own}, {knowledge.CorpusNotes, teamNotes}, {knowledge.CorpusDocs, docsIntent}} {
		if c.re == nil {
			continue
		}
		if loc := c.re.FindStringIndex(text); loc != nil {
			rest := strings.Join(strings.Fields(text[:loc[0]]+" "+text[loc[1]:]), " ")
			return c.corpus, rest
		}
	}
	return knowledge.CorpusAuto, text
}
