package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// Store keeps the conversations contract too (migration 012).
var _ store.Conversations = (*Store)(nil)

// CreateConversation inserts an empty conversation.
func (s *Store) CreateConversation(ctx context.Context, scope knowledge.Scope, title string) (knowledge.Conversation, error) {
	const op = "create conversation"
	if err := store.CheckConversationScope(scope); err != nil {
		return knowledge.Conversation{}, fmt.Errorf("%s: %w", op, err)
	}
	if !utf8.ValidString(title) || strings.ContainsRune(title, 0) {
		return knowledge.Conversation{}, fmt.Errorf("%s: the title is not valid UTF-8 or holds a NUL", op)
	}
	at := now()
	c := knowledge.Conversation{ID: store.NewConversationID(), Workspace: scope.Workspace, User: scope.User,
		Title: store.ConversationTitle(title), CreatedAt: at, UpdatedAt: at}
	_, err := s.pool.Exec(ctx, `INSERT INTO conversations (id, workspace_id, user_id, title, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $5)`, c.ID, c.Workspace, c.User, c.Title, at)
	if err != nil {
		return knowledge.Conversation{}, s.fail(ctx, op, err)
	}
	return c, nil
}

// lockConversation locks a conversation of scope for a write and returns
// how many turns it has.
func lockConversation(ctx context.Context, tx pgx.Tx, scope knowledge.Scope, id string) (int, error) {
	if !store.ParseConversationID(id) {
		return 0, store.ErrConversationNotFound
	}
	var locked string
	err := tx.QueryRow(ctx, `SELECT id::text FROM conversations WHERE workspace_id = $1 AND user_id = $2 AND id = $3 FOR UPDATE`,
		scope.Workspace, scope.User, id).Scan(&locked)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, store.ErrConversationNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("lock conversation: %w", err)
	}
	// Counted in a statement of its own, after the lock: at read committed
	// it sees the turns of the writer it waited for, which a count in the
	// locking statement (its snapshot taken before the wait) would not.
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM turns WHERE conversation_id = $1`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("count turns: %w", err)
	}
	return n, nil
}

// AddTurn inserts a turn at the next index, under the conversation's row
// lock so concurrent writers take turns.
func (s *Store) AddTurn(ctx context.Context, scope knowledge.Scope, id string, t knowledge.Turn) (knowledge.Turn, error) {
	op := "add turn to conversation " + id
	if err := store.CheckConversationScope(scope); err != nil {
		return knowledge.Turn{}, fmt.Errorf("%s: %w", op, err)
	}
	t, err := store.PrepareTurn(t, now())
	if err != nil {
		return knowledge.Turn{}, fmt.Errorf("%s: %w", op, err)
	}
	options, err := json.Marshal(nonNilSlice(t.Options))
	if err != nil {
		return knowledge.Turn{}, fmt.Errorf("%s: encode options: %w", op, err)
	}
	sources, err := json.Marshal(nonNilSlice(t.Sources))
	if err != nil {
		return knowledge.Turn{}, fmt.Errorf("%s: encode sources: %w", op, err)
	}
	err = s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		n, err := lockConversation(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		t.Index = n
		var rating *string
		var reason string
		var ratedAt *time.Time
		if f := t.Feedback; f != nil {
			r := string(f.Rating)
			rating, reason, ratedAt = &r, string(f.Reason), &f.At
		}
		if _, err := tx.Exec(ctx, `INSERT INTO turns (conversation_id, turn_index, asked_at, question, picked, status, rule,
			confidence, options, evidence, answer, sources, provider, model, retrieval_ms, ttft_ms, answer_ms,
			feedback_rating, feedback_reason, feedback_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
			id, t.Index, t.At, t.Question, t.Picked, t.Status, t.Rule, t.Confidence, string(options), textArray(t.Evidence),
			t.Answer, string(sources), t.Provider, t.Model, t.Timings.RetrievalMS, t.Timings.TTFTMS, t.Timings.AnswerMS,
			rating, reason, ratedAt); err != nil {
			return fmt.Errorf("insert turn: %w", err)
		}
		_, err = tx.Exec(ctx, `UPDATE conversations SET updated_at = $2 WHERE id = $1`, id, t.At)
		return err
	})
	if err != nil {
		return knowledge.Turn{}, s.conversationFail(ctx, op, err)
	}
	return t, nil
}

