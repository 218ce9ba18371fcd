package main

import (
	"strings"
	"testing"
)

// --scope, and DOCENT_SCOPE, keep a turn to the docs of the named
// categories; one the knowledge base lacks is a usage error naming the
// ones it has.
func TestAskScope(t *testing.T) {
	o := newCLI(t).askJSON("Widget Manager")
	if len(o.Results) == 0 || !strings.HasPrefix(o.Results[0].DocSlug, "widgets/") {
		t.Fatalf("unscoped: results %v, want a widgets doc first", resultSlugs(o))
	}
	for _, c := range []*cli{newCLI(t), newCLI(t, "DOCENT_SCOPE", "concepts,actions")} {
		args := []string{"Widget Manager"}
		if c.env["DOCENT_SCOPE"] == "" {
			args = append([]string{"--scope", "concepts, actions"}, args...)
		}
		o := c.askJSON(args...)
		for _, s := range append(resultSlugs(o), optionSlugs(o)...) {
			if !strings.HasPrefix(s, "concepts/") && !strings.HasPrefix(s, "actions/") {
				t.Errorf("scoped to concepts and actions: %s among %v / %v", s, resultSlugs(o), optionSlugs(o))
			}
		}
	}

	_, errOut, code := newCLI(t).run("ask", "--scope", "widgets,billing", "home")
	if code != 2 || !strings.Contains(errOut, `"billing"`) || !strings.Contains(errOut, "actions, concepts, widgets") {
		t.Errorf("unknown category: exit %d, stderr %q; want 2 naming it and the known ones", code, errOut)
	}
}
