package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/memory"
	"github.com/docent-sh/docent/store/postgres"
	"github.com/docent-sh/docent/textsafe"
)

// conversationsDir is where the embedded store keeps conversations: in
// docent's XDG data directory, beside the notes, since they are data a
// person keeps.
func (e *env) conversationsDir() string {
	return filepath.Join(dataDir(e.getenv), "conversations")
}

// conversationScope is whose conversations these are: --user in
// --workspace, or in knowledge.DefaultConversationWorkspace without one
// (a person's own history needs no team).
func (e *env) conversationScope() (knowledge.Scope, error) {
	s := knowledge.Scope{
		Workspace: cmp.Or(strings.TrimSpace(e.cfg.workspace), knowledge.DefaultConversationWorkspace),
		User:      e.user(),
	}
	if err := s.Validate(); err != nil {
		return knowledge.Scope{}, usageErrorf("conversations: %v", err)
	}
	return s, nil
}

// recorderFor is the conversation recorder of a running docent: in its
// PostgreSQL store when it has one, else in the conversation files.
func (e *env) recorderFor(st store.Store) (*conversation.Recorder, error) {
	scope, err := e.conversationScope()
	if err != nil {
		return nil, err
	}
	return conversation.NewRecorder(e.conversationsOf(st), scope), nil
}

// conversationsOf is where a running docent keeps conversations: its
// PostgreSQL store when it has one, else the conversation files.
func (e *env) conversationsOf(st store.Store) store.Conversations {
	if cs, ok := st.(store.Conversations); ok {
		return cs
	}
	return memory.NewConversationFiles(e.conversationsDir(), e.cfg.lockWait)
}

// openConversations opens where conversations live for commands that
// start no chat (`docent history`): the database when one is configured,
// else the conversation files. close is never nil when err is nil.
func (e *env) openConversations(ctx context.Context) (st store.Conversations, where string, close func(), err error) {
	if e.cfg.dbURL != "" {
		pg, err := postgres.Open(ctx, e.cfg.dbURL, postgres.Options{
			Migrate: !e.cfg.noMigrate, CheckSchema: true, LockWait: e.cfg.lockWait,
		})
		if err != nil {
			return nil, "", nil, err
		}
		return pg, pg.Describe(), pg.Close, nil
	}
	dir := e.conversationsDir()
	return memory.NewConversationFiles(dir, e.cfg.lockWait), "conversations in " + dir, func() {}, nil
}

// yourConversations is the person docent acts as and the store of their
// conversations, for the history commands: who first, so a missing user
// is said before any database is opened.
func (e *env) yourConversations(ctx context.Context) (scope knowledge.Scope, st store.Conversations, where string, close func(), err error) {
	if scope, err = e.conversationScope(); err != nil {
		return scope, nil, "", nil, err
	}
	st, where, close, err = e.openConversations(ctx)
	return scope, st, where, close, err
}

// conversationError words a failure to find a conversation for a person.
func conversationError(id string, scope knowledge.Scope, where string, err error) error {
	switch {
	case errors.Is(err, conversation.ErrNone):
		return fmt.Errorf("no conversation of %s in workspace %s to continue yet (%s)",
			textsafe.Line(scope.User), textsafe.Line(scope.Workspace), where)
	case errors.Is(err, conversation.ErrAmbiguous):
		return usageErrorf("%v", err)
	case errors.Is(err, store.ErrConversationNotFound):
		return fmt.Errorf("no conversation %s of %s in workspace %s (docent history lists them)",
			textsafe.Line(id), textsafe.Line(scope.User), textsafe.Line(scope.Workspace))
	}
	return fmt.Errorf("read conversation %s in %s: %w", textsafe.Line(id), where, err)
}

// historyLimit is how many conversations `docent history` lists.
const historyLimit = 20

func newHistoryCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history [--json]",
		Short: "List your recent conversations",
		Long: "history lists your recent conversations, newest first: id, last update, turns and the first\n" +
			"question. `docent ask --conversation ID` or `docent --resume ID` continues one (any unique\n" +
			"start of its id will do), `docent history export ID [FILE]` writes it as markdown.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			scope, st, where, closeStore, err := e.yourConversations(cmd.Context())
			if err != nil {
				return err
			}
			defer closeStore()
			list, err := st.ListConversations(cmd.Context(), scope, historyLimit)
			if err != nil {
				return fmt.Errorf("list conversations in %s: %w", where, err)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), list)
			}
			writeHistory(cmd.OutOrStdout(), list)
			if len(list) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "docent: note: no conversations of %s in workspace %s yet\n",
					textsafe.Line(scope.User), textsafe.Line(scope.Workspace))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.AddCommand(newHistoryExportCmd(e))
	return cmd
}

