package ingest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/kb"
	"github.com/docent-sh/docent/knowledge"
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func docSlugs(docs []knowledge.Doc) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.Slug)
	}
	return out
}

// TestLoadBundleDemo: the demo's vocabulary comes from its own files, read
// like any folder's.
func TestLoadBundleDemo(t *testing.T) {
	b, res, err := LoadBundle(context.Background(), kb.Docs(), "kb")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Docs) != 19 || res.Files != 19 || len(res.Warnings) != 0 {
		t.Fatalf("%d docs from %d files, warnings %v; want 19 from 19, none", len(b.Docs), res.Files, res.Warnings)
	}
	if b.Glossary != kb.Glossary() || !strings.HasPrefix(b.Glossary, "# Core concepts") {
		t.Errorf("glossary = %.40q, want the demo's _glossary.md", b.Glossary)
	}
	want := []knowledge.Synonym{{From: "shortcuts", To: "quick links"}, {From: "homepage", To: "home"}, {From: "dashboard", To: "home"}}
	if !slices.Equal(b.Synonyms, want) {
		t.Errorf("synonyms = %v, want %v", b.Synonyms, want)
	}
	var concepts []string
	for _, d := range b.Docs {
		if b.IsConcept(d.Slug) {
			concepts = append(concepts, d.Slug)
		}
	}
	wantConcepts := []string{"concepts/dashboard", "concepts/entry", "concepts/home", "concepts/notes", "concepts/panels", "concepts/widgets", "concepts/workspace"}
	if !slices.Equal(concepts, wantConcepts) {
		t.Errorf("concept docs = %v, want %v", concepts, wantConcepts)
	}
}

func TestLoadBundleWithoutVocabulary(t *testing.T) {
	fsys := fstest.MapFS{
		"billing.md":          file("# Billing\n\nInvoices go out monthly.\n"),
		"concepts/account.md": file("# Account\n\nAn account is one customer.\n"),
	}
	b, res, err := LoadBundle(context.Background(), fsys, "docs")
	if err != nil {
		t.Fatal(err)
	}
	if b.Glossary != "" || b.Synonyms != nil || b.Concepts != nil {
		t.Errorf("a folder without vocabulary files got glossary %q, synonyms %v, concepts %v", b.Glossary, b.Synonyms, b.Concepts)
	}
	if b.IsConcept("concepts/account") {
		t.Error("a concepts/ folder is no declaration: no concept docs without docent.yaml")
	}
	if !slices.Equal(docSlugs(b.Docs), docSlugs(res.Docs)) || len(b.Docs) != 2 {
		t.Errorf("bundle docs %v, result docs %v", docSlugs(b.Docs), docSlugs(res.Docs))
	}
}

func TestLoadBundleVocabularyFiles(t *testing.T) {
	for _, tt := range []struct {
		name     string
		fsys     fstest.MapFS
		glossary string // how it starts
		synonyms []knowledge.Synonym
		slugs    []string // the docs: no vocabulary file among them
		concepts []string
	}{
		{
			name: "conventional files",
			fsys: fstest.MapFS{
				"_glossary.md":        file("# Core concepts\n- **Seat**: one person's licence.\n"),
				"_synonyms.txt":       file("# slang\nlicense, licenses => seat\n"),
				"guides/seats.md":     file("# Seats\n\nBuy seats in Billing.\n"),
				"guides/_glossary.md": file("# Not the root\n\nOnly the root's glossary is vocabulary.\n"),
			},
			glossary: "# Core concepts",
			synonyms: []knowledge.Synonym{{From: "license", To: "seat"}, {From: "licenses", To: "seat"}},
			slugs:    []string{"guides/_glossary", "guides/seats"},
		},
		{
			name: "files the manifest names",
			fsys: fstest.MapFS{
				ManifestFile:         file("# vocabulary\nglossary: reference/terms.md\nsynonyms: ./vocab/rewrites.txt\nconcepts:\n  - reference/*\n  - guides/start\n"),
				"reference/terms.md": file("# Terms\n- **Seat**: one person's licence.\n"),
				"reference/seat.md":  file("# Seat\n\nA seat is one person's licence.\n"),
				"guides/start.md":    file("# Start\n\nSign in, then buy seats.\n"),
				"vocab/rewrites.txt": file("licence => seat\n"),
				"_glossary.md":       file("# Ignored\n- **X**: the manifest names another glossary.\n"),
			},
			glossary: "# Terms",
			synonyms: []knowledge.Synonym{{From: "licence", To: "seat"}},
			slugs:    []string{"guides/start", "reference/seat"},
			concepts: []string{"reference/*", "guides/start"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, res, err := LoadBundle(context.Background(), tt.fsys, "docs")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(b.Glossary, tt.glossary) {
				t.Errorf("glossary = %q, want it to start %q", b.Glossary, tt.glossary)
			}
			if !slices.Equal(b.Synonyms, tt.synonyms) {
				t.Errorf("synonyms = %v, want %v", b.Synonyms, tt.synonyms)
			}
			if got := docSlugs(b.Docs); !slices.Equal(got, tt.slugs) || res.Files != len(tt.slugs) {
				t.Errorf("docs %v from %d files, want %v", got, res.Files, tt.slugs)
			}
			if !slices.Equal(b.Concepts, tt.concepts) {
				t.Errorf("concepts = %v, want %v", b.Concepts, tt.concepts)
			}
		})
	}
}

