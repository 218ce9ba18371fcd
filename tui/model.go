package tui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// maxQueryChars matches the engine's limit; longer input would be cut
// there anyway, with a note.
const maxQueryChars = 4000

// focus is the component keys go to. The zero value is the input.
type focus int

const (
	focusInput focus = iota
	focusEvidence
	focusDebug
	focusTranscript
)

type activity int

const (
	idle activity = iota
	retrieving
	answering
	attaching    // /context is reading a file
	savingNote   // /note is writing the note
	listingNotes // /notes is reading the list
	enhancing    // /enhance is asking the model for terms
	makingQuiz   // /quiz is writing the quiz
	resuming     // /resume is reading the conversation
	exporting    // /export is writing the file
)

// Model is the docent chat screen, a Bubble Tea model. Create it with New
// for a backend that is ready, or NewLoading to show the screen while
// docent starts. It is composed of small components (the transcript, the
// evidence and debug panes, the overlays, the input), each with its own
// Update; Model routes messages to them and lays them out.
type Model struct {
	backend Backend // nil until start-up is done
	status  Status
	keys    keyMap

	loading  *loadRun // nil when the backend was given
	ready    bool
	progress Progress
	skipped  []SkippedFile
	suggest  string   // a first question, made from the docs' titles
	notices  []string // start-up's notes for the welcome
	loadErr  error    // start-up failed: Run returns it

	ctx    context.Context // cancelled when the user quits
	cancel context.CancelFunc
	clock  func() time.Time
	theme  Theme

	st            *styles // shared with the components, restyled in place
	width, height int
	layout        layout

	transcript   transcript
	evidence     evidencePane
	debug        debugPane
	overlay      overlay
	input        textarea.Model
	inputWidth   int // the width the input was last sized for
	spin         spinner.Model
	help         help.Model
	history      *history
	pills        pills
	chips        chips    // the terms /enhance offers, while the asker picks
	queue        []string // questions sent while busy, oldest first
	evidenceOpen bool
	debugOpen    bool
	zoom         focus // focusEvidence or focusDebug while that pane fills the body
	focus        focus
	notice       string   // one-line feedback, cleared by the next key
	context      string   // the attached app-state file, for the status bar
	settings     settings // /scope and /set: applied to every request

	resizes    int    // counts window size changes, to spot the last one
	turn       int    // the newest turn; older replies are dropped
	question   string // the newest turn's question, which its answer answers
	activity   activity
	started    time.Time
	now        time.Time
	stream     *answerStream
	streamText *liveText // the answer streamed so far, cleaned piece by piece
	streamMsg  *message  // the transcript entry being streamed
	lastResult *retrieval.Result
	// offered are the last doc pills shown and picked the doc picked from
	// them by the newest turn ("" for a typed question): "not what I
	// meant" offers the others again.
	offered []retrieval.Option
	picked  string
	// resumed is the last turn of a conversation /resume showed, until the
	// next question: what "not what I meant" reopens without a result.
	resumed *knowledge.Turn
	// rating is whether a rating is being written, nextRating the newest
	// one made meanwhile (see rate).
	rating     bool
	nextRating *pendingRating
	// listed is the retrieved result the evidence pane lists, which r
	// answers again from: lastResult becomes the chosen one, yet the
	// user may change their choice and re-ask.
	listed    *retrieval.Result
	lastInfo  *AnswerInfo
	lastStats *assistant.Stats

	quizMaker  QuizMaker          // nil: no /quiz
	quizCancel context.CancelFunc // stops the quiz being written
	quiz       *quizRun           // the quiz open over the body, nil when none
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

// New returns the chat screen for a backend that is ready, and the status
// to show.
func New(b Backend, st Status, opts ...Option) Model {
	m := newModel(opts)
	m.backend, m.status, m.context, m.ready = b, st, st.Context, true
	m.settings.scope = st.Scope
	return m
}

// NewLoading returns the chat screen while load starts docent. The screen
// is drawn at once, with load's progress; questions typed meanwhile are
// queued and sent once the backend is ready.
func NewLoading(load Loader, opts ...Option) Model {
	m := newModel(opts)
	m.loading = newLoadRun(load)
	return m
}

func newModel(opts []Option) Model {
	m := Model{
		keys:    defaultKeyMap(),
		ctx:     context.Background(),
		clock:   time.Now,
		history: &history{},
		spin:    spinner.New(spinner.WithSpinner(spinner.Dot)),
		help:    help.New(),
		focus:   focusInput,
		theme:   ThemeAuto,
	}
	for _, o := range opts {
		o(&m)
	}
	m.ctx, m.cancel = context.WithCancel(m.ctx)
	m.st = &styles{}
	*m.st = newStyles(m.theme != ThemeLight)
	m.transcript = newTranscript(m.st)
	m.evidence = newEvidencePane(m.st)
	m.debug = newDebugPane(m.st)
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
	// The input grows with its text up to MaxHeight lines (set from the
	// terminal height), then scrolls, keeping the cursor's line in view.
	// Every line the character limit allows may be typed.
	ta.DynamicHeight = true
	ta.MaxHeight = 1
	ta.MaxContentHeight = maxQueryChars + 1
	ta.SetVirtualCursor(false)
	ta.SetStyles(inputStyles(dark))
	// Editor keys stay the input's (Home, End, Ctrl+A, Ctrl+E, Ctrl+D);
	// only keys the screen owns are taken away.
	ta.KeyMap.InsertNewline = keys.Newline
	ta.KeyMap.LineStart = keys.LineStart
	ta.KeyMap.LineEnd = keys.LineEnd
	ta.KeyMap.PageUp = key.NewBinding(key.WithDisabled())   // scrolls the transcript
	ta.KeyMap.PageDown = key.NewBinding(key.WithDisabled()) // scrolls the transcript
	ta.KeyMap.DeleteWordForward = key.NewBinding(key.WithKeys("alt+delete", "ctrl+delete"))
	ta.Focus()
	return ta
}

func inputStyles(dark bool) textarea.Styles {
	s := textarea.DefaultStyles(dark)
	s.Focused.CursorLine = s.Focused.Text
	return s
}

// Init asks the terminal for its background colour unless a theme was
// forced, and starts docent when the screen was made with NewLoading.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.theme == ThemeAuto {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.loading != nil {
		cmds = append(cmds, m.loading.start(m.ctx), m.loading.wait(m.ctx), m.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// Update handles one message. It does no I/O: the backend and the loader
// run in the Cmds it returns.
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
		m.setFocus(focusInput)
		msg.Content = textsafe.String(msg.Content)
		m.input, cmd = m.input.Update(msg)
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case spinner.TickMsg:
		if m.busy() {
			m.now = m.clock()
			m.spin, cmd = m.spin.Update(msg)
		}
	case progressMsg:
		m.progress = msg.p
		cmd = m.loading.wait(m.ctx)
	case loadedMsg:
		cmd = m.handleLoaded(msg)
	case retrievedMsg:
		cmd = m.handleRetrieved(msg)
	case streamChunkMsg:
		cmd = m.handleChunk(msg)
	case streamDoneMsg:
		m.handleDone(msg)
	case contextMsg:
		m.handleContext(msg)
	case noteSavedMsg:
		m.handleNoteSaved(msg)
	case notesListedMsg:
		m.handleNotesListed(msg)
	case resumedMsg:
		m.handleResumed(msg)
	case exportedMsg:
		m.handleExported(msg)
	case ratedMsg:
		cmd = m.handleRated(msg)
	case enhancedMsg:
		cmd = m.handleEnhanced(msg)
	case quizMadeMsg:
		m.handleQuizMade(msg)
	default:
		m.input, cmd = m.input.Update(msg)
	}
	if next := m.sendQueued(); next != nil {
		cmd = tea.Batch(cmd, next)
	}
	if m.relayout() {
		if _, ok := msg.(tea.WindowSizeMsg); ok {
			cmd = tea.Batch(cmd, settleResize(m.resizes))
		}
	}
	return m, cmd
}

