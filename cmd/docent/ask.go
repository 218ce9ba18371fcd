package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/internal/askjson"
	"github.com/docent-sh/docent/internal/ticket"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// askOutput is the one object `docent ask --json` prints, shared with
// docent serve's /api/retrieve.
type askOutput = askjson.Output

type askCitation = askjson.Citation

type askEnhanced = askjson.Enhanced

func newAskCmd(e *env) *cobra.Command {
	var (
		asJSON  bool
		docSlug string
		after   string
		corpus  string
		noteID  string
		exclude []string
		// --continue and --conversation: the conversation this turn goes on.
		continueLast   bool
		conversationID string
		enhance        bool
	)
	cmd := &cobra.Command{
		Use:   "ask [--json] [-c | --conversation ID] [--corpus docs|notes|auto] [--doc SLUG | --note ID] [--after CHUNK_ID | QUESTION | -]",
		Short: "Answer one question without the TUI",
		Long: "ask runs one turn: retrieval, the decision, and (for found and multi) the written answer,\n" +
			"streamed to stdout. --doc answers the question from one doc's best-matching sections (what\n" +
			"picking a pill does), or without a question gives the doc's overview; --after continues a\n" +
			"resource from the given chunk (\"tell me more\"). --corpus asks the docs or the team's notes\n" +
			"alone (by default both, as the question says); --note answers from one note, as --doc from a\n" +
			"doc. --json prints one object instead.\n" +
			"Every turn is recorded in a conversation: a new one, or with --continue (-c) your last one and\n" +
			"with --conversation ID that one, whose recent messages the model then reads as the chat's would.\n" +
			"Without a question, and with -, the question (or a whole customer ticket) is read from stdin;\n" +
			"one longer than the engine reads is answered from its informative words, with a note saying so.",
		RunE: func(cmd *cobra.Command, args []string) error {
			question, err := askQuestion(cmd.InOrStdin(), args, docSlug != "" || noteID != "", after != "")
			if err != nil {
				return err
			}
			c, err := knowledge.ParseCorpus(corpus)
			if err != nil {
				return usageErrorf("--corpus: %v", err)
			}
			reduced := ticket.Reduce(question, retrieval.MaxQueryChars)
			req := assistant.Request{Query: reduced.Query, DocSlug: docSlug, AfterChunkID: after, Corpus: c, NoteID: noteID, Exclude: exclude}
			if err := validateAsk(req); err != nil {
				return err
			}
			if continueLast && conversationID != "" {
				return usageErrorf("ask takes --continue or --conversation ID, not both")
			}
			ctx := cmd.Context()
			a, err := e.startApp(ctx, false, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer a.Close()
			if e.cfg.contextPath != "" {
				st, err := assistant.ReadAppState(ctx, e.cfg.contextPath)
				if err != nil {
					return usageErrorf("--context: %v", err)
				}
				a.session.SetApp(&st)
			}

			rec, err := e.askRecorder(ctx, a, continueLast, conversationID)
			if err != nil {
				return err
			}

			req.Categories = a.scope
			var enhanced *askEnhanced
			if enhance {
				if enhanced, err = enhanceAsk(ctx, a.session, &req, cmd.ErrOrStderr(), asJSON); err != nil {
					return err
				}
			}
			req, rec = e.nameAskTurn(ctx, rec, req, cmd.ErrOrStderr())
			res := a.session.Retrieve(ctx, req)
			out := cmd.OutOrStdout()
			var emit func(string)
			// The answer arrives in pieces: a stream keeps a sequence cut
			// between two pieces from getting through half-parsed.
			var safe textsafe.Stream
			// Citations print as footnotes, numbered as they first appear.
			footnotes := cite.NewRenumberer(nil)
			if !asJSON {
				emit = func(chunk string) { io.WriteString(out, safe.Write(footnotes.Write(chunk))) }
			}
			ans, err := a.session.Answer(ctx, res, emit)
			if !asJSON {
				io.WriteString(out, safe.Write(footnotes.Flush()))
				io.WriteString(out, safe.Flush())
			}
			recorded := e.recordAsk(ctx, rec, req, res, ans, cmd.ErrOrStderr())
			if err != nil {
				return fmt.Errorf("answer: %w", err)
			}
			if reduced.Note != "" {
				res.Notes = append([]string{reduced.Note}, res.Notes...)
			}
			if asJSON {
				return writeAskJSON(out, a, res, ans, enhanced, recorded)
			}
			writeAskText(out, cmd.ErrOrStderr(), e, res, ans, recorded)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object with the decision, evidence and metrics")
	cmd.Flags().StringVar(&docSlug, "doc", "", "answer from this doc (slug), as picking a pill does")
	cmd.Flags().StringVar(&after, "after", "", "continue the resource after this chunk id (slug#chunk-N)")
	cmd.Flags().StringVar(&corpus, "corpus", "auto", "answer from docs, notes, or auto (both, as the question says)")
	cmd.Flags().StringVar(&noteID, "note", "", "answer from this note (id), as --doc does from a doc")
	cmd.Flags().StringSliceVar(&exclude, "exclude", nil, "chunk ids not to return as evidence (repeat, or comma-separate)")
	cmd.Flags().BoolVar(&enhance, "enhance", false, "first have the model propose search terms the question lacks, keep those the docs write, and search with them (the rewrite is shown on stderr; needs a model provider)")
	cmd.Flags().BoolVarP(&continueLast, "continue", "c", false, "continue your last conversation: its recent messages go to the model, and the turn is added to it")
	cmd.Flags().StringVar(&conversationID, "conversation", "", "continue this conversation (id, or a unique start of it: docent history lists them)")
	return cmd
}

// maxStdinBytes bounds what ask reads from stdin: a long ticket is a few
// tens of kilobytes, and anything far larger is a wrong pipe.
const maxStdinBytes = 1 << 20

// askQuestion is the question of `docent ask`: its arguments, or stdin
// when the only argument is "-", or when there is none (and no --doc or
// --after) and stdin is not a terminal, so `cat ticket.txt | docent ask`
// answers the ticket. With --doc the question is optional: a bare --doc
// never waits on stdin.
func askQuestion(stdin io.Reader, args []string, doc, after bool) (string, error) {
	explicit := len(args) == 1 && args[0] == "-"
	if !explicit && (len(args) > 0 || doc || after || isTerminal(stdin)) {
		return strings.Join(args, " "), nil
	}
	if explicit && after {
		return "", usageErrorf("ask takes --after or a question, not both")
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxStdinBytes+1))
	if err != nil {
		return "", fmt.Errorf("ask: read the question from stdin: %w", err)
	}
	if len(data) > maxStdinBytes {
		return "", usageErrorf("ask: stdin holds more than %d bytes: not a question or a ticket", maxStdinBytes)
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", usageErrorf("ask needs a question: stdin was empty (pipe a question or a ticket, or give it as an argument)")
	}
	return string(data), nil
}

// validateAsk rejects turns with nothing to look up: a question, --doc
// (with or without a question) or --after alone, and a question must have
// a letter or digit.
func validateAsk(req assistant.Request) error {
	switch {
	case req.Query == "" && req.DocSlug == "" && req.NoteID == "" && req.AfterChunkID == "":
		return usageErrorf("ask needs a question (or --doc SLUG, --note ID, or --after CHUNK_ID)")
	case req.DocSlug != "" && req.NoteID != "":
		return usageErrorf("ask takes --doc or --note, not both")
	case req.AfterChunkID != "" && (req.Query != "" || req.DocSlug != "" || req.NoteID != ""):
		return usageErrorf("ask takes --after alone, without --doc, --note or a question")
	case req.Query != "" && !strings.ContainsFunc(req.Query, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
		return usageErrorf("ask: the question %q has no words in it", textsafe.Clip(req.Query, 80))
	}
	return nil
}

// enhanceAsk widens req with the terms the model proposes that the docs
// write (assistant.Session.Enhance) and shows the rewrite on stderr as
// the question and its "+term"s, with the terms refused. Without a model,
// or when the model fails or is slow, the question is searched as
// written, and stderr says why: an enhancement is a refinement, never a
// reason not to answer.
func enhanceAsk(ctx context.Context, s *assistant.Session, req *assistant.Request, stderr io.Writer, asJSON bool) (*askEnhanced, error) {
	if strings.TrimSpace(req.Query) == "" {
		return nil, usageErrorf("--enhance needs a question")
	}
	enh, err := s.Enhance(ctx, req.Query)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintf(stderr, "docent: %s; searching the question as written\n", textsafe.Line(err.Error()))
		return nil, nil
	}
	req.Terms = enh.Added
	if !asJSON {
		fmt.Fprintf(stderr, "enhanced: %s\n", textsafe.Line(enh.Diff()))
		if len(enh.Refused) > 0 {
			fmt.Fprintf(stderr, "refused (the docs never write them): %s\n", textsafe.Line(strings.Join(enh.Refused, ", ")))
		}
	}
	return &askEnhanced{Added: nonNil(enh.Added), Refused: nonNil(enh.Refused)}, nil
}

func writeAskJSON(w io.Writer, a *app, res retrieval.Result, ans assistant.Answer, enhanced *askEnhanced, recorded *recordedTurn) error {
	o := askjson.New(res, ans, a.session.Stats(), a.selection)
	o.Enhanced = enhanced
	if recorded != nil {
		o.Conversation, o.Turn = recorded.conversation, &recorded.index
	}
	return writeJSON(w, o)
}

// writeAskText ends a streamed answer with what a person needs next: the
// options to pick from, or the sources the answer rests on. Notes about
// the answer (a model that failed, a question cut short) go to errOut, so
// stdout holds the answer alone. A recorded turn's picks continue its
// conversation: the pick is the next turn of the same exchange, which
// history shows whole and whose later turns read the pick's answer.
func writeAskText(w, errOut io.Writer, e *env, res retrieval.Result, ans assistant.Answer, recorded *recordedTurn) {
	fmt.Fprintln(w)
	if ans.Notice != "" {
		fmt.Fprintf(errOut, "note: %s\n", textsafe.Line(ans.Notice))
	}
	if ans.Stopped {
		fmt.Fprintln(w, "\n(stopped)")
	}
	for _, n := range res.Notes {
		fmt.Fprintf(errOut, "note: %s\n", textsafe.Line(n))
	}
	if res.Hint != "" {
		fmt.Fprintf(errOut, "note: %s\n", textsafe.Line(res.Hint))
	}
	if len(res.Options) > 0 {
		fmt.Fprintln(w)
		for i, o := range res.Options {
			label := textsafe.Line(o.Label)
			if o.Category != "" {
				label += " (" + textsafe.Line(o.Category) + ")"
			}
			args := pickArgs(o, res)
			if recorded != nil {
				// After the doc, which is what a reader scans the line for.
				args = slices.Insert(args, 2, "--conversation", recorded.conversation)
			}
			fmt.Fprintf(w, "  %d) %s  → %s\n", i+1, label, e.command("ask", args...))
		}
	}
	// The sources are the chunks the answer cites, by footnote number.
	if notes := cite.Footnotes(ans.Text, ans.Sources).Notes; assistant.NeedsModel(res) && len(notes) > 0 {
		fmt.Fprintln(w, "\nsources:")
		for _, n := range notes {
			fmt.Fprintf(w, "  [%d] %s\n", n.N, n.Label())
		}
	}
}

// pickArgs are the arguments of the command that picks option o of res:
// the doc, and the question (a multi-intent option's own part of it) so
// the pick answers it from that doc. A question too long to paste (a
// ticket) is given as the words the engine read from it.
func pickArgs(o retrieval.Option, res retrieval.Result) []string {
	args := []string{"--doc", o.DocSlug}
	if id, ok := knowledge.NoteIDFromSlug(o.DocSlug); ok {
		args = []string{"--note", id}
	}
	q := cmp.Or(o.Asked, res.Query)
	if utf8.RuneCountInString(q) > maxSuggestedQuestion {
		q = strings.Join(res.NormalizedTokens, " ")
	}
	// A leading dash would read as a flag; such a question is left out.
	if q = strings.TrimSpace(q); q != "" && !strings.HasPrefix(q, "-") {
		args = append(args, q)
	}
	return args
}

// maxSuggestedQuestion is the longest question, in characters, a
// suggested command repeats as typed.
const maxSuggestedQuestion = 200

// nonNil keeps JSON arrays as [] rather than null.
func nonNil[T any](s []T) []T { return askjson.NonNil(s) }
