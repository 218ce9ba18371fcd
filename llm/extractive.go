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
	"github.com/docent-sh/docent/textsafe"
	"github.com/docent-sh/docent/tokens"
)

// Tuning of the extractive answer: an explanation is 1–3 sentences, and a
// sentence long enough to be a wall of text is cut.
const (
	maxAnswerSentences = 3
	maxSentenceRunes   = 320
	minSentenceWords   = 3
	defaultPieceWords  = 3
	maxSubjectWords    = 6
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
// promptctx: the <doc> blocks are the evidence, in the engine's rank order
// (best first), and promptctx.ParseQuestion gives the question.
func ExtractiveAnswer(userText string) string {
	var cited []promptctx.DocBlock
	for _, b := range promptctx.ParseDocBlocks(userText) {
		// An id with a bracket would not read back as one citation.
		if strings.TrimSpace(b.ID) != "" && !strings.ContainsAny(b.ID, "[]") {
			cited = append(cited, b)
		}
	}
	if len(cited) == 0 {
		return NoCoverageAnswer
	}
	return composeAnswer(parseIntent(promptctx.ParseQuestion(userText)), cited)
}

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

// articles may open a term or a sentence's subject without changing it.
var articles = map[string]bool{"a": true, "an": true, "the": true}

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
		if base, ok := actionBase(w); ok && !slices.Contains(in.subject, base) {
			in.action = base
			break
		}
	}
	switch {
	case howToAsk.MatchString(q):
		in.kind = askHowTo
		return in
	case len(in.subject) > 0:
		in.kind = askExplanation
		return in
	}
	// A bare imperative, "delete a workspace", asks for the steps too.
	if words := wordsOf(q); len(words) > 0 {
		if _, ok := actionBase(words[0]); ok {
			in.kind = askHowTo
		}
	}
	return in
}

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

// sentence is one candidate sentence of the evidence.
type sentence struct {
	text    string
	raw     []string // lower-case words in order
	words   []string // the same words normalized, one for one
	block   int      // index of its block, in prompt (rank) order
	doc     int      // rank of its doc: 0 for the doc of the first block
	chunk   int      // chunk number from the block id, for reading order
	para    int      // paragraph or list item within the block
	pos     int      // position within the block
	heading string   // the heading it sits under, in its block or its path
	context string   // its heading, its block's title and its block's path
	item    bool     // in a list item
	command bool     // an imperative: "Press F2", "To undo it, click Undo"
	inLead  bool     // in a lead block: the doc's opening chunk or its Overview
	lead    bool     // the first sentence of a lead block
}

func (s sentence) trailing() bool { return strings.HasSuffix(s.text, ":") }

// has reports whether the sentence holds the normalized word w. A
// sentence is at most maxSentenceRunes long, so a scan is cheap.
func (s sentence) has(w string) bool { return slices.Contains(s.words, w) }

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

// gather splits every block into sentences and records where each sits.
func gather(blocks []promptctx.DocBlock) []sentence {
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
		for pi, p := range passagesOf(b.Content) {
			raw := wordsOf(p.text)
			words := make([]string, len(raw))
			for i, w := range raw {
				words[i] = normWord(w)
			}
			out = append(out, sentence{
				text: p.text, raw: raw, words: words, block: bi, doc: docRank[slug], chunk: chunk,
				para: p.para, pos: pi, heading: cmp.Or(p.heading, pathHeading),
				context: p.heading + " " + b.Title + " " + b.Path,
				item:    p.item, command: isInstruction(p.text, raw), inLead: lead, lead: lead && pi == 0,
			})
		}
	}
	return out
}

// splitChunkID splits "slug#chunk-3" into "slug" and 3; the number is -1
// when the id does not have that form.
func splitChunkID(id string) (string, int) {
	slug, n, ok := strings.Cut(id, "#chunk-")
	if !ok {
		return "", -1
	}
	v := 0
	for _, r := range n {
		if r < '0' || r > '9' || v > 1<<20 {
			return slug, -1
		}
		v = 10*v + int(r-'0')
	}
	if n == "" {
		return slug, -1
	}
	return slug, v
}

