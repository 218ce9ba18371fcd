package ingest

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// readerOf reads the files of fsys as Load's include reader does.
func readerOf(fsys fstest.MapFS) *siteFiles {
	var files []mdFile
	for p := range fsys {
		files = append(files, mdFile{path: p, real: p})
	}
	return siteFilesOf(fsys, files)
}

// loadSlugs loads fsys as Load does and lists the docs' slugs.
func loadSlugs(t *testing.T, fsys fstest.MapFS) (Result, []string) {
	t.Helper()
	res, err := Load(context.Background(), fsys, "kb")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, d := range res.Docs {
		slugs = append(slugs, d.Slug)
	}
	return res, slugs
}

func TestParseInclude(t *testing.T) {
	for _, tc := range []struct {
		line string
		want includeDirective
		ok   bool
	}{
		{"<!-- @include: ./parts/help.md -->", includeDirective{target: "./parts/help.md", inFences: true}, true},
		{"<!--@include: @/parts/help.md-->", includeDirective{target: "parts/help.md", inFences: true, root: true}, true},
		{"<!-- @include: ./parts/help.md{3,5} -->", includeDirective{}, false},
		{"{{#include ../snippets/ferry.toml:server}}", includeDirective{target: "../snippets/ferry.toml", part: "server", inFences: true}, true},
		{"  {{#rustdoc_include main.rs:2:8}}", includeDirective{target: "main.rs", part: "2:8", inFences: true}, true},
		{`--8<-- "includes/abbreviations.md"`, includeDirective{target: "includes/abbreviations.md", inFences: true}, true},
		{`--8<-- "file.md:3:5"`, includeDirective{}, false},
		{"[window](../snippets/window.md ':include')", includeDirective{target: "../snippets/window.md"}, true},
		{`[payload](snippets/p.json ":include :type=code")`, includeDirective{target: "snippets/p.json", code: true}, true},
		{`<Snippet file="api-key-warning.mdx" />`, includeDirective{target: "snippets/api-key-warning.mdx", root: true}, true},
		{"Use {{#include x.md}} in your book.", includeDirective{}, false}, // prose about the directive
		{"[link](page.md)", includeDirective{}, false},
		{`{{% readfile file="/docs/includes/ports.md" %}}`, includeDirective{target: "docs/includes/ports.md", root: true, inFences: true}, true},
		{`{{< readfile file="sample.yaml" code="true" lang="yaml" >}}`, includeDirective{target: "sample.yaml", code: true, inFences: true}, true},
		{"{!admin-only.md!}", includeDirective{target: "admin-only.md", inFences: true, nearby: true}, true},
		{"    {! include/warn.md !}", includeDirective{target: "include/warn.md", inFences: true, nearby: true}, true},
		{"{!admin-only.md!} and more", includeDirective{}, false},
		{"{% include integrations/config_flow.md %}", includeDirective{target: "integrations/config_flow.md", nearby: true, inFences: true}, true},
		{"{%- include_relative parts/steps.md -%}", includeDirective{target: "parts/steps.md", inFences: true}, true},
		{`{% include note.md content="Back up first." %}`, includeDirective{}, false}, // a template: the converter shows its content
		{"{% include asides/nav.html %}", includeDirective{}, false},                  // a layout piece, not text
		{"[!INCLUDE [prereqs](includes/prereqs.md)]", includeDirective{target: "includes/prereqs.md"}, true},
		{"[!INCLUDE [cli](~/includes/cli.md)]", includeDirective{target: "includes/cli.md", root: true}, true},
		{"![[Plans and pricing#Limits]]", includeDirective{target: "Plans and pricing.md", note: true, section: "Limits"}, true},
		{"![[Two-factor authentication#^backup-codes|codes]]", includeDirective{target: "Two-factor authentication.md", note: true, section: "^backup-codes"}, true},
		{"![[Shared warning]]", includeDirective{target: "Shared warning.md", note: true}, true},
		{"![[sync-settings.png|300]]", includeDirective{}, false},
		{"See ![[Shared warning]] here", includeDirective{}, false},
	} {
		got, ok := parseInclude(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseInclude(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestExpandIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"guide/page.md":               {Data: []byte("x")},
		"parts/help.md":               {Data: []byte("---\ntitle: Help\n---\nAsk support@example.com.\n")},
		"parts/nested.md":             {Data: []byte("Nested start.\n<!-- @include: ./help.md -->\n")},
		"parts/loop.md":               {Data: []byte("Loop.\n<!-- @include: ./loop2.md -->\n")},
		"parts/loop2.md":              {Data: []byte("Loop two.\n<!-- @include: ./loop.md -->\n")},
		"snippets/ferry.toml":         {Data: []byte("# ANCHOR: server\n[server]\nport = 8080\n# ANCHOR_END: server\n[tls]\nacme = true\n")},
		"snippets/p.json":             {Data: []byte(`{"event": "created"}`)},
		"snippets/warn.mdx":           {Data: []byte("Keep the key secret.")},
		"snippets/binary.bin":         {Data: []byte("a\x00b")},
		"guide/local-frag.md":         {Data: []byte("Local fragment.")},
		"include/admin.md":            {Data: []byte("Only administrators can do this.")},
		"_includes/common/backups.md": {Data: []byte("Backups are stored in /backup.")},
		"vault/Plans.md":              {Data: []byte("---\naliases: [pricing]\n---\nIntro.\n\n## Limits\n\nUp to 2 accounts.\n\n### Detail\n\nMore.\n\n## Other\n\nx\n\nA sentence\nending here. ^block-1\n- item ^block-2\n")},
	}
	read := readerOf(fsys)
	for _, tc := range []struct {
		name, body string
		want       []string // the expanded body's lines
		files      []string
	}{
		{"vitepress, front matter left out", "Intro.\n<!-- @include: ../parts/help.md -->\nEnd.",
			[]string{"Intro.", "Ask support@example.com.", "End."}, []string{"parts/help.md"}},
		{"root path", "<!-- @include: @/parts/help.md -->", []string{"Ask support@example.com."}, []string{"parts/help.md"}},
		{"nested", "<!-- @include: ../parts/nested.md -->", []string{"Nested start.", "Ask support@example.com."}, []string{"parts/nested.md", "parts/help.md"}},
		{"a cycle ends", "<!-- @include: ../parts/loop.md -->",
			[]string{"Loop.", "Loop two.", "<!-- @include: ./loop.md -->"}, []string{"parts/loop.md", "parts/loop2.md"}},
		{"mdbook anchor in a fence", "```toml\n{{#include ../snippets/ferry.toml:server}}\n```",
			[]string{"```toml", "[server]", "port = 8080", "```"}, []string{"snippets/ferry.toml"}},
		{"mdbook line range", "```toml\n{{#include ../snippets/ferry.toml:5:6}}\n```",
			[]string{"```toml", "[tls]", "acme = true", "```"}, []string{"snippets/ferry.toml"}},
		{"docsify code", "[p](../snippets/p.json ':include :type=code')",
			[]string{"```json", `{"event": "created"}`, "```"}, []string{"snippets/p.json"}},
		{"docsify markdown is not read inside a fence", "```\n[f](local-frag.md ':include')\n```",
			[]string{"```", "[f](local-frag.md ':include')", "```"}, nil},
		{"mintlify snippet", `<Snippet file="warn.mdx" />`, []string{"Keep the key secret."}, []string{"snippets/warn.mdx"}},
		{"mdx import", "import Warn from '/snippets/warn.mdx';\n\n<Warn />\n<Other />", []string{"import Warn from '/snippets/warn.mdx';", "", "Keep the key secret.", "<Other />"}, []string{"snippets/warn.mdx"}},
		{"a root path naming folders above the root", `{{% readfile file="/docs/parts/help.md" %}}`, []string{"Ask support@example.com."}, []string{"parts/help.md"}},
		{"markdown-include from an include folder above the page", "{!admin.md!}", []string{"Only administrators can do this."}, []string{"include/admin.md"}},
		{"docfx include, block and inline", "[!INCLUDE [a](../include/admin.md)]\nNote: [!INCLUDE [b](../parts/help.md)] Then [!INCLUDE [c](nope.md)].",
			[]string{"Only administrators can do this.", "Note: Ask support@example.com. Then [!INCLUDE [c](nope.md)]."}, []string{"include/admin.md"}},
		{"docfx inline include of one paragraph", "Note: [!INCLUDE [a](../include/admin.md)] Done.", []string{"Note: Only administrators can do this. Done."}, nil},
		{"jekyll include from _includes", "{% include common/backups.md %}", []string{"Backups are stored in /backup."}, []string{"_includes/common/backups.md"}},
		{"obsidian section by note name, headings boxed", "![[Plans#Limits]]", []string{"Limits", "", "Up to 2 accounts.", "", "Detail", "", "More."}, nil},
		{"obsidian block", "![[Plans#^block-1]]", []string{"A sentence", "ending here. ^block-1"}, nil},
		{"obsidian list item block", "![[Plans#^block-2]]", []string{"- item ^block-2"}, nil},
		{"obsidian whole note", "![[Plans]]", []string{"Intro.", "", "Limits", "", "Up to 2 accounts.", "", "Detail", "", "More.", "", "Other", "", "x", "", "A sentence", "ending here. ^block-1", "- item ^block-2"}, []string{"vault/Plans.md"}},
		{"obsidian missing section: nothing", "![[Plans#Nope]]", nil, nil},
		{"relative to the page first", "--8<-- \"local-frag.md\"", []string{"Local fragment."}, []string{"guide/local-frag.md"}},
		{"missing, binary or outside: left as written", "<!-- @include: ./nope.md -->\n--8<-- \"../snippets/binary.bin\"\n<!-- @include: ../../etc/passwd -->",
			[]string{"<!-- @include: ./nope.md -->", "--8<-- \"../snippets/binary.bin\"", "<!-- @include: ../../etc/passwd -->"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Split(tc.body, "\n")
			from := "guide/page.md"
			if strings.HasPrefix(tc.name, "mdx") {
				from = "guide/page.mdx"
			}
			x := expandIncludes(lines, from, read)
			if !slices.Equal(x.lines, tc.want) || !slices.Equal(x.files, tc.files) {
				t.Errorf("lines %q files %q, want %q %q", x.lines, x.files, tc.want, tc.files)
			}
			if len(x.origin) != len(x.lines) {
				t.Fatalf("%d origins for %d lines", len(x.origin), len(x.lines))
			}
			for i, o := range x.origin {
				if o < 1 || o > len(lines) {
					t.Errorf("line %d comes from line %d of %d", i+1, o, len(lines))
				}
			}
		})
	}
}

// Load reads an included fragment into the pages that include it and
// leaves it out as a page of its own; a page nobody includes stays.
func TestLoadReadsIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"guide/booking.md":       {Data: []byte("# Booking\n\n[](../snippets/window.md ':include')\n\n## More\n\n{{#include ../nope.md}}\n")},
		"snippets/window.md":     {Data: []byte("Carriers can book up to 21 days ahead.\n")},
		"snippets/standalone.md": {Data: []byte("# Standalone\n\nNobody includes this page.\n")},
	}
	res, slugs := loadSlugs(t, fsys)
	if !slices.Equal(slugs, []string{"guide/booking", "snippets/standalone"}) {
		t.Fatalf("docs %q, want the page and the page nobody includes", slugs)
	}
	if !strings.Contains(res.Docs[0].Chunks[0].Text, "Carriers can book up to 21 days ahead.") {
		t.Errorf("the page lacks its fragment: %q", res.Docs[0].Chunks[0].Text)
	}
	var notes []string
	for _, n := range res.Notices {
		notes = append(notes, n.String())
	}
	checkNotes(t, notes, []string{
		"guide/booking.md:7: mdBook {{#include}} left out", // its file is missing: noted on the page's own line
		"snippets/window.md: included by guide/booking.md",
	})
	before := res.Docs[0].ContentHash
	fsys["snippets/window.md"] = &fstest.MapFile{Data: []byte("Carriers can book up to 30 days ahead.\n")}
	if res, err := Load(context.Background(), fsys, "kb"); err != nil || res.Docs[0].ContentHash == before {
		t.Errorf("a changed fragment left the page's hash as it was (%v)", err)
	}
}