// busy reports whether a question sent now has to wait.
func (m *Model) busy() bool { return !m.ready || m.activity != idle }

func (m *Model) handleLoaded(msg loadedMsg) tea.Cmd {
	if msg.err != nil {
		m.loadErr = msg.err
		return m.quit()
	}
	r := msg.ready
	m.backend, m.status, m.context = r.Backend, r.Status, r.Status.Context
	m.settings.scope = r.Status.Scope
	m.skipped, m.notices = r.Skipped, r.Notices
	m.quizMaker = r.Quiz
	m.suggest = suggestion(r.Titles)
	m.ready = true
	if r.Conversation != nil {
		m.showConversation(*r.Conversation)
	}
	if m.overlay.kind == skippedOverlay {
		m.openOverlay(skippedOverlay)
	}
	return nil
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
	m.evidence.rebuild()
	m.debug.rebuild()
	if m.overlay.kind != noOverlay {
		m.openOverlay(m.overlay.kind)
	}
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	m.notice = ""
	if key.Matches(msg, m.keys.Quit) {
		return m.quit()
	}
	if m.quiz != nil {
		m.quizKey(msg)
		return nil
	}
	if m.overlay.kind != noOverlay && m.overlayKey(msg) {
		return nil
	}
	switch {
	case key.Matches(msg, m.keys.Evidence):
		m.togglePane(focusEvidence)
		return nil
	case key.Matches(msg, m.keys.Debug):
		m.togglePane(focusDebug)
		return nil
	case key.Matches(msg, m.keys.Zoom):
		m.toggleZoom()
		return nil
	case key.Matches(msg, m.keys.Skipped):
		m.openOverlay(skippedOverlay)
		return nil
	case msg.String() == "f1":
		m.openOverlay(helpOverlay)
		return nil
	case key.Matches(msg, m.keys.Copy):
		return m.copyAnswer(true)
	case key.Matches(msg, m.keys.CopyText):
		return m.copyAnswer(false)
	case key.Matches(msg, m.keys.Focus):
		m.cycleFocus(msg.String() == "shift+tab")
		return nil
	case key.Matches(msg, m.keys.Stop):
		return m.escape()
	}

	if m.focus != focusInput {
		if m.focus == focusEvidence && key.Matches(msg, m.keys.PaneReask) {
			return m.reask()
		}
		if m.paneKey(msg) {
			return nil
		}
		m.setFocus(focusInput) // typing always types
	}
	if key.Matches(msg, m.keys.PageUp, m.keys.PageDown) {
		m.transcript, _ = m.transcript.Update(msg)
		return nil
	}
	if m.chips.active {
		if cmd, handled := m.chipKey(msg); handled {
			return cmd
		}
	}
	if m.pills.active {
		if cmd, handled := m.pillKey(msg); handled {
			return cmd
		}
	}
	return m.inputKey(msg)
}

