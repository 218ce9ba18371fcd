package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docent-sh/docent/retrieval"
)

// writeDocs writes files (path relative to dir → content) into a new
// docs folder and returns it.
func writeDocs(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), content)
	}
	return dir
}

func allRewrites(o askOutput) []retrieval.Rewrite {
	var out []retrieval.Rewrite
	for _, r := range o.Results {
		out = append(out, r.MatchExplain.Synonyms...)
	}
	return out
}

func allBiases(o askOutput) []string {
	var out []string
	for _, r := range o.Results {
		out = append(out, r.MatchExplain.Biases...)
	}
	return out
}

// A docs folder without vocabulary files gets none of the demo's: no
// glossary in the prompt, no rewrites, no concept docs from a folder name.
func TestDocsFolderWithoutVocabulary(t *testing.T) {
	dir := writeDocs(t, map[string]string{
		"menus.md":            "# Menus\n\n## Menu items\n\nEvery menu item lists its keyboard shortcuts on the right. Quick links to recent files sit at the top of the File menu.\n",
		"billing.md":          "# Billing\n\n## Invoices\n\nInvoices are sent on the first of every month to the billing address.\n",
		"concepts/account.md": "# Account\n\nAn account is one customer of the product, with its own billing address and users.\n",
	})
	c := newCLI(t, "DOCENT_DOCS", dir)

	o := c.askJSON("where are my shortcuts")
	if rw := allRewrites(o); len(rw) != 0 || slices.Contains(o.NormalizedTokens, "quick") {
		t.Errorf("shortcuts rewritten without a synonyms file: tokens %q, rewrites %v", o.NormalizedTokens, rw)
	}

	o = c.askJSON("what is an account")
	if o.Status != "found" || o.Context == nil {
		t.Fatalf("what is an account: status %s, context %v; want found with a context report", o.Status, o.Context)
	}
	if o.Context.Tokens.Core != 0 {
		t.Errorf("context.tokens.core = %d, want 0 without a glossary", o.Context.Tokens.Core)
	}
	// The doc titled "Account" is the doc about accounts; the folder
	// name concepts/ declares nothing.
	if b := allBiases(o); len(b) == 0 || slices.ContainsFunc(b, func(s string) bool { return strings.Contains(s, "(concept doc)") }) {
		t.Errorf("biases %v: want the bias for the doc titled Account, none for concepts/ as a folder name", b)
	}
}

// A folder's own glossary, synonyms and concept docs are used, and the
// --synonyms file's rules replace the folder's for the same words.
func TestDocsFolderWithItsOwnVocabulary(t *testing.T) {
	dir := writeDocs(t, map[string]string{
		"_glossary.md":     "# Core concepts\n- **Seat**: one person's right to sign in to the product; billed monthly.\n",
		"_synonyms.txt":    "# what customers say => what the docs say\nlicence, licences => seat\n",
		"docent.yaml":      "concepts: [concepts/*]\n",
		"concepts/seat.md": "# Seat\n\nA seat lets one person sign in. Every seat is billed monthly.\n",
		"guides/seats.md":  "# Manage seats\n\n## Add a seat\n\nOpen Billing, choose Add seat and enter the person's email address. The seat is billed from that day on.\n",
	})
	c := newCLI(t, "DOCENT_DOCS", dir)

	o := c.askJSON("what is a licence")
	if got := allRewrites(o); !slices.Contains(got, retrieval.Rewrite{From: "licence", To: "seat"}) {
		t.Errorf("rewrites %v, want licence → seat from _synonyms.txt", got)
	}
	if o.Status != "found" || resultSlugs(o)[0] != "concepts/seat" || o.Context == nil {
		t.Fatalf("what is a licence: status %s, results %v; want found on concepts/seat", o.Status, resultSlugs(o))
	}
	if o.Context.Tokens.Core == 0 {
		t.Error("context.tokens.core = 0, want the folder's glossary in the prompt")
	}
	if b := allBiases(o); len(b) == 0 || !strings.Contains(b[0], "(concept doc)") {
		t.Errorf("biases %v, want the definitional bias on the declared concept doc", b)
	}
	for _, slug := range resultSlugs(o) {
		if strings.Contains(slug, "glossary") {
			t.Errorf("result %s: the glossary file is not a doc", slug)
		}
	}

	flag := filepath.Join(t.TempDir(), "extra.txt")
	writeFile(t, flag, "licence => invoice\n")
	o = newCLI(t, "DOCENT_DOCS", dir, "DOCENT_SYNONYMS", flag).askJSON("what is a licence")
	if got := o.NormalizedTokens; !slices.Contains(got, "invoice") || slices.Contains(got, "seat") {
		t.Errorf("with --synonyms licence => invoice: tokens %q, want its rule to replace the folder's", got)
	}
}

func TestBrokenVocabularyFileIsAUsageError(t *testing.T) {
	dir := writeDocs(t, map[string]string{
		"docent.yaml": "# vocabulary\nconcepts: [guides/*]\nglosary: terms.md\n",
		"guides/a.md": "# A\n\nBody text.\n",
	})
	for _, args := range [][]string{{"ask", "what is a"}, {"seed"}} {
		_, errOut, code := newCLI(t, "DOCENT_DOCS", dir).run(args...)
		if code != 2 || !strings.Contains(errOut, "docent.yaml:3") || !strings.Contains(errOut, "glosary") {
			t.Errorf("docent %s: exit %d, stderr %q; want 2 naming docent.yaml:3 and the key", args[0], code, errOut)
		}
	}
}
