package quiz_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/internal/demo"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/quiz"
	"github.com/docent-sh/docent/store/storetest"
)

func offlineQuiz(t *testing.T, docs []knowledge.Doc, slug string, opts quiz.Options) quiz.Quiz {
	t.Helper()
	chunks, err := quiz.Select(docs, slug, nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := quiz.Offline(docs, chunks, opts)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func jsonOf(t *testing.T, q quiz.Quiz) string {
	t.Helper()
	var b bytes.Buffer
	if err := quiz.WriteJSON(&b, q); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestOfflineIsDeterministicForASeed(t *testing.T) {
	docs := demo.Docs(t)
	a := jsonOf(t, offlineQuiz(t, docs, "", quiz.Options{Count: 10, Seed: 7}))
	b := jsonOf(t, offlineQuiz(t, docs, "", quiz.Options{Count: 10, Seed: 7}))
	if a != b {
		t.Fatalf("same seed, different quizzes:\n%s\n%s", a, b)
	}
	if c := jsonOf(t, offlineQuiz(t, docs, "", quiz.Options{Count: 10, Seed: 8})); c == a {
		t.Fatal("seeds 7 and 8 gave the same quiz")
	}
}

// Every item is well formed and cites a real chunk of the knowledge base;
// multiple choice answers are among the options.
func TestOfflineItemsCiteRealChunks(t *testing.T) {
	docs := demo.Docs(t)
	all := map[string]knowledge.Chunk{}
	for _, d := range docs {
		for _, c := range d.Chunks {
			all[c.ID()] = c
		}
	}
	for seed := range uint64(5) {
		q := offlineQuiz(t, docs, "", quiz.Options{Count: 20, Seed: seed})
		if len(q.Items) != 20 || q.Generator != "offline" {
			t.Fatalf("seed %d: %d items by %q, notes %q", seed, len(q.Items), q.Generator, q.Notes)
		}
		levels := map[quiz.Level]int{}
		for i, it := range q.Items {
			levels[it.Level]++
			if len(it.Citations) == 0 || len(it.Sources) != len(it.Citations) {
				t.Fatalf("seed %d item %d: citations %v, sources %v", seed, i, it.Citations, it.Sources)
			}
			for _, id := range it.Citations {
				c, ok := all[id]
				if !ok {
					t.Fatalf("seed %d item %d cites %q, no chunk", seed, i, id)
				}
				if it.Kind == quiz.ShortAnswer && !strings.Contains(strings.ToLower(c.Text), strings.ToLower(it.SuggestedAnswer)) {
					t.Errorf("seed %d item %d: answer %q is not in %s", seed, i, it.SuggestedAnswer, id)
				}
			}
			switch it.Kind {
			case quiz.MultipleChoice:
				if len(it.Options) < 3 || it.Answer < 0 || it.Answer >= len(it.Options) || len(it.WhyWrong) != len(it.Options) || it.WhyWrong[it.Answer] != "" {
					t.Fatalf("seed %d item %d: %+v", seed, i, it)
				}
				for k, w := range it.WhyWrong {
					if k != it.Answer && w == "" {
						t.Errorf("seed %d item %d: option %d has no reason", seed, i, k)
					}
				}
			case quiz.ShortAnswer:
				if !strings.Contains(it.Question, "_____") || len(it.Keywords) == 0 {
					t.Fatalf("seed %d item %d: %+v", seed, i, it)
				}
			}
		}
		if levels[quiz.Remember] == 0 || levels[quiz.Understand] == 0 || len(levels) != 2 {
			t.Errorf("seed %d levels %v, want remember and understand", seed, levels)
		}
	}
}

// plainDocs sets each chunk's Text from its sections, as ingest would:
// the storetest docs carry markdown only.
func plainDocs(docs []knowledge.Doc) []knowledge.Doc {
	for i := range docs {
		for j := range docs[i].Chunks {
			c := &docs[i].Chunks[j]
			var lines []string
			for _, l := range strings.Split(c.Content, "\n") {
				if l = strings.TrimSpace(strings.TrimLeft(l, "#")); l != "" {
					if !strings.HasSuffix(l, ".") {
						l += "."
					}
					lines = append(lines, l)
				}
			}
			c.Text = strings.Join(lines, " ")
		}
	}
	return docs
}

// A definition becomes a cloze item hiding its term; "which doc says"
// hides the doc's title words and offers other docs' titles.
func TestOfflineOnAFixture(t *testing.T) {
	docs := plainDocs([]knowledge.Doc{
		storetest.NewDoc("concepts/workspace", "Workspace",
			storetest.Section{Body: "A workspace is an area that holds related notes. It is a good place to start."}),
		storetest.NewDoc("concepts/entry", "Entry", storetest.Section{Body: "An entry is the top level of the tree of notes, above every other entry."}),
		storetest.NewDoc("concepts/tag", "Tag", storetest.Section{Body: "Tags label notes across workspaces and entries."}),
		storetest.NewDoc("billing/invoices", "Invoices", storetest.Section{Body: "Invoices are issued on the first day of each month."}),
	})
	q := offlineQuiz(t, docs, "concepts/workspace", quiz.Options{Count: 20, Levels: []quiz.Level{quiz.Remember}, Seed: 1})
	if len(q.Items) != 1 {
		t.Fatalf("items %+v, want the one definition (\"It is\" names no term)", q.Items)
	}
	if it := q.Items[0]; it.Question != "Fill in the blank: A _____ is an area that holds related notes." || it.SuggestedAnswer != "workspace" ||
		it.Citations[0] != "concepts/workspace#chunk-0" || it.Sources[0].SourcePath != "concepts/workspace.md" {
		t.Errorf("cloze = %+v", it)
	}
	if len(q.Notes) != 1 || !strings.Contains(q.Notes[0], "1 of 20") {
		t.Errorf("notes %q", q.Notes)
	}

	// Said again later in the sentence, the term is hidden there too.
	q = offlineQuiz(t, docs, "concepts/entry", quiz.Options{Count: 1, Levels: []quiz.Level{quiz.Remember}, Seed: 1})
	if got := q.Items[0].Question; got != "Fill in the blank: An _____ is the top level of the tree of notes, above every other _____." {
		t.Errorf("cloze = %q", got)
	}

	q = offlineQuiz(t, docs, "concepts/workspace", quiz.Options{Count: 1, Levels: []quiz.Level{quiz.Understand}, Seed: 1})
	it := q.Items[0]
	if strings.Contains(strings.ToLower(it.Question), "workspace") || it.Options[it.Answer] != "Workspace" || len(it.Options) != 4 {
		t.Errorf("which doc = %+v", it)
	}
	// The same category's docs are the distractors first: both concepts.
	for k, o := range it.Options {
		if k != it.Answer && o == "Invoices" && !(slices.Contains(it.Options, "Entry") && slices.Contains(it.Options, "Tag")) {
			t.Errorf("options %q: another category's title before the same category's", it.Options)
		}
	}
}

func TestOfflineSteps(t *testing.T) {
	docs := []knowledge.Doc{storetest.NewDoc("guides/export", "Export",
		storetest.Section{Heading: "Steps", Body: "1. Open **Settings**.\n2. Choose [Export](x.md).\n3. Pick a format.\n4. Press `Save`."}),
		storetest.NewDoc("a/one", "One"), storetest.NewDoc("a/two", "Two")}
	q := offlineQuiz(t, plainDocs(docs), "guides/export", quiz.Options{Count: 10, Levels: []quiz.Level{quiz.Understand}, Seed: 3})
	var steps []quiz.Item
	for _, it := range q.Items {
		if strings.Contains(it.Question, "right after") {
			steps = append(steps, it)
		}
	}
	if len(steps) != 3 {
		t.Fatalf("%d step items, want one after each of steps 1-3: %+v", len(steps), q.Items)
	}
	for _, it := range steps {
		if len(it.Options) != 3 {
			t.Errorf("options %q, want the next step and two others", it.Options)
		}
	}
	i := slices.IndexFunc(steps, func(it quiz.Item) bool { return strings.Contains(it.Question, "“Open Settings.”") })
	if i < 0 {
		t.Fatalf("no item after step 1: %+v", steps)
	}
	first := steps[i]
	if !strings.Contains(first.Question, "“Open Settings.”") || first.Options[first.Answer] != "Choose Export." {
		t.Errorf("step item = %+v", first)
	}
}

func TestOfflineNeedsModelForHigherLevels(t *testing.T) {
	docs := demo.Docs(t)
	chunks, _ := quiz.Select(docs, "", nil)
	if _, err := quiz.Offline(docs, chunks, quiz.Options{Levels: []quiz.Level{quiz.Apply, quiz.Create}}); !errors.Is(err, quiz.ErrNeedsModel) {
		t.Fatalf("err = %v, want ErrNeedsModel", err)
	}
	q, err := quiz.Offline(docs, chunks, quiz.Options{Count: 4, Levels: []quiz.Level{quiz.Remember, quiz.Apply}})
	if err != nil || len(q.Items) != 4 || len(q.Notes) != 1 || !strings.Contains(q.Notes[0], "left out apply") {
		t.Fatalf("quiz %+v, err %v", q, err)
	}
}

func TestSelect(t *testing.T) {
	docs := demo.Docs(t)
	chunks, err := quiz.Select(docs, "concepts/workspace", nil)
	if err != nil || len(chunks) == 0 {
		t.Fatal(chunks, err)
	}
	for _, c := range chunks {
		if c.DocSlug != "concepts/workspace" || c.HeadingOnly {
			t.Fatalf("chunk %s", c.ID())
		}
	}
	chunks, err = quiz.Select(docs, "", []string{"widgets"})
	if err != nil || len(chunks) == 0 || chunks[0].Category != "widgets" {
		t.Fatal(err)
	}
	if _, err := quiz.Select(docs, "no/such", nil); err == nil || !strings.Contains(err.Error(), `"no/such"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := quiz.Select(docs, "", []string{"nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseLevels(t *testing.T) {
	got, err := quiz.ParseLevels("Apply, remember,apply")
	if err != nil || len(got) != 2 || got[0] != quiz.Remember || got[1] != quiz.Apply {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := quiz.ParseLevels("remember,synthesis"); err == nil || !strings.Contains(err.Error(), `"synthesis"`) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := quiz.ParseLevels(""); len(got) != 6 {
		t.Fatalf("empty = %v", got)
	}
}

// The text output shows the question, the lettered options, the answer,
// why the others are wrong and the source, with no control sequences from
// the docs.
func TestWriteText(t *testing.T) {
	q := quiz.Quiz{Items: []quiz.Item{{
		Level: quiz.Understand, Kind: quiz.MultipleChoice, Question: "Which doc says \x1b[31mthis\x1b[0m?",
		Options: []string{"A", "B", "C"}, Answer: 1, WhyWrong: []string{"not A", "", "not C"},
		Explanation: "B says so.", Citations: []string{"x/b#chunk-0"},
		Sources: []quiz.Source{{ChunkID: "x/b#chunk-0", Title: "B", HeaderPath: "B > Intro", SourcePath: "x/b.md"}},
	}}}
	var b bytes.Buffer
	if err := quiz.WriteText(&b, q); err != nil {
		t.Fatal(err)
	}
	want := "1. [understand] Which doc says this?\n   a) A\n   b) B\n   c) C\n   Answer: b) B\n   Not a: not A\n   Not c: not C\n   Why: B says so.\n   Source: B › Intro — x/b.md · x/b#chunk-0\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// The JSON has one shape: an answer index on multiple choice items only,
// lists never null, header paths unescaped.
func TestWriteJSONShape(t *testing.T) {
	q := offlineQuiz(t, demo.Docs(t), "concepts/entry", quiz.Options{Count: 2, Seed: 1, Levels: quiz.OfflineLevels})
	var got struct {
		Items []map[string]any `json:"items"`
		Notes []string         `json:"notes"`
	}
	out := jsonOf(t, q)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 2 || got.Notes == nil || strings.Contains(out, `\u003e`) {
		t.Fatalf("JSON:\n%s", out)
	}
	for _, it := range got.Items {
		_, hasAnswer := it["answer"]
		if hasAnswer != (it["kind"] == string(quiz.MultipleChoice)) {
			t.Errorf("item %v: answer present %v", it, hasAnswer)
		}
	}
}