func TestLoadBundleConceptOfASkippedFile(t *testing.T) {
	fsys := fstest.MapFS{
		ManifestFile:  file("concepts: [broken]\n"),
		"broken.md":   file("---\ntitle: [unclosed\n---\n# Broken\n\nBody.\n"),
		"guides/a.md": file("# A\n\nBody text.\n"),
	}
	_, res, err := LoadBundle(context.Background(), fsys, "docs")
	if err != nil {
		t.Fatalf("a concept naming a file skipped with a warning: %v; want the warning alone", err)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "broken.md" {
		t.Fatalf("warnings %v, want broken.md's", res.Warnings)
	}
}

func TestLoadBundleErrorsNameFileAndLine(t *testing.T) {
	doc := file("# A\n\nBody text.\n")
	for _, tt := range []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"unknown key", fstest.MapFS{ManifestFile: file("glossary: g.md\nglosary: x\n")}, `docent.yaml:2: unknown key "glosary"`},
		{"key twice", fstest.MapFS{ManifestFile: file("concepts: [a]\nconcepts: [b]\n")}, `docent.yaml:2: "concepts" given twice`},
		{"broken YAML", fstest.MapFS{ManifestFile: file("concepts: [a\n")}, "docent.yaml: yaml: line"},
		{"not a mapping", fstest.MapFS{ManifestFile: file("- a\n- b\n")}, "docent.yaml:1: want a mapping"},
		{"path outside", fstest.MapFS{ManifestFile: file("\nglossary: ../glossary.md\n")}, "docent.yaml:2: glossary: \"../glossary.md\": want a file inside"},
		{"path not text", fstest.MapFS{ManifestFile: file("synonyms: [a, b]\n")}, "docent.yaml:1: synonyms: want a file name"},
		{"named file missing", fstest.MapFS{ManifestFile: file("glossary: terms.md\n")}, "docent.yaml:1: glossary terms.md: file does not exist"},
		{"concepts not a list", fstest.MapFS{ManifestFile: file("concepts: concepts/*\n")}, "docent.yaml:1: concepts: want a list"},
		{"empty concept", fstest.MapFS{ManifestFile: file("concepts:\n  - a\n  -\n")}, "docent.yaml:3: concepts: want a doc slug"},
		{"bad pattern", fstest.MapFS{ManifestFile: file("concepts: ['a[']\n")}, `docent.yaml:1: concepts: "a[": syntax error in pattern`},
		{"concept matches nothing", fstest.MapFS{ManifestFile: file("concepts:\n  - a\n  - gone/*\n")}, `docent.yaml:3: concepts: "gone/*" matches no doc`},
		{"bad synonym", fstest.MapFS{SynonymsFile: file("# ok\nbookmarks quick links\n")}, "_synonyms.txt: line 2: \"bookmarks quick links\": want \"from => to\""},
		{"bad named synonyms", fstest.MapFS{ManifestFile: file("synonyms: s.txt\n"), "s.txt": file("x => x\n")}, "s.txt: line 1: \"x\" maps to itself"},
		{"glossary not UTF-8", fstest.MapFS{GlossaryFile: file("# Core\n\xff\xfe\n")}, "_glossary.md: not valid UTF-8"},
		{"glossary a folder", fstest.MapFS{GlossaryFile + "/x.md": doc}, "_glossary.md: not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["a.md"] = doc
			b, _, err := LoadBundle(context.Background(), tt.files, "docs")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrVocabulary) {
				t.Fatalf("error %v, want ErrVocabulary saying %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "knowledge base docs: ") {
				t.Errorf("error %q does not name the knowledge base", err)
			}
			if b.Docs != nil {
				t.Error("a failed load returned docs")
			}
		})
	}
}

