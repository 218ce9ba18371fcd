package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docent-sh/docent/knowledge"
)

// crawledPage is a help centre article as a crawler writes it: the site's
// header and menu above the article, its footer below. style 1 is how a
// second crawler writes the same frame (other list markers, relative
// links, escapes, a trailing attribute block).
func crawledPage(title, body string, style int) string {
	header := "[Skip to main content](#main)\n\n[![Acme Help Center](https://cdn.example.com/logo.png)](https://help.example.com/)\n\n" +
		"* [Home](https://help.example.com/)\n* [Contact us](https://example.com/contact?utm_source=hc)\n* [System status](https://status.example.com/)\n\nSearch for articles...\n\n" +
		"[All Collections](https://help.example.com/) > " + title + "\n\n"
	footer := "\n\n---\n\nDid this answer your question?\n\n" + fmt.Sprintf("%d out of %d found this helpful", len(title), 2*len(title)) +
		"\n\n😞😐😃\n\n* [Privacy](https://example.com/privacy)\n* [Terms](https://example.com/terms)\n\n© 2025 Acme Inc."
	if style == 1 {
		header = "[![Acme Help Center](../img/logo.png)](../index.html)\n\n" +
			"-   [Home](../index.html)\n-   [Contact us](https://example.com/contact)\n-   [System status](https://status.example.com/)\n\nSearch for articles\\...\n\n" +
			"[All Collections](../index.html) \\> " + title + "\n\n"
		footer = "\n\nDid this answer your question?{.feedback}\n\n" + fmt.Sprintf("%d out of %d found this helpful", len(body), 3*len(body)) +
			"\n\n-   [Privacy](../privacy.html)\n-   [Terms](../terms.html)\n\n© 2025 Acme Inc."
	}
	byline := fmt.Sprintf("![Acme avatar](https://cdn.example.com/a.png)\n\n* %d months ago\n* Updated\n\nFollow\n\n", len(title)%11+1)
	return header + "# " + title + "\n\n" + byline + body + footer
}

func loadPages(t *testing.T, pages map[string]string) map[string]knowledge.Doc {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, src := range pages {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	res, err := Load(context.Background(), fsys, "crawl")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]knowledge.Doc{}
	for _, d := range res.Docs {
		out[d.Slug] = d
	}
	return out
}

func docText(d knowledge.Doc) string {
	var b strings.Builder
	for _, c := range d.Chunks {
		b.WriteString(c.Text + " ")
	}
	return b.String()
}

func TestStripSiteChrome(t *testing.T) {
	pages := map[string]string{
		"refunds.md":  crawledPage("Refunding a payment", "Open the payment and click **Refund**.\n\n## Good to know\n\nRefunds take 5–10 days.", 0),
		"deposits.md": crawledPage("Taking deposits", "Turn on **Require a deposit** under Settings.", 1),
		"reminders.md": crawledPage("Appointment reminders", "Reminders go out 24 hours ahead.\n\n"+
			// The article's own text that happens to be a line every
			// page's frame has: in the middle of a page it stays.
			"Search for articles...\n\nUse the search box above.", 0),
		"staff.md": crawledPage("Staff calendars", "Each staff member has working hours.", 1),
	}
	docs := loadPages(t, pages)
	for slug, wantIn := range map[string][]string{
		"refunds":   {"Refunding a payment.", "Open the payment and click Refund.", "Good to know.", "Refunds take 5–10 days."},
		"deposits":  {"Taking deposits.", "Turn on Require a deposit under Settings."},
		"reminders": {"Appointment reminders.", "Reminders go out 24 hours ahead.", "Search for articles...", "Use the search box above."},
		"staff":     {"Staff calendars.", "Each staff member has working hours."},
	} {
		d, ok := docs[slug]
		if !ok {
			t.Fatalf("%s: not loaded", slug)
		}
		checkInOrder(t, slug, docText(d), wantIn, []string{"Skip to main content", "Acme Help Center", "Home.", "Contact us", "System status", "All Collections", "Acme avatar", "months ago", "Follow", "Did this answer", "found this helpful", "Privacy", "Terms", "© 2025"})
		if strings.Contains(d.Content, "utm_source") || strings.Contains(d.Content, "Did this answer") {
			t.Errorf("%s: content keeps the frame:\n%s", slug, d.Content)
		}
		if !strings.HasPrefix(d.Chunks[0].HeaderPath, d.Title) {
			t.Errorf("%s: header path %q, title %q", slug, d.Chunks[0].HeaderPath, d.Title)
		}
	}
	if got := docs["reminders"].Title; got != "Appointment reminders" {
		t.Errorf("title %q, want the article's heading", got)
	}
}

