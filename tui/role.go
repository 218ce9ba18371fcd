package tui

import (
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// /role writes the following answers in a role: an addition to the
// system prompt that the backend puts after its rules.
const (
	roleCmd = "/role"
	roleOff = "off"
)

// runRole handles a /role command at once: choosing a role only changes
// the backend's memory.
func (m *Model) runRole(arg string) {
	say := func(text string, failed bool) {
		r := roleInfo
		if failed {
			r = roleError
		}
		m.transcript.append(&message{role: r, text: text})
		m.transcript.bottom()
	}
	sel, ok := m.backend.(RoleSelector)
	if !ok {
		say(roleCmd+" is not available: this backend has no roles.", true)
		return
	}
	known := "Roles: " + strings.Join(sel.Roles(), ", ") + " (" + roleCmd + " NAME picks one, " + roleCmd + " " + roleOff + " clears it)."
	switch arg {
	case "":
		if cur := sel.Role(); cur != "" {
			say("Role: "+textsafe.Line(cur)+". "+known, false)
		} else {
			say("No role: answers follow docent's rules alone. "+known, false)
		}
	case roleOff:
		was := sel.Role()
		if err := sel.SetRole(""); err != nil {
			say("Role not cleared: "+textsafe.Line(err.Error()), true)
			return
		}
		if was == "" {
			say("No role was set.", false)
		} else {
			say("Role "+textsafe.Line(was)+" cleared: answers follow docent's rules alone.", false)
		}
	default:
		if err := sel.SetRole(arg); err != nil {
			say("Role not changed: "+textsafe.Line(err.Error()), true)
			return
		}
		say("Role "+textsafe.Line(arg)+": the following answers are written in it, within docent's rules.", false)
	}
}
