package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/docent-sh/docent/quiz"
	"github.com/docent-sh/docent/textsafe"
)

// quizCmd opens a quiz on one doc (/quiz SLUG) or on the docs in scope
// (/quiz), one question at a time over the body.
const quizCmd = "/quiz"

// QuizMaker writes a quiz on the doc with slug, or on the docs of the
// categories in scope (all of them when scope is empty) when slug is "".
// The TUI calls it from a tea.Cmd; a model may take a while, so ctx is
// cancelled by Esc.
type QuizMaker func(ctx context.Context, slug string, scope []string) (quiz.Quiz, error)

// WithQuiz sets what /quiz writes its quizzes with, for a Model made by
// New (NewLoading takes it from Ready).
func WithQuiz(q QuizMaker) Option { return func(m *Model) { m.quizMaker = q } }

// quizMadeMsg is a quiz written for /quiz, or why none was.
type quizMadeMsg struct {
	q   quiz.Quiz
	err error
}

// quizRun is a quiz under way: the question shown, the option under the
// cursor, and the score so far (multiple choice only: a short answer is
// the reader's to judge).
type quizRun struct {
	q        quiz.Quiz
	i        int
	pick     int
	answered bool
	right    int
	asked    int
}

func (r *quizRun) item() quiz.Item { return r.q.Items[r.i] }

// runQuiz starts /quiz [SLUG]: the quiz is written in a Cmd.
func (m *Model) runQuiz(slug string) tea.Cmd {
	if m.quizMaker == nil {
		m.say("/quiz is not available here.", true)
		return nil
	}
	m.startWork(makingQuiz)
	ctx, cancel := context.WithCancel(m.ctx)
	m.quizCancel = cancel
	maker, scope := m.quizMaker, m.settings.scope
	return tea.Batch(func() tea.Msg {
		q, err := maker(ctx, slug, scope)
		return quizMadeMsg{q: q, err: err}
	}, m.spin.Tick)
}

func (m *Model) handleQuizMade(msg quizMadeMsg) {
	if m.activity != makingQuiz {
		return // stopped meanwhile
	}
	m.activity = idle
	m.quizCancel()
	m.quizCancel = nil
	switch {
	case msg.err != nil:
		m.say("No quiz: "+textsafe.Line(errorText(msg.err)), true)
		return
	case len(msg.q.Items) == 0:
		m.say("No quiz: the docs chosen gave nothing to ask about.", true)
		return
	}
	for _, n := range msg.q.Notes {
		m.say("Quiz: "+textsafe.Line(n), false)
	}
	m.quiz = &quizRun{q: msg.q}
	m.openOverlay(quizOverlay)
}

// stopQuizMaking is Esc while the quiz is written.
func (m *Model) stopQuizMaking() {
	m.quizCancel()
	m.quizCancel = nil
	m.activity = idle
	m.say("Quiz stopped.", false)
}

// quizKey handles every key while a quiz is open: ↑/↓ pick an option,
// 1–9 pick and answer, Enter answers then goes on, PgUp/PgDn scroll, Esc
// ends the quiz. Other keys do nothing, so typing cannot lose the quiz.
func (m *Model) quizKey(msg tea.KeyPressMsg) {
	r := m.quiz
	it := r.item()
	keep := true // keep the scroll position
	switch s := msg.String(); {
	case s == "esc":
		m.endQuiz(false)
		return
	case (s == "up" || s == "k") && !r.answered && it.Kind == quiz.MultipleChoice:
		r.pick = (r.pick + len(it.Options) - 1) % len(it.Options)
	case (s == "down" || s == "j") && !r.answered && it.Kind == quiz.MultipleChoice:
		r.pick = (r.pick + 1) % len(it.Options)
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && !r.answered && it.Kind == quiz.MultipleChoice:
		n := int(s[0] - '1')
		if n >= len(it.Options) {
			return
		}
		r.pick = n
		m.answerQuiz()
	case s == "enter" || s == "space":
		if !r.answered {
			m.answerQuiz()
			break
		}
		if r.i+1 == len(r.q.Items) {
			m.endQuiz(true)
			return
		}
		r.i, r.pick, r.answered = r.i+1, 0, false
		keep = false
	case scrollKey(msg):
		m.overlay, _ = m.overlay.Update(msg)
		return
	default:
		return
	}
	offset := m.overlay.body.vp.YOffset()
	m.openOverlay(quizOverlay)
	if keep {
		m.overlay.body.vp.SetYOffset(offset)
	}
}

