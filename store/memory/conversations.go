package memory

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// ConversationFiles keeps conversations as files, one JSON Lines file per
// conversation under Dir/<workspace>/<user>/<id>.jsonl: a header line,
// then one line per turn. Every write replaces the whole file (a
// temporary file renamed over it) under a lock shared with other docent
// processes, so a reader or a crash sees the old file or the new one,
// never half of one. A file with a line docent cannot read is an error
// naming the file and line, and nothing is ever written over it.
type ConversationFiles struct {
	// mu serializes this process's writers: the file lock alone does
	// not on systems without flock.
	mu       sync.Mutex
	dir      string
	lockWait time.Duration
	now      func() time.Time
}

// ConversationFiles keeps the conversations contract.
var _ store.Conversations = (*ConversationFiles)(nil)

// NewConversationFiles keeps conversations under dir, created on the
// first write. A writer waits at most lockWait (0: 10s) for another one.
func NewConversationFiles(dir string, lockWait time.Duration) *ConversationFiles {
	return &ConversationFiles{dir: dir, lockWait: cmp.Or(lockWait, defaultConversationLockWait), now: time.Now}
}

// defaultConversationLockWait bounds a wait for another writer of the
// same person's conversations, which only ever holds it for one file.
const defaultConversationLockWait = 10 * time.Second

// Dir is where the conversations are kept.
func (c *ConversationFiles) Dir() string { return c.dir }

// conversationLine is one line of a conversation file: the header (the
// first line) or a turn.
type conversationLine struct {
	Conversation *knowledge.Conversation `json:"conversation,omitempty"`
	Turn         *knowledge.Turn         `json:"turn,omitempty"`
}

// pathPart is a workspace or user name as one directory name: names are
// free text, and none may climb out of the directory or into another's.
func pathPart(name string) string {
	p := url.PathEscape(name)
	if strings.HasPrefix(p, ".") {
		p = "%2E" + p[1:]
	}
	return p
}

func (c *ConversationFiles) userDir(scope knowledge.Scope) string {
	return filepath.Join(c.dir, pathPart(scope.Workspace), pathPart(scope.User))
}

func (c *ConversationFiles) path(scope knowledge.Scope, id string) string {
	return filepath.Join(c.userDir(scope), id+".jsonl")
}

