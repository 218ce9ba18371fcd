package main

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the README's configuration table")

const (
	tableStart = "<!-- config-table:start -->\n"
	tableEnd   = "<!-- config-table:end -->"
)

// The README's configuration table is generated from the flag bindings, so
// a new flag cannot be added without the README saying how to set it.
func TestREADMEListsEveryFlagAndVariable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, tableStart)
	end := strings.Index(text, tableEnd)
	if start < 0 || end < start {
		t.Fatalf("README.md lacks the %q … %q markers", strings.TrimSpace(tableStart), tableEnd)
	}
	cmd, e := newRoot(func(string) string { return "" })
	want := envTable(cmd, e.cfg.bindings)
	got := text[start+len(tableStart) : end]
	if got == want {
		return
	}
	if *updateREADME {
		text = text[:start+len(tableStart)] + want + text[end:]
		if err := os.WriteFile("../../README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README configuration table is stale; run: go test ./cmd/docent -run TestREADME -update-readme\nwant:\n%s", want)
}

func TestEnvironmentSetsFlagsNotGivenOnTheCommandLine(t *testing.T) {
	getenv := mapEnv(map[string]string{"DOCENT_DOCS": "/env/docs", "DATABASE_URL": "postgres://h/db", "DOC_RETRIEVAL_PHASE": "1"})
	cmd, e := newRoot(getenv)
	if err := cmd.PersistentFlags().Parse([]string{"--docs", "/flag/docs"}); err != nil {
		t.Fatal(err)
	}
	if err := applyEnv(cmd.PersistentFlags(), e.cfg.bindings, getenv, nil); err != nil {
		t.Fatal(err)
	}
	f := cmd.PersistentFlags()
	for name, want := range map[string]string{"docs": "/flag/docs", "db": "postgres://h/db", "phase": "1"} {
		if got := f.Lookup(name).Value.String(); got != want {
			t.Errorf("--%s = %q, want %q", name, got, want)
		}
	}
}

func TestDOCENTDBWinsOverDATABASEURL(t *testing.T) {
	getenv := mapEnv(map[string]string{"DOCENT_DB": "postgres://a/x", "DATABASE_URL": "postgres://b/y"})
	cmd, e := newRoot(getenv)
	if err := applyEnv(cmd.PersistentFlags(), e.cfg.bindings, getenv, nil); err != nil {
		t.Fatal(err)
	}
	if got := cmd.PersistentFlags().Lookup("db").Value.String(); got != "postgres://a/x" {
		t.Fatalf("--db = %q, want the DOCENT_DB value", got)
	}
}

func TestBadEnvironmentValueNamesTheVariable(t *testing.T) {
	getenv := mapEnv(map[string]string{"DOC_RETRIEVAL_PHASE": "two"})
	cmd, e := newRoot(getenv)
	err := applyEnv(cmd.PersistentFlags(), e.cfg.bindings, getenv, nil)
	if err == nil || !strings.Contains(err.Error(), "DOC_RETRIEVAL_PHASE") {
		t.Fatalf("error = %v, want one naming DOC_RETRIEVAL_PHASE", err)
	}
}

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}
