package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/textsafe"
)

// enhanceCmd asks the model for search terms a question lacks; the terms
// the docs write come back as chips the asker toggles before searching.
const enhanceCmd = "/enhance"

// Enhancer is implemented by backends that can widen a question with
// terms a model proposes, checked against the docs (assistant.Session.
// Enhance). The TUI calls it from tea.Cmds only: it asks a model.
type Enhancer interface {
	Enhance(ctx context.Context, question string) (assistant.Enhancement, error)
}

// enhancedMsg is the outcome of /enhance.
type enhancedMsg struct {
	enh assistant.Enhancement
	err error
}

// chips are the added terms of an enhancement, each on or off. While
// active they own ←/→, Space, Enter and Esc, as the pills do theirs.
type chips struct {
	enh      assistant.Enhancement // terms and question sanitized to one line
	on       []bool
	selected int
	active   bool
}

func newChips(enh assistant.Enhancement) chips {
	enh.Question = textsafe.Line(enh.Question)
	enh.Added = lineAll(enh.Added)
	enh.Refused = lineAll(enh.Refused)
	on := make([]bool, len(enh.Added))
	for i := range on {
		on[i] = true
	}
	return chips{enh: enh, on: on, active: len(on) > 0}
}

func lineAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = textsafe.Line(s)
	}
	return out
}

func (c *chips) move(delta int) {
	if n := len(c.on); n > 0 {
		c.selected = ((c.selected+delta)%n + n) % n
	}
}

func (c *chips) toggle() {
	if c.selected < len(c.on) {
		c.on[c.selected] = !c.on[c.selected]
	}
}

// terms are the added terms switched on.
func (c chips) terms() []string {
	var out []string
	for i, t := range c.enh.Added {
		if c.on[i] {
			out = append(out, t)
		}
	}
	return out
}

// lines lays the chips out left to right, wrapping to width: "+term" when
// on, "−term" when off, the selected one marked with ▸ as well as colour.
func (c chips) lines(width int, st *styles) []string {
	if !c.active || width <= 0 {
		return nil
	}
	pieces := make([]string, len(c.enh.Added))
	for i, t := range c.enh.Added {
		sign, mark, style := "−", " ", st.pill
		if c.on[i] {
			sign = "+"
		}
		if i == c.selected {
			mark, style = st.selected.Render("▸"), st.pillActive
		}
		text := "[" + sign + t + "]"
		if lipgloss.Width(text)+1 > width {
			text = ansi.Truncate(text, max(width-2, 2), "…") + "]"
		}
		pieces[i] = mark + style.Render(text)
	}
	return flow(st.dim.Render("Terms (space toggles, enter searches, esc drops):"), pieces, width)
}

// runEnhance starts /enhance [QUESTION]: the question typed, else the
// last one asked.
func (m *Model) runEnhance(arg string) tea.Cmd {
	e, ok := m.backend.(Enhancer)
	if !ok {
		m.say("Query enhancement is not available here.", true)
		return nil
	}
	question := strings.TrimSpace(arg)
	if question == "" {
		question = m.question
	}
	if question == "" {
		m.say("Nothing to enhance: type "+enhanceCmd+" QUESTION, or ask a question first.", true)
		return nil
	}
	m.startWork(enhancing)
	ctx := m.ctx
	return tea.Batch(func() tea.Msg {
		enh, err := e.Enhance(ctx, question)
		return enhancedMsg{enh: enh, err: err}
	}, m.spin.Tick)
}

// handleEnhanced shows the rewrite as a diff, the question and its
// +terms, with the refused terms, and offers the added terms as chips.
// A failure, or no term the docs write, says so and asks the question as
// written: the asker wanted an answer, and enhancing is only a help.
func (m *Model) handleEnhanced(msg enhancedMsg) tea.Cmd {
	if m.activity != enhancing {
		return nil
	}
	m.activity = idle
	question := msg.enh.Question
	if msg.err != nil {
		m.say("Not enhanced: "+textsafe.Line(errorText(msg.err))+". Asking as written.", true)
		return m.ask(question)
	}
	c := newChips(msg.enh)
	text := "Enhanced: " + c.enh.Question
	for _, t := range c.enh.Added {
		text += " +" + t
	}
	if len(c.enh.Refused) > 0 {
		text += fmt.Sprintf("\nRefused, the docs never write them: %s", strings.Join(c.enh.Refused, ", "))
	}
	if !c.active {
		m.say(text+"\nNo term the docs write to add. Asking as written.", false)
		return m.ask(question)
	}
	m.say(text, false)
	m.dismissPills()
	m.chips = c
	return nil
}

// ask sends question as the asker's own.
func (m *Model) ask(question string) tea.Cmd {
	m.transcript.append(&message{role: roleUser, text: textsafe.String(question)})
	return m.startTurn(assistant.Request{Query: question})
}

// chipKey handles a key while the chips are shown. Keys they do not own
// drop them and reach the input, as with the pills.
func (m *Model) chipKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch msg.String() {
	case "left", "up":
		m.chips.move(-1)
		return nil, true
	case "right", "down":
		m.chips.move(1)
		return nil, true
	case "space":
		if m.input.Value() == "" {
			m.chips.toggle()
			return nil, true
		}
	case "enter":
		if m.input.Value() == "" {
			c := m.chips
			m.chips = chips{}
			terms := c.terms()
			label := c.enh.Question
			for _, t := range terms {
				label += " +" + t
			}
			m.transcript.append(&message{role: roleUser, text: label})
			return m.startTurn(assistant.Request{Query: c.enh.Question, Terms: terms}), true
		}
	}
	m.chips = chips{}
	return nil, false
}
