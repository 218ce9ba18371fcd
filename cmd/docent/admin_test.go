package main

import (
	"strings"
	"testing"

	"github.com/docent-sh/docent/retrieval"
	"github.com/docent-sh/docent/store/postgres/pgtest"
)

// docent admin retrieval off reaches the next docent on the same store:
// it answers with the generic reply until retrieval on.
func testAdminRetrievalSwitch(t *testing.T, c *cli) {
	t.Helper()
	if o := c.askJSON("explain workspace"); o.Status != retrieval.StatusFound {
		t.Fatalf("before the switch: %s, want found", o.Status)
	}
	out, errOut, code := c.run("admin", "retrieval", "off")
	if code != 0 || !strings.Contains(out, "retrieval off") {
		t.Fatalf("admin retrieval off: exit %d, %q %s", code, out, errOut)
	}
	o := c.askJSON("explain workspace")
	if o.Status != retrieval.StatusNoMatch || o.Rule != retrieval.RuleDisabled || len(o.Results) != 0 || o.LLM.Called {
		t.Fatalf("switched off: %s/%q with %d results, model called %v; want the generic reply", o.Status, o.Rule, len(o.Results), o.LLM.Called)
	}
	if out, _, _ := c.run("admin", "retrieval", "status"); !strings.Contains(out, "retrieval off") {
		t.Errorf("status while off: %q", out)
	}
	if _, errOut, code := c.run("admin", "retrieval", "on"); code != 0 {
		t.Fatalf("admin retrieval on: exit %d: %s", code, errOut)
	}
	if o := c.askJSON("explain workspace"); o.Status != retrieval.StatusFound {
		t.Fatalf("switched on again: %s, want found", o.Status)
	}
	if _, _, code := c.run("admin", "retrieval", "maybe"); code != 2 {
		t.Errorf("admin retrieval maybe: exit %d, want the usage error", code)
	}
}

func TestAdminRetrievalSwitchEmbedded(t *testing.T) {
	testAdminRetrievalSwitch(t, newCLI(t))
}

func TestAdminRetrievalSwitchPostgres(t *testing.T) {
	c := newCLI(t, "DATABASE_URL", pgtest.NewDatabase(t))
	if _, errOut, code := c.run("seed"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	testAdminRetrievalSwitch(t, c)
}
