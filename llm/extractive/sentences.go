package extractive

import (
	"github.com/docent-sh/docent/retrieval/analysis"

	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/prompt"
)

// sentence is one candidate sentence of the evidence.
type sentence struct {
	text    string
	raw     []string // lower-case words in order
	words   []string // the same words normalized, one for one
	values  []string // the value words of the values it gives (see analysis.AppendValueWords)
	block   int      // index of its block, in prompt (rank) order
	doc     int      // rank of its doc: 0 for the doc of the first block
	chunk   int      // chunk number from the block id, for reading order
	para    int      // paragraph or list item within the block
	pos     int      // position within the block
	heading string   // the heading it sits under, in its block or its path
	section string   // the headings above it below its doc's title: its block's path, then its chunk's
	label   string   // the heading an answer quotes it under, if any
	context string   // its heading, its block's title and its block's path
	item    bool     // in a list item
	number  int      // its item's number in a numbered list, else 0
	command bool     // an imperative: "Press F2", "To undo it, click Undo"
	inLead  bool     // in a lead block: the doc's opening chunk or its Overview
	lead    bool     // the first sentence of a lead block
}

func (s sentence) trailing() bool { return strings.HasSuffix(s.text, ":") }

// has reports whether the sentence holds the normalized word w, or gives
// a value of the kind w is the value word of. A sentence is at most
// maxSentenceRunes long, so a scan is cheap.
func (s sentence) has(w string) bool {
	return slices.Contains(s.words, w) || slices.Contains(s.values, w)
}

// countDistinct counts the distinct words of the sentence in set.
func (s sentence) countDistinct(set map[string]bool) int {
	n := 0
	for i, w := range s.words {
		if set[w] && !slices.Contains(s.words[:i], w) {
			n++
		}
	}
	return n
}

// inReadingOrder sorts sentences as their doc presents them.
func inReadingOrder(ss []sentence) {
	slices.SortFunc(ss, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.doc, b.doc), cmp.Compare(a.chunk, b.chunk), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
}

// sectionKey names a section: the sentences of one block under one heading.
type sectionKey struct {
	block   int
	heading string
}

// gather splits every block into sentences and records where each sits.
func gather(blocks []prompt.DocBlock) []sentence {
	docRank := map[string]int{}
	var out []sentence
	for bi, b := range blocks {
		slug, chunk := splitChunkID(b.ID)
		if slug == "" {
			slug = cmp.Or(b.Title, b.ID)
		}
		if _, ok := docRank[slug]; !ok {
			docRank[slug] = len(docRank)
		}
		if chunk < 0 {
			chunk = bi
		}
		lead := isLeadBlock(b)
		pathHeading := lastPathPart(b.Path)
		belowTitle := pathBelowTitle(b.Path)
		for pi, p := range passagesOf(b.Content) {
			raw := wordsOf(p.text)
			out = append(out, sentence{
				text: p.text, raw: raw, words: normalize(slices.Clone(raw)), values: analysis.AppendValueWords(nil, raw, p.text), block: bi, doc: docRank[slug], chunk: chunk,
				para: p.para, pos: pi, heading: cmp.Or(p.heading, pathHeading),
				section: strings.Trim(belowTitle+" > "+p.section, " >"),
				context: p.heading + " " + b.Title + " " + b.Path,
				item:    p.item, number: p.number, command: isInstruction(p.text, raw), inLead: lead, lead: lead && pi == 0,
			})
		}
	}
	return out
}

// splitChunkID splits "slug#chunk-3" into "slug" and 3; the number is -1
// when the id does not have that form.
func splitChunkID(id string) (string, int) {
	if slug, n, ok := knowledge.ParseChunkID(id); ok {
		return slug, n
	}
	slug, _, ok := strings.Cut(id, "#chunk-")
	if !ok {
		return "", -1
	}
	return slug, -1
}

// isLeadBlock reports a doc's opening chunk or its Overview: where a doc
// says what its subject is.
func isLeadBlock(b prompt.DocBlock) bool {
	if _, n := splitChunkID(b.ID); n == 0 {
		return true
	}
	if b.Path != "" && !strings.Contains(b.Path, ">") {
		return true
	}
	return strings.EqualFold(lastPathPart(b.Path), "overview")
}

// pathBelowTitle is a header path without its first part, the doc's
// title: the sections a chunk sits in.
func pathBelowTitle(path string) string {
	_, rest, ok := strings.Cut(path, ">")
	if !ok {
		return ""
	}
	return strings.TrimSpace(rest)
}

func lastPathPart(path string) string {
	if i := strings.LastIndex(path, ">"); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimSpace(path)
}

// imperatives open a step: "Press Ctrl+N", "Choose More > Settings", and
// so does every action word (analysis.IsActionWord).
var imperatives = wordSet(`press click choose select type drag hover right go pick confirm hold paste
	grab enter tap scroll drop double check uncheck write use make turn fill`)

func imperative(w string) bool { return imperatives[w] || analysis.IsActionWord(w) }

// isInstruction reports a sentence that tells the reader what to do:
// "Press F2 …", or after a short opening clause, "To bring it back, open
// the archive tray …", "In edit mode, click the cross …". words are the
// sentence's words as wordsOf gives them.
func isInstruction(text string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	if imperative(words[0]) {
		return true
	}
	opening, _, ok := strings.Cut(text, ", ")
	if !ok || strings.Count(opening, " ") >= 8 {
		return false
	}
	// The opening clause holds the first words; the next one opens the rest.
	n := countWords(opening)
	return n < len(words) && imperative(words[n])
}

// countWords counts the words wordsOf would find in s, without them.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if letter && !in {
			n++
		}
		in = letter
	}
	return n
}