// isLeadBlock reports a doc's opening chunk or its Overview: where a doc
// says what its subject is.
func isLeadBlock(b promptctx.DocBlock) bool {
	if _, n := splitChunkID(b.ID); n == 0 {
		return true
	}
	if b.Path != "" && !strings.Contains(b.Path, ">") {
		return true
	}
	return strings.EqualFold(lastPathPart(b.Path), "overview")
}

func lastPathPart(path string) string {
	if i := strings.LastIndex(path, ">"); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimSpace(path)
}

func composeAnswer(in intent, blocks []promptctx.DocBlock) string {
	candidates := gather(blocks)
	if len(candidates) == 0 {
		b := blocks[0]
		return fmt.Sprintf("The closest documentation is %q [%s], but it has no explanatory text to quote.",
			oneLine(cmp.Or(b.Title, b.Path, b.ID), 80), oneLine(b.ID, 200))
	}
	var chosen []sentence
	if in.kind == askExplanation {
		chosen = explain(in, candidates)
	}
	// "What is the shortcut to create a note" defines nothing in the docs
	// but names an action: its steps answer it.
	if len(chosen) == 0 && (in.kind == askHowTo || in.action != "") {
		chosen = howTo(in, candidates)
	}
	if len(chosen) == 0 {
		chosen = bestMatching(in, candidates)
	}
	return render(chosen, blocks)
}

