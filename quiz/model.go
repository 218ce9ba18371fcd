package quiz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// Model is the one call the generator makes: a system and a user message
// in, the model's text out (llm.Responder.Complete).
type Model interface {
	Complete(ctx context.Context, system, user string) ([]byte, error)
}

// Generator writes a quiz with a model.
type Generator struct {
	Model Model
	Log   *slog.Logger // nil: slog.Default()
	// MaxChunks bounds the chunks shown to the model; DefaultMaxChunks
	// when 0.
	MaxChunks int
	// CallTimeout bounds each call to the model; DefaultCallTimeout when
	// 0. The provider's client has no overall timeout of its own, and a
	// server that never answers must not hold the command forever.
	CallTimeout time.Duration
}

// DefaultCallTimeout is long enough for a local model to write ten items.
const DefaultCallTimeout = 3 * time.Minute

// complete is one call to the model under CallTimeout.
func (g *Generator) complete(ctx context.Context, system, user string) ([]byte, error) {
	timeout := g.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return g.Model.Complete(ctx, system, user)
}

// DefaultMaxChunks is how many chunks one quiz shows the model: enough for
// ten questions on different points, few enough for a small context.
const DefaultMaxChunks = 12

// maxChunkChars bounds each chunk's text in the prompt, as the judging
// calls do: a question needs the gist of a section, not all of it.
const maxChunkChars = 1500

// Limits on what a model's item may hold; longer is not a quiz question.
const (
	maxQuestionChars = 600
	maxOptionChars   = 300
	maxTextChars     = 800
	minOptions       = 3
	maxOptions       = 6
	maxKeywords      = 12
)

const generateSystem = `You write quiz questions that train support staff on a product, from its documentation passages.
Reply with JSON only, no prose and no code fence, exactly of this form:
{"items":[ITEM, ...]}
with one ITEM per item asked for, in the order asked. An ITEM is either multiple choice:
{"kind":"multiple_choice","question":"...","options":["...","...","...","..."],"answer":<index of the correct option, from 0>,"explanation":"why the answer is right","why_wrong":[{"option":<index>,"reason":"why this option is wrong"}],"citations":["<passage id>"]}
with 3 to 6 options and one why_wrong entry for every option but the answer, or short answer:
{"kind":"short_answer","question":"...","suggested_answer":"...","keywords":["words a correct answer contains"],"explanation":"...","citations":["<passage id>"]}
Each item must be answerable from the passages it cites, and cite at least one passage by its id exactly as given; cite no other id.
Write each item at the Bloom level asked: remember (recall a fact), understand (explain or recognise), apply (use it in a new situation, e.g. a customer's case), analyze (compare, find the cause), evaluate (judge which option is best and why), create (plan or compose something new from several parts).`

const classifySystem = `You classify quiz questions by the level of Bloom's revised taxonomy a question asks for: remember, understand, apply, analyze, evaluate or create.
Reply with JSON only, no prose and no code fence, exactly of this form:
{"levels":["<level>", ...]}
with one level per question, in the order given.`

