package ingest

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/knowledge"
)

// antoraComponent is a small Antora component in the conventions real
// sites use: antora.yml attributes, a nav file, a second module, partials
// with tagged regions, an example included in a listing, and the common
// blocks, lists, tables and inline macros.
func antoraComponent() fstest.MapFS {
	return fstest.MapFS{
		"antora.yml": {Data: []byte(`name: harborline
version: ~
title: Harborline
nav:
- modules/ROOT/nav.adoc
asciidoc:
  attributes:
    product-name: Harborline
    cli: hbl@
    max-projects: 50
`)},
		"modules/ROOT/examples/push.sh": {Data: []byte(`hbl push myimage:1.0
`)},
		"modules/ROOT/nav.adoc": {Data: []byte(`* xref:index.adoc[]
* xref:quotas.adoc[Quotas]
** xref:admin:sso.adoc[]
`)},
		"modules/ROOT/pages/quotas.adoc": {Data: []byte(`= Quotas and storage limits
Jane Doe <jane@example.com>
v1.0, 2026-01-01
:description: Storage quotas per plan
:keywords: quota, storage, limits
:toc:
:local-attr: forty

{product-name} limits each organization to {max-projects} projects and {local-attr} robots.
See xref:admin:sso.adoc[] and xref:admin:sso.adoc[single sign-on], or <<retention-rules,the rules>> and <<storage>>.

[#storage]
== Storage

include::partial$limits.adoc[tag=free-tier]

NOTE: Quotas are checked every *hour*.

[WARNING]
====
Deleting a ((project)) frees its storage after _24 hours_.
====

.Push an image
[source,bash,subs="attributes+"]
----
{cli} login
include::example$push.sh[]
----
<1> Logs in.

[[retention-rules]]
=== Retention rules

* Keep the last ` + "`" + `10` + "`" + ` tags
** per repository
+
[source,yaml]
----
keep: 10 # {cli} is not replaced here
----
* Delete untagged images after 7 days

. First step
. Second step

Retention:: Rules that delete old tags.
Quota;; How much you may store.

[cols="1,2",options="header"]
|===
|Plan |Storage
|Free |10 GB
|Team
|500 GB
|===

|===
|Name|Value

|a|b
|===

[%header,format=csv]
,===
Plan,Price
Free,0
,===

include::partial$missing.adoc[]

ifdef::env-github[]
This shows only on GitHub.
endif::[]
ifndef::env-github[]
This shows on the site.
endif::[]

////
A comment block.
////

// A comment line.

(((hidden, term)))Press kbd:[Ctrl+C], click btn:[Save], go to menu:Settings[Security > Tokens].footnote:[Admins only.]
Read link:https://example.com[the guide] or https://example.com/x[this page].

image::scan.png[Scan report showing three critical CVEs]

++++
<div>raw html</div>
++++
`)},
		"modules/ROOT/partials/limits.adoc": {Data: []byte(`// tag::free-tier[]
The free tier stores up to *10 GB*.
// end::free-tier[]
// tag::paid[]
Paid plans store 1 TB.
// end::paid[]
`)},
		"modules/admin/pages/sso.adoc": {Data: []byte(`= Set up SSO for {product-name}
:description: SAML single sign-on

Use SAML 2.0.
`)},
	}
}
func TestAsciiDocReadsWhatAntoraShows(t *testing.T) {
	res, err := Load(context.Background(), antoraComponent(), "docs")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]knowledge.Doc{}
	for _, d := range res.Docs {
		docs[d.Slug] = d
	}
	if len(docs) != 2 {
		t.Fatalf("docs %v, want the two pages only (not the nav, the partial or the example)", res.Docs)
	}
	q := docs["modules/root/pages/quotas"]
	if q.Title != "Quotas and storage limits" || q.Description != "Storage quotas per plan" || strings.Join(q.Keywords, ",") != "quota,storage,limits" {
		t.Errorf("title %q, description %q, keywords %v", q.Title, q.Description, q.Keywords)
	}
	if docs["modules/admin/pages/sso"].Title != "Set up SSO for Harborline" {
		t.Errorf("sso title %q", docs["modules/admin/pages/sso"].Title)
	}
	for _, want := range []string{
		"# Quotas and storage limits\n\nHarborline limits",                            // the author and revision lines are the header's
		"limits each organization to 50 projects and forty robots.",                   // antora.yml's and the page's attributes
		"See Set up SSO for Harborline and single sign-on, or the rules and Storage.", // xrefs and <<>>
		"## Storage\n\nThe free tier stores up to **10 GB**.\n",                       // a tagged region of a partial
		"Note\n\nQuotas are checked every **hour**.",
		"Warning\n\nDeleting a project frees its storage after *24 hours*.",
		"Push an image\n\n```bash\nhbl login\nhbl push myimage:1.0\n```", // an example included in a listing
		"1. Logs in.",
		"### Retention rules",
		"- Keep the last `10` tags\n   - per repository\n\n```yaml\nkeep: 10 # {cli} is not replaced here\n```", // a listing shows attributes as written
		"1. First step\n1. Second step",
		"- **Retention**: Rules that delete old tags.\n- **Quota**: How much you may store.",
		"| Plan | Storage |\n| --- | --- |\n| Free | 10 GB |\n| Team | 500 GB |", // cells on one line or one a line
		"| Name | Value |\n| --- | --- |\n| a | b |",                             // an implicit header row
		"| Plan | Price |\n| --- | --- |\n| Free | 0 |",
		"This shows on the site.",
		"Press Ctrl+C, click **Save**, go to **Settings > Security > Tokens**. (Admins only.) Read the guide or this page.",
		"Scan report showing three critical CVEs",
	} {
		if !strings.Contains(q.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, q.Content)
		}
	}
	for _, gone := range []string{"Paid plans", "Jane Doe", "v1.0", "GitHub", "comment", "raw html", "xref:", "{product", "include::", "tag::", "[source"} {
		if strings.Contains(q.Content, gone) {
			t.Errorf("content shows %q:\n%s", gone, q.Content)
		}
	}
	var notes []string
	for _, n := range res.Notices {
		notes = append(notes, n.String())
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		"modules/ROOT/nav.adoc: navigation",
		"modules/ROOT/pages/quotas.adoc:70: include of partial$missing.adoc left out",
		"modules/ROOT/partials/limits.adoc: Antora partial",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notices lack %q:\n%s", want, all)
		}
	}
}