// overlayKey handles a key while an overlay is open. Scroll keys scroll
// it; Esc and its own key close it; any other key closes it and then does
// what it does. It reports whether the key was used up.
func (m *Model) overlayKey(msg tea.KeyPressMsg) bool {
	own := m.keys.Help
	if m.overlay.kind == skippedOverlay {
		own = m.keys.Skipped
	}
	switch {
	case scrollKey(msg):
		m.overlay, _ = m.overlay.Update(msg)
		return true
	case key.Matches(msg, m.keys.Stop, own):
		m.overlay = overlay{}
		return true
	}
	m.overlay = overlay{}
	return false
}

func (m *Model) openOverlay(kind overlayKind) {
	b := m.layout.body
	switch kind {
	case helpOverlay:
		m.overlay = newOverlay(kind, "Keys", "(? or esc closes)", helpLines(m.keys, m.help, m.st, b.w), b.w, b.h)
	case skippedOverlay:
		title, lines := "Skipped files", []string{m.st.dim.Render("Still reading the docs: the list follows once they are loaded.")}
		if m.ready {
			title, lines = "Skipped files · "+plural(len(m.skipped), "file"), skippedLines(m.skipped, m.st, b.w)
		}
		m.overlay = newOverlay(kind, title, "(esc closes)", lines, b.w, b.h)
	case quizOverlay:
		if m.quiz != nil {
			m.overlay = newOverlay(kind, m.quiz.title(), m.quiz.hint(), quizLines(m.quiz, m.st, b.w), b.w, b.h)
		}
	}
}

