package prompt

import (
	"fmt"
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// Role is a named addition to the system prompt that the support agent
// picks for what they are doing: drafting a reply to the customer, writing
// an internal note. It shapes the answer's form and language; it never
// replaces the rules: Build puts it after them and says they still apply.
type Role struct {
	Name string
	Text string
}

// Built-in role names.
const (
	RoleReplyToCustomer = "reply-to-customer"
	RoleInternalNote    = "internal-note"
	RoleTranslate       = "translate"
)

// BuiltinRoles are the roles docent ships. A configuration file may
// replace any of them by giving a role of the same name.
func BuiltinRoles() []Role {
	return []Role{
		{RoleReplyToCustomer, "Write the answer as the reply the support agent will send to the customer: " +
			"address the customer directly, in a friendly and plain tone, without internal jargon. " +
			"Keep the citations, so the agent can check them before sending."},
		{RoleInternalNote, "Write the answer as an internal note for colleagues on the support team: " +
			"terse and factual, short bullet points are fine, and say which docs it rests on."},
		{RoleTranslate, "Write the answer in the language the question is written in (the customer's language), " +
			"even when the documentation is in another one. Keep product names, labels of the interface and the " +
			"chunk ids of the citations exactly as the documentation writes them."},
	}
}

// rolePiece renders a role for the system prompt, "" for none. Like every
// piece it ends with a newline and starts with a non-blank character.
func rolePiece(r Role) string {
	text := strings.TrimSpace(neutralize(textsafe.String(r.Text)))
	if text == "" {
		return ""
	}
	return fmt.Sprintf("Role for this answer: %s. The support agent chose it to shape how you write; every rule above still applies.\n%s\n", r.displayName(), text)
}

func (r Role) displayName() string {
	if name := textsafe.Line(r.Name); name != "" {
		return name
	}
	return "custom"
}

// roleName is the role as the report names it: only when it reached the
// prompt.
func roleName(r Role, piece string) string {
	if piece == "" {
		return ""
	}
	return r.displayName()
}
