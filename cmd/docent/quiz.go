package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/llm"
	"github.com/docent-sh/docent/quiz"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/tui"
)

func newQuizCmd(e *env) *cobra.Command {
	var (
		doc    string
		count  int
		levels string
		asJSON bool
		seed   uint64
	)
	cmd := &cobra.Command{
		Use:   "quiz [--doc SLUG | --scope CATEGORY] [--count N] [--levels remember,understand,...] [--seed N] [--json]",
		Short: "Write a quiz on the docs, to train on the product",
		Long: "quiz writes questions on the knowledge base at the levels of Bloom's revised taxonomy, each with\n" +
			"its answer, why the other options are wrong, and the chunks it rests on. --doc asks about one doc,\n" +
			"--scope about the docs of some categories. With a model provider the model writes the items and a\n" +
			"second call checks each one's level; without one (extractive) docent writes remember and understand\n" +
			"items from the docs' definitions, statements and steps, the same for the same --seed.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lv, err := quiz.ParseLevels(levels)
			if err != nil {
				return usageErrorf("--levels: %v", err)
			}
			if count < 1 || count > quiz.MaxCount {
				return usageErrorf("--count %d: want 1 to %d", count, quiz.MaxCount)
			}
			scope := retrieval.ParseCategories(e.cfg.categories)
			if doc != "" && len(scope) > 0 {
				return usageErrorf("quiz takes --doc or --scope, not both")
			}
			ctx := cmd.Context()
			sel, err := llm.Resolve(e.cfg.llmConfig(), e.getenv)
			switch {
			case errors.Is(err, llm.ErrMissingKey):
				e.log.Warn("quiz writer", "err", err)
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %v: the quiz is written offline\n", err)
			case err != nil:
				return usageErrorf("%v", err)
			}
			st, _, err := e.openReadStore(ctx, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer st.Close()
			docs, err := st.Corpus(ctx)
			if err != nil {
				return fmt.Errorf("read corpus from %s: %w", st.Describe(), err)
			}
			if len(docs) == 0 {
				return e.errNoDocsSeeded(st)
			}
			chunks, err := quiz.Select(docs, doc, scope)
			if err != nil {
				return usageErrorf("quiz: %v", err)
			}
			opts := quiz.Options{Count: count, Levels: lv, Seed: seed}
			writer, err := llm.NewResponder(sel, llm.WithLogger(e.log))
			if err != nil {
				return fmt.Errorf("quiz writer %s: %w", sel, err)
			}
			q, err := e.writeQuiz(ctx, writer, docs, chunks, opts, cmd.Flags().Changed("levels"))
			if errors.Is(err, quiz.ErrNeedsModel) {
				return usageErrorf("quiz --levels %s: %v", levels, err)
			}
			if err != nil {
				return err
			}
			e.log.Info("quiz written", "generator", q.Generator, "items", len(q.Items), "seed", seed)
			if asJSON {
				return quiz.WriteJSON(cmd.OutOrStdout(), q)
			}
			quiz.WriteNotes(cmd.ErrOrStderr(), q)
			return quiz.WriteText(cmd.OutOrStdout(), q)
		},
	}
	cmd.Flags().StringVar(&doc, "doc", "", "ask about this doc (slug) alone")
	cmd.Flags().IntVar(&count, "count", quiz.DefaultCount, "how many questions")
	cmd.Flags().StringVar(&levels, "levels", "", "Bloom levels, comma-separated: remember, understand, apply, analyze, evaluate, create (default: all; offline: remember and understand)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: the items with answers, citations and sources, and notes")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "the offline quiz's choice and order of questions, and the chunks a model is shown: the same seed gives the same quiz")
	return cmd
}

// writeQuiz writes a quiz with writer's model, or offline when it has
// none; without levels given, offline asks for the levels it can write.
func (e *env) writeQuiz(ctx context.Context, writer *llm.Responder, docs []knowledge.Doc, chunks []knowledge.Chunk, opts quiz.Options, levelsGiven bool) (quiz.Quiz, error) {
	if writer.CanJudge() {
		g := quiz.Generator{Model: writer, Log: e.log}
		return g.Generate(ctx, docs, chunks, opts)
	}
	if !levelsGiven {
		opts.Levels = quiz.OfflineLevels
	}
	return quiz.Offline(docs, chunks, opts)
}

// quizMaker is the chat's /quiz: the answer writer's model (or none),
// over what the store holds now, a new seed each time so a second quiz
// asks other questions.
func (e *env) quizMaker(a *app) tui.QuizMaker {
	writer, err := llm.NewResponder(a.selection, llm.WithLogger(e.log))
	if err != nil {
		e.log.Warn("quiz off", "err", err)
		return nil
	}
	var seed atomic.Uint64
	return func(ctx context.Context, slug string, scope []string) (quiz.Quiz, error) {
		docs, err := a.store.Corpus(ctx)
		if err != nil {
			return quiz.Quiz{}, fmt.Errorf("read corpus from %s: %w", a.store.Describe(), err)
		}
		chunks, err := quiz.Select(docs, slug, scope)
		if err != nil {
			return quiz.Quiz{}, err
		}
		q, err := e.writeQuiz(ctx, writer, docs, chunks, quiz.Options{Seed: seed.Add(1)}, false)
		if err == nil {
			e.log.Info("quiz written", "generator", q.Generator, "items", len(q.Items), "doc", slug)
		}
		return q, err
	}
}