// escape stops whatever is in the way, one thing per press: a running
// turn, then pane focus, then a zoomed pane, then the pills.
func (m *Model) escape() tea.Cmd {
	switch {
	case m.activity != idle:
		m.stopTurn()
	case m.focus != focusInput:
		m.setFocus(focusInput)
	case m.zoom != focusInput:
		m.zoom = focusInput
	case m.chips.active:
		m.chips = chips{}
		m.notice = "Enhancement dropped."
	case m.pills.active:
		m.dismissPills()
	case len(m.queue) > 0:
		m.queue = nil
		m.notice = "Queued questions removed."
	}
	return nil
}

// paneKey hands a key to the focused component when it is one of its
// keys; other keys go back to the input so typing always types.
func (m *Model) paneKey(msg tea.KeyPressMsg) bool {
	switch m.focus {
	case focusEvidence:
		if scrollKey(msg) || key.Matches(msg, m.keys.PaneExpand, m.keys.PaneInclude) {
			m.evidence, _ = m.evidence.Update(msg)
			if key.Matches(msg, m.keys.PaneInclude) {
				m.notice = "r answers again from the chunks not left out."
			}
			return true
		}
	case focusDebug:
		if scrollKey(msg) {
			m.debug, _ = m.debug.Update(msg)
			return true
		}
	case focusTranscript:
		if scrollKey(msg) {
			m.transcript, _ = m.transcript.Update(msg)
			return true
		}
	}
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
			return m.pickOption(o), true
		}
	case key.Matches(msg, m.keys.PillNumber):
		if o, ok := m.pills.pick(int(s[0] - '0')); ok {
			return m.pickOption(o), true
		}
		return nil, true
	case s == "?" && m.input.Value() == "":
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
	case msg.String() == "?" && value == "":
		m.openOverlay(helpOverlay)
		return nil
	case (msg.String() == "+" || msg.String() == "-") && value == "":
		if cmd, ok := m.rateKey(msg.String()); ok {
			return cmd
		}
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

// handleWheel scrolls whatever is under the pointer.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	l := m.layout
	switch {
	case m.overlay.kind != noOverlay:
		if l.body.contains(msg.X, msg.Y) {
			m.overlay, _ = m.overlay.Update(msg)
		}
	case l.evidence.contains(msg.X, msg.Y):
		m.evidence, _ = m.evidence.Update(msg)
	case l.debug.contains(msg.X, msg.Y):
		m.debug, _ = m.debug.Update(msg)
	case l.transcript.contains(msg.X, msg.Y):
		m.transcript, _ = m.transcript.Update(msg)
	}
}

func (m *Model) setFocus(f focus) {
	m.focus = f
	if f == focusInput {
		m.input.Focus()
	} else {
		m.input.Blur()
	}
}

// shown reports whether a component is on screen, and so can take focus.
func (m *Model) shown(f focus) bool {
	switch f {
	case focusEvidence:
		return m.evidenceOpen && (m.zoom == focusInput || m.zoom == focusEvidence)
	case focusDebug:
		return m.debugOpen && (m.zoom == focusInput || m.zoom == focusDebug)
	case focusTranscript:
		return m.zoom == focusInput
	}
	return true
}