func render(chosen []sentence, blocks []promptctx.DocBlock) string {
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

// inReadingOrder sorts sentences as their doc presents them.
func inReadingOrder(ss []sentence) {
	slices.SortFunc(ss, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.doc, b.doc), cmp.Compare(a.chunk, b.chunk), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
}

// Definition strength of a sentence for the term asked about.
const (
	notDefining     = 0
	describes       = 1 // "Workspaces divide an entry …", "X is not …"
	definesOutright = 2 // "A workspace is …", "The Quick Links widget holds …"
)

// copulas say what the subject is.
var copulas = map[string]bool{
	"is": true, "are": true, "means": true, "mean": true, "refers": true, "refer": true, "stands": true,
}

// descriptiveVerbs, after a sentence's subject, describe what the subject
// is or does. The list is closed rather than guessed from word endings:
// "Workspace settings" must not read as "Workspace" doing "settings".
var descriptiveVerbs = map[string]bool{}

// kindNouns name the kind of thing a UI term is: "The Recent widget lists …".
var kindNouns = map[string]bool{
	"widget": true, "panel": true, "page": true, "tab": true, "feature": true, "view": true, "menu": true,
	"dialog": true, "button": true, "bar": true, "tray": true, "section": true, "tool": true, "box": true,
}

// hedges may sit between a subject and its verb without changing what the
// sentence does: "Home simply is …", "Continue always shows …".
var hedges = map[string]bool{
	"simply": true, "also": true, "just": true, "basically": true, "essentially": true, "really": true, "always": true,
}

// modals open a description of what the subject can do.
var modals = map[string]bool{"can": true, "may": true, "will": true, "lets": true}

func init() {
	for _, w := range strings.Fields(`holds hold lists list shows show lets let keeps keep tracks track gives give
		contains contain divides divide groups group collects collect displays display stores store organizes
		organize mirrors mirror provides provide gathers gather belongs belong helps help saves save offers offer
		represents represent reopens reopen opens open appears appear sits sit lives live becomes become works
		work follows follow takes take brings bring puts put turns turn has have includes include consists consist
		covers cover points point records record surfaces surface inherit inherits files file describes describe
		sorts sort combines combine connects connect`) {
		descriptiveVerbs[w] = true
	}
}

// definitionStrength reports whether s opens with subject (after an
// article) and how plainly it then says what subject is. The subject is
// compared normalized, so "Workspaces" is "workspace"; the verb is read as
// written, so "lists" is not taken for the noun "list".
func definitionStrength(s sentence, subject []string) int {
	if len(subject) == 0 || s.trailing() {
		return notDefining
	}
	raw := s.raw
	i := 0
	if len(raw) > 0 && articles[raw[0]] {
		i = 1
	}
	if i+len(subject) >= len(raw) || !slices.Equal(s.words[i:i+len(subject)], subject) {
		return notDefining
	}
	j := i + len(subject)
	kindForm := false
	if kindNouns[s.words[j]] && !kindNouns[subject[len(subject)-1]] && j+1 < len(raw) {
		kindForm = true
		j++
	}
	if hedges[raw[j]] && j+1 < len(raw) {
		j++
	}
	verb := raw[j]
	negated := j+1 < len(raw) && (raw[j+1] == "not" || raw[j+1] == "never")
	switch {
	case copulas[verb] && !negated:
		return definesOutright
	case kindForm && (copulas[verb] || descriptiveVerbs[verb] || modals[verb]):
		return definesOutright
	case copulas[verb], descriptiveVerbs[verb], modals[verb]:
		return describes
	}
	return notDefining
}

// explain answers "what is X": the sentence that defines X, preferring a
// plain definition, then the top-ranked doc, then the doc's lead, followed
// by one or two sentences about X from the same doc.
func explain(in intent, candidates []sentence) []sentence {
	// "the Recent widget" is also just "Recent" in its doc.
	names := [][]string{in.subject}
	if n := len(in.subject); n > 1 && kindNouns[in.subject[n-1]] {
		names = append(names, in.subject[:n-1])
	}
	strength := make([]int, len(candidates))
	best := -1
	for i, s := range candidates {
		for _, name := range names {
			strength[i] = max(strength[i], definitionStrength(s, name))
		}
		if strength[i] == notDefining {
			continue
		}
		if best < 0 || betterDefinition(s, strength[i], candidates[best], strength[best]) {
			best = i
		}
	}
	if best < 0 {
		// Nothing has X as its subject: the top doc's lead still says what
		// the doc is about, when it names X.
		for i, s := range candidates {
			if s.doc == 0 && s.lead && mentionsAny(s, in.subject) && !s.trailing() {
				best = i
				break
			}
		}
	}
	if best < 0 {
		return nil
	}
	def := candidates[best]
	type support struct {
		i     int
		score int
	}
	var supports []support
	for i, s := range candidates {
		if i == best || s.doc != def.doc || s.trailing() || s.text == def.text {
			continue
		}
		v := 0
		switch {
		case slices.ContainsFunc(names, func(name []string) bool { return containsRun(s.words, name) }):
			v += 3
		case mentionsAny(s, in.subject):
			v++
		}
		if strength[i] != notDefining {
			v += 2
		}
		if s.block == def.block && s.pos == def.pos+1 {
			v += 2
		}
		if s.inLead {
			v++
		}
		if s.command {
			v -= 2
		}
		if v >= 3 {
			supports = append(supports, support{i, v})
		}
	}
	slices.SortStableFunc(supports, func(a, b support) int {
		sa, sb := candidates[a.i], candidates[b.i]
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(sa.chunk, sb.chunk), cmp.Compare(sa.pos, sb.pos))
	})
	var rest []sentence
	for _, sp := range supports[:min(len(supports), maxAnswerSentences-1)] {
		rest = append(rest, candidates[sp.i])
	}
	// The definition opens the answer whatever its place in the doc; what
	// supports it reads in the doc's order.
	inReadingOrder(rest)
	return append([]sentence{def}, rest...)
}

func betterDefinition(a sentence, sa int, b sentence, sb int) bool {
	return cmp.Or(cmp.Compare(sb, sa), cmp.Compare(a.doc, b.doc), boolOrder(a.lead, b.lead),
		cmp.Compare(a.chunk, b.chunk), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos)) < 0
}

// boolOrder sorts true before false.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func mentionsAny(s sentence, words []string) bool {
	for _, w := range words {
		if s.has(w) {
			return true
		}
	}
	return false
}