// A site whose frame holds its name as a heading: the page is titled from
// its own heading, not from the site's.
func TestStripSiteChromeRetitles(t *testing.T) {
	pages := map[string]string{}
	for i, title := range []string{"Billing", "Exports", "Webhooks"} {
		pages[fmt.Sprintf("p%d.md", i)] = "# Acme Docs\n\n* [Guides](/guides)\n* [API](/api)\n* [Pricing](/pricing)\n\nSearch the docs\n\n# " + title + "\n\nAbout " + strings.ToLower(title) + "."
	}
	docs := loadPages(t, pages)
	var titles []string
	for _, d := range docs {
		titles = append(titles, d.Title)
		if strings.Contains(docText(d), "Pricing") {
			t.Errorf("%s keeps the menu: %q", d.Slug, docText(d))
		}
	}
	slices.Sort(titles)
	if want := []string{"Billing", "Exports", "Webhooks"}; !slices.Equal(titles, want) {
		t.Errorf("titles %q, want %q", titles, want)
	}
}

// What must stay: blocks fewer than a fifth of the docs open or close
// with; a run of one block (a heading, a single link); links under a
// heading, which are the author's; a fence; a doc that is all frame; a
// set of two docs.
func TestStripSiteChromeLeavesTheAuthorsText(t *testing.T) {
	for name, pages := range map[string]map[string]string{
		"under half": {
			"a.md": "* [Home](/)\n* [Pricing](/p)\n\n# A\n\nText a.", "b.md": "* [Home](/)\n* [Pricing](/p)\n\n# B\n\nText b.",
			"c.md": "# C\n\nText c.", "d.md": "# D\n\nText d.", "e.md": "# E\n\nText e.",
		},
		"links under a heading": {
			"a.md": "# A\n\nText a.\n\n## Related\n\n- [Widgets](w.md)\n- [Notes](n.md)", "b.md": "# B\n\nText b.\n\n## Related\n\n- [Widgets](w.md)\n- [Notes](n.md)",
			"c.md": "# C\n\nText c.\n\n## Related\n\n- [Widgets](w.md)\n- [Notes](n.md)",
		},
		"one line": {
			"a.md": "# A\n\nText a.\n\n## Related\n\n- [Widgets](w.md)", "b.md": "# B\n\nText b.\n\n## Related\n\n- [Widgets](w.md)",
			"c.md": "# C\n\nText c.\n\n## Related\n\n- [Widgets](w.md)\n- [Notes](n.md)",
		},
		"fence": {
			"a.md": "```\nHome\nPricing\n```\n\nText a.", "b.md": "```\nHome\nPricing\n```\n\nText b.", "c.md": "```\nHome\nPricing\n```\n\nText c.",
		},
		"two docs": {
			"a.md": "* [Home](/)\n* [Pricing](/p)\n\nText a.", "b.md": "* [Home](/)\n* [Pricing](/p)\n\nText b.",
		},
	} {
		docs := loadPages(t, pages)
		for _, d := range docs {
			src := pages[d.SourcePath]
			if d.Content != strings.TrimSpace(src) {
				t.Errorf("%s: %s changed:\n%q\nfrom\n%q", name, d.Slug, d.Content, src)
			}
		}
	}
	// A page that is nothing but the frame keeps it: an empty doc would
	// answer nothing and vanish from the store.
	pages := map[string]string{"index.md": "* [Home](/)\n* [Pricing](/p)\n* [Blog](/b)\n\nSearch…"}
	for i := range 3 {
		pages[fmt.Sprintf("p%d.md", i)] = pages["index.md"] + fmt.Sprintf("\n\n# P%d\n\nText %d.", i, i)
	}
	docs := loadPages(t, pages)
	if got := docs["index"].Content; got != pages["index.md"] {
		t.Errorf("the all-frame page became %q", got)
	}
	if got := docs["p1"].Content; got != "# P1\n\nText 1." {
		t.Errorf("p1 is %q, want its own text", got)
	}
}

