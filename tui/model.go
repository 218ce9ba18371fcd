package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// maxQueryChars matches the engine's limit; longer input would be cut
// there anyway, with a note.
const maxQueryChars = 4000

type focus int

const (
	focusInput focus = iota
	focusEvidence
	focusDebug
)

type activity int

const (
	idle activity = iota
	retrieving
	answering
	attaching // /context is reading a file
)

// Model is the docent chat screen, a Bubble Tea model. Create it with New.
type Model struct {
	backend Backend
	status  Status
	keys    keyMap

	ctx    context.Context // cancelled when the user quits
	cancel context.CancelFunc
	clock  func() time.Time
	theme  Theme

	st            *styles // shared with the components, restyled in place
	width, height int
	layout        layout

	transcript   *transcript
	input        textarea.Model
	spin         spinner.Model
	help         help.Model
	history      *history
	pills        pills
	pillLines    []string
	evidence     *evidencePane
	debug        *debugPane
	evidenceOpen bool
	debugOpen    bool
	focus        focus
	showHelp     bool
	notice       string // one-line feedback, cleared by the next key

	resizes    int // counts window size changes, to spot the last one
	turn       int // the newest turn; older replies are dropped
	activity   activity
	started    time.Time
	now        time.Time
	stream     *answerStream
	streamText *liveText // the answer streamed so far, cleaned piece by piece
	streamMsg  *message  // the transcript entry being streamed
	lastResult *retrieval.Result
	lastInfo   *AnswerInfo
	lastStats  *retrieval.Stats
}

// Option configures a Model.
type Option func(*Model)

// WithTheme forces dark or light colours instead of asking the terminal.
func WithTheme(t Theme) Option { return func(m *Model) { m.theme = t } }

// WithClock replaces time.Now, for the elapsed-time display in tests.
func WithClock(now func() time.Time) Option { return func(m *Model) { m.clock = now } }

// WithContext sets the context the backend calls run under; the model
// cancels its own child of it when the user quits.
func WithContext(ctx context.Context) Option {
	return func(m *Model) { m.ctx = ctx }
}

// New returns the chat screen for a backend and the status to show.
func New(b Backend, st Status, opts ...Option) Model {
	m := Model{
		backend:  b,
		status:   st,
		keys:     defaultKeyMap(),
		ctx:      context.Background(),
		clock:    time.Now,
		history:  &history{},
		evidence: &evidencePane{},
		debug:    &debugPane{},
		spin:     spinner.New(spinner.WithSpinner(spinner.Dot)),
		help:     help.New(),
		focus:    focusInput,
		theme:    ThemeAuto,
	}
	for _, o := range opts {
		o(&m)
	}
	m.ctx, m.cancel = context.WithCancel(m.ctx)
	m.st = &styles{}
	*m.st = newStyles(m.theme != ThemeLight)
	m.transcript = newTranscript(m.st)
	m.input = newInput(m.keys, m.st.dark)
	m.spin.Style = m.st.spinner
	m.help.Styles = m.st.help
	return m
}

func newInput(keys keyMap, dark bool) textarea.Model {
	ta := textarea.New()
	ta.Prompt = "› "
	ta.Placeholder = "Ask about the docs…  (? for keys)"
	ta.ShowLineNumbers = false
	ta.CharLimit = maxQueryChars
	ta.SetVirtualCursor(false)
	ta.SetStyles(inputStyles(dark))
	// Keys the screen owns must not also edit the input.
	ta.KeyMap.InsertNewline = keys.Newline
	ta.KeyMap.LineStart = key.NewBinding(key.WithKeys("ctrl+a"))
	ta.KeyMap.LineEnd = key.NewBinding(key.WithKeys("ctrl+end"))
	ta.KeyMap.PageUp = key.NewBinding(key.WithDisabled())
	ta.KeyMap.PageDown = key.NewBinding(key.WithDisabled())
	ta.KeyMap.DeleteCharacterForward = key.NewBinding(key.WithKeys("delete"))
	ta.KeyMap.InputBegin = key.NewBinding(key.WithKeys("alt+<"))
	ta.KeyMap.InputEnd = key.NewBinding(key.WithKeys("alt+>"))
	ta.Focus()
	return ta
}