// containsRun reports whether run occurs in words as consecutive words.
func containsRun(words, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// howTo answers a request for steps. The unit of a procedure is a section
// of a chunk: when a heading names the action (and the object asked about,
// or nothing else), the answer is that section from its first step, since
// steps only make sense in order. Otherwise it is the sentence that best
// carries the action and its object, with the rest of its paragraph or
// list item.
func howTo(in intent, candidates []sentence) []sentence {
	objects := make(map[string]bool, len(in.terms))
	for t := range in.terms {
		if t != in.action {
			objects[t] = true
		}
	}
	headings := map[sectionKey]headingMatch{}
	headingOf := func(s sentence) headingMatch {
		key := sectionKey{s.block, s.heading}
		h, ok := headings[key]
		if !ok {
			h = matchHeading(s.heading, in.action, objects)
			headings[key] = h
		}
		return h
	}
	score := func(s sentence) int {
		v := 0
		if in.action != "" && s.has(in.action) {
			v += 3
		}
		v += 2 * s.countDistinct(objects)
		h := headingOf(s)
		// Objects the heading names count once, for the sentences under
		// it that leave them out ("Select it and press F2").
		headOnly := 0
		for _, t := range h.objects {
			if !s.has(t) {
				headOnly++
			}
		}
		switch {
		case h.procedure:
			v += 4 + 2*headOnly
		case h.action:
			// "Restore a note" when a workspace was asked about.
			v++
		default:
			v += headOnly
			if h.otherAction {
				v -= 3
			}
		}
		if s.item || s.command {
			// A step outweighs a description that names the same words.
			v += 3
		}
		if listsActions(s.words) {
			// "How to open, create, rename, move … notes" lists the page's
			// procedures; it is none of them.
			v -= 4
		}
		if s.trailing() {
			v--
		}
		return v
	}
	best, bestScore := -1, 0
	for i, s := range candidates {
		if v := score(s); v > bestScore {
			best, bestScore = i, v
		}
	}
	if best < 0 {
		return nil
	}
	top := candidates[best]
	if in.action != "" && !top.has(in.action) && !headingOf(top).procedure {
		// Nothing mentions doing what was asked: better the question's
		// best matching sentences than unrelated steps.
		return nil
	}
	var chosen []sentence
	if headingOf(top).procedure {
		for _, s := range candidates {
			if s.block == top.block && s.heading == top.heading && !s.trailing() && len(chosen) < maxAnswerSentences {
				chosen = append(chosen, s)
			}
		}
		return chosen
	}
	chosen = append(chosen, top)
	for _, s := range candidates[best+1:] {
		if len(chosen) == maxAnswerSentences || s.block != top.block || s.para != top.para {
			break
		}
		chosen = append(chosen, s)
	}
	if len(chosen) > 1 {
		return chosen
	}
	// A lone sentence gets the next one that also does what was asked,
	// when it is at least half as good: the same procedure told elsewhere
	// often adds where or when.
	next, nextScore := -1, 0
	for i, s := range candidates {
		if i == best || s.text == top.text || s.trailing() || !s.has(in.action) {
			continue
		}
		if v := score(s); v > nextScore && 2*v >= bestScore {
			next, nextScore = i, v
		}
	}
	if next >= 0 {
		chosen = append(chosen, candidates[next])
	}
	return chosen
}

// sectionKey names a section: the sentences of one block under one heading.
type sectionKey struct {
	block   int
	heading string
}

// headingMatch is what a section heading says about a how-to question.
type headingMatch struct {
	action      bool     // it names the action asked about
	procedure   bool     // it names the action and the object asked about, or nothing else
	otherAction bool     // it names only another action: the procedure for that
	objects     []string // the objects asked about that it names
}

func matchHeading(heading, action string, objects map[string]bool) headingMatch {
	var h headingMatch
	other := false
	seen := map[string]bool{}
	for _, w := range normWords(heading) {
		switch {
		case action != "" && w == action:
			h.action = true
		case objects[w]:
			if !seen[w] {
				seen[w] = true
				h.objects = append(h.objects, w)
			}
		case actionWords[w]:
			h.otherAction = true
		case !stopwords[w] && !articles[w]:
			other = true
		}
	}
	h.procedure = h.action && (len(h.objects) > 0 || !other || len(objects) == 0)
	h.otherAction = h.otherAction && !h.action
	return h
}

// listsActions reports a sentence that enumerates three or more actions
// ("open, create, rename, move, delete and restore notes"): a summary of
// procedures or of a rule, not a step of one.
func listsActions(words []string) bool {
	run := 0
	for i, w := range words {
		switch {
		case actionWords[w]:
			run++
			if run >= 3 {
				return true
			}
		case (w == "and" || w == "or") && run > 0 && i+1 < len(words) && actionWords[words[i+1]]:
		default:
			run = 0
		}
	}
	return false
}

// bestMatching answers any other question with the sentences that share
// the most words with it, from at most two blocks.
func bestMatching(in intent, candidates []sentence) []sentence {
	type scored struct {
		sentence
		matched int // distinct question terms in the sentence
		context int // distinct question terms only in its heading, title or path
	}
	score := func(s scored) int {
		v := 2*s.matched + s.context
		if s.trailing() {
			v--
		}
		return v
	}
	all := make([]scored, len(candidates))
	headings := map[sectionKey]map[string]bool{}
	for i, s := range candidates {
		sc := scored{sentence: s}
		key := sectionKey{s.block, s.heading}
		head, ok := headings[key]
		if !ok {
			head = map[string]bool{}
			for _, w := range normWords(s.context) {
				head[w] = true
			}
			headings[key] = head
		}
		sc.matched = s.countDistinct(in.terms)
		for t := range head {
			if in.terms[t] && !s.has(t) {
				sc.context++
			}
		}
		all[i] = sc
	}
	ranked := slices.Clone(all)
	slices.SortStableFunc(ranked, func(a, b scored) int {
		return cmp.Or(cmp.Compare(score(b), score(a)), cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
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
		return chosen
	}
	chosen = append(chosen, best.sentence)
	blocksUsed := map[int]bool{best.block: true}
	for _, s := range ranked[1:] {
		if len(chosen) == maxAnswerSentences {
			break
		}
		// Keep the answer on one subject: more from the best block when
		// at least half as relevant, and at most one other block, only
		// when it is as relevant as the best.
		if s.matched == 0 || 2*score(s) < score(best) {
			continue
		}
		if !blocksUsed[s.block] && (len(blocksUsed) == 2 || score(s) < score(best)) {
			continue
		}
		blocksUsed[s.block] = true
		chosen = append(chosen, s.sentence)
	}
	// Read in document order, which is the order the sentences make sense in.
	slices.SortFunc(chosen, func(a, b sentence) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.pos, b.pos))
	})
	return chosen
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

// passage is one plain sentence of a chunk with where it sits.
type passage struct {
	text    string
	heading string // the nearest heading above it in the chunk, cleaned
	para    int    // the paragraph or list item it belongs to
	item    bool   // it belongs to a list item
}

// passagesOf turns a chunk's markdown into plain sentences: headings,
// code blocks, tables and rules are left out (a heading is kept as the
// context of the sentences under it), list items and paragraphs are split
// into sentences, and inline markup is removed.
func passagesOf(content string) []passage {
	type paragraph struct {
		text    string
		heading string
		item    bool
	}
	var paragraphs []paragraph
	var para []string
	heading, item := "", false
	flush := func() {
		if len(para) > 0 {
			paragraphs = append(paragraphs, paragraph{strings.Join(para, " "), heading, item})
			para = para[:0]
		}
		item = false
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
		case headingLine.MatchString(line):
			flush()
			heading = cleanInline(strings.TrimLeft(line, "# "))
			continue
		case line == "", ruleLine.MatchString(line), strings.HasPrefix(line, "|"), strings.HasPrefix(line, "<!--"):
			flush()
			continue
		}
		for strings.HasPrefix(line, ">") {
			line = strings.TrimSpace(strings.TrimPrefix(line, ">"))
		}
		if listMarker.MatchString(line) {
			flush()
			item = true
			line = taskMarker.ReplaceAllString(listMarker.ReplaceAllString(line, ""), "")
		}
		para = append(para, line)
	}
	flush()

	var out []passage
	for pi, p := range paragraphs {
		for _, s := range splitSentences(cleanInline(p.text)) {
			if len(strings.Fields(s)) >= minSentenceWords {
				out = append(out, passage{text: truncateSentence(s), heading: p.heading, para: pi, item: p.item})
			}
		}
	}
	return out
}