// Generate writes opts.Count items at the levels asked, taken in turn,
// about chunks: docs is the whole knowledge base (for source paths). An
// item citing nothing, or a chunk it was not shown, is asked for again
// once; then each item's level is classified by a second call, and an
// item classified at another level than asked is asked for again once.
// An item still wrong after its retry is dropped, with a note. A reply
// that is not the JSON asked for is asked again once, then fails the
// quiz: a model that cannot follow the format is not trusted in part.
func (g *Generator) Generate(ctx context.Context, docs []knowledge.Doc, chunks []knowledge.Chunk, opts Options) (Quiz, error) {
	opts = opts.normalized()
	log := g.Log
	if log == nil {
		log = slog.Default()
	}
	shown := g.pick(chunks, opts.Seed)
	known := chunkMap(shown)
	paths := sourcePaths(docs)
	passages := passagesPrompt(shown)
	targets := make([]Level, opts.Count)
	for i := range targets {
		targets[i] = opts.Levels[i%len(opts.Levels)]
	}
	q := Quiz{Generator: "model", Seed: opts.Seed, Items: []Item{}, Notes: []string{}}

	items, err := g.write(ctx, targets, passages, nil)
	if err != nil {
		return q, err
	}
	keep := make([]bool, len(items))
	// Citations first: an item must rest on what it was shown.
	var redo []int
	var why []string
	for i := range items {
		if problem := g.cite(&items[i], known, paths); problem != "" {
			redo, why = append(redo, i), append(why, problem)
		} else {
			keep[i] = true
		}
	}
	if len(redo) > 0 {
		log.Info("quiz: asking again for items with bad citations", "items", len(redo))
		if err := g.rewrite(ctx, items, keep, redo, why, targets, passages, known, paths, &q); err != nil {
			return q, err
		}
	}
	// Then levels, classified by a call that did not write the items.
	idx := kept(keep)
	levels, err := g.classify(ctx, items, idx)
	if err != nil {
		return q, err
	}
	redo, why = nil, nil
	for j, i := range idx {
		if levels[j] != targets[i] {
			keep[i] = false
			redo = append(redo, i)
			why = append(why, fmt.Sprintf("it was classified as %s, not %s: write one that asks to %s", levels[j], targets[i], targets[i]))
		}
	}
	if len(redo) > 0 {
		log.Info("quiz: asking again for items at the wrong level", "items", len(redo))
		if err := g.rewrite(ctx, items, keep, redo, why, targets, passages, known, paths, &q); err != nil {
			return q, err
		}
		var fixed []int
		for _, i := range redo {
			if keep[i] {
				fixed = append(fixed, i)
			}
		}
		if len(fixed) > 0 {
			levels, err := g.classify(ctx, items, fixed)
			if err != nil {
				return q, err
			}
			for j, i := range fixed {
				if levels[j] != targets[i] {
					keep[i] = false
					q.Notes = append(q.Notes, fmt.Sprintf("item %d dropped: asked for %s twice, classified as %s", i+1, targets[i], levels[j]))
				}
			}
		}
	}
	for i, it := range items {
		if keep[i] {
			it.Level = targets[i]
			q.Items = append(q.Items, it)
		}
	}
	return q, nil
}

// rewrite asks once more for the items at redo (why says what was wrong
// with each), replacing those whose citations now hold and noting the
// others as dropped.
func (g *Generator) rewrite(ctx context.Context, items []Item, keep []bool, redo []int, why []string, targets []Level, passages string, known map[string]knowledge.Chunk, paths map[string]string, q *Quiz) error {
	sub := make([]Level, len(redo))
	for j, i := range redo {
		sub[j] = targets[i]
	}
	again, err := g.write(ctx, sub, passages, why)
	if err != nil {
		return err
	}
	for j, i := range redo {
		if problem := g.cite(&again[j], known, paths); problem != "" {
			keep[i] = false
			q.Notes = append(q.Notes, fmt.Sprintf("item %d dropped: %s, twice", i+1, problem))
			continue
		}
		items[i], keep[i] = again[j], true
	}
	return nil
}

