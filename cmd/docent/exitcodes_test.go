package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// readmeExitCodes reads the codes README's exit code table lists.
func readmeExitCodes(t *testing.T) []int {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start, end := strings.Index(text, "<!-- exit-codes:start -->"), strings.Index(text, "<!-- exit-codes:end -->")
	if start < 0 || end < start {
		t.Fatal("README.md lacks the exit-codes markers")
	}
	var codes []int
	for _, m := range regexp.MustCompile(`(?m)^\| (\d+) \|`).FindAllStringSubmatch(text[start:end], -1) {
		n, _ := strconv.Atoi(m[1])
		codes = append(codes, n)
	}
	return codes
}

// Every exit code README lists is what docent returns in those cases, and
// docent returns no code README does not list. Cases needing a database
// are in postgres_test.go.
func TestExitCodesMatchREADME(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	writeFile(t, filepath.Join(broken, "guides", "good.md"), "---\ntitle: Good\n---\n## Good\n\nFine text.\n")
	writeFile(t, filepath.Join(broken, "guides", "bad.md"), "---\ntitle: [unclosed\n---\n## Bad\n")
	closedDB := "postgres://docent@127.0.0.1:1/docent?sslmode=disable"

	cases := []struct {
		name string
		args []string
		ctx  func() context.Context
		want int
	}{
		{name: "an answer", args: []string{"ask", "explain workspace"}, want: 0},
		{name: "help", args: []string{"--help"}, want: 0},
		{name: "a seed", args: []string{"seed"}, want: 0},
		{name: "seed --strict with a skipped file", args: []string{"seed", "--strict", "--docs", broken}, want: 1},
		{name: "an unreachable database", args: []string{"ask", "--db", closedDB, "explain workspace"}, want: 1},
		{name: "unknown command", args: []string{"bogus"}, want: 2},
		{name: "unknown migrate subcommand", args: []string{"migrate", "bogus"}, want: 2},
		{name: "migrate without a subcommand", args: []string{"migrate"}, want: 2},
		{name: "docs without a subcommand", args: []string{"docs"}, want: 2},
		{name: "unknown flag", args: []string{"seed", "--no-such-flag"}, want: 2},
		{name: "extra argument", args: []string{"seed", "now"}, want: 2},
		{name: "bad flag value", args: []string{"--max-delete-share", "1.5", "seed"}, want: 2},
		{name: "bad lock wait", args: []string{"--lock-wait", "0s", "seed"}, want: 2},
		{name: "empty question", args: []string{"ask", ""}, want: 2},
		{name: "missing docs folder", args: []string{"seed", "--docs", filepath.Join(dir, "nope")}, want: 2},
		{name: "migrate down without N off a terminal", args: []string{"--db", closedDB, "migrate", "down"}, want: 2},
		{name: "migrate down with N and --all", args: []string{"--db", closedDB, "migrate", "down", "2", "--all"}, want: 2},
		{name: "migrate force without a number", args: []string{"--db", closedDB, "migrate", "force", "latest"}, want: 2},
		{name: "interrupted", args: []string{"ask", "explain workspace"}, ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, want: exitInterrupted},
	}
	seen := map[int]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			ctx := context.Background()
			if tc.ctx != nil {
				ctx = tc.ctx()
			}
			_, errOut, code := c.runContext(ctx, tc.args...)
			if code != tc.want {
				t.Errorf("docent %s: exit %d, want %d (stderr %q)", strings.Join(tc.args, " "), code, tc.want, errOut)
			}
			if code != 0 && !strings.HasPrefix(errOut, "docent: ") && !strings.Contains(errOut, "\ndocent: ") {
				t.Errorf("exit %d without a docent: line on stderr: %q", code, errOut)
			}
		})
		seen[tc.want] = true
	}
	listed := readmeExitCodes(t)
	for _, code := range listed {
		if !seen[code] {
			t.Errorf("README lists exit code %d, which no case here produces", code)
		}
	}
	for code := range seen {
		if !slices.Contains(listed, code) {
			t.Errorf("docent exits %d, which README does not list", code)
		}
	}
}