func inputStyles(dark bool) textarea.Styles {
	s := textarea.DefaultStyles(dark)
	s.Focused.CursorLine = s.Focused.Text
	return s
}

// Init asks the terminal for its background colour unless a theme was
// forced.
func (m Model) Init() tea.Cmd {
	if m.theme == ThemeAuto {
		return tea.RequestBackgroundColor
	}
	return nil
}

// Update handles one message. It does no I/O: the backend runs in the
// Cmds it returns.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resizes++
	case resizeSettledMsg:
		if msg.seq == m.resizes {
			m.transcript.applyWidth()
		}
	case tea.BackgroundColorMsg:
		if m.theme == ThemeAuto {
			m.setDark(msg.IsDark())
		}
	case tea.KeyPressMsg:
		cmd = m.handleKey(msg)
	case tea.PasteMsg:
		m.dismissPills()
		m.focus = focusInput
		msg.Content = textsafe.String(msg.Content)
		m.input, cmd = m.input.Update(msg)
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case spinner.TickMsg:
		if m.activity != idle {
			m.now = m.clock()
			m.spin, cmd = m.spin.Update(msg)
		}
	case retrievedMsg:
		cmd = m.handleRetrieved(msg)
	case streamChunkMsg:
		cmd = m.handleChunk(msg)
	case streamDoneMsg:
		m.handleDone(msg)
	case contextMsg:
		m.handleContext(msg)
	default:
		m.input, cmd = m.input.Update(msg)
	}
	if m.relayout() {
		if _, ok := msg.(tea.WindowSizeMsg); ok {
			cmd = tea.Batch(cmd, settleResize(m.resizes))
		}
	}
	return m, cmd
}

func (m *Model) setDark(dark bool) {
	if dark == m.st.dark {
		return
	}
	*m.st = newStyles(dark)
	m.transcript.restyle()
	m.input.SetStyles(inputStyles(dark))
	m.spin.Style = m.st.spinner
	m.help.Styles = m.st.help
	m.evidence.rebuild(m.st)
	m.rebuildDebug()
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	m.notice = ""
	if key.Matches(msg, m.keys.Quit) {
		return m.quit()
	}
	if m.showHelp {
		m.showHelp = false
		if key.Matches(msg, m.keys.Help, m.keys.Stop) {
			return nil
		}
	}
	switch {
	case key.Matches(msg, m.keys.Evidence):
		m.evidenceOpen = !m.evidenceOpen
		m.fixFocus()
		return nil
	case key.Matches(msg, m.keys.Debug):
		m.debugOpen = !m.debugOpen
		m.fixFocus()
		return nil
	case key.Matches(msg, m.keys.Copy):
		return m.copyAnswer()
	case key.Matches(msg, m.keys.PageUp):
		m.transcript.pageUp()
		return nil
	case key.Matches(msg, m.keys.PageDown):
		m.transcript.pageDown()
		return nil
	case key.Matches(msg, m.keys.Top):
		m.transcript.top()
		return nil
	case key.Matches(msg, m.keys.Bottom):
		m.transcript.bottom()
		return nil
	case key.Matches(msg, m.keys.Focus):
		m.cycleFocus(msg.String() == "shift+tab")
		return nil
	case key.Matches(msg, m.keys.Stop):
		return m.escape()
	}

	if m.focus != focusInput && m.paneKey(msg) {
		return nil
	}
	if m.pills.active {
		if cmd, handled := m.pillKey(msg); handled {
			return cmd
		}
	}
	return m.inputKey(msg)
}

// escape stops whatever is in the way, one thing per press: a running
// turn, then pane focus, then the pills.
func (m *Model) escape() tea.Cmd {
	switch {
	case m.activity != idle:
		m.stopTurn()
	case m.focus != focusInput:
		m.focus = focusInput
		m.input.Focus()
	case m.pills.active:
		m.dismissPills()
	}
	return nil
}

// paneKey handles a key while a pane has focus; other keys go back to the
// input so typing always types.
func (m *Model) paneKey(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "down":
		delta := 1
		if msg.String() == "up" {
			delta = -1
		}
		if m.focus == focusEvidence {
			m.evidence.move(delta, m.st)
		} else {
			m.debug.body.scroll(delta, m.debug.contentHeight())
		}
		return true
	case "enter":
		if m.focus == focusEvidence {
			m.evidence.toggleExpand(m.st)
		}
		return true
	}
	m.focus = focusInput
	m.input.Focus()
	return false
}

