package tui

import (
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/conversation"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/textsafe"
)

// /new starts a fresh conversation, /resume reopens a recorded one and
// /export writes the current one as markdown.
const (
	newCmd    = "/new"
	resumeCmd = "/resume"
	exportCmd = "/export"
)

// maxAlternatives is how many other docs "not what I meant" offers.
const maxAlternatives = 3

// resumedMsg is the outcome of /resume.
type resumedMsg struct {
	conv knowledge.Conversation
	err  error
}

// exportedMsg is the outcome of /export.
type exportedMsg struct {
	path string
	err  error
}

// ratedMsg is the outcome of a rating of the answer shown as target.
type ratedMsg struct {
	f      knowledge.TurnFeedback
	target *message
	err    error
}

// keeper returns the backend's conversations, or says in the transcript
// why there are none.
func (m *Model) keeper(cmd string) (ConversationKeeper, bool) {
	k, ok := m.backend.(ConversationKeeper)
	if !ok {
		m.transcript.append(&message{role: roleError, text: cmd + " is not available: this chat records no conversations."})
	}
	return k, ok
}

// runConversationCommand runs /new, /resume or /export and reports
// whether q was one of them.
func (m *Model) runConversationCommand(q string) (tea.Cmd, bool) {
	if _, ok := commandArg(q, newCmd); ok {
		if k, ok := m.keeper(newCmd); ok {
			k.NewConversation()
			m.clearConversation()
			m.transcript.append(&message{role: roleInfo, text: "New conversation: what follows starts afresh."})
		}
		return m.sendQueued(), true
	}
	if id, ok := commandArg(q, resumeCmd); ok {
		k, ok := m.keeper(resumeCmd)
		if !ok {
			return m.sendQueued(), true
		}
		m.startWork(resuming)
		ctx := m.ctx
		return tea.Batch(func() tea.Msg {
			c, err := k.ResumeConversation(ctx, id)
			return resumedMsg{conv: c, err: err}
		}, m.spin.Tick), true
	}
	if file, ok := commandArg(q, exportCmd); ok {
		k, ok := m.keeper(exportCmd)
		if !ok {
			return m.sendQueued(), true
		}
		m.startWork(exporting)
		ctx := m.ctx
		return tea.Batch(func() tea.Msg {
			path, err := k.ExportConversation(ctx, file)
			return exportedMsg{path: path, err: err}
		}, m.spin.Tick), true
	}
	return nil, false
}

func (m *Model) handleResumed(msg resumedMsg) {
	m.activity = idle
	switch {
	case errors.Is(msg.err, conversation.ErrNone):
		m.transcript.append(&message{role: roleError, text: "/resume: you have no conversation to resume yet."})
	case errors.Is(msg.err, store.ErrConversationNotFound):
		m.transcript.append(&message{role: roleError, text: "/resume: none of your conversations has that id (docent history lists them)."})
	case msg.err != nil:
		m.transcript.append(&message{role: roleError, text: "/resume: " + errorText(msg.err)})
	default:
		m.showConversation(msg.conv)
	}
}

func (m *Model) handleExported(msg exportedMsg) {
	m.activity = idle
	if msg.err != nil {
		m.transcript.append(&message{role: roleError, text: "/export: " + errorText(msg.err)})
		return
	}
	m.transcript.append(&message{role: roleInfo, text: "Exported the conversation to " + textsafe.Line(msg.path) + "."})
}

// clearConversation empties the screen of the conversation so far.
func (m *Model) clearConversation() {
	m.transcript = newTranscript(m.st)
	m.pills = pills{}
	m.lastResult, m.lastInfo = nil, nil
	m.offered, m.picked, m.resumed = nil, "", nil
	m.evidence.setItems(nil)
	m.rebuildDebug()
	m.turn++ // anything still on its way belongs to the old conversation
}

// showConversation replaces the transcript with a recorded conversation:
// each question (a pick as the pill it picked), and each reply with its
// sources and rating.
func (m *Model) showConversation(c knowledge.Conversation) {
	m.clearConversation()
	for i, t := range c.Turns {
		m.transcript.append(&message{role: roleUser, text: textsafe.String(askedText(c.Turns, i))})
		reply := &message{role: roleAssistant, text: textsafe.String(t.Answer),
			answer: assistant.NeedsModel(retrieval.Result{Status: retrieval.Status(t.Status)}), question: t.Question,
			footer: ratingText(t.Feedback)}
		if len(t.Sources) > 0 {
			reply.sources = conversation.Sources(t)
		}
		m.transcript.append(reply)
	}
	// "not what I meant" on the last answer reopens the pick it made.
	if n := len(c.Turns); n > 0 {
		last := c.Turns[n-1]
		m.resumed = &last
		if m.picked = last.Picked; n > 1 {
			m.offered = nil
			for _, o := range c.Turns[n-2].Options {
				m.offered = append(m.offered, retrieval.Option{Label: textsafe.Line(o.Label), DocSlug: o.Slug, Category: textsafe.Line(o.Category)})
			}
		}
	}
	title := textsafe.Clip(textsafe.Line(c.Title), maxNoteTitle)
	m.transcript.append(&message{role: roleInfo, text: fmt.Sprintf("Resumed conversation %s “%s” · %s: the next question continues it.",
		shortID(c.ID), title, plural(len(c.Turns), "turn"))})
}

// askedText is how the transcript showed turn i's question: a pick as
// "→ " and the pill's label, else the question typed.
func askedText(turns []knowledge.Turn, i int) string {
	if turns[i].Picked == "" {
		return turns[i].Question
	}
	return "→ " + conversation.PickedLabel(turns, i)
}

func shortID(id string) string { return id[:min(8, len(id))] }

