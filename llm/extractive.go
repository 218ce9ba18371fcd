package llm

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"

	promptctx "github.com/docent-sh/docent/context"
	"github.com/docent-sh/docent/tokens"
)

// Tuning of the extractive answer: an explanation is 1–3 sentences, and a
// sentence long enough to be a wall of text is cut.
const (
	maxAnswerSentences = 3
	maxSentenceRunes   = 320
	minSentenceWords   = 3
	defaultPieceWords  = 3
)

// NoCoverageAnswer is the extractive answer when the prompt holds no
// documentation at all.
const NoCoverageAnswer = "The documentation does not cover this question, so I cannot answer it from the docs."

// ExtractiveModel is docent's offline responder. It implements
// langchaingo's llms.Model so that it streams through exactly the same
// path as a real model: it reads the <doc> blocks and the question of the
// last user message, writes 1–3 sentences taken from the best-matching
// blocks, each followed by its citation, and streams them a few words at a
// time through the streaming func.
type ExtractiveModel struct {
	pace       time.Duration
	pieceWords int
}

var _ llms.Model = (*ExtractiveModel)(nil)

// ExtractiveOption configures an ExtractiveModel.
type ExtractiveOption func(*ExtractiveModel)

// WithPace waits d between streamed pieces, so the answer reads as if it
// were being written; zero streams as fast as the consumer takes it.
func WithPace(d time.Duration) ExtractiveOption {
	return func(m *ExtractiveModel) { m.pace = max(d, 0) }
}

// WithPieceWords sets how many words each streamed piece holds (default 3).
func WithPieceWords(n int) ExtractiveOption {
	return func(m *ExtractiveModel) {
		if n > 0 {
			m.pieceWords = n
		}
	}
}