// pillKey handles a key while pills are shown. Keys it does not own
// dismiss the pills and reach the input: typing starts a new question.
func (m *Model) pillKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch s := msg.String(); {
	case s == "left" || s == "up":
		m.pills.move(-1)
		return nil, true
	case s == "right" || s == "down":
		m.pills.move(1)
		return nil, true
	case key.Matches(msg, m.keys.PillPick):
		if o, ok := m.pills.current(); ok {
			return m.pick(o), true
		}
	case key.Matches(msg, m.keys.PillNumber):
		if o, ok := m.pills.pick(int(s[0] - '0')); ok {
			return m.pick(o), true
		}
		return nil, true
	case key.Matches(msg, m.keys.Help) && m.input.Value() == "":
		return nil, false
	}
	m.dismissPills()
	return nil, false
}

func (m *Model) inputKey(msg tea.KeyPressMsg) tea.Cmd {
	value := m.input.Value()
	switch {
	case key.Matches(msg, m.keys.Send):
		return m.submit()
	case key.Matches(msg, m.keys.Help) && value == "":
		m.showHelp = true
		return nil
	case msg.String() == "up" && m.history.recalling(value):
		if q, ok := m.history.prev(value); ok {
			m.setInput(q)
		}
		return nil
	case msg.String() == "down" && value != "" && m.history.recalling(value):
		if q, ok := m.history.next(value); ok {
			m.setInput(q)
		}
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return cmd
}

func (m *Model) setInput(s string) {
	m.input.SetValue(s)
	m.input.MoveToEnd()
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	delta := 0
	switch msg.Button {
	case tea.MouseWheelUp:
		delta = -3
	case tea.MouseWheelDown:
		delta = 3
	default:
		return
	}
	switch {
	case m.evidenceOpen && m.layout.evidence.contains(msg.X, msg.Y):
		m.evidence.body.scroll(delta, m.evidence.contentHeight())
	case m.debugOpen && m.layout.debug.contains(msg.X, msg.Y):
		m.debug.body.scroll(delta, m.debug.contentHeight())
	default:
		m.transcript.scroll(delta)
	}
}

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// submit sends the typed question.
func (m *Model) submit() tea.Cmd {
	q := strings.TrimSpace(m.input.Value())
	if q == "" {
		return nil
	}
	switch m.activity {
	case idle:
	case attaching:
		m.notice = "Still loading the context: send again in a moment."
		return nil
	default:
		m.notice = "Still answering: Esc stops it, then send again."
		return nil
	}
	m.history.add(q)
	m.input.Reset()
	if arg, ok := contextCommand(q); ok {
		return m.runContext(arg)
	}
	m.transcript.append(&message{role: roleUser, text: textsafe.String(q)})
	return m.startTurn(Request{Query: q})
}

// pick runs the lookup for a chosen pill.
func (m *Model) pick(o retrieval.Option) tea.Cmd {
	m.dismissPills()
	label := o.Label
	if o.Category != "" {
		label += " (" + o.Category + ")"
	}
	m.transcript.append(&message{role: roleUser, text: "→ " + label})
	return m.startTurn(Request{DocSlug: o.DocSlug})
}

func (m *Model) startTurn(req Request) tea.Cmd {
	m.turn++
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
	m.lastResult = &res
	m.lastInfo = nil
	m.lastStats = msg.stats
	if msg.size != nil {
		m.status.Docs, m.status.Chunks = msg.size.docs, msg.size.chunks
	}
	m.evidence.setItems(res.Results, m.st)
	m.rebuildDebug()

	switch res.Status {
	case retrieval.StatusFound, retrieval.StatusMulti:
		m.activity = answering
		m.streamText = &liveText{}
		m.streamMsg = &message{role: roleAssistant, streaming: true}
		m.transcript.append(m.streamMsg)
		var cmd tea.Cmd
		m.stream, cmd = startAnswer(m.ctx, m.backend, m.turn, res)
		return cmd
	default:
		m.activity = idle
		m.transcript.append(&message{role: roleAssistant, text: textsafe.String(res.Reply)})
		m.showPills(res.Options)
		return nil
	}
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

func (m *Model) showPills(opts []retrieval.Option) {
	m.pills = newPills(opts)
}

func (m *Model) dismissPills() {
	m.pills = pills{}
}

func (m *Model) rebuildDebug() {
	m.debug.rebuild(turnReport{res: m.lastResult, info: m.lastInfo, stats: m.lastStats}, m.st)
}

func (m *Model) copyAnswer() tea.Cmd {
	text := m.transcript.lastAnswer()
	if text == "" {
		m.notice = "Nothing to copy yet."
		return nil
	}
	m.notice = fmt.Sprintf("Copied the last answer (%d characters).", len([]rune(text)))
	return tea.SetClipboard(text)
}

func (m *Model) quit() tea.Cmd {
	if m.stream != nil {
		m.stream.cancel()
	}
	m.cancel()
	return tea.Quit
}

// cycleFocus moves focus through the input and the open panes.
func (m *Model) cycleFocus(backwards bool) {
	order := []focus{focusInput}
	if m.evidenceOpen {
		order = append(order, focusEvidence)
	}
	if m.debugOpen {
		order = append(order, focusDebug)
	}
	i := 0
	for j, f := range order {
		if f == m.focus {
			i = j
		}
	}
	if backwards {
		i += len(order) - 1
	} else {
		i++
	}
	m.focus = order[i%len(order)]
	if m.focus == focusInput {
		m.input.Focus()
	} else {
		m.input.Blur()
	}
}

// fixFocus returns focus to the input when its pane was closed.
func (m *Model) fixFocus() {
	if (m.focus == focusEvidence && !m.evidenceOpen) || (m.focus == focusDebug && !m.debugOpen) {
		m.focus = focusInput
		m.input.Focus()
	}
}

// relayout sizes every component for the current state. It reports
// whether the transcript still has to be re-wrapped for a new width.
func (m *Model) relayout() (rewrapPending bool) {
	if m.width == 0 || m.height == 0 {
		return false
	}
	m.pillLines = m.pills.lines(m.width, m.st)
	info := len(m.pillLines)
	if info == 0 && m.infoLine() != "" {
		info = 1
	}
	inputLines := m.input.LineCount()
	m.layout = computeLayout(m.width, m.height, m.evidenceOpen, m.debugOpen, info, inputLines)
	l := m.layout
	if len(m.pillLines) > l.info.h {
		m.pillLines = m.pills.compact(l.info.w, m.st)
	}
	rewrapPending = m.transcript.setSize(l.transcript.w, l.transcript.h)
	m.evidence.setSize(l.evidence.w, l.evidence.h, m.st)
	if l.debug.w != m.debug.width || l.debug.h != m.debug.height {
		m.debug.width, m.debug.height = l.debug.w, l.debug.h
		m.rebuildDebug()
	}
	m.input.SetWidth(l.input.w)
	m.input.SetHeight(l.input.h)
	m.help.SetWidth(l.transcript.w)
	return rewrapPending
}

// resizeSettle is how long the window size must stay put before a long
// transcript is re-wrapped.
const resizeSettle = 80 * time.Millisecond

type resizeSettledMsg struct{ seq int }

func settleResize(seq int) tea.Cmd {
	return tea.Tick(resizeSettle, func(time.Time) tea.Msg { return resizeSettledMsg{seq: seq} })
}

// infoLine is the line between the transcript and the input when no
// pills are shown: progress, feedback or a scroll hint.
func (m Model) infoLine() string {
	switch {
	case m.activity == retrieving:
		return m.spin.View() + " " + m.st.notice.Render("Searching the docs… "+m.elapsed()+prefixed("  ", m.notice))
	case m.activity == answering:
		return m.spin.View() + " " + m.st.notice.Render("Answering… "+m.elapsed()+"  (esc stops)"+prefixed("  ", m.notice))
	case m.activity == attaching:
		return m.spin.View() + " " + m.st.notice.Render("Loading the context… "+m.elapsed()+prefixed("  ", m.notice))
	case m.notice != "":
		return m.st.notice.Render(m.notice)
	case m.transcript.below() > 0:
		return m.st.notice.Render(fmt.Sprintf("↓ %d more lines (end to follow)", m.transcript.below()))
	}
	return ""
}

func (m Model) elapsed() string {
	return fmt.Sprintf("%.1fs", m.now.Sub(m.started).Seconds())
}