// writeHistory prints one line per conversation: the short id (any
// unique start of it names it), when it was last updated, its turns and
// title.
func writeHistory(w io.Writer, list []knowledge.ConversationSummary) {
	for _, c := range list {
		if c.Unreadable != "" {
			fmt.Fprintf(w, "%s  %s  unreadable: %s\n", c.ID[:8], c.UpdatedAt.Local().Format("2006-01-02 15:04"),
				textsafe.Clip(textsafe.Line(c.Unreadable), 160))
			continue
		}
		fmt.Fprintf(w, "%s  %s  %3d %-5s  %s\n", c.ID[:8], c.UpdatedAt.Local().Format("2006-01-02 15:04"), c.Turns,
			map[bool]string{true: "turn", false: "turns"}[c.Turns == 1], textsafe.Clip(textsafe.Line(c.Title), 80))
	}
}

func newHistoryExportCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "export ID [FILE]",
		Short: "Write a conversation as markdown, its citations linked to the source files",
		Long: "export writes the conversation ID (or a unique start of it) as markdown: each question, its\n" +
			"answer with the citations as links to the source files, and the sources. Without FILE it\n" +
			"goes to a file named after the date and the first question in the current directory; - is\n" +
			"stdout. An existing file is not overwritten.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			scope, st, where, closeStore, err := e.yourConversations(cmd.Context())
			if err != nil {
				return err
			}
			defer closeStore()
			c, err := conversation.Find(cmd.Context(), st, scope, args[0])
			if err != nil {
				return conversationError(args[0], scope, where, err)
			}
			file := ""
			if len(args) == 2 {
				file = args[1]
			}
			path, err := conversation.Export(cmd.Context(), c, file, conversation.MarkdownOptions{DocsRoot: e.docsRoot()}, cmd.OutOrStdout())
			if err != nil {
				return err
			}
			if path != "" {
				fmt.Fprintln(cmd.OutOrStdout(), path)
			}
			return nil
		},
	}
}

// docsRoot is where an export's source links point: the docs folder when
// one was given, else the files as the knowledge base names them.
func (e *env) docsRoot() string {
	if e.cfg.docsDir == "" || e.cfg.dbURL != "" {
		return ""
	}
	if abs, err := filepath.Abs(e.cfg.docsDir); err == nil {
		return abs
	}
	return e.cfg.docsDir
}

// recordTimeout bounds recording a turn after its answer, which a
// cancelled answer must not skip.
const recordTurnTimeout = 5 * time.Second

// askRecorder is the recorder of a `docent ask` turn: a new conversation,
// or the one --continue or --conversation names, restored into the
// session. Without a user to record for, the turn is answered unrecorded
// (nil), unless it was to continue a conversation.
func (e *env) askRecorder(ctx context.Context, a *app, continueLast bool, id string) (*conversation.Recorder, error) {
	rec, err := e.recorderFor(a.store)
	if err != nil {
		if continueLast || id != "" {
			return nil, err
		}
		e.log.Warn("turn not recorded", "err", err)
		return nil, nil
	}
	if !continueLast && id == "" {
		return rec, nil
	}
	c, err := rec.Resume(ctx, id)
	if err != nil {
		where := "conversations in " + e.conversationsDir()
		if _, ok := a.store.(store.Conversations); ok {
			where = a.store.Describe()
		}
		return nil, conversationError(id, rec.Scope(), where, err)
	}
	a.session.Restore(c.Turns)
	return rec, nil
}

// recordedTurn is where a turn was recorded.
type recordedTurn struct {
	conversation string
	index        int
}

// recordAsk records a `docent ask` turn. Recording is best effort: a
// failure is a note on stderr and in the log, never a failed answer.
func (e *env) recordAsk(ctx context.Context, rec *conversation.Recorder, req assistant.Request, res retrieval.Result, ans assistant.Answer, stderr io.Writer) *recordedTurn {
	if rec == nil {
		return nil
	}
	stored, err := rec.RecordAnswer(ctx, recordTurnTimeout, req, res, ans)
	if err != nil {
		e.log.Warn("record turn", "err", err)
		fmt.Fprintf(stderr, "docent: note: the turn was not recorded in your conversations: %s\n", textsafe.Line(err.Error()))
		return nil
	}
	return &recordedTurn{conversation: rec.Current().ID, index: stored.Index}
}

// nameAskTurn sets where the turn will be recorded, for its retrieval
// event. A store that cannot start the conversation records nothing of
// the turn: a note says so once, and rec comes back nil.
func (e *env) nameAskTurn(ctx context.Context, rec *conversation.Recorder, req assistant.Request, stderr io.Writer) (assistant.Request, *conversation.Recorder) {
	if rec == nil {
		return req, nil
	}
	id, index, err := rec.Next(ctx, conversation.Title(req))
	if err != nil {
		e.log.Warn("record turn", "err", err)
		fmt.Fprintf(stderr, "docent: note: the turn is not recorded in your conversations: %s\n", textsafe.Line(err.Error()))
		return req, nil
	}
	req.ConversationID, req.TurnIndex = id, &index
	return req, rec
}
