package eval

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/docent-sh/docent/ingest"
	"github.com/docent-sh/docent/internal/evaldata"
	"github.com/docent-sh/docent/retrieval"
)

// The decision policy is measured on documentation it was not written
// for: the real sets in shared/eval beside the repository (Mastodon's Hugo
// docs, Material for MkDocs; see evaldata.Dir), and twenty-seven sets in other
// conventions written for this repository (testdata/README.md). Each run
// here fails below its floor, so a change that makes docent decide worse
// on any of them fails make test.

// floor is the least a doc set must reach: cases passed, hit@1 over the
// questions expected to be found, and the most wrong confident answers.
type floor struct {
	passed, hitAt1Found, maxWrongConfident int
}

// Issue 13's targets for the Mastodon docs, as shares of the cases (and of
// the found questions for hit@1). The floors below are what the policy
// reaches now; the test reports the distance to these targets.
const (
	targetAccuracy       = 0.90
	targetWrongConfident = 0.03
	targetHitAt1         = 0.90
)

// runDocSet runs dir/cases.jsonl over dir/docs as docent eval decisions
// does, with the default configuration.
func runDocSet(t *testing.T, dir string) DecisionReport {
	t.Helper()
	return runDocs(t, filepath.Join(dir, "docs"), filepath.Join(dir, "cases.jsonl"))
}