// A partial's text is part of the page's version.
func TestAsciiDocIncludedTextVersionsThePage(t *testing.T) {
	fsys := antoraComponent()
	hash := func() string {
		res, err := Load(context.Background(), fsys, "docs")
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Docs {
			if d.Slug == "modules/root/pages/quotas" {
				return d.ContentHash
			}
		}
		t.Fatal("no quotas page")
		return ""
	}
	before := hash()
	fsys["modules/ROOT/partials/limits.adoc"] = &fstest.MapFile{Data: []byte("// tag::free-tier[]\nThe free tier stores up to *5 GB*.\n// end::free-tier[]\n")}
	if hash() == before {
		t.Error("editing a partial left the page's hash unchanged")
	}
}

// Outside Antora, includes and xrefs are paths from the page's folder,
// and a listing never closed is still code.
func TestAsciiDocWithoutAntora(t *testing.T) {
	res, err := Load(context.Background(), fstest.MapFS{
		"guide/intro.adoc":      {Data: []byte("= Intro\n\ninclude::_parts/req.adoc[leveloffset=+1]\n\nSee xref:setup.adoc[].\n\n----\nnever closed\n")},
		"guide/_parts/req.adoc": {Data: []byte("= Requirements\n\nJava 17.\n")},
		"guide/setup.adoc":      {Data: []byte("= Setting up\n\nRun it.\n")},
	}, "docs")
	if err != nil {
		t.Fatal(err)
	}
	var intro knowledge.Doc
	for _, d := range res.Docs {
		if d.Slug == "guide/intro" {
			intro = d
		}
		if d.Slug == "guide/_parts/req" {
			t.Error("the included file is also a page")
		}
	}
	for _, want := range []string{"# Intro", "## Requirements\n\nJava 17.", "See Setting up.", "```\nnever closed\n```"} {
		if !strings.Contains(intro.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, intro.Content)
		}
	}
}

// FuzzAsciiDoc feeds arbitrary text to the AsciiDoc reader: it never
// panics or hangs, gives valid UTF-8 and clean titles and chunk lines, or
// a warning naming the file.
func FuzzAsciiDoc(f *testing.F) {
	for _, p := range []string{"modules/ROOT/pages/quotas.adoc", "modules/ROOT/partials/limits.adoc", "modules/ROOT/nav.adoc"} {
		f.Add(string(antoraComponent()[p].Data))
	}
	for _, s := range []string{
		"= T\n\n|===\n|a|b\n2+|c\na|d\n|===\n\n[cols=\"3*\"]\n!===\n!x!y\n!===\n",
		"ifdef::a[]\nifndef::b[]\nx\nendif::[]\nendif::[]\nifeval::[1 < 2]\ny\n",
		"* a\n** b\n+\n----\nc\n----\n\n. d\n.. e\nterm:: def\n<1> f\n",
		"====\n****\n____\n--\ntext\n--\n____\n****\n====\n",
		"`a` +b+ *c* _d_ #e# xref:x.adoc[] <<y>> kbd:[K] menu:A[B > C] footnote:[n] {attr} \\{x}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkParsed(t, "guides/fuzz.adoc", src) })
}
