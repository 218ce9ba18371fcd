package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/docent-sh/docent/knowledge"
)

// Conversations is the contract every conversation store keeps: the
// embedded one (store/memory, a JSON Lines file per conversation) and
// PostgreSQL; storetest.RunConversations holds both to it. A conversation
// is read and written only by its own user in its own workspace
// (scope.Workspace and scope.User both match): anything else is
// ErrConversationNotFound, so an error never tells one user that
// another's conversation exists.
type Conversations interface {
	// CreateConversation starts an empty conversation owned by scope,
	// titled title (the first question), and returns it with its ID and
	// times.
	CreateConversation(ctx context.Context, scope knowledge.Scope, title string) (knowledge.Conversation, error)
	// AddTurn appends a turn, assigning its Index (the next one) and, when
	// zero, its time; it returns the turn as stored. The conversation's
	// UpdatedAt becomes the turn's time.
	AddTurn(ctx context.Context, scope knowledge.Scope, conversationID string, t knowledge.Turn) (knowledge.Turn, error)
	// RateTurn sets (or replaces) the feedback of a turn; ErrTurnNotFound
	// for an index the conversation does not have.
	RateTurn(ctx context.Context, scope knowledge.Scope, conversationID string, index int, f knowledge.TurnFeedback) error
	// GetConversation returns one conversation with its turns, by index.
	GetConversation(ctx context.Context, scope knowledge.Scope, id string) (knowledge.Conversation, error)
	// ListConversations summarizes scope's conversations, most recently
	// updated first (then by ID), at most limit of them (limit <= 0: all).
	// One that cannot be read is listed with Unreadable set, not dropped
	// and not failing the others.
	ListConversations(ctx context.Context, scope knowledge.Scope, limit int) ([]knowledge.ConversationSummary, error)
}

var (
	// ErrConversationNotFound is returned for a conversation that does not
	// exist or is not the caller's.
	ErrConversationNotFound = errors.New("conversation not found")
	// ErrTurnNotFound is returned for a turn index a conversation lacks.
	ErrTurnNotFound = errors.New("turn not found")
)

// MaxTitleChars bounds a conversation's title: it is the first question,
// which may be a whole ticket.
const MaxTitleChars = 200

// ConversationTitle is the title a conversation keeps for its first
// question: on one line, at most MaxTitleChars characters.
func ConversationTitle(question string) string {
	t := strings.Join(strings.Fields(question), " ")
	if utf8.RuneCountInString(t) > MaxTitleChars {
		r := []rune(t)
		t = strings.TrimSpace(string(r[:MaxTitleChars-1])) + "…"
	}
	return t
}

// CheckConversationScope names what is wrong with the scope of a
// conversation call: both the workspace and the user are needed.
func CheckConversationScope(scope knowledge.Scope) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	for _, s := range []string{scope.Workspace, scope.User} {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return fmt.Errorf("scope %q/%q is not valid UTF-8 or holds a NUL", scope.Workspace, scope.User)
		}
	}
	return nil
}

// ParseConversationID reports whether id is a conversation id (a uuid in
// its lower-case form); anything else names no conversation.
func ParseConversationID(id string) bool {
	u, err := uuid.Parse(id)
	return err == nil && u.String() == id
}

// NewConversationID is a fresh conversation id.
func NewConversationID() string { return uuid.NewString() }

// PrepareTurn checks a turn a writer hands over and returns the copy a
// store keeps: times in UTC at microsecond precision (PostgreSQL's), so
// what a write returns equals what a read gives back in every store.
func PrepareTurn(t knowledge.Turn, now time.Time) (knowledge.Turn, error) {
	if err := t.Validate(); err != nil {
		return knowledge.Turn{}, err
	}
	t = t.Clone()
	if t.At.IsZero() {
		t.At = now
	}
	t.At = StoreTime(t.At)
	if t.Feedback != nil {
		f, err := PrepareFeedback(*t.Feedback, now)
		if err != nil {
			return knowledge.Turn{}, err
		}
		t.Feedback = &f
	}
	return t, nil
}

// PrepareFeedback checks a rating and stamps its time.
func PrepareFeedback(f knowledge.TurnFeedback, now time.Time) (knowledge.TurnFeedback, error) {
	if err := f.Validate(); err != nil {
		return knowledge.TurnFeedback{}, err
	}
	if f.At.IsZero() {
		f.At = now
	}
	f.At = StoreTime(f.At)
	return f, nil
}

// StoreTime is t as every store keeps it: UTC, to the microsecond.
func StoreTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// TurnRef names one turn of a conversation, as a retrieval event does.
type TurnRef struct {
	Conversation string
	Index        int
}

// RatingsReader lists the feedback of every rated turn, whoever asked,
// for the team's reports to join to the retrieval events (the embedded
// store; PostgreSQL joins them as it lists the events).
type RatingsReader interface {
	Ratings(ctx context.Context) (map[TurnRef]knowledge.TurnFeedback, error)
}

// JoinRatings sets the Feedback of each event whose turn was rated.
func JoinRatings(events []knowledge.RetrievalEvent, ratings map[TurnRef]knowledge.TurnFeedback) {
	for i, ev := range events {
		if ev.TurnIndex == nil || ev.ConversationID == "" {
			continue
		}
		if f, ok := ratings[TurnRef{ev.ConversationID, *ev.TurnIndex}]; ok {
			events[i].Feedback = &f
		}
	}
}