// runDocs runs the cases file over the docs folder.
func runDocs(t *testing.T, docs, cases string) DecisionReport {
	t.Helper()
	b, _, err := ingest.LoadBundle(context.Background(), os.DirFS(docs), docs)
	if err != nil {
		t.Fatalf("load %s: %v", docs, err)
	}
	e, err := retrieval.New(b, retrieval.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	cs := readCasesFile(t, cases)
	warnings, err := CheckSlugs(cs, cases, func(s string) bool { return e.Lookup(s).Status == retrieval.StatusFound })
	for _, w := range warnings {
		t.Log(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	return RunDecisions(e, cs)
}

// checkFloor fails when the report is below f, printing the report.
func checkFloor(t *testing.T, r DecisionReport, f floor) {
	t.Helper()
	hits := int(math.Round(r.HitAt1 * float64(r.Ranked)))
	t.Logf("%d of %d passed (%.1f%%), %d wrong confident, hit@1 %d of %d (%.1f%%), MRR %.3f",
		r.Passed, r.Cases, 100*r.Accuracy, r.WrongConfident, hits, r.Ranked, 100*r.HitAt1, r.MRR)
	if r.Passed < f.passed || hits < f.hitAt1Found || r.WrongConfident > f.maxWrongConfident {
		var buf bytes.Buffer
		r.WriteText(&buf, true)
		t.Fatalf("below the floor (%d passed, hit@1 on %d found questions, at most %d wrong confident):\n%s",
			f.passed, f.hitAt1Found, f.maxWrongConfident, buf.String())
	}
}

func TestDecisionsMastodonDocs(t *testing.T) {
	r := runDocSet(t, evaldata.Dir(t, "mastodon-docs"))
	checkFloor(t, r, floor{passed: 77, hitAt1Found: 50, maxWrongConfident: 2})
	if r.Accuracy < targetAccuracy || float64(r.WrongConfident) > targetWrongConfident*float64(r.Cases) || r.HitAt1 < targetHitAt1 {
		t.Logf("issue 13's targets not reached: accuracy %.1f%% (target %.0f%%), wrong confident %.1f%% (at most %.0f%%), hit@1 %.1f%% (target %.0f%%)",
			100*r.Accuracy, 100*targetAccuracy, 100*float64(r.WrongConfident)/float64(r.Cases), 100*targetWrongConfident, 100*r.HitAt1, 100*targetHitAt1)
	}
}

func TestDecisionsMkDocsMaterial(t *testing.T) {
	checkFloor(t, runDocSet(t, evaldata.Dir(t, "mkdocs-material")), floor{passed: 45, hitAt1Found: 29, maxWrongConfident: 2})
}

// The sets written for this repository, in conventions the shared sets do
// not have: a Docusaurus-style site, a flat wiki export, a site in GitBook,
// Just the Docs and MyST syntax, a hosted help desk's help centre
// exported as markdown files with HTML bodies, a Notion wiki exported as
// Markdown & CSV, sites built with Mintlify, VitePress, mdBook, Astro
// Starlight, docsify, Hugo Docsy and Nextra, a help centre crawled from
// the web into markdown, a support team's playbooks exported from Google
// Docs and Word, a docs site crawled with its menus and sidebar, a
// hosted help desk's help centre crawled with its frame, and (see
// testdata/README.md for the rest) a Quarto site of notebooks.
func TestDecisionsOwnDocSets(t *testing.T) {
	for _, tc := range []struct {
		dir string
		f   floor
	}{
		{"testdata/beacon", floor{passed: 34, hitAt1Found: 21, maxWrongConfident: 5}},
		{"testdata/itwiki", floor{passed: 34, hitAt1Found: 24, maxWrongConfident: 1}},
		{"testdata/shelfwise", floor{passed: 35, hitAt1Found: 21, maxWrongConfident: 2}},
		{"testdata/deskly", floor{passed: 38, hitAt1Found: 22, maxWrongConfident: 1}},
		{"testdata/tallyroom", floor{passed: 33, hitAt1Found: 21, maxWrongConfident: 1}},
		{"testdata/relaykit", floor{passed: 35, hitAt1Found: 21, maxWrongConfident: 2}},
		{"testdata/quillpad", floor{passed: 36, hitAt1Found: 21, maxWrongConfident: 2}},
		{"testdata/ferrydock", floor{passed: 33, hitAt1Found: 19, maxWrongConfident: 1}},
		{"testdata/parcelpost", floor{passed: 35, hitAt1Found: 22, maxWrongConfident: 4}},
		{"testdata/brightdesk", floor{passed: 37, hitAt1Found: 23, maxWrongConfident: 3}},
		{"testdata/dockhand", floor{passed: 30, hitAt1Found: 21, maxWrongConfident: 2}},
		{"testdata/meshgate", floor{passed: 33, hitAt1Found: 21, maxWrongConfident: 1}},
		{"testdata/nimbusnote", floor{passed: 29, hitAt1Found: 18, maxWrongConfident: 5}},
		{"testdata/tillsupport", floor{passed: 32, hitAt1Found: 21, maxWrongConfident: 2}},
		{"testdata/spoolcast", floor{passed: 37, hitAt1Found: 22, maxWrongConfident: 2}},
		{"testdata/lumenpay", floor{passed: 37, hitAt1Found: 25, maxWrongConfident: 2}},
		{"testdata/forgehub", floor{passed: 36, hitAt1Found: 23, maxWrongConfident: 2}},
		{"testdata/ticketly", floor{passed: 38, hitAt1Found: 22, maxWrongConfident: 1}},
		{"testdata/driftwood", floor{passed: 36, hitAt1Found: 23, maxWrongConfident: 3}},
		{"testdata/hearthhub", floor{passed: 38, hitAt1Found: 23, maxWrongConfident: 1}},
		{"testdata/chatterbox", floor{passed: 37, hitAt1Found: 22, maxWrongConfident: 4}},
		{"testdata/pipewright", floor{passed: 37, hitAt1Found: 23, maxWrongConfident: 3}},
		{"testdata/cloudmesa", floor{passed: 33, hitAt1Found: 23, maxWrongConfident: 7}},
		{"testdata/kilnforge", floor{passed: 38, hitAt1Found: 22, maxWrongConfident: 3}},
		{"testdata/harborline", floor{passed: 37, hitAt1Found: 25, maxWrongConfident: 5}},
		{"testdata/quaystone", floor{passed: 38, hitAt1Found: 23, maxWrongConfident: 3}},
		{"testdata/lanternlab", floor{passed: 35, hitAt1Found: 22, maxWrongConfident: 3}},
	} {
		t.Run(filepath.Base(tc.dir), func(t *testing.T) { checkFloor(t, runDocSet(t, tc.dir), tc.f) })
	}
}

// maxOffTopicAnswers is the most of testdata/offtopic.jsonl's questions
// (about the weather, a Gmail password, a Netflix subscription: nothing
// any product's docs cover) that may be answered over all the written doc
// sets together: 27 questions on 27 sets, 729 in all, twelve of them
// long ones telling the asker's circumstances. Each is a wrong confident
// answer. The questions were written for no set in particular (see
// testdata/README.md).
const maxOffTopicAnswers = 24

// TestOffTopicQuestions guards the worst outcome on questions no doc set
// answers: a support agent's customer asks about another product, or
// about nothing in the product at all.
func TestOffTopicQuestions(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*/cases.jsonl")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no doc sets under testdata: %v", err)
	}
	answered, asked := 0, 0
	for _, cases := range dirs {
		dir := filepath.Dir(cases)
		r := runDocs(t, filepath.Join(dir, "docs"), "testdata/offtopic.jsonl")
		for _, f := range r.Failures {
			if f.GotStatus == string(retrieval.StatusFound) {
				t.Logf("%s: %q answered from %v", filepath.Base(dir), f.Query, f.GotSlugs)
			}
		}
		answered += r.WrongConfident
		asked += r.Cases
	}
	t.Logf("%d of %d off-topic questions answered", answered, asked)
	if answered > maxOffTopicAnswers {
		t.Errorf("%d off-topic questions answered over %d doc sets, at most %d", answered, len(dirs), maxOffTopicAnswers)
	}
}

// Real documentation this machine has installed, not written for docent
// and not shipped with it, with questions labelled from the docs alone
// (installed/README.md): npm's own docs, the undici HTTP client's API
// docs, the Requests and urllib3 libraries' Sphinx docs, the Cargo book
// as rustup installs it, HTML built by mdBook, Django's docs as Debian's
// python-django-doc installs them, HTML built by Sphinx, and
// PostgreSQL's as postgresql-doc-15 does, HTML built by DocBook. A set
// is skipped where its docs are missing or at another version than the
// one labelled: an upgrade may move an answer.
func TestDecisionsInstalledDocs(t *testing.T) {
	for _, tc := range []struct {
		name, docs, versionFile, version string
		f                                floor
	}{
		{"npm", "/usr/lib/node_modules/npm/docs", "/usr/lib/node_modules/npm/package.json", `"version": "11.19.1"`,
			floor{passed: 28, hitAt1Found: 17, maxWrongConfident: 1}},
		{"requests", "/usr/lib/google-cloud-sdk/platform/gsutil/third_party/requests/docs",
			"/usr/lib/google-cloud-sdk/platform/gsutil/third_party/requests/src/requests/__version__.py", `__version__ = "2.32.3"`,
			floor{passed: 30, hitAt1Found: 19, maxWrongConfident: 2}},
		{"undici", "/usr/lib/node_modules/npm/node_modules/undici/docs", "/usr/lib/node_modules/npm/node_modules/undici/package.json", `"version": "6.28.0"`,
			floor{passed: 24, hitAt1Found: 17, maxWrongConfident: 3}},
		{"urllib3", "/usr/lib/google-cloud-sdk/platform/gsutil/third_party/urllib3/docs",
			"/usr/lib/google-cloud-sdk/platform/gsutil/third_party/urllib3/src/urllib3/_version.py", `__version__ = "2.2.2"`,
			floor{passed: 33, hitAt1Found: 21, maxWrongConfident: 3}},
		{"cargo", "/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html/cargo",
			"/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/multirust-channel-manifest.toml", `version = "0.96.0 (f2d3ce0bd 2026-03-21)"`,
			floor{passed: 22, hitAt1Found: 16, maxWrongConfident: 3}},
		{"django", "/usr/share/doc/python-django-doc/html", "/usr/share/doc/python-django-doc/html/index.html", "Django 3.2.25 documentation",
			floor{passed: 22, hitAt1Found: 18, maxWrongConfident: 4}},
		{"postgresql", "/usr/share/doc/postgresql-doc-15/html", "/usr/share/doc/postgresql-doc-15/html/index.html", "PostgreSQL 15.20 Documentation",
			floor{passed: 16, hitAt1Found: 9, maxWrongConfident: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := os.ReadFile(tc.versionFile)
			if err != nil || !bytes.Contains(v, []byte(tc.version)) {
				t.Skipf("%s docs not installed at the labelled version (%s in %s)", tc.name, tc.version, tc.versionFile)
			}
			checkFloor(t, runDocs(t, tc.docs, filepath.Join("installed", tc.name, "cases.jsonl")), tc.f)
		})
	}
}
