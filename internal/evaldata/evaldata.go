// Package evaldata locates, for tests, the evaluation data that lives
// beside the repository rather than in it (shared/eval: benchmark corpora
// and real documentation with labelled questions).
package evaldata

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// EnvDir names the directory holding the data sets, for a checkout without
// shared/ beside it.
const EnvDir = "DOCENT_EVAL_DIR"

// Dir returns the absolute path of the data set name: under $DOCENT_EVAL_DIR,
// else under shared/eval beside the repository (the directory holding
// go.mod, found upwards from the test's working directory). When the set
// is not there the test is skipped, or fails under CI=true (where shared/
// is checked out beside the clone) and whenever DOCENT_EVAL_DIR was set.
func Dir(tb testing.TB, name string) string {
	tb.Helper()
	root, explicit := os.Getenv(EnvDir), true
	if root == "" {
		root, explicit = filepath.Join(repoRoot(tb), "..", "shared", "eval"), false
	}
	dir := filepath.Join(root, name)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		switch {
		case explicit:
			tb.Fatalf("%s not found: %s=%s but %s does not exist", name, EnvDir, root, dir)
		case os.Getenv("CI") == "true":
			tb.Fatalf("%s not found at %s: CI must check out shared/ beside the repository (or set %s to the directory holding %s/)", name, dir, EnvDir, name)
		default:
			tb.Skipf("%s not found at %s; put shared/eval beside the repository or set %s to the directory holding %s/", name, dir, EnvDir, name)
		}
	}
	return dir
}

// repoRoot is the nearest directory upwards that holds go.mod.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
