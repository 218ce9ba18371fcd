package tui

import (
	"cmp"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// submit takes the typed text. Blank input is cleared and ignored; while
// docent is busy (starting, searching, answering, attaching) the question
// is queued and goes out when it is done.
func (m *Model) submit() tea.Cmd {
	q := strings.TrimSpace(m.input.Value())
	m.input.Reset()
	if q == "" {
		return nil
	}
	m.history.add(q)
	if m.busy() {
		m.queue = append(m.queue, q)
		return nil
	}
	return m.send(q)
}

// sendQueued sends the oldest queued question once docent is free.
func (m *Model) sendQueued() tea.Cmd {
	if m.busy() || len(m.queue) == 0 {
		return nil
	}
	q := m.queue[0]
	m.queue = m.queue[1:]
	return m.send(q)
}

// send starts a turn for a question or runs a command.
func (m *Model) send(q string) tea.Cmd {
	m.dismissPills()
	if arg, ok := contextCommand(q); ok {
		return m.runContext(arg)
	}
	// A command that ends at once (no notes here, nothing to save) lets
	// the next queued question go.
	if private, text, ok := noteCommand(q); ok {
		return m.orNext(m.runNote(private, text))
	}
	if _, ok := commandArg(q, notesCmd); ok {
		return m.orNext(m.runNotes())
	}
	if arg, ok := commandArg(q, quizCmd); ok {
		return m.orNext(m.runQuiz(arg))
	}
	if arg, ok := commandArg(q, roleCmd); ok {
		m.runRole(arg)
		return m.sendQueued()
	}
	if arg, ok := commandArg(q, scopeCmd); ok {
		m.runScope(arg)
		return m.sendQueued()
	}
	if arg, ok := commandArg(q, enhanceCmd); ok {
		return m.orNext(m.runEnhance(arg))
	}
	if arg, ok := commandArg(q, setCmd); ok {
		m.runSet(arg)
		return m.sendQueued()
	}
	if cmd, ok := m.runConversationCommand(q); ok {
		return cmd
	}
	m.transcript.append(&message{role: roleUser, text: textsafe.String(q)})
	m.picked = ""
	return m.startTurn(assistant.Request{Query: q})
}

// orNext is cmd, or when the command ended at once, the next queued
// question.
func (m *Model) orNext(cmd tea.Cmd) tea.Cmd {
	if cmd != nil {
		return cmd
	}
	return m.sendQueued()
}

// pickOption acts on a chosen pill: a reason for a rating, or a doc.
func (m *Model) pickOption(o retrieval.Option) tea.Cmd {
	if m.pills.reasons {
		return m.pickReason(o)
	}
	return m.pick(o)
}

// pick runs the lookup for a chosen pill, for the question that offered
// it (a multi-intent option's own part of it): the doc answers that
// question, not with its overview.
func (m *Model) pick(o retrieval.Option) tea.Cmd {
	question := cmp.Or(o.Asked, m.pills.question)
	m.pills = pills{}
	label := o.Label
	if o.Category != "" {
		label += " (" + o.Category + ")"
	}
	m.transcript.append(&message{role: roleUser, text: "→ " + label})
	m.picked = o.DocSlug
	return m.startTurn(assistant.Request{Query: question, DocSlug: o.DocSlug})
}

func (m *Model) startTurn(req assistant.Request) tea.Cmd {
	req = m.applySettings(req)
	m.resumed = nil
	m.turn++
	m.question = req.Query
	m.activity = retrieving
	m.started = m.clock()
	m.now = m.started
	m.transcript.bottom()
	return tea.Batch(retrieveCmd(m.ctx, m.backend, m.turn, req), m.spin.Tick)
}

func (m *Model) handleRetrieved(msg retrievedMsg) tea.Cmd {
	if msg.turn != m.turn || m.activity != retrieving {
		return nil
	}
	if msg.err != nil {
		m.activity = idle
		m.transcript.append(&message{role: roleError, text: "Search failed: " + errorText(msg.err)})
		return nil
	}
	res := msg.res
	m.lastResult, m.listed = &res, &res
	m.lastInfo = nil
	m.lastStats = msg.stats
	if msg.size != nil {
		m.status.Docs, m.status.Chunks = msg.size.docs, msg.size.chunks
	}
	m.evidence.setItems(res.Results)
	m.rebuildDebug()
	hint := textsafe.Line(res.Hint)

	switch res.Status {
	case retrieval.StatusFound, retrieval.StatusMulti:
		return m.startAnswering(res, m.evidence.items, hint)
	default:
		m.activity = idle
		m.transcript.append(&message{role: roleAssistant, text: textsafe.String(assistant.Reply(res)), evidence: m.evidence.items, hint: hint})
		m.showPills(res.Options)
		return nil
	}
}

// startAnswering streams the answer to res into a new transcript entry
// that cites evidence.
func (m *Model) startAnswering(res retrieval.Result, evidence []retrieval.Evidence, hint string) tea.Cmd {
	m.activity = answering
	m.streamText = &liveText{}
	m.streamMsg = &message{role: roleAssistant, streaming: true, evidence: evidence,
		hint: hint, answer: true, question: m.question}
	m.transcript.append(m.streamMsg)
	var cmd tea.Cmd
	m.stream, cmd = startAnswer(m.ctx, m.backend, m.turn, res)
	return cmd
}

// reask answers the shown result's question again from the evidence the
// user kept in the evidence pane (r): the writer, the prompt and the
// debug pane's context report see only those chunks. The pane keeps every
// chunk and the marks, so the choice can change and be asked again.
func (m *Model) reask() tea.Cmd {
	switch {
	case m.busy():
		m.notice = "Busy: r answers again once this turn is done."
		return nil
	case m.listed == nil || len(m.listed.Results) == 0:
		m.notice = "No evidence to answer from: ask a question first."
		return nil
	}
	res, ok := assistant.Chosen(*m.listed, m.evidence.included)
	if !ok {
		m.notice = "Every chunk is excluded: space includes one again."
		return nil
	}
	m.dismissPills()
	m.transcript.append(&message{role: roleUser,
		text: fmt.Sprintf("↻ %s · from %d of %d chunks", textsafe.Line(res.Query), len(res.Results), len(m.listed.Results))})
	m.turn++
	m.question = res.Query
	m.lastResult, m.lastInfo = &res, nil
	m.started = m.clock()
	m.now = m.started
	m.rebuildDebug()
	m.transcript.bottom()
	return tea.Batch(m.startAnswering(res, sanitizeEvidence(res.Results), ""), m.spin.Tick)
}

func (m *Model) handleChunk(msg streamChunkMsg) tea.Cmd {
	next := waitStream(m.ctx, msg.stream)
	if msg.stream != m.stream || msg.turn != m.turn {
		return next // a stopped stream: drain it so its goroutine can end
	}
	m.streamMsg.text = m.streamText.write(msg.text)
	m.transcript.touchLast()
	return next
}

func (m *Model) handleDone(msg streamDoneMsg) {
	if msg.turn != m.turn {
		return
	}
	info := msg.info
	m.lastInfo = &info
	m.rebuildDebug()
	if msg.stream != m.stream {
		return // stopped with Esc; the message is already final
	}
	// The backend's own text is the answer of record; what streamed is
	// the same text unless the backend had to correct it.
	text := m.streamText.close()
	if info.Text != "" && !info.Stopped {
		text = textsafe.String(info.Text)
	}
	if info.Sources != nil {
		m.streamMsg.sources = info.Sources
	}
	footer := answerFooter(info, msg.err)
	if strings.TrimSpace(text) == "" && footer == "" {
		footer = "no answer was written"
	}
	m.finishStream(text, footer)
	if m.lastResult != nil && m.lastResult.Status == retrieval.StatusMulti {
		m.showPills(m.lastResult.Options)
	}
}

// stopTurn is Esc while working: retrieval is abandoned, a stream is
// cancelled and its partial answer kept, marked as stopped.
func (m *Model) stopTurn() {
	switch m.activity {
	case retrieving:
		m.turn++ // its result will be dropped
		m.activity = idle
		m.transcript.append(&message{role: roleInfo, text: "Stopped."})
	case enhancing:
		m.activity = idle // its terms, when they come, are dropped
		m.transcript.append(&message{role: roleInfo, text: "Stopped."})
	case makingQuiz:
		m.stopQuizMaking()
	case answering:
		m.stream.cancel()
		m.finishStream(m.streamText.close(), "⏹ stopped")
		if m.lastResult != nil && m.lastResult.Status == retrieval.StatusMulti {
			m.showPills(m.lastResult.Options) // the choice still stands
		}
	}
}

// finishStream ends the streamed message with its final, already cleaned
// text.
func (m *Model) finishStream(text, footer string) {
	m.streamMsg.text = text
	m.streamMsg.streaming = false
	m.streamMsg.footer = footer
	m.transcript.touchLast()
	m.activity = idle
	m.stream = nil
	m.streamMsg = nil
	m.streamText = nil
}

func answerFooter(info AnswerInfo, err error) string {
	var parts []string
	if info.Stopped {
		parts = append(parts, "⏹ stopped")
	}
	if err != nil {
		parts = append(parts, "answer failed: "+errorText(err))
	}
	if info.Fallback {
		parts = append(parts, "answered from the docs without a model")
	}
	if info.Notice != "" {
		parts = append(parts, textsafe.Line(info.Notice))
	}
	return strings.Join(parts, " · ")
}

// showPills offers the options under the newest message, the one that
// asked.
func (m *Model) showPills(opts []retrieval.Option) {
	m.pills = newPills(opts)
	m.offered = m.pills.options
	m.pills.asked = len(m.transcript.msgs) - 1
	if m.lastResult != nil {
		m.pills.question = m.lastResult.Query
	}
}

// dismissPills takes the options away unpicked and says so under the
// message that offered them, so the question it asked is not left open.
func (m *Model) dismissPills() {
	if !m.pills.active {
		return
	}
	if m.pills.reasons {
		m.pills = pills{} // a rating's reason is optional: nothing was left open
		return
	}
	if i := m.pills.asked; i >= 0 && i < len(m.transcript.msgs) {
		msg := m.transcript.msgs[i]
		msg.footer = strings.TrimPrefix(msg.footer+" · (dismissed)", " · ")
		m.transcript.touch(i)
	}
	m.pills = pills{}
}

func (m *Model) rebuildDebug() {
	m.debug.setReport(turnReport{res: m.lastResult, info: m.lastInfo, stats: m.lastStats})
}

// copyAnswer copies the newest answer: with its footnotes and the list
// of the sources it cites, ready to paste into a ticket, or its text
// alone without citations.
func (m *Model) copyAnswer(withSources bool) tea.Cmd {
	msg := m.transcript.lastAnswer()
	if msg == nil {
		m.notice = "Nothing to copy yet."
		return nil
	}
	f := msg.footnoted()
	text, what := strings.TrimSpace(cite.Strip(msg.text)), "the last answer's text"
	if withSources {
		text, what = f.WithSources(), "the last answer with its sources"
	}
	m.notice = fmt.Sprintf("Copied %s (%d characters).", what, len([]rune(text)))
	return tea.SetClipboard(text)
}
