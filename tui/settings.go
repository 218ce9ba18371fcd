package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docent-sh/docent/assistant"
	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/textsafe"
)

// /scope and /set change what the following questions ask of retrieval:
// the categories of docs they search, how many pieces of evidence they
// keep and the hybrid weight. They live in the model, applied to each
// request it sends (see applySettings), so the backend holds no state for
// them.
const (
	scopeCmd = "/scope"
	setCmd   = "/set"
)

// settings are the session's per-turn retrieval settings; zero values
// leave the engine's own.
type settings struct {
	scope []string // categories; nil: all
	topK  int      // 0: the engine's
	alpha *float64 // nil: the engine's
}

// applySettings gives a request the session's settings.
func (m *Model) applySettings(req assistant.Request) assistant.Request {
	req.Categories = m.settings.scope
	if m.settings.topK > 0 {
		req.TopK = m.settings.topK
	}
	req.Alpha = m.settings.alpha
	return req
}

// runScope handles /scope: with categories it scopes the following
// questions to them, checked against the knowledge base's; without, it
// clears the scope.
func (m *Model) runScope(arg string) {
	cats := retrieval.ParseCategories(arg)
	known := m.status.Categories
	if len(cats) == 0 {
		was := m.settings.scope
		m.settings.scope = nil
		if len(was) == 0 {
			m.say("No scope was set: questions search every category ("+textsafe.Line(strings.Join(known, ", "))+").", false)
		} else {
			m.say("Scope cleared: questions search every category.", false)
		}
		return
	}
	if len(known) == 0 {
		m.say(scopeCmd+" is not available: the knowledge base's categories are unknown.", true)
		return
	}
	if err := retrieval.CheckCategories(known, cats); err != nil {
		m.say("Scope not changed: "+textsafe.Line(err.Error())+".", true)
		return
	}
	m.settings.scope = cats
	m.say("Scope: "+textsafe.Line(strings.Join(cats, ", "))+": the following questions search these categories alone ("+scopeCmd+" clears it).", false)
}

// runSet handles /set top-k N and /set alpha X, checked with the ranges
// the engine's configuration has; /set alone shows the settings.
func (m *Model) runSet(arg string) {
	name, value, _ := strings.Cut(strings.TrimSpace(arg), " ")
	value = strings.TrimSpace(value)
	cfg := retrieval.DefaultConfig()
	fail := func(err error) {
		msg := strings.TrimPrefix(err.Error(), "retrieval config: ")
		m.say("Not set: "+textsafe.Line(msg)+".", true)
	}
	switch name {
	case "":
		m.say("Settings: "+m.settingsText()+" ("+setCmd+" top-k N, "+setCmd+" alpha X).", false)
	case "top-k":
		n, err := strconv.Atoi(value)
		if err != nil {
			fail(fmt.Errorf("top-k %q: want a whole number from 1 to 100", value))
			return
		}
		cfg.TopK = n
		if err := cfg.Validate(); err != nil {
			fail(err)
			return
		}
		m.settings.topK = n
		m.say(fmt.Sprintf("top-k %d: the following questions get up to %d pieces of evidence.", n, n), false)
	case "alpha":
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			fail(fmt.Errorf("alpha %q: want a share from 0 to 1", value))
			return
		}
		cfg.Alpha = x
		if err := cfg.Validate(); err != nil {
			fail(err)
			return
		}
		m.settings.alpha = &x
		m.say("alpha "+strconv.FormatFloat(x, 'g', -1, 64)+": the weight of the embedding similarity in the following questions' ranking.", false)
	default:
		m.say(fmt.Sprintf("Not set: unknown setting %q: %s top-k N or %s alpha X.", textsafe.Line(name), setCmd, setCmd), true)
	}
}

// settingsText describes the settings, "default" for the engine's own.
func (m *Model) settingsText() string {
	topK, alpha := "default", "default"
	if m.settings.topK > 0 {
		topK = strconv.Itoa(m.settings.topK)
	}
	if m.settings.alpha != nil {
		alpha = strconv.FormatFloat(*m.settings.alpha, 'g', -1, 64)
	}
	scope := "all"
	if len(m.settings.scope) > 0 {
		scope = strings.Join(m.settings.scope, ", ")
	}
	return "scope " + textsafe.Line(scope) + ", top-k " + topK + ", alpha " + alpha
}