func FuzzExpandIncludes(f *testing.F) {
	f.Add("Intro.\n<!-- @include: ./b.md -->\n```\n{{#include a.md:1:2}}\n```\n[x](a.md ':include :type=code')\n<Snippet file=\"s.mdx\" />")
	f.Add("--8<-- \"a.md\"\n--8<-- \"b.md\"")
	f.Add("![[a#Intro]]\n![[b#^x]]\n![[a]]\n![[pic.png]]")
	f.Add("{% data reusables.r %}\nUse {% data variables.p.name %} and {{ site.data.p.name }}, {% data variables.p.loop %}.")
	fsys := fstest.MapFS{
		"data/reusables/r.md":  {Data: []byte("1. Step {% data variables.p.name %}.\n1. {% data reusables.r %}\n")},
		"data/variables/p.yml": {Data: []byte("name: Forge\nloop: '{% data variables.p.loop %}'\nnested:\n  x: 1\n")},
		"_data/p.yml":          {Data: []byte("name: Jekyll Forge\n")},
		"a.md":                 {Data: []byte("A one.\n<!-- @include: ./b.md -->\n")},
		"b.md":                 {Data: []byte("---\nt: x\n---\nB.\n--8<-- \"a.md\"\n")},
		"snippets/s.mdx":       {Data: []byte("S.")},
	}
	read := readerOf(fsys)
	f.Fuzz(func(t *testing.T, body string) {
		lines := strings.Split(body, "\n")
		x := expandIncludes(lines, "page.md", read)
		if len(x.origin) != len(x.lines) {
			t.Fatalf("%d origins for %d lines", len(x.origin), len(x.lines))
		}
		for _, o := range x.origin {
			if o < 1 || o > len(lines) {
				t.Fatalf("a line from line %d of %d", o, len(lines))
			}
		}
		if x.bytes > maxIncludedBytes {
			t.Fatalf("%d bytes included", x.bytes)
		}
		for _, p := range x.files {
			if !fs.ValidPath(p) {
				t.Fatalf("read %q", p)
			}
		}
	})
}