// NewExtractiveModel returns the offline responder.
func NewExtractiveModel(opts ...ExtractiveOption) *ExtractiveModel {
	m := &ExtractiveModel{pieceWords: defaultPieceWords}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// Call answers a single prompt holding the <doc> blocks and the question.
func (m *ExtractiveModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// GenerateContent writes the extractive answer to the last user message,
// streaming it through the streaming func when one is set. It stops with
// the context's error as soon as ctx is done, between two pieces.
func (m *ExtractiveModel) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var opts llms.CallOptions
	for _, opt := range options {
		opt(&opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extractive: %w", err)
	}
	answer := ExtractiveAnswer(lastUserText(messages))
	if opts.StreamingFunc != nil {
		if err := m.stream(ctx, answer, opts.StreamingFunc); err != nil {
			return nil, err
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{
		Content:    answer,
		StopReason: "stop",
		GenerationInfo: map[string]any{
			"CompletionTokens": tokens.Default().Count(answer),
		},
	}}}, nil
}

func (m *ExtractiveModel) stream(ctx context.Context, answer string, fn func(context.Context, []byte) error) error {
	var timer *time.Timer
	for i, piece := range splitPieces(answer, m.pieceWords) {
		if i > 0 && m.pace > 0 {
			if timer == nil {
				timer = time.NewTimer(m.pace)
				defer timer.Stop()
			} else {
				timer.Reset(m.pace)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("extractive: %w", ctx.Err())
			case <-timer.C:
			}
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("extractive: %w", err)
		}
		if err := fn(ctx, []byte(piece)); err != nil {
			return fmt.Errorf("extractive: streaming func returned an error: %w", err)
		}
	}
	return nil
}

// splitPieces cuts text into pieces of n words, each keeping the space
// after it, so the pieces joined give text back exactly.
func splitPieces(text string, n int) []string {
	var pieces []string
	words, start := 0, 0
	inWord := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		switch {
		case !space && !inWord:
			if words == n {
				pieces = append(pieces, text[start:i])
				start, words = i, 0
			}
			inWord = true
			words++
		case space:
			inWord = false
		}
	}
	if start < len(text) {
		pieces = append(pieces, text[start:])
	}
	return pieces
}

// lastUserText returns the text of the last human message.
func lastUserText(messages []llms.MessageContent) string {
	for i := len(messages) - 1; i >= 0; i-- {
		if messages[i].Role != llms.ChatMessageTypeHuman && messages[i].Role != llms.ChatMessageTypeGeneric {
			continue
		}
		var b strings.Builder
		for _, part := range messages[i].Parts {
			if t, ok := part.(llms.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		return b.String()
	}
	return ""
}

// ExtractiveAnswer writes the grounded answer to a user message built by
// promptctx: the <doc> blocks are the evidence and the text after the last
// "Question:" is the question.
func ExtractiveAnswer(userText string) string {
	blocks := promptctx.ParseDocBlocks(userText)
	question := questionOf(userText)
	var cited []promptctx.DocBlock
	for _, b := range blocks {
		if strings.TrimSpace(b.ID) != "" {
			cited = append(cited, b)
		}
	}
	if len(cited) == 0 {
		return NoCoverageAnswer
	}
	return composeAnswer(question, cited)
}

// questionOf finds the question after the last doc block.
func questionOf(userText string) string {
	tail := userText
	if i := strings.LastIndex(tail, "</doc>"); i >= 0 {
		tail = tail[i+len("</doc>"):]
	}
	if i := strings.LastIndex(tail, "Question:"); i >= 0 {
		return strings.TrimSpace(tail[i+len("Question:"):])
	}
	return strings.TrimSpace(tail)
}

// sentence is one candidate sentence of the evidence.
type sentence struct {
	text     string
	block    int  // index of its block, in prompt (score) order
	pos      int  // position within the block
	matched  int  // distinct question terms in the sentence
	context  int  // distinct question terms in its block's title and path only
	trailing bool // ends with ':' and so introduces something not quoted
	defines  bool // "<question term> is/are/means …": a definition
}

func (s sentence) score() int {
	v := 2*s.matched + s.context
	if s.defines {
		v++
	}
	if s.trailing {
		v--
	}
	return v
}

// definitional questions ask what something is; their best answer is the
// sentence that defines it.
var definitional = regexp.MustCompile(`(?i)^\s*(what\s+(is|are)|what's|define|meaning\s+of)\b`)

// definesTerm reports whether text says what one of terms is.
func definesTerm(text string, terms map[string]bool) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for i := 0; i+1 < len(words) && i < 8; i++ {
		switch words[i+1] {
		case "is", "are", "means", "refers":
			if terms[stem(words[i])] {
				return true
			}
		}
	}
	return false
}

func composeAnswer(question string, blocks []promptctx.DocBlock) string {
	terms := termSet(question)
	askDefinition := definitional.MatchString(question)
	var candidates []sentence
	for bi, b := range blocks {
		heading := termSet(b.Title + " " + b.Path)
		for pi, text := range sentencesOf(b.Content) {
			st := termSet(text)
			s := sentence{text: text, block: bi, pos: pi, trailing: strings.HasSuffix(text, ":"),
				defines: askDefinition && definesTerm(text, terms)}
			for t := range terms {
				switch {
				case st[t]:
					s.matched++
				case heading[t]:
					s.context++
				}
			}
			candidates = append(candidates, s)
		}
	}
	if len(candidates) == 0 {
		b := blocks[0]
		return fmt.Sprintf("The closest documentation is %q [%s], but it has no explanatory text to quote.",
			oneLine(cmp.Or(b.Title, b.Path, b.ID), 80), oneLine(b.ID, 200))
	}

	ranked := slices.Clone(candidates)
	slices.SortStableFunc(ranked, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(b.score(), a.score()), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	best := ranked[0]
	var chosen []sentence
	if best.matched == 0 {
		// No sentence shares a word with the question (it was asked in other
		// words): retrieval still ranked the first block highest, and a
		// doc's opening sentences say what it is about.
		for _, s := range candidates {
			if s.block == 0 && len(chosen) < 2 {
				chosen = append(chosen, s)
			}
		}
	} else {
		chosen = append(chosen, best)
		blocksUsed := map[int]bool{best.block: true}
		for _, s := range ranked[1:] {
			if len(chosen) == maxAnswerSentences {
				break
			}
			// Keep the answer on one subject: more from the best block when
			// at least half as relevant, and at most one other block, only
			// when it is as relevant as the best.
			if s.matched == 0 || 2*s.score() < best.score() {
				continue
			}
			if !blocksUsed[s.block] && (len(blocksUsed) == 2 || s.score() < best.score()) {
				continue
			}
			blocksUsed[s.block] = true
			chosen = append(chosen, s)
		}
	}
	// Read in document order, which is the order the sentences make sense in.
	slices.SortFunc(chosen, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	var out strings.Builder
	for i, s := range chosen {
		if i > 0 {
			out.WriteString(" ")
		}
		out.WriteString(finishSentence(s.text))
		out.WriteString(" [")
		out.WriteString(oneLine(blocks[s.block].ID, 200))
		out.WriteString("]")
	}
	return out.String()
}

// finishSentence gives a sentence its final punctuation: list items and
// table-free fragments often have none.
func finishSentence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ":") {
		s = strings.TrimSuffix(s, ":")
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	switch last {
	case '.', '!', '?', '…':
		return s
	}
	return s + "."
}

// Markdown clean-up for the extractive answer: the answer is plain prose.
var (
	mdImage     = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	mdRefLink   = regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`)
	mdCode      = regexp.MustCompile("`+([^`]*)`+")
	mdStrong    = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	mdEmphasis  = regexp.MustCompile(`(^|[\s(])[*_](\S(?:[^*_]*?\S)?)[*_]([\s).,;:!?]|$)`)
	htmlTag     = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
	listMarker  = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s+`)
	taskMarker  = regexp.MustCompile(`^\[[ xX]\]\s+`)
	headingLine = regexp.MustCompile(`^#{1,6}(\s|$)`)
	ruleLine    = regexp.MustCompile(`^(?:[-*_]\s*){3,}$`)
)

// sentencesOf turns a chunk's markdown into plain sentences: headings,
// code blocks, tables and rules are left out, list items and paragraphs are
// split into sentences, and inline markup is removed.
func sentencesOf(content string) []string {
	var paragraphs []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			paragraphs = append(paragraphs, strings.Join(para, " "))
			para = para[:0]
		}
	}
	fence := ""
	for _, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if fence != "" {
			if strings.HasPrefix(line, fence) {
				fence = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"):
			flush()
			fence = line[:3]
			continue
		case line == "", headingLine.MatchString(line), ruleLine.MatchString(line),
			strings.HasPrefix(line, "|"), strings.HasPrefix(line, "<!--"):
			flush()
			continue
		}
		for strings.HasPrefix(line, ">") {
			line = strings.TrimSpace(strings.TrimPrefix(line, ">"))
		}
		if listMarker.MatchString(line) {
			flush()
			line = taskMarker.ReplaceAllString(listMarker.ReplaceAllString(line, ""), "")
		}
		para = append(para, line)
	}
	flush()

	var out []string
	for _, p := range paragraphs {
		for _, s := range splitSentences(cleanInline(p)) {
			if len(strings.Fields(s)) >= minSentenceWords {
				out = append(out, truncateSentence(s))
			}
		}
	}
	return out
}

func cleanInline(s string) string {
	s = cleanText(s)
	// Most prose has little markup: each pattern runs only when the text
	// holds its marker, which cut the answer's cost about fourfold
	// (BenchmarkExtractiveAnswer).
	replace := func(marker string, re *regexp.Regexp, repl string) {
		if strings.Contains(s, marker) {
			s = re.ReplaceAllString(s, repl)
		}
	}
	replace("![", mdImage, "")
	replace("](", mdLink, "$1")
	replace("][", mdRefLink, "$1")
	replace("`", mdCode, "$1")
	replace("**", mdStrong, "$2")
	replace("__", mdStrong, "$2")
	if strings.ContainsAny(s, "*_") {
		s = mdEmphasis.ReplaceAllString(s, "$1$2$3")
	}
	replace("<", htmlTag, "")
	return strings.Join(strings.Fields(s), " ")
}

// abbreviations end with a period without ending a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "no": true, "fig": true,
}

// splitSentences splits prose after '.', '!' or '?' when a space and a
// capital, digit or opening quote follow and the word before is not an
// abbreviation.
func splitSentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		end := i + 1
		for end < len(p) && strings.IndexByte(`"')]`, p[end]) >= 0 {
			end++
		}
		if end >= len(p) || p[end] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[end+1:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune(`"'(`, next) {
			continue
		}
		if c == '.' && abbreviations[strings.ToLower(lastWord(p[start:i]))] {
			continue
		}
		out = append(out, strings.TrimSpace(p[start:end]))
		start = end + 1
	}
	if rest := strings.TrimSpace(p[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

func lastWord(s string) string {
	if i := strings.LastIndexAny(s, " (\"'"); i >= 0 {
		return s[i+1:]
	}
	return s
}

func truncateSentence(s string) string {
	if utf8.RuneCountInString(s) <= maxSentenceRunes {
		return s
	}
	r := []rune(s)[:maxSentenceRunes]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// stopwords carry no topic: matching on them would pick sentences for
// sharing "the" or "how" with the question.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can could do does did for from
		had has have how i if in into is it its me my of on or our should so than that the their them
		then there these they this to was we what when where which who why will with would you your
		about after all also any because before between both each few more most much must no nor not
		only other own same some such too very just over under again further here once up down out off
		am were being having doing until while during through above below s t don use using used get`) {
		stopwords[w] = true
	}
}

// termSet returns the distinct content words of s, lower-cased and with
// plural endings removed, so "workspaces" in a question finds "workspace".
func termSet(s string) map[string]bool {
	terms := make(map[string]bool)
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopwords[w] || (utf8.RuneCountInString(w) < 2 && !unicode.IsDigit([]rune(w)[0])) {
			continue
		}
		terms[stem(w)] = true
	}
	return terms
}

func stem(w string) string {
	switch {
	case len(w) <= 3:
		return w
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}