// FuzzSiteChrome checks what stripping may do to any set of pages: keep
// each doc's lines (blank lines aside) in their order, never empty it,
// never touch a set too small to tell a frame from a page.
func FuzzSiteChrome(f *testing.F) {
	f.Add(crawledPage("A", "Text a.", 0), crawledPage("B", "Text b.", 1), crawledPage("C", "Text c.", 0))
	f.Add("# A\n\nx\n\n## Related\n- [W](w.md)", "# B\n\ny\n\n## Related\n- [W](w.md)", "```\nHome\n```")
	f.Add("* [Home](/)\n\n> quote\n>\n\n---\n\nText", "* [Home](/)\n\n---\n\n|a|\n|-|\n", "[x]([y](z))\n\n\\\\")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var docs []knowledge.Doc
		for i, body := range []string{a, b, c, a + "\n\nmore"} {
			docs = append(docs, knowledge.Doc{Slug: fmt.Sprint(i), Title: "T", Content: body})
		}
		before := slices.Clone(docs)
		stripSiteChrome(docs)
		for i, d := range docs {
			if d.Content == before[i].Content {
				continue
			}
			if d.Content == "" || !subsequence(strings.Split(d.Content, "\n"), strings.Split(before[i].Content, "\n")) {
				t.Fatalf("doc %d: %q is not the lines of %q, in order", i, d.Content, before[i].Content)
			}
		}
		few := []knowledge.Doc{before[0], before[1]}
		stripSiteChrome(few)
		if few[0].Content != before[0].Content || few[1].Content != before[1].Content {
			t.Fatal("two docs were stripped")
		}
	})
}

// subsequence reports whether the non-blank lines of sub appear in lines,
// in order.
func subsequence(sub, lines []string) bool {
	j := 0
	for _, l := range sub {
		if l == "" {
			continue
		}
		for j < len(lines) && lines[j] != l {
			j++
		}
		if j == len(lines) {
			return false
		}
		j++
	}
	return true
}

// Built HTML pages without a <main> (Django's own Sphinx theme) keep the
// site's menu and the previous/next links in their body; the links'
// targets are relative to each page's folder and their titles name the
// neighbours, so only what they show is the same from page to page.
func TestStripSiteChromeOfHTMLPages(t *testing.T) {
	page := func(depth int, title, prev, next string) string {
		up := strings.Repeat("../", depth)
		return `<html><head><title>` + title + `</title></head><body>
<div id="global-nav"><a title="Home page" href="` + up + `index.html">Home</a> | <a title="Table of contents" href="` + up + `contents.html">Table of contents</a> | <a title="Global index" href="` + up + `genindex.html">Index</a></div>
<div class="nav">&laquo; <a href="` + prev + `.html" title="` + prev + `">previous</a> | <a href="` + up + `index.html" title="Home">up</a> | <a href="` + next + `.html" title="` + next + `">next</a> &raquo;</div>
<div id="bd"><h1>` + title + `</h1><p>All about ` + strings.ToLower(title) + ` and how to use it well.</p></div>
</body></html>`
	}
	docs := loadPages(t, map[string]string{
		"topics/cache.html":      page(1, "Caching", "signals", "forms"),
		"topics/forms.html":      page(1, "Forms", "cache", "models"),
		"ref/models/fields.html": page(2, "Model fields", "querysets", "options"),
		"howto/deploy.html":      page(1, "Deploying", "static", "upgrade"),
	})
	for slug, d := range docs {
		if text := docText(d); strings.Contains(text, "Table of contents") || strings.Contains(text, "previous") || !strings.Contains(text, "how to use it well") {
			t.Errorf("%s: text %q, want the article without the menu and the previous/next links", slug, text)
		}
	}
}