func cleanInline(s string) string {
	s = textsafe.String(s)
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

// wordsOf splits s into its lower-case words of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// normWords is wordsOf with every word normalized, one for one.
func normWords(s string) []string {
	words := wordsOf(s)
	for i, w := range words {
		words[i] = normWord(w)
	}
	return words
}

// normWord maps the forms of a word to one: an action's base form
// ("archived", "archiving" → "archive") or else the singular
// ("workspaces" → "workspace"), so a question matches the docs however
// either is phrased.
func normWord(w string) string {
	if base, ok := actionBase(w); ok {
		return base
	}
	return stem(w)
}

// termSet returns the distinct normalized content words of s.
func termSet(s string) map[string]bool {
	terms := make(map[string]bool)
	for _, w := range wordsOf(s) {
		if stopwords[w] || (utf8.RuneCountInString(w) < 2 && !unicode.IsDigit([]rune(w)[0])) {
			continue
		}
		terms[normWord(w)] = true
	}
	return terms
}

// actionWords are the things users ask how to do, in base form. "set" and
// "use" are left out: they are in too many sentences that are not steps
// ("the scope setting", "How to use it").
var actionWords = map[string]bool{}

// imperatives open a step: "Press Ctrl+N", "Choose More > Settings".
var imperatives = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`add archive change clear close collapse configure copy create delete
		duplicate edit empty expand export filter find hide import insert invite link list move open pin print
		remove rename reorder resize restore search share show sort switch tag undo unpin upload`) {
		actionWords[w] = true
		imperatives[w] = true
	}
	for _, w := range strings.Fields(`press click choose select type drag hover right go pick confirm hold paste
		grab enter tap scroll drop double check uncheck write use make turn fill`) {
		imperatives[w] = true
	}
}