// RateTurn sets a turn's feedback.
func (s *Store) RateTurn(ctx context.Context, scope knowledge.Scope, id string, index int, f knowledge.TurnFeedback) error {
	op := fmt.Sprintf("rate turn %d of conversation %s", index, id)
	if err := store.CheckConversationScope(scope); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	f, err := store.PrepareFeedback(f, now())
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	err = s.writeNotesTx(ctx, func(tx pgx.Tx) error {
		n, err := lockConversation(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		if index < 0 || index >= n {
			return fmt.Errorf("%w: the conversation has %d turns", store.ErrTurnNotFound, n)
		}
		if _, err := tx.Exec(ctx, `UPDATE turns SET feedback_rating = $3, feedback_reason = $4, feedback_at = $5
			WHERE conversation_id = $1 AND turn_index = $2`, id, index, string(f.Rating), string(f.Reason), f.At); err != nil {
			return fmt.Errorf("update turn: %w", err)
		}
		_, err = tx.Exec(ctx, `UPDATE conversations SET updated_at = $2 WHERE id = $1`, id, f.At)
		return err
	})
	if err != nil {
		return s.conversationFail(ctx, op, err)
	}
	return nil
}

// GetConversation reads one conversation with its turns.
func (s *Store) GetConversation(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Conversation, error) {
	op := "read conversation " + id
	if err := store.CheckConversationScope(scope); err != nil {
		return knowledge.Conversation{}, fmt.Errorf("%s: %w", op, err)
	}
	if !store.ParseConversationID(id) {
		return knowledge.Conversation{}, fmt.Errorf("%s: %w", op, store.ErrConversationNotFound)
	}
	var c knowledge.Conversation
	err := s.readNotesTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id::text, workspace_id, user_id, title, created_at, updated_at FROM conversations
			WHERE workspace_id = $1 AND user_id = $2 AND id = $3`, scope.Workspace, scope.User, id).
			Scan(&c.ID, &c.Workspace, &c.User, &c.Title, &c.CreatedAt, &c.UpdatedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrConversationNotFound
		}
		if err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `SELECT turn_index, asked_at, question, picked, status, rule, confidence, options::text,
			evidence, answer, sources::text, provider, model, retrieval_ms, ttft_ms, answer_ms,
			feedback_rating, feedback_reason, feedback_at
			FROM turns WHERE conversation_id = $1 ORDER BY turn_index`, id)
		c.Turns, err = pgx.CollectRows(rows, scanTurn)
		return err
	})
	if err != nil {
		return knowledge.Conversation{}, s.conversationFail(ctx, op, err)
	}
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	return c, nil
}

func scanTurn(row pgx.CollectableRow) (knowledge.Turn, error) {
	var (
		t                knowledge.Turn
		options, sources string
		evidence         []string
		rating           *string
		reason           string
		ratedAt          *time.Time
	)
	if err := row.Scan(&t.Index, &t.At, &t.Question, &t.Picked, &t.Status, &t.Rule, &t.Confidence, &options,
		&evidence, &t.Answer, &sources, &t.Provider, &t.Model, &t.Timings.RetrievalMS, &t.Timings.TTFTMS, &t.Timings.AnswerMS,
		&rating, &reason, &ratedAt); err != nil {
		return knowledge.Turn{}, err
	}
	t.At = t.At.UTC()
	if len(evidence) > 0 {
		t.Evidence = evidence
	}
	if err := json.Unmarshal([]byte(options), &t.Options); err != nil {
		return knowledge.Turn{}, fmt.Errorf("turn %d: options: %w", t.Index, err)
	}
	if err := json.Unmarshal([]byte(sources), &t.Sources); err != nil {
		return knowledge.Turn{}, fmt.Errorf("turn %d: sources: %w", t.Index, err)
	}
	if len(t.Options) == 0 {
		t.Options = nil
	}
	if len(t.Sources) == 0 {
		t.Sources = nil
	}
	if rating != nil && ratedAt != nil {
		t.Feedback = &knowledge.TurnFeedback{Rating: knowledge.Rating(*rating), Reason: knowledge.FeedbackReason(reason), At: ratedAt.UTC()}
	}
	return t, nil
}

// ListConversations summarizes scope's conversations, most recent first.
func (s *Store) ListConversations(ctx context.Context, scope knowledge.Scope, limit int) ([]knowledge.ConversationSummary, error) {
	const op = "list conversations"
	if err := store.CheckConversationScope(scope); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	rows, _ := s.pool.Query(ctx, `SELECT c.id::text, c.title, (SELECT count(*) FROM turns t WHERE t.conversation_id = c.id),
		c.created_at, c.updated_at
		FROM conversations c WHERE c.workspace_id = $1 AND c.user_id = $2
		ORDER BY c.updated_at DESC, c.id LIMIT $3`, scope.Workspace, scope.User, lim)
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (knowledge.ConversationSummary, error) {
		var c knowledge.ConversationSummary
		err := row.Scan(&c.ID, &c.Title, &c.Turns, &c.CreatedAt, &c.UpdatedAt)
		c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
		return c, err
	})
	if err != nil {
		return nil, s.conversationFail(ctx, op, err)
	}
	if out == nil {
		out = []knowledge.ConversationSummary{}
	}
	return out, nil
}

// conversationFail wraps an error; a not-found passes as is, so callers
// can tell it.
func (s *Store) conversationFail(ctx context.Context, op string, err error) error {
	if errors.Is(err, store.ErrConversationNotFound) || errors.Is(err, store.ErrTurnNotFound) {
		return fmt.Errorf("%s: %w", op, err)
	}
	return s.fail(ctx, op, err)
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