// CreateConversation writes a new conversation's header.
func (c *ConversationFiles) CreateConversation(ctx context.Context, scope knowledge.Scope, title string) (knowledge.Conversation, error) {
	if err := store.CheckConversationScope(scope); err != nil {
		return knowledge.Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	if !utf8.ValidString(title) || strings.ContainsRune(title, 0) {
		return knowledge.Conversation{}, errors.New("create conversation: the title is not valid UTF-8 or holds a NUL")
	}
	now := store.StoreTime(c.now())
	conv := knowledge.Conversation{
		ID: store.NewConversationID(), Workspace: scope.Workspace, User: scope.User,
		Title: store.ConversationTitle(title), CreatedAt: now, UpdatedAt: now,
	}
	err := c.locked(ctx, scope, func() error { return c.write(ctx, c.path(scope, conv.ID), conv) })
	if err != nil {
		return knowledge.Conversation{}, fmt.Errorf("create conversation: %w", err)
	}
	return conv, nil
}

// AddTurn appends a turn to a conversation.
func (c *ConversationFiles) AddTurn(ctx context.Context, scope knowledge.Scope, id string, t knowledge.Turn) (knowledge.Turn, error) {
	t, err := store.PrepareTurn(t, c.now())
	if err != nil {
		return knowledge.Turn{}, fmt.Errorf("add turn to conversation %s: %w", id, err)
	}
	err = c.update(ctx, scope, id, func(conv *knowledge.Conversation) error {
		t.Index = len(conv.Turns)
		conv.Turns = append(conv.Turns, t)
		conv.UpdatedAt = t.At
		return nil
	})
	if err != nil {
		return knowledge.Turn{}, fmt.Errorf("add turn to conversation %s: %w", id, err)
	}
	return t, nil
}

// RateTurn sets a turn's feedback.
func (c *ConversationFiles) RateTurn(ctx context.Context, scope knowledge.Scope, id string, index int, f knowledge.TurnFeedback) error {
	f, err := store.PrepareFeedback(f, c.now())
	if err != nil {
		return fmt.Errorf("rate turn %d of conversation %s: %w", index, id, err)
	}
	err = c.update(ctx, scope, id, func(conv *knowledge.Conversation) error {
		if index < 0 || index >= len(conv.Turns) {
			return fmt.Errorf("%w: the conversation has %d turns", store.ErrTurnNotFound, len(conv.Turns))
		}
		conv.Turns[index].Feedback = &f
		conv.UpdatedAt = f.At
		return nil
	})
	if err != nil {
		return fmt.Errorf("rate turn %d of conversation %s: %w", index, id, err)
	}
	return nil
}

// GetConversation reads one conversation.
func (c *ConversationFiles) GetConversation(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Conversation, error) {
	conv, err := c.read(ctx, scope, id)
	if err != nil {
		return knowledge.Conversation{}, fmt.Errorf("read conversation %s: %w", id, err)
	}
	return conv, nil
}

// ListConversations reads every conversation file of scope.
func (c *ConversationFiles) ListConversations(ctx context.Context, scope knowledge.Scope, limit int) ([]knowledge.ConversationSummary, error) {
	if err := store.CheckConversationScope(scope); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	dir := c.userDir(scope)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []knowledge.ConversationSummary{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list conversations in %s: %w", dir, err)
	}
	out := []knowledge.ConversationSummary{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !e.Type().IsRegular() || !store.ParseConversationID(id) {
			continue // the lock file, temporary files, anything else
		}
		conv, err := c.read(ctx, scope, id)
		switch {
		case err == nil:
			out = append(out, conv.Summary())
		case ctx.Err() != nil:
			return nil, fmt.Errorf("list conversations: %w", ctx.Err())
		case errors.Is(err, store.ErrConversationNotFound):
			// Removed since the directory was read.
		default:
			// A damaged file must not hide the user's other conversations;
			// it is listed as it is, when it was last written, and left
			// alone for the user to mend or remove.
			s := knowledge.ConversationSummary{ID: id, Unreadable: err.Error()}
			if info, ierr := e.Info(); ierr == nil {
				s.UpdatedAt = info.ModTime().UTC()
			}
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b knowledge.ConversationSummary) int {
		return cmp.Or(b.UpdatedAt.Compare(a.UpdatedAt), strings.Compare(a.ID, b.ID))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// update reads, changes and rewrites one conversation under the lock.
func (c *ConversationFiles) update(ctx context.Context, scope knowledge.Scope, id string, change func(*knowledge.Conversation) error) error {
	if err := store.CheckConversationScope(scope); err != nil {
		return err
	}
	if !store.ParseConversationID(id) {
		return store.ErrConversationNotFound
	}
	return c.locked(ctx, scope, func() error {
		conv, err := c.read(ctx, scope, id)
		if err != nil {
			return err
		}
		if err := change(&conv); err != nil {
			return err
		}
		return c.write(ctx, c.path(scope, id), conv)
	})
}

// locked runs fn holding the lock of scope's conversations.
func (c *ConversationFiles) locked(ctx context.Context, scope knowledge.Scope, fn func() error) error {
	dir := c.userDir(scope)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	release, err := lockFile(ctx, filepath.Join(dir, ".lock"), c.lockWait)
	if err != nil {
		return err
	}
	defer release()
	return fn()
}

func (c *ConversationFiles) read(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Conversation, error) {
	if err := store.CheckConversationScope(scope); err != nil {
		return knowledge.Conversation{}, err
	}
	if err := ctx.Err(); err != nil {
		return knowledge.Conversation{}, err
	}
	if !store.ParseConversationID(id) {
		return knowledge.Conversation{}, store.ErrConversationNotFound
	}
	path := c.path(scope, id)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return knowledge.Conversation{}, store.ErrConversationNotFound
	}
	if err != nil {
		return knowledge.Conversation{}, fmt.Errorf("read %s: %w", path, err)
	}
	conv, err := DecodeConversation(path, data)
	if err != nil {
		return knowledge.Conversation{}, err
	}
	// A file moved into another's directory is not theirs.
	if conv.ID != id || conv.Workspace != scope.Workspace || conv.User != scope.User {
		return knowledge.Conversation{}, fmt.Errorf("conversation file %s, line 1: holds conversation %s of %s/%s, not %s of %s/%s",
			path, conv.ID, conv.Workspace, conv.User, id, scope.Workspace, scope.User)
	}
	return conv, nil
}

func (c *ConversationFiles) write(ctx context.Context, path string, conv knowledge.Conversation) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := EncodeConversation(conv)
	if err != nil {
		return err
	}
	_, err = writeFileAtomic(path, data)
	return err
}

// EncodeConversation renders a conversation file: the header, then one
// line per turn.
func EncodeConversation(conv knowledge.Conversation) ([]byte, error) {
	var buf bytes.Buffer
	header := conv
	header.Turns = nil
	lines := []conversationLine{{Conversation: &header}}
	for i := range conv.Turns {
		lines = append(lines, conversationLine{Turn: &conv.Turns[i]})
	}
	for _, l := range lines {
		b, err := json.Marshal(l)
		if err != nil {
			return nil, fmt.Errorf("encode conversation %s: %w", conv.ID, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// DecodeConversation reads a conversation file's content. A line that is
// not what docent writes there is an error naming the file and the line:
// the file is the only copy of the conversation, and nothing may be
// guessed or dropped. Blank lines are skipped.
func DecodeConversation(path string, data []byte) (knowledge.Conversation, error) {
	var conv *knowledge.Conversation
	for lineNo := 1; len(data) > 0; lineNo++ {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("conversation file %s, line %d: %s", path, lineNo, fmt.Sprintf(format, args...))
		}
		l, err := decodeConversationLine(line)
		if err != nil {
			return knowledge.Conversation{}, fail("%v", err)
		}
		switch {
		case l.Conversation != nil && l.Turn != nil:
			return knowledge.Conversation{}, fail("a line is a conversation or a turn, not both")
		case l.Conversation != nil:
			if conv != nil {
				return knowledge.Conversation{}, fail("a second conversation header")
			}
			h := *l.Conversation
			if !store.ParseConversationID(h.ID) {
				return knowledge.Conversation{}, fail("conversation id %q is not a lower-case uuid", h.ID)
			}
			if err := store.CheckConversationScope(knowledge.Scope{Workspace: h.Workspace, User: h.User}); err != nil {
				return knowledge.Conversation{}, fail("%v", err)
			}
			if !utf8.ValidString(h.Title) || strings.ContainsRune(h.Title, 0) {
				return knowledge.Conversation{}, fail("the title is not valid UTF-8 or holds a NUL")
			}
			h.CreatedAt, h.UpdatedAt = h.CreatedAt.UTC(), h.UpdatedAt.UTC()
			h.Turns = []knowledge.Turn{}
			conv = &h
		case l.Turn != nil:
			if conv == nil {
				return knowledge.Conversation{}, fail("a turn before the conversation header")
			}
			t := *l.Turn
			if t.Index != len(conv.Turns) {
				return knowledge.Conversation{}, fail("turn %d where turn %d belongs", t.Index, len(conv.Turns))
			}
			if t.At.IsZero() {
				return knowledge.Conversation{}, fail("turn %d has no time", t.Index)
			}
			if t.Feedback != nil && t.Feedback.At.IsZero() {
				return knowledge.Conversation{}, fail("turn %d's feedback has no time", t.Index)
			}
			// The same checks as a write: a hand-edited line is held to
			// what docent would have stored.
			t, err := store.PrepareTurn(t, time.Time{})
			if err != nil {
				return knowledge.Conversation{}, fail("%v", err)
			}
			conv.Turns = append(conv.Turns, t)
		default:
			return knowledge.Conversation{}, fail("neither a conversation nor a turn")
		}
	}
	if conv == nil {
		return knowledge.Conversation{}, fmt.Errorf("conversation file %s: no conversation header", path)
	}
	return *conv, nil
}

func decodeConversationLine(line []byte) (conversationLine, error) {
	if !utf8.Valid(line) {
		return conversationLine{}, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	// A field this docent does not know may be a newer docent's: refusing
	// the file keeps a rewrite from dropping it.
	dec.DisallowUnknownFields()
	var l conversationLine
	if err := dec.Decode(&l); err != nil {
		return conversationLine{}, fmt.Errorf("not a conversation line: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return conversationLine{}, errors.New("not a conversation line: more than one JSON value")
	}
	return l, nil
}

// Ratings reads every conversation file under the directory, every
// workspace's and user's, and returns the feedback of the rated turns
// (store.RatingsReader): the team's reports on this machine count them.
// A file that does not parse is an error naming it and its line.
func (c *ConversationFiles) Ratings(ctx context.Context) (map[store.TurnRef]knowledge.TurnFeedback, error) {
	out := map[store.TurnRef]knowledge.TurnFeedback{}
	err := filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == c.dir {
			return fs.SkipDir // no conversation yet
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(path) != ".jsonl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		conv, err := DecodeConversation(path, data)
		if err != nil {
			return err
		}
		for _, t := range conv.Turns {
			if t.Feedback != nil {
				out[store.TurnRef{Conversation: conv.ID, Index: t.Index}] = *t.Feedback
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the ratings in %s: %w", c.dir, err)
	}
	return out, nil
}