// actionBase returns the action word that w is a form of.
func actionBase(w string) (string, bool) {
	if actionWords[w] {
		return w, true
	}
	try := func(f string) bool { return actionWords[f] }
	for _, suffix := range []string{"ing", "ed", "ion", "al"} {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 2 {
			continue
		}
		switch n := len(stem); {
		case try(stem):
			return stem, true
		case try(stem + "e"):
			return stem + "e", true
		case stem[n-1] == stem[n-2] && try(stem[:n-1]): // pinned, pinning
			return stem[:n-1], true
		case suffix == "ed" && stem[n-1] == 'i' && try(stem[:n-1]+"y"): // copied
			return stem[:n-1] + "y", true
		}
	}
	for _, form := range [][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if stem, ok := strings.CutSuffix(w, form[0]); ok && try(stem+form[1]) {
			return stem + form[1], true
		}
	}
	return "", false
}

// isInstruction reports a sentence that tells the reader what to do:
// "Press F2 …", or after a short opening clause, "To bring it back, open
// the archive tray …", "In edit mode, click the cross …". words are the
// sentence's words as wordsOf gives them.
func isInstruction(text string, words []string) bool {
	if len(words) == 0 {
		return false
	}
	if imperatives[words[0]] {
		return true
	}
	opening, _, ok := strings.Cut(text, ", ")
	if !ok || strings.Count(opening, " ") >= 8 {
		return false
	}
	// The opening clause holds the first words; the next one opens the rest.
	n := countWords(opening)
	return n < len(words) && imperatives[words[n]]
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