func (m *Model) answerQuiz() {
	r := m.quiz
	r.answered = true
	if it := r.item(); it.Kind == quiz.MultipleChoice {
		r.asked++
		if r.pick == it.Answer {
			r.right++
		}
	}
}

// endQuiz closes the quiz and says the score in the transcript.
func (m *Model) endQuiz(done bool) {
	r := m.quiz
	m.quiz = nil
	m.overlay = overlay{}
	score := fmt.Sprintf("%d of %s right", r.right, plural(r.asked, "multiple choice answer"))
	if done {
		m.say(fmt.Sprintf("Quiz done: %s.", score), false)
		return
	}
	m.say(fmt.Sprintf("Quiz ended at question %d of %d: %s.", r.i+1, len(r.q.Items), score), false)
}

// quizTitle and quizHint head the overlay.
func (r *quizRun) title() string {
	return fmt.Sprintf("Quiz · %d of %d · %s", r.i+1, len(r.q.Items), r.item().Level)
}

func (r *quizRun) hint() string {
	switch {
	case r.answered && r.i+1 == len(r.q.Items):
		return "(enter: finish · esc ends)"
	case r.answered:
		return "(enter: next question · esc ends)"
	case r.item().Kind == quiz.MultipleChoice:
		return "(↑/↓ or 1–9 pick · enter answers · esc ends)"
	}
	return "(think of your answer, then enter shows it · esc ends)"
}

// quizLines lays out the question shown, and once answered, the answer,
// why it is right, why the other options are wrong and the source. Every
// text is cleaned again here: a model wrote it.
func quizLines(r *quizRun, st *styles, width int) []string {
	it := r.item()
	var out []string
	add := func(text, first, rest string, style func(...string) string) {
		for _, l := range wrapPrefixed(textsafe.Line(text), width, first, rest, st.label) {
			out = append(out, style(l))
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	add(it.Question, "", "", st.user.Render)
	out = append(out, " ") // a blank line the scroller keeps
	switch it.Kind {
	case quiz.MultipleChoice:
		for k, o := range it.Options {
			mark, style := "  ", plain
			switch {
			case r.answered && k == it.Answer:
				mark, style = "✓ ", st.selected.Render
			case r.answered && k == r.pick:
				mark, style = "✗ ", st.errorText.Render
			case !r.answered && k == r.pick:
				mark, style = "▸ ", st.selected.Render
			}
			add(o, fmt.Sprintf("%s%d) ", mark, k+1), "      ", style)
		}
		if r.answered {
			out = append(out, " ")
			if r.pick == it.Answer {
				out = append(out, st.selected.Render("Right."))
			} else {
				out = append(out, st.errorText.Render(fmt.Sprintf("Not quite: the answer is %d.", it.Answer+1)))
			}
			add(it.Explanation, "Why: ", "     ", plain)
			for k, why := range it.WhyWrong {
				if k != it.Answer && why != "" {
					add(why, fmt.Sprintf("Not %d: ", k+1), "       ", st.dim.Render)
				}
			}
		}
	case quiz.ShortAnswer:
		if r.answered {
			add(it.SuggestedAnswer, "Answer: ", "        ", plain)
			if len(it.Keywords) > 0 {
				add(strings.Join(it.Keywords, ", "), "Look for: ", "          ", st.dim.Render)
			}
			add(it.Explanation, "Why: ", "     ", plain)
		}
	}
	if r.answered {
		for _, s := range it.Sources {
			where := strings.ReplaceAll(s.HeaderPath, " > ", " › ")
			if s.SourcePath != "" {
				where += " — " + s.SourcePath
			}
			add(where+" ("+s.ChunkID+")", "Source: ", "        ", st.dim.Render)
		}
	}
	return out
}