func TestLoadBundleOnlyTheGlossary(t *testing.T) {
	fsys := fstest.MapFS{
		ManifestFile: file("glossary: terms.md\n"),
		"terms.md":   file("# Terms\n- **Seat**: a licence.\n"),
	}
	if _, _, err := LoadBundle(context.Background(), fsys, "docs"); !errors.Is(err, ErrNoDocs) {
		t.Fatalf("error %v, want ErrNoDocs: the glossary is not a doc", err)
	}
}

func TestParseSynonyms(t *testing.T) {
	got, err := ParseSynonyms([]byte("# comment\n\n  shortcut, shortcuts =>  quick links \nsign-in page => Home\n"))
	want := []knowledge.Synonym{{From: "shortcut", To: "quick links"}, {From: "shortcuts", To: "quick links"}, {From: "sign-in page", To: "Home"}}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("ParseSynonyms = %v, %v; want %v", got, err, want)
	}
	if got, err := ParseSynonyms(nil); err != nil || got != nil {
		t.Errorf("empty file: %v, %v; want no rules", got, err)
	}
	for _, b := range []struct{ src, wantErr string }{
		{"ok => fine\nno arrow here\n", "line 2"},
		{"x =>\n", "line 1: nothing to the right"},
		{"x => ?!\n", "line 1: nothing to the right"},
		{" => y\n", "line 1: empty word"},
		{"a,, b => y\n", "line 1: empty word"},
		{"Home => home\n", "maps to itself"},
		{"quick-links => quick links\n", "maps to itself"},
		{"a => b\n" + strings.Repeat("x", 2<<20) + "\n", "line 2: bufio.Scanner: token too long"},
	} {
		if _, err := ParseSynonyms([]byte(b.src)); err == nil || !strings.Contains(err.Error(), b.wantErr) {
			t.Errorf("ParseSynonyms(%.40q) error = %v, want it to mention %q", b.src, err, b.wantErr)
		}
	}
}

func FuzzParseSynonyms(f *testing.F) {
	for _, s := range []string{"", "# c\nshortcuts => quick links\n", "a, b => c d\n", "=>", "x =>", "a => a", "é, ü => ß\r\n", "\x00 => \x1b[31m"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		rules, err := ParseSynonyms(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error %q does not name the line", err)
			}
			return
		}
		for _, r := range rules {
			if len(synonymWords(r.From)) == 0 || len(synonymWords(r.To)) == 0 || slices.Equal(synonymWords(r.From), synonymWords(r.To)) {
				t.Fatalf("rule %q => %q has an empty side or maps to itself", r.From, r.To)
			}
		}
	})
}

func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{"", "# only a comment\n", "concepts: [concepts/*]\n", "glossary: terms.md\nsynonyms: s.txt\nconcepts:\n  - a\n  - b/*\n",
		"glossary: ../x\n", "concepts: ['[']\n", "- a\n", "a: &x [1]\nb: *x\n", "glossary: {a: b}\n", "concepts: [a\n", "---\n...\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := parseManifest(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), ManifestFile) {
				t.Fatalf("error %q does not name %s", err, ManifestFile)
			}
			return
		}
		for _, p := range []string{m.glossary.path, m.synonyms.path} {
			if p == "" || p == "." || !validVocabularyPath(p) {
				t.Fatalf("accepted path %q", p)
			}
		}
		for _, c := range m.concepts {
			if c.value == "" || c.line < 1 {
				t.Fatalf("accepted concept %+v", c)
			}
		}
	})
}
