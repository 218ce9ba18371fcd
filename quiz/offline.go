package quiz

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/docent-sh/docent/internal/sentence"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// ErrNeedsModel is asking the offline generator only for levels it cannot
// write.
var ErrNeedsModel = errors.New("the offline quiz writes remember and understand items only: apply, analyze, evaluate and create need a model provider")

// blank stands for the words a cloze item hides.
const blank = "_____"

// Offline writes a quiz from the docs alone. docs are the whole knowledge
// base (distractors come from other docs' titles); chunks are the ones to
// ask about (Select). The same docs, chunks and options give the same
// quiz, byte for byte.
func Offline(docs []knowledge.Doc, chunks []knowledge.Chunk, opts Options) (Quiz, error) {
	opts = opts.normalized()
	q := Quiz{Generator: "offline", Seed: opts.Seed, Items: []Item{}, Notes: []string{}}
	var levels, skipped []Level
	for _, l := range opts.Levels {
		if slices.Contains(OfflineLevels, l) {
			levels = append(levels, l)
		} else {
			skipped = append(skipped, l)
		}
	}
	if len(levels) == 0 {
		return q, ErrNeedsModel
	}
	if len(skipped) > 0 {
		q.Notes = append(q.Notes, fmt.Sprintf("left out %s: those levels need a model provider", joinLevels(skipped)))
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	g := offline{rng: rng, docs: docs, paths: sourcePaths(docs), byID: chunkMap(chunks)}
	pools := map[Level][][]Item{}
	for _, c := range chunks {
		for _, d := range definitions(c) {
			pools[Remember] = appendPool(pools[Remember], 0, g.cloze(c, d))
		}
		for _, s := range statements(c) {
			if it, ok := g.whichDoc(c, s); ok {
				pools[Understand] = appendPool(pools[Understand], 0, it)
			}
		}
		for _, steps := range stepLists(c.Content) {
			for i := 0; i+1 < len(steps); i++ {
				if it, ok := g.nextStep(c, steps, i); ok {
					pools[Understand] = appendPool(pools[Understand], 1, it)
				}
			}
		}
	}
	// Each pool is shuffled by the seed; understand alternates its two
	// kinds of question so neither crowds out the other.
	var queues [][]Item
	for _, l := range levels {
		var kinds [][]Item
		for _, p := range pools[l] {
			rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			kinds = append(kinds, p)
		}
		queues = append(queues, interleave(kinds))
	}
	// Round robin over the levels asked for, one question per sentence.
	used := map[string]bool{}
	for len(q.Items) < opts.Count {
		progressed := false
		for i := range queues {
			for len(queues[i]) > 0 {
				it := queues[i][0]
				queues[i] = queues[i][1:]
				key := it.Question
				if used[key] {
					continue
				}
				used[key] = true
				q.Items = append(q.Items, it)
				progressed = true
				break
			}
			if len(q.Items) == opts.Count {
				break
			}
		}
		if !progressed {
			break
		}
	}
	if len(q.Items) < opts.Count {
		q.Notes = append(q.Notes, fmt.Sprintf("%d of %d items: the docs chosen hold no more definitions, statements or steps to ask about", len(q.Items), opts.Count))
	}
	return q, nil
}

func appendPool(pools [][]Item, kind int, it Item) [][]Item {
	for len(pools) <= kind {
		pools = append(pools, nil)
	}
	pools[kind] = append(pools[kind], it)
	return pools
}

func interleave(kinds [][]Item) []Item {
	var out []Item
	for i := 0; ; i++ {
		added := false
		for _, k := range kinds {
			if i < len(k) {
				out = append(out, k[i])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

type offline struct {
	rng   *rand.Rand
	docs  []knowledge.Doc
	paths map[string]string
	byID  map[string]knowledge.Chunk
}

func (g offline) sources(c knowledge.Chunk) ([]string, []Source) {
	ids := []string{c.ID()}
	src, _ := sourcesOf(ids, g.byID, g.paths)
	return ids, src
}

// definition is a sentence "A workspace is an area …": the term it defines
// and where the term stands in it.
type definition struct {
	sentence   string
	term       string
	start, end int // of term in sentence
}

// definitionRE reads "[A|An|The] TERM is|are|means REST": the term is at
// most four words, the rest at least three.
var definitionRE = regexp.MustCompile(`^(?:(?:A|An|The)\s+)?([\p{L}\p{N}][\p{L}\p{N}'’ -]{0,50}?)\s+(?:is|are|means|lets you|shows)\s+(\S+(?:\s+\S+){2,}.*)$`)

// definitions are the chunk's sentences that define a term its doc title
// or section heading names: "It is a good place" names nothing.
func definitions(c knowledge.Chunk) []definition {
	named := map[string]bool{}
	for _, w := range analysis.Tokens(c.HeaderPath + " " + c.Title) {
		if !analysis.IsStopword(w) {
			named[analysis.Singular(w)] = true
		}
	}
	var out []definition
	for _, s := range sentence.Split(c.Text) {
		m := definitionRE.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		term := s[m[2]:m[3]]
		words := analysis.Tokens(term)
		if len(words) == 0 || len(words) > 4 {
			continue
		}
		all := true
		for _, w := range words {
			if analysis.IsStopword(w) || !named[analysis.Singular(w)] {
				all = false
				break
			}
		}
		if all {
			out = append(out, definition{sentence: s, term: term, start: m[2], end: m[3]})
		}
	}
	return out
}

// cloze hides a definition's term: "A _____ is an area inside an entry…".
func (g offline) cloze(c knowledge.Chunk, d definition) Item {
	ids, src := g.sources(c)
	var keywords []string
	for _, w := range analysis.Tokens(d.term) {
		keywords = append(keywords, analysis.Singular(w))
	}
	return Item{
		Level: Remember,
		Kind:  ShortAnswer,
		// The term said again later would give the blank away.
		Question:        clean("Fill in the blank: " + d.sentence[:d.start] + blank + maskTitle(d.sentence[d.end:], d.term)),
		SuggestedAnswer: clean(d.term),
		Keywords:        keywords,
		Explanation:     clean(fmt.Sprintf("%s says: %s", c.Title, d.sentence)),
		Citations:       ids,
		Sources:         src,
	}
}

// statements are the chunk's sentences long enough to recognise (eight
// words or more) and not a question.
func statements(c knowledge.Chunk) []string {
	var out []string
	for _, s := range sentence.Split(c.Text) {
		if len(strings.Fields(s)) >= 8 && !strings.HasSuffix(s, "?") && len(s) <= 300 {
			out = append(out, s)
		}
	}
	return out
}

// whichDoc asks which doc says a statement, the doc's own title words
// hidden so the statement does not give it away; the distractors are other
// docs' titles, the same category's first.
func (g offline) whichDoc(c knowledge.Chunk, s string) (Item, bool) {
	masked := maskTitle(s, c.Title)
	others := g.otherDocs(c)
	if len(others) < 2 {
		return Item{}, false
	}
	n := min(3, len(others))
	options := []string{clean(c.Title)}
	why := []string{""}
	for _, d := range others[:n] {
		options = append(options, clean(d.Title))
		why = append(why, clean(fmt.Sprintf("%s (%s) is about %s; it does not say this.", d.Title, d.Slug, about(d))))
	}
	answer := g.shuffleOptions(options, why, 0)
	ids, src := g.sources(c)
	return Item{
		Level:       Understand,
		Kind:        MultipleChoice,
		Question:    clean(fmt.Sprintf("Which doc says: “%s”", masked)),
		Options:     options,
		Answer:      answer,
		WhyWrong:    why,
		Explanation: clean(fmt.Sprintf("%s says: %s", place(c), s)),
		Citations:   ids,
		Sources:     src,
	}, true
}

// place names where a chunk is: its doc, and its section when it has one.
func place(c knowledge.Chunk) string {
	if c.HeaderPath == "" || c.HeaderPath == c.Title {
		return c.Title
	}
	return c.Title + ", under " + c.HeaderPath + ","
}

// otherDocs are the docs a "which doc" distractor may name: not c's, with
// a title of their own, the same category's first, then shuffled by the
// seed within each group.
func (g offline) otherDocs(c knowledge.Chunk) []knowledge.Doc {
	var same, rest []knowledge.Doc
	seen := map[string]bool{strings.ToLower(c.Title): true}
	for _, d := range g.docs {
		t := strings.ToLower(strings.TrimSpace(d.Title))
		if d.Slug == c.DocSlug || t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if d.Category == c.Category {
			same = append(same, d)
		} else {
			rest = append(rest, d)
		}
	}
	g.rng.Shuffle(len(same), func(i, j int) { same[i], same[j] = same[j], same[i] })
	g.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(same, rest...)
}

// about is what a doc is about in a few words: its description, else its
// first sentence of body text, else its title.
func about(d knowledge.Doc) string {
	if d.Description != "" {
		return lowerFirst(textsafe.Clip(d.Description, 100))
	}
	for _, c := range d.Chunks {
		for _, s := range sentence.Split(c.Text) {
			if len(strings.Fields(s)) >= 5 {
				return "“" + textsafe.Clip(s, 100) + "”"
			}
		}
	}
	return d.Title
}

func lowerFirst(s string) string {
	for i, r := range s {
		// An acronym or a name keeps its capital.
		if len(s) > i+1 && unicode.IsUpper(rune(s[i+1])) {
			return s
		}
		return string(unicode.ToLower(r)) + s[i+len(string(r)):]
	}
	return s
}

// maskTitle hides the title's informative words in s, whatever their case
// or plural, so "which doc says" is not answered by its own question.
func maskTitle(s, title string) string {
	hide := map[string]bool{}
	for _, w := range analysis.Tokens(title) {
		if !analysis.IsStopword(w) {
			hide[analysis.Singular(w)] = true
		}
	}
	var b strings.Builder
	word := func(w string) {
		if hide[analysis.Singular(strings.ToLower(w))] {
			b.WriteString(blank)
		} else {
			b.WriteString(w)
		}
	}
	start := -1
	for i, r := range s {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			word(s[start:i])
			start = -1
		}
		if !letter {
			b.WriteRune(r)
		}
	}
	if start >= 0 {
		word(s[start:])
	}
	return b.String()
}

// stepRE is an ordered list item of markdown: "1. Open the note".
var stepRE = regexp.MustCompile(`^\s*\d{1,3}[.)]\s+(.+)$`)

// stepLists are the ordered lists of a chunk's markdown, each step as
// plain text; lists of fewer than three steps ask nothing about order.
func stepLists(content string) [][]string {
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) >= 3 {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, line := range strings.Split(content, "\n") {
		if m := stepRE.FindStringSubmatch(line); m != nil {
			cur = append(cur, plain(m[1]))
			continue
		}
		// A wrapped or indented continuation keeps the list going.
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "   ") {
			continue
		}
		flush()
	}
	flush()
	return out
}

var (
	linkRE   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	markupRE = regexp.MustCompile("\\*\\*|__|`|~~")
)

// plain is a list item's text without its inline markdown.
func plain(s string) string {
	s = linkRE.ReplaceAllString(s, "$1")
	s = markupRE.ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

// nextStep asks which step follows step i; the distractors are the list's
// other steps, so every option is a real step of the same task.
func (g offline) nextStep(c knowledge.Chunk, steps []string, i int) (Item, bool) {
	options := []string{clean(steps[i+1])}
	why := []string{""}
	var others []int
	for k := range steps {
		if k != i && k != i+1 {
			others = append(others, k)
		}
	}
	// Two distractors at least: a choice of two is a coin toss.
	if len(others) < 2 {
		return Item{}, false
	}
	g.rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
	for _, k := range others[:min(3, len(others))] {
		options = append(options, clean(steps[k]))
		why = append(why, fmt.Sprintf("That is step %d of %d, not the one after step %d.", k+1, len(steps), i+1))
	}
	answer := g.shuffleOptions(options, why, 0)
	ids, src := g.sources(c)
	return Item{
		Level:       Understand,
		Kind:        MultipleChoice,
		Question:    clean(fmt.Sprintf("In “%s”, what do you do right after: “%s”?", c.HeaderPath, steps[i])),
		Options:     options,
		Answer:      answer,
		WhyWrong:    why,
		Explanation: clean(fmt.Sprintf("Step %d of %d is: %s", i+2, len(steps), steps[i+1])),
		Citations:   ids,
		Sources:     src,
	}, true
}

// shuffleOptions shuffles options and why together and returns where the
// option at correct went.
func (g offline) shuffleOptions(options, why []string, correct int) int {
	perm := g.rng.Perm(len(options))
	o, w := slices.Clone(options), slices.Clone(why)
	answer := 0
	for to, from := range perm {
		options[to], why[to] = o[from], w[from]
		if from == correct {
			answer = to
		}
	}
	return answer
}

// clean is text from the docs made safe and single-line for a terminal.
func clean(s string) string { return textsafe.Line(s) }