func kept(keep []bool) []int {
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// pick chooses the chunks to show the model: all of them when few, else
// MaxChunks chosen by the seed, shown in knowledge-base order.
func (g *Generator) pick(chunks []knowledge.Chunk, seed uint64) []knowledge.Chunk {
	limit := g.MaxChunks
	if limit <= 0 {
		limit = DefaultMaxChunks
	}
	if len(chunks) <= limit {
		return chunks
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	order := rng.Perm(len(chunks))[:limit]
	slices.Sort(order)
	out := make([]knowledge.Chunk, limit)
	for j, i := range order {
		out[j] = chunks[i]
	}
	return out
}

// cite checks an item's citations against the chunks shown and fills in
// its sources; it returns what is wrong, "" when nothing is.
func (g *Generator) cite(it *Item, known map[string]knowledge.Chunk, paths map[string]string) string {
	if len(it.Citations) == 0 {
		return "it cited no passage"
	}
	for _, id := range it.Citations {
		if _, ok := known[id]; !ok {
			return fmt.Sprintf("it cited %q, which is not among the passages given", textsafe.Clip(id, 80))
		}
	}
	it.Sources, _ = sourcesOf(it.Citations, known, paths)
	return ""
}

func passagesPrompt(chunks []knowledge.Chunk) string {
	var b strings.Builder
	b.WriteString("Passages:\n")
	for _, c := range chunks {
		fmt.Fprintf(&b, "\n[id: %s] %s\n%s\n", c.ID(), textsafe.Line(c.HeaderPath), textsafe.Clip(textsafe.Line(c.Text), maxChunkChars))
	}
	return b.String()
}

// write asks for one item per target level, in order; why, when set, says
// for each what was wrong with the previous attempt. A reply that does not
// parse is asked for once more.
func (g *Generator) write(ctx context.Context, targets []Level, passages string, why []string) ([]Item, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Write %d quiz item(s), in this order, at these Bloom levels:\n", len(targets))
	for i, l := range targets {
		fmt.Fprintf(&b, "%d. %s", i+1, l)
		if i < len(why) {
			fmt.Fprintf(&b, " (a previous attempt was rejected: %s)", why[i])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + passages)
	var lastErr error
	for range 2 {
		out, err := g.complete(ctx, generateSystem, b.String())
		if err != nil {
			return nil, fmt.Errorf("quiz: write items: %w", err)
		}
		items, err := ParseItems(out, len(targets))
		if err == nil {
			return items, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("quiz: the model's items, twice: %w", lastErr)
}

// classify asks the level of each item at idx, in one call.
func (g *Generator) classify(ctx context.Context, items []Item, idx []int) ([]Level, error) {
	if len(idx) == 0 {
		return nil, nil
	}
	var b strings.Builder
	b.WriteString("Questions:\n")
	for j, i := range idx {
		it := items[i]
		fmt.Fprintf(&b, "\n%d. %s\n", j+1, it.Question)
		for k, o := range it.Options {
			fmt.Fprintf(&b, "   %c) %s\n", letter(k), o)
		}
	}
	var lastErr error
	for range 2 {
		out, err := g.complete(ctx, classifySystem, b.String())
		if err != nil {
			return nil, fmt.Errorf("quiz: classify levels: %w", err)
		}
		levels, err := ParseLevelReply(out, len(idx))
		if err == nil {
			return levels, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("quiz: the model's level classification, twice: %w", lastErr)
}

// wireItem is an item as the model writes it: pointers tell a field left
// out from one given empty.
type wireItem struct {
	Kind            *string   `json:"kind"`
	Question        *string   `json:"question"`
	Options         []string  `json:"options"`
	Answer          *int      `json:"answer"`
	Explanation     *string   `json:"explanation"`
	WhyWrong        []wireWhy `json:"why_wrong"`
	SuggestedAnswer *string   `json:"suggested_answer"`
	Keywords        []string  `json:"keywords"`
	Citations       []string  `json:"citations"`
}

type wireWhy struct {
	Option *int    `json:"option"`
	Reason *string `json:"reason"`
}

// ParseItems reads a model's items: one JSON object {"items":[…]} and
// nothing else but white space, with exactly want items, each complete
// for its kind (generateSystem's format). Text is made terminal-safe and
// clipped. Citations are read as given, checked against the chunks shown
// by the caller; a citation that is not a chunk id at all fails here.
func ParseItems(data []byte, want int) ([]Item, error) {
	var reply struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := decodeStrict(data, &reply); err != nil {
		return nil, err
	}
	if reply.Items == nil {
		return nil, errors.New(`no "items" list`)
	}
	if len(reply.Items) != want {
		return nil, fmt.Errorf("%d items, want %d", len(reply.Items), want)
	}
	out := make([]Item, len(reply.Items))
	for i, raw := range reply.Items {
		var w wireItem
		if err := decodeStrict(raw, &w); err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		it, err := w.item()
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		out[i] = it
	}
	return out, nil
}

func (w wireItem) item() (Item, error) {
	text := func(field string, p *string, max int) (string, error) {
		if p == nil {
			return "", fmt.Errorf("no %q", field)
		}
		s := textsafe.Clip(textsafe.Line(*p), max)
		if s == "" {
			return "", fmt.Errorf("%q is empty", field)
		}
		return s, nil
	}
	var it Item
	var err error
	if it.Question, err = text("question", w.Question, maxQuestionChars); err != nil {
		return it, err
	}
	if it.Explanation, err = text("explanation", w.Explanation, maxTextChars); err != nil {
		return it, err
	}
	if w.Citations == nil {
		// No list at all is the model ignoring the format; an empty one
		// is an item to ask for again, which the caller does.
		return it, errors.New(`no "citations" list`)
	}
	it.Citations = make([]string, 0, len(w.Citations))
	for _, id := range w.Citations {
		slug, n, ok := knowledge.ParseChunkID(id)
		if !ok {
			return it, fmt.Errorf("citation %q is not a chunk id", textsafe.Clip(textsafe.Line(id), 80))
		}
		if id = knowledge.ChunkID(slug, n); !slices.Contains(it.Citations, id) {
			it.Citations = append(it.Citations, id)
		}
	}
	switch kind := derefOr(w.Kind); Kind(kind) {
	case MultipleChoice:
		if w.SuggestedAnswer != nil || w.Keywords != nil {
			return it, errors.New("a multiple choice item with a short answer's fields")
		}
		it.Kind = MultipleChoice
		if len(w.Options) < minOptions || len(w.Options) > maxOptions {
			return it, fmt.Errorf("%d options, want %d to %d", len(w.Options), minOptions, maxOptions)
		}
		seen := map[string]bool{}
		for k, o := range w.Options {
			s := textsafe.Clip(textsafe.Line(o), maxOptionChars)
			if s == "" {
				return it, fmt.Errorf("option %d is empty", k)
			}
			if seen[strings.ToLower(s)] {
				return it, fmt.Errorf("option %d repeats another", k)
			}
			seen[strings.ToLower(s)] = true
			it.Options = append(it.Options, s)
		}
		if w.Answer == nil || *w.Answer < 0 || *w.Answer >= len(it.Options) {
			return it, fmt.Errorf(`"answer" is not the index of an option (0 to %d)`, len(it.Options)-1)
		}
		it.Answer = *w.Answer
		it.WhyWrong = make([]string, len(it.Options))
		for _, ww := range w.WhyWrong {
			if ww.Option == nil || *ww.Option < 0 || *ww.Option >= len(it.Options) {
				return it, errors.New(`a "why_wrong" entry names no option`)
			}
			k := *ww.Option
			if k == it.Answer {
				return it, fmt.Errorf("option %d is the answer and has a why_wrong", k)
			}
			if it.WhyWrong[k] != "" {
				return it, fmt.Errorf("option %d has two why_wrong entries", k)
			}
			if it.WhyWrong[k], err = text("reason", ww.Reason, maxTextChars); err != nil {
				return it, fmt.Errorf("why_wrong of option %d: %w", k, err)
			}
		}
		for k, s := range it.WhyWrong {
			if k != it.Answer && s == "" {
				return it, fmt.Errorf("option %d has no why_wrong", k)
			}
		}
	case ShortAnswer:
		if w.Options != nil || w.Answer != nil || w.WhyWrong != nil {
			return it, errors.New("a short answer item with multiple choice fields")
		}
		it.Kind = ShortAnswer
		if it.SuggestedAnswer, err = text("suggested_answer", w.SuggestedAnswer, maxTextChars); err != nil {
			return it, err
		}
		if len(w.Keywords) == 0 || len(w.Keywords) > maxKeywords {
			return it, fmt.Errorf("%d keywords, want 1 to %d", len(w.Keywords), maxKeywords)
		}
		for k, kw := range w.Keywords {
			s := textsafe.Clip(textsafe.Line(kw), maxOptionChars)
			if s == "" {
				return it, fmt.Errorf("keyword %d is empty", k)
			}
			it.Keywords = append(it.Keywords, s)
		}
	default:
		return it, fmt.Errorf(`"kind" %q is neither multiple_choice nor short_answer`, textsafe.Clip(textsafe.Line(kind), 40))
	}
	return it, nil
}

func derefOr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ParseLevelReply reads a classification: one JSON object
// {"levels":["apply",…]} with exactly want known levels.
func ParseLevelReply(data []byte, want int) ([]Level, error) {
	var reply struct {
		Levels []string `json:"levels"`
	}
	if err := decodeStrict(data, &reply); err != nil {
		return nil, err
	}
	if len(reply.Levels) != want {
		return nil, fmt.Errorf("%d levels, want %d", len(reply.Levels), want)
	}
	out := make([]Level, want)
	for i, s := range reply.Levels {
		l, ok := ParseLevel(s)
		if !ok {
			return nil, fmt.Errorf("level %d %q is not a Bloom level", i+1, textsafe.Clip(textsafe.Line(s), 40))
		}
		out[i] = l
	}
	return out, nil
}

// decodeStrict decodes exactly one JSON object into v, refusing unknown
// fields and anything after it but white space, as llm's judging parsers
// do: a reply off the format is not trusted in part.
func decodeStrict(data []byte, v any) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("the reply is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the reply is not the JSON asked for: %s", textsafe.Clip(textsafe.Line(err.Error()), 120))
	}
	if dec.More() || dec.InputOffset() != int64(len(trimmed)) {
		return errors.New("the reply has more after its JSON object")
	}
	return nil
}
