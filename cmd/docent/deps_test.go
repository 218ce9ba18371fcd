package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The reference engines the evaluation measures docent against are for
// cmd/docent-eval: bleve and its index formats add about 11 MB and nothing
// a user needs, so the product must not link them, even indirectly.
func TestProductLinksNoReferenceEngine(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.CommandContext(t.Context(), goTool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/blevesearch/bleve") || strings.HasSuffix(pkg, "/eval/reference") {
			t.Errorf("docent links %s", pkg)
		}
	}
}