// ratingText is a rating as the line under an answer says it.
func ratingText(f *knowledge.TurnFeedback) string {
	switch {
	case f == nil:
		return ""
	case f.Rating == knowledge.RatingUp:
		return "rated: helpful"
	case f.Reason != "":
		return "rated: not helpful (" + f.Reason.Label() + ")"
	}
	return "rated: not helpful"
}

// rateKey handles + and - on an empty input: they rate the last answer
// when the chat records conversations and there is one; else they type.
func (m *Model) rateKey(s string) (tea.Cmd, bool) {
	k, ok := m.backend.(ConversationKeeper)
	target := m.transcript.lastAnswer()
	if !ok || m.activity != idle || target == nil {
		return nil, false
	}
	m.dismissPills()
	if s == "+" {
		return m.rate(k, knowledge.TurnFeedback{Rating: knowledge.RatingUp}, target), true
	}
	// A rating down is stored at once; the reason, when one is picked,
	// replaces it.
	opts := make([]retrieval.Option, len(knowledge.FeedbackReasons))
	for i, r := range knowledge.FeedbackReasons {
		opts[i] = retrieval.Option{Label: r.Label(), DocSlug: string(r)}
	}
	m.pills = newPills(opts)
	m.pills.reasons, m.pills.head = true, "Why? (esc skips)"
	m.pills.asked = slices.Index(m.transcript.msgs, target)
	return m.rate(k, knowledge.TurnFeedback{Rating: knowledge.RatingDown}, target), true
}

// pendingRating is a rating waiting for the one being written.
type pendingRating struct {
	k      ConversationKeeper
	f      knowledge.TurnFeedback
	target *message
}

// rate writes a rating of target, one write at a time: commands run
// concurrently, and a reason picked while the plain "down" is still on
// its way must not be overwritten by it. A rating made meanwhile waits
// for the write in flight; only the newest waits, since each replaces
// the one before.
func (m *Model) rate(k ConversationKeeper, f knowledge.TurnFeedback, target *message) tea.Cmd {
	if m.rating {
		m.nextRating = &pendingRating{k: k, f: f, target: target}
		return nil
	}
	m.rating = true
	ctx := m.ctx
	return func() tea.Msg { return ratedMsg{f: f, target: target, err: k.RateLast(ctx, f)} }
}

// pickReason rates the last answer down for the reason picked. "not what
// I meant" right after a found answer offers the other docs that matched
// the question as pills, the decision it took reopened.
func (m *Model) pickReason(o retrieval.Option) tea.Cmd {
	var target *message
	if i := m.pills.asked; i >= 0 && i < len(m.transcript.msgs) {
		target = m.transcript.msgs[i]
	}
	m.pills = pills{}
	k, ok := m.backend.(ConversationKeeper)
	if !ok {
		return nil
	}
	reason := knowledge.FeedbackReason(o.DocSlug)
	cmd := m.rate(k, knowledge.TurnFeedback{Rating: knowledge.RatingDown, Reason: reason}, target)
	res, question := m.lastResult, ""
	if res == nil && m.resumed != nil {
		// A resumed conversation's last turn, as far as it was recorded.
		res = &retrieval.Result{Status: retrieval.Status(m.resumed.Status), Query: m.resumed.Question}
		question = m.resumed.Question
	}
	if reason == knowledge.ReasonNotMeant && res != nil && res.Status == retrieval.StatusFound {
		alts := alternatives(*res, m.offered, m.picked)
		if len(alts) == 0 {
			m.transcript.append(&message{role: roleInfo, text: "No other doc matched that question: try asking it in other words."})
			return cmd
		}
		// Info, not an answer: + and - rate the answer before it.
		m.transcript.append(&message{role: roleInfo, text: "Which one did you mean?"})
		m.showPills(alts)
		if question != "" {
			m.pills.question = question
		}
	}
	return cmd
}

// alternatives are what else a found answer could have been, best first,
// as options: after a pick, the other pills it was picked from (the
// decision the asker took, reopened); else the other docs the decision
// weighed, then those in the evidence.
func alternatives(res retrieval.Result, offered []retrieval.Option, picked string) []retrieval.Option {
	var out []retrieval.Option
	seen := map[string]bool{picked: true}
	if len(res.Results) > 0 {
		seen[res.Results[0].DocSlug] = true
	}
	add := func(o retrieval.Option) {
		if !seen[o.DocSlug] && len(out) < maxAlternatives {
			seen[o.DocSlug] = true
			out = append(out, o)
		}
	}
	if picked != "" {
		for _, o := range offered {
			add(o)
		}
		return out
	}
	for _, c := range res.Candidates {
		add(retrieval.Option{Label: c.Title, DocSlug: c.DocSlug})
	}
	for _, ev := range res.Results {
		add(retrieval.Option{Label: ev.Title, DocSlug: ev.DocSlug, Category: ev.Category})
	}
	return out
}

func (m *Model) handleRated(msg ratedMsg) tea.Cmd {
	m.rating = false
	var next tea.Cmd
	if p := m.nextRating; p != nil {
		m.nextRating = nil
		next = m.rate(p.k, p.f, p.target)
	}
	if msg.err != nil {
		m.notice = "Rating not saved: " + errorText(msg.err)
		return next
	}
	// The answer may be gone from the screen (/new, /resume since).
	if i := slices.Index(m.transcript.msgs, msg.target); i >= 0 {
		msg.target.footer = ratingText(&msg.f)
		m.transcript.touch(i)
	}
	switch {
	case msg.f.Rating == knowledge.RatingUp:
		m.notice = "Thanks: rated helpful."
	case msg.f.Reason != "":
		m.notice = "Thanks: noted “" + msg.f.Reason.Label() + "”."
	default:
		m.notice = "Rated not helpful: why? ←/→ and enter, or esc to skip."
	}
	return next
}
