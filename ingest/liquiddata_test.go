package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// githubDocs is a knowledge base in GitHub Docs' conventions: pages under
// content/, shared steps and product names under data/.
func githubDocs() fstest.MapFS {
	return fstest.MapFS{
		"content/pipelines/about.md": {Data: []byte(`---
title: 'About {% data variables.product.prodname_pipelines %}'
shortTitle: About
---

{% data variables.product.prodname_pipelines %} runs your builds on {% data variables.product.prodname_forge %}.

{% data reusables.pipelines.enable %}

## Limits

A run stops after {% data variables.limits.run.hours %} hours. {% data reusables.pipelines.one-line %}

Missing: [{% data variables.product.nope %}] stays out.

` + "```yaml\nruns-on: {% data variables.product.runner %}\n```\n")},
		"content/pipelines/other.md":           {Data: []byte("# Other\n\n{% data reusables.pipelines.one-line %}\n\nJekyll: {{ site.data.product.name }}.\n")},
		"data/reusables/pipelines/enable.md":   {Data: []byte("1. Open **Settings**.\n1. Click **Enable {% data variables.product.prodname_pipelines %}**.\n")},
		"data/reusables/pipelines/one-line.md": {Data: []byte("Logs are kept for 90 days.\n")},
		"data/reusables/pipelines/unused.md":   {Data: []byte("Nobody reads this one.\n")},
		"data/variables/product.yml":           {Data: []byte("prodname_forge: Forgehub\nprodname_pipelines: '{% data variables.product.prodname_forge %} Pipelines'\nrunner: forge-latest\n")},
		"data/variables/limits.yml":            {Data: []byte("run:\n  hours: 6\n")},
		"_data/product.yml":                    {Data: []byte("name: Forgehub for Jekyll\n")},
	}
}

func TestLiquidDataTags(t *testing.T) {
	fsys := githubDocs()
	res, slugs := loadSlugs(t, fsys)
	// A reusable a page reads, in a block or inline, is a fragment; one
	// nobody reads stays a page, as any file nobody includes.
	if want := []string{"content/pipelines/about", "content/pipelines/other", "data/reusables/pipelines/unused"}; !slices.Equal(slugs, want) {
		t.Fatalf("docs %q, want %q", slugs, want)
	}
	about := res.Docs[0]
	if about.Title != "About Forgehub Pipelines" {
		t.Errorf("title %q: the variable (holding a variable) is not read", about.Title)
	}
	var text, content []string
	for _, c := range about.Chunks {
		text = append(text, c.Text)
		content = append(content, c.Content)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"Forgehub Pipelines runs your builds on Forgehub.",
		"Click Enable Forgehub Pipelines.", // a block reusable, with a variable inside
		"A run stops after 6 hours.",       // a nested key
		"Logs are kept for 90 days.",       // a one-line reusable inline
		"Missing: [] stays out.",           // no such value: left out
	} {
		if !strings.Contains(all, want) {
			t.Errorf("text lacks %q:\n%s", want, all)
		}
	}
	if code := strings.Join(content, "\n"); !strings.Contains(code, "runs-on: forge-latest") {
		t.Errorf("a value in code is not read:\n%s", code)
	}
	if other := res.Docs[1].Chunks[0].Text; !strings.Contains(other, "Jekyll: Forgehub for Jekyll.") {
		t.Errorf("Jekyll's site.data is not read: %q", other)
	}

	// A changed value is a new version of the pages showing it.
	before := about.ContentHash
	fsys["data/variables/limits.yml"] = &fstest.MapFile{Data: []byte("run:\n  hours: 8\n")}
	if res, err := Load(context.Background(), fsys, "kb"); err != nil || res.Docs[0].ContentHash == before {
		t.Errorf("a changed data file left the page's hash as it was (%v)", err)
	}
}

// Without its data folder (the content folder copied alone) a page reads
// as before: the tags are left out, of titles too.
func TestLiquidDataTagsWithoutData(t *testing.T) {
	fsys := fstest.MapFS{}
	for p, f := range githubDocs() {
		if strings.HasPrefix(p, "content/") {
			fsys[strings.TrimPrefix(p, "content/")] = f
		}
	}
	res, err := Load(context.Background(), fsys, "kb")
	if err != nil {
		t.Fatal(err)
	}
	d := res.Docs[0]
	if d.Title != "About" {
		t.Errorf("title %q, want the tag left out", d.Title)
	}
	for _, c := range d.Chunks {
		if strings.Contains(c.Text, "{%") || strings.Contains(c.Text, "data") {
			t.Errorf("a tag shows: %q", c.Text)
		}
	}
}

func TestDataValue(t *testing.T) {
	sf := readerOf(githubDocs())
	for _, tc := range []struct {
		folder, key, want string
		ok                bool
	}{
		{"data", "variables.product.prodname_forge", "Forgehub", true},
		{"data", "variables.limits.run.hours", "6", true},
		{"data", "variables.limits.run", "", false}, // a mapping, not a value
		{"data", "variables.product", "", false},
		{"data", "reusables.pipelines.one-line", "Logs are kept for 90 days.", true},
		{"data", "reusables.pipelines.enable", "", false}, // two lines: only a block reads it
		{"_data", "product.name", "Forgehub for Jekyll", true},
		{"data", "..", "", false},
	} {
		var used []string
		got, ok := sf.dataValue(tc.folder, tc.key, &used)
		if got != tc.want || ok != tc.ok {
			t.Errorf("dataValue(%q, %q) = %q, %v; want %q, %v", tc.folder, tc.key, got, ok, tc.want, tc.ok)
		}
		if ok != (len(used) == 1) {
			t.Errorf("dataValue(%q, %q) used %q", tc.folder, tc.key, used)
		}
	}
}