// cycleFocus moves focus through the input and what is on screen: the
// panes first, as they are what Tab is mostly for, then the transcript.
func (m *Model) cycleFocus(backwards bool) {
	var order []focus
	for _, f := range []focus{focusInput, focusEvidence, focusDebug, focusTranscript} {
		if m.shown(f) {
			order = append(order, f)
		}
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
	m.setFocus(order[i%len(order)])
}

// togglePane opens or closes a pane. Opening one ends a zoom, so that both
// are seen; closing the zoomed or focused pane returns to the input.
func (m *Model) togglePane(p focus) {
	open := &m.evidenceOpen
	if p == focusDebug {
		open = &m.debugOpen
	}
	*open = !*open
	if *open {
		m.zoom = focusInput
		return
	}
	if m.zoom == p {
		m.zoom = focusInput
	}
	if m.focus == p {
		m.setFocus(focusInput)
	}
}

// toggleZoom lets one pane fill the body (the transcript goes while it
// does), and back. From the input it zooms the open pane.
func (m *Model) toggleZoom() {
	target := m.focus
	if target != focusEvidence && target != focusDebug {
		switch {
		case m.zoom != focusInput:
			m.zoom = focusInput
			return
		case m.evidenceOpen:
			target = focusEvidence
		case m.debugOpen:
			target = focusDebug
		default:
			m.notice = "Nothing to zoom: f2 opens the evidence pane, f3 the debug pane."
			return
		}
	}
	if m.zoom == target {
		m.zoom = focusInput
		return
	}
	m.zoom = target
	m.setFocus(target)
}

func (m *Model) quit() tea.Cmd {
	if m.stream != nil {
		m.stream.cancel()
	}
	m.cancel()
	return tea.Quit
}

// relayout sizes every component for the current state. It reports
// whether the transcript still has to be re-wrapped for a new width.
func (m *Model) relayout() (rewrapPending bool) {
	if m.width == 0 || m.height == 0 {
		return false
	}
	// The input fits its height to its text itself as it is edited; a new
	// width or line limit needs it done here.
	if maxH := maxInputLines(m.height); m.input.MaxHeight != maxH || m.inputWidth != m.width {
		m.input.MaxHeight = maxH
		m.input.SetWidth(m.width)
		m.inputWidth = m.width
	}
	m.layout = computeLayout(m.width, m.height, layoutSpec{
		evidence: m.evidenceOpen, debug: m.debugOpen, zoom: m.zoom,
		infoLines: m.infoWant(), inputLines: m.input.Height(),
	})
	l := m.layout
	// A hidden component keeps its size: zooming a pane and back must not
	// re-wrap the whole transcript twice.
	if l.transcript.h > 0 {
		rewrapPending = m.transcript.setSize(l.transcript.w, l.transcript.h)
	}
	if l.evidence.h > 0 {
		m.evidence.setSize(l.evidence.w, l.evidence.h)
	}
	if l.debug.h > 0 {
		m.debug.setSize(l.debug.w, l.debug.h)
	}
	if o := &m.overlay.body.vp; m.overlay.kind != noOverlay && (o.Width() != l.body.w || o.Height() != l.body.h-1) {
		offset := o.YOffset()
		m.openOverlay(m.overlay.kind)
		m.overlay.body.vp.SetYOffset(offset)
	}
	m.help.SetWidth(l.body.w)
	return rewrapPending
}

// resizeSettle is how long the window size must stay put before a long
// transcript is re-wrapped.
const resizeSettle = 80 * time.Millisecond

type resizeSettledMsg struct{ seq int }

func settleResize(seq int) tea.Cmd {
	return tea.Tick(resizeSettle, func(time.Time) tea.Msg { return resizeSettledMsg{seq: seq} })
}
