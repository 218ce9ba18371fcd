package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// A Conversation is one run of questions and answers a person had with
// docent, kept so it can be continued, reviewed and exported. It belongs
// to one user in one workspace and is read by that user alone: unlike a
// team note, what an agent asked is theirs.
type Conversation struct {
	ID        string    `json:"id"` // lower-case uuid, assigned by the store
	Workspace string    `json:"workspace"`
	User      string    `json:"user"`
	Title     string    `json:"title"` // the first question, as asked
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"` // when the last turn was added or rated
	Turns     []Turn    `json:"-"`          // by Index; only a full read fills them
}

// ConversationSummary is what `docent history` lists for a conversation.
type ConversationSummary struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Turns     int       `json:"turns"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Unreadable says why a stored conversation could not be read (a
	// damaged file of the embedded store): it is listed, by ID and when it
	// was last written, rather than hiding the others, and kept as it is.
	Unreadable string `json:"unreadable,omitempty"`
}

// Turn is one question and what docent did with it: how retrieval
// decided, what it offered, the evidence, the answer and who wrote it,
// how long each part took, and what the asker thought of it.
type Turn struct {
	Index int       `json:"index"` // 0 for the first turn; assigned by the store
	At    time.Time `json:"at"`    // when the question was asked; now when zero

	Question string `json:"question"`
	// Picked is the doc slug (or NoteSlug) of the option the asker picked
	// from the turn before, when this turn answers a pill; "" for a typed
	// question.
	Picked string `json:"picked,omitempty"`

	Status     string        `json:"status"` // retrieval.Status: found, weak, ambiguous, no_match, multi
	Rule       string        `json:"rule,omitempty"`
	Confidence float64       `json:"confidence"`
	Options    []TurnOption  `json:"options,omitempty"`  // the pills offered, in order
	Evidence   []string      `json:"evidence,omitempty"` // chunk ids, best first
	Answer     string        `json:"answer"`             // as written, chunk-id citations included
	Sources    []TurnSource  `json:"sources,omitempty"`  // what the answer's citations may name
	Provider   string        `json:"provider,omitempty"`
	Model      string        `json:"model,omitempty"`
	Timings    TurnTimings   `json:"timings"`
	Feedback   *TurnFeedback `json:"feedback,omitempty"`
}

// TurnOption is one pill a turn offered.
type TurnOption struct {
	Slug     string `json:"slug"`
	Label    string `json:"label"`
	Category string `json:"category,omitempty"`
}

// TurnSource is a chunk an answer was given, as a person recognizes it
// (cite.Source), so an export can name and link it long after the docs
// changed.
type TurnSource struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	Path  string `json:"path,omitempty"` // header path
	File  string `json:"file,omitempty"` // in the knowledge base
}

// TurnTimings are a turn's durations in milliseconds; 0 when a part did
// not run (a clarification calls no model).
type TurnTimings struct {
	RetrievalMS float64 `json:"retrieval_ms"`
	TTFTMS      float64 `json:"ttft_ms,omitempty"`
	AnswerMS    float64 `json:"answer_ms,omitempty"`
}

// TurnFeedback is the asker's rating of an answer, with a reason for a
// bad one.
type TurnFeedback struct {
	Rating Rating         `json:"rating"`
	Reason FeedbackReason `json:"reason,omitempty"`
	At     time.Time      `json:"at"` // now when zero
}

// Rating is a thumbs up or down.
type Rating string

const (
	RatingUp   Rating = "up"
	RatingDown Rating = "down"
)

// FeedbackReason is why an answer was rated down: one of the quick
// reasons the chat offers.
type FeedbackReason string

const (
	ReasonNotMeant   FeedbackReason = "not_what_i_meant"
	ReasonWrong      FeedbackReason = "wrong"
	ReasonOutdated   FeedbackReason = "outdated"
	ReasonIncomplete FeedbackReason = "incomplete"
)

// FeedbackReasons are the reasons in the order the chat offers them.
var FeedbackReasons = []FeedbackReason{ReasonNotMeant, ReasonWrong, ReasonOutdated, ReasonIncomplete}

// Label is how the chat words a reason.
func (r FeedbackReason) Label() string {
	switch r {
	case ReasonNotMeant:
		return "not what I meant"
	case ReasonWrong:
		return "wrong"
	case ReasonOutdated:
		return "outdated"
	case ReasonIncomplete:
		return "incomplete"
	}
	return string(r)
}

// Validate names what is wrong with a rating.
func (f TurnFeedback) Validate() error {
	switch f.Rating {
	case RatingUp:
		if f.Reason != "" {
			return fmt.Errorf("feedback: a rating up takes no reason, got %q", f.Reason)
		}
	case RatingDown:
		if f.Reason != "" && !slices.Contains(FeedbackReasons, f.Reason) {
			return fmt.Errorf("feedback: unknown reason %q", f.Reason)
		}
	default:
		return fmt.Errorf("feedback: rating %q is neither %q nor %q", f.Rating, RatingUp, RatingDown)
	}
	return nil
}

// DefaultConversationWorkspace is the workspace conversations are kept in
// when the asker has none: notes need a team, a person's own history does
// not.
const DefaultConversationWorkspace = "default"

// Validate names what is wrong with a turn before it is stored. Text must
// be valid UTF-8: PostgreSQL refuses anything else, and the embedded store
// must not differ.
func (t Turn) Validate() error {
	if strings.TrimSpace(t.Question) == "" && t.Picked == "" {
		return fmt.Errorf("turn: no question and no pick")
	}
	if t.Status == "" {
		return fmt.Errorf("turn %q: no status", t.Question)
	}
	texts := []string{t.Question, t.Picked, t.Status, t.Rule, t.Answer, t.Provider, t.Model}
	for _, o := range t.Options {
		texts = append(texts, o.Slug, o.Label, o.Category)
	}
	for _, s := range t.Sources {
		texts = append(texts, s.ID, s.Title, s.Path, s.File)
	}
	texts = append(texts, t.Evidence...)
	for _, s := range texts {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return fmt.Errorf("turn %q: text is not valid UTF-8 or holds a NUL", t.Question)
		}
	}
	if t.Feedback != nil {
		return t.Feedback.Validate()
	}
	return nil
}

// Clone deep-copies a turn.
func (t Turn) Clone() Turn {
	t.Options = slices.Clone(t.Options)
	t.Evidence = slices.Clone(t.Evidence)
	t.Sources = slices.Clone(t.Sources)
	if t.Feedback != nil {
		f := *t.Feedback
		t.Feedback = &f
	}
	return t
}

// Clone deep-copies a conversation.
func (c Conversation) Clone() Conversation {
	c.Turns = slices.Clone(c.Turns)
	for i := range c.Turns {
		c.Turns[i] = c.Turns[i].Clone()
	}
	return c
}

// Summary is the conversation as `docent history` lists it.
func (c Conversation) Summary() ConversationSummary {
	return ConversationSummary{ID: c.ID, Title: c.Title, Turns: len(c.Turns), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}
