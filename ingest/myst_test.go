package ingest

import (
	"errors"
	"testing"
)

// TestConvertMarkupSiteConventions shows each conversion of MyST,
// GitBook and kramdown syntax on its own: the body as written, then as
// the reader of the rendered page sees it.
func TestConvertMarkupSiteConventions(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		// A paragraph that is only a few words in bold heads a section, as
		// converted help centres and word processors write headings.
		{"bold heading", "Intro.\n\n**How to add a service**\n\n1. Go.", "Intro.\n\n### How to add a service\n\n1. Go."},
		{"bold question heading", "**Can I change my plan?**\n\nYes.", "### Can I change my plan?\n\nYes."},
		{"bold sentence is emphasis", "**Back up first.**\n\nText.", "**Back up first.**\n\nText."},
		{"bold start of a paragraph", "**Note** the limit.\n\n**Tip**\nwrapped on.", "**Note** the limit.\n\n**Tip**\nwrapped on."},
		{"bold run of many words", "**You can now visit your site in the browser to confirm everything works**\n\nx", "**You can now visit your site in the browser to confirm everything works**\n\nx"},
		{"bold in a box", "!!! note\n\n    **Inside**\n\n    Text.", "\nNote\n\n\n**Inside**\n\nText."},
		// docsify: a heading's id is an anchor; its helpers are callouts.
		{"docsify heading id", "### Rescheduling as a carrier :id=carrier-reschedule\n\nText.", "### Rescheduling as a carrier\n\nText."},
		{"docsify id in prose stays", "Set :id=x in the heading.", "Set :id=x in the heading."},
		{"nextra heading id", "## Retention [#retention]\n\nText.", "## Retention\n\nText."},
		{"a heading ending in a link label stays", "## See [#1]", "## See [#1]"},
		// mdbook-admonish: a fence of prose in a titled box.
		{"admonish with a title", "```admonish warning \"Data loss\"\nBack up first.\n```", "\nData loss\n\nBack up first.\n"},
		{"admonish kind", "```admonish tip\nText.\n```", "\nTip\n\nText.\n"},
		{"admonish default", "~~~admonish\nText.\n~~~", "\nNote\n\nText.\n"},
		{"admonish title option", "```admonish info title=\"Read me\" collapsible=true\nText.\n```", "\nRead me\n\nText.\n"},
		{"admonish is no word prefix", "```admonishment\nx\n```", "```admonishment\nx\n```"},
		// MyST: a target is an anchor, not text.
		{"myst target", "(label)=\n# Title", "# Title"},
		// A prose directive was a code block: its text was lost.
		{"myst note", "```{note}\nText.\n```", "\nNote\n\nText.\n"},
		{"myst admonition title and options", "```{admonition} Careful\n:class: tip\n\nText.\n```", "\nCareful\n\n\nText.\n"},
		{"myst colon fence", ":::{warning}\nText.\n:::", "\nWarning\n\nText.\n"},
		{"myst code inside a directive", "````{note}\n```python\nx\n```\n````", "\nNote\n\n```python\nx\n```\n"},
		{"myst figure: the path is no title", "```{figure} a.png\n:alt: x\n\nCaption.\n```", "\n\nCaption.\n"},
		// Directives holding code stay code, with their language.
		{"myst code-block", "```{code-block} python\n:linenos:\nprint(1)\n```", "```python\nprint(1)\n```"},
		// A toctree lists pages: nothing a reader reads.
		{"myst toctree", "```{toctree}\n:maxdepth: 1\n\npage\n```\nAfter.", "After."},
		// A sample of MyST inside a longer fence is code.
		{"myst in a code sample", "````markdown\n```{note}\nx\n```\n````", "````markdown\n```{note}\nx\n```\n````"},
		// R Markdown and Quarto cells are code, whatever their language.
		{"quarto cell", "```{r}\nsummary(cars)\n```", "```{r}\nsummary(cars)\n```"},
		{"quarto python cell", "```{python}\n:x: y\n```", "```{python}\n:x: y\n```"},
		{"myst roles", "See {ref}`label`, {doc}`Guide <../guide>`, {doc}`../reference/api-keys` and {kbd}`Ctrl+C`.", "See label, Guide, api keys and `Ctrl+C`."},
		{"myst menuselection", "Choose {menuselection}`File --> Save` or {guilabel}`&Cancel`.", "Choose File > Save or Cancel."},
		{"not a role", "An {0}`x` and a {slug} stay.", "An {0}`x` and a {slug} stay."},
		// GitBook: a tab keeps its label; a content-ref card holds the
		// target's URL as its text, not what the card shows.
		{"gitbook tabs", "{% tabs %}\n{% tab title=\"Mac\" %}\nText.\n{% endtab %}\n{% endtabs %}", "\nMac\n\nText."},
		{"gitbook content-ref", "{% content-ref url=\"a.md\" %}\n[a.md](a.md)\n{% endcontent-ref %}\nAfter.", "After."},
		{"gitbook hint", "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}", "Careful."},
		// kramdown: the list item before {:toc} is replaced by the TOC.
		{"kramdown toc", "1. TOC\n{:toc}\n\nText.", "\nText."},
		{"kramdown toc spaced", "* Contents\n{: toc}", ""},
		{"kramdown class after a list stays", "* Item\n{: .note}", "* Item"},
		// pandoc: attributes after a link, wrapped with the paragraph; a
		// brace in prose two lines on is no attribute list.
		{"pandoc attributes wrapped", "[Edit this page](https://x/e.md){.edit\ntarget=\"_blank\" rel=\"noopener\"}\n\nText {a\nb}.", "[Edit this page](https://x/e.md)\n\nText {a\nb}."},
		// kramdown extensions: a comment hides its text, the others show none.
		{"kramdown comment", "{::comment}\nHidden draft.\n{:/comment}\nShown.", "Shown."},
		{"kramdown comment short close", "{::comment}\nHidden.\n{:/}\nShown.", "Shown."},
		{"kramdown options", "{::options toc_levels=\"2..3\" /}\nShown.", "Shown."},
		{"kramdown nomarkdown", "{::nomarkdown}\n<b>x</b>\n{:/nomarkdown}", "<b>x</b>"},
		// A Jekyll theme's callout include: its content is the author's text.
		{"liquid include content", "{% include note.html content=\"Back up first.\" %}\n\nText.", "\nBack up first.\n\n\nText."},
		{"liquid include content inline", "Intro {% include tip.html content=\"Use tags.\" %} more.", "Intro Use tags. more."},
		// MyST comments start a block; a wrapped line starting with % is text.
		{"myst comment", "% A note to editors\n% on two lines\n\nText about 40\n% of users.\n\n%APPDATA% holds it.", "\nText about 40\n% of users.\n\n%APPDATA% holds it."},
		// VitePress' table of contents marker; docsify's tip and warning.
		{"vitepress toc", "[[toc]]\n\nText.", "\nText."},
		// GitHub Docs: an icon before a button's label goes (the bold stays
		// bold); an icon that is the button reads as its label; version
		// branches written on one line stay sentences.
		{"octicon before a label", "Click **{% octicon \"sync\" aria-label=\"The sync icon\" %} Re-run jobs**, then {% octicon \"gear\" %} **Settings**.", "Click **Re-run jobs**, then **Settings**."},
		{"octicon as the button", "click {% octicon \"sync\" aria-label=\"Re-run job\" %}. Open **{% octicon \"kebab\" aria-label=\"More\" %}**.", "click Re-run job. Open **More**."},
		{"liquid branches on one line", "Served from a domain.{% elsif ghes %}Sites are served{% endif %} here. Go to `a`{% else %}`b`{% endif %}.", "Served from a domain. Sites are served here. Go to `a` `b`."},
		// Home Assistant's glossary terms, links into the reader's instance
		// and disclosures show their words.
		{"liquid term and my", "Create an {% term automation %} or two {% term automation automations %}. Open {% my integrations title=\"**Settings** > **Devices**\" %}{% my backup badge %}.", "Create an automation or two automations. Open **Settings** > **Devices**."},
		{"liquid details", "{% details \"Show the YAML\" %}\nText.\n{% enddetails %}", "\nShow the YAML\n\nText."},
		// Obsidian's block ids are anchors, shown nowhere; a caret in text stays.
		{"obsidian block id", "Sync runs every 4 hours. ^sync-delay\n- Item ^a1\n\n2^10 and x ^y z", "Sync runs every 4 hours. \n- Item \n\n2^10 and x ^y z"}, // trailing spaces go with the doc's normalization
		// Home Assistant's configuration variables read as a list; YAML
		// that does not parse stays code.
		{"liquid configuration unclosed", "{% configuration %}\nhost: The host.", "\n- **host**: The host.\n"},
		{"liquid configuration", "{% configuration %}\nhost:\n  description: The host.\n  required: true\n  type: string\n  keys:\n    port:\n      description: Its port.\n      default: 80\n{% endconfiguration %}\n{% configuration_basic %}\nbad: [\n{% endconfiguration_basic %}",
			"\n- **host** (string, required): The host.\n  - **port** (default 80): Its port.\n\n\n```yaml\nbad: [\n```\n"},
		// docfx (Microsoft Learn): an image reads as its alt text, zone
		// pivots and a tab group's closing line go, tab headings are labels,
		// a code include and a quote's div styling show nothing.
		{"docfx", ":::image type=\"content\" source=\"m/a.png\" alt-text=\"Screenshot of the toggle.\":::\n::: zone pivot=\"os-windows\"\nOpen it.\n::: zone-end\n\n# [Portal](#tab/portal)\n\nClick **Save**.\n\n# [CLI](#tab/cli)\n\nRun it.\n\n---\n\n> [!div class=\"nextstepaction\"]\n> [Next](next.md)\n\n[!code-json[](~/samples/p.json)]\n:::image-end:::",
			"\nScreenshot of the toggle.\n\nOpen it.\n\n\nPortal\n\n\nClick **Save**.\n\n\nCLI\n\n\nRun it.\n\n\n>\n> [Next](next.md)\n"},
		// Zulip's help centre: macros alone on a line are widgets, not text;
		// a brace in prose, or a macro with spaces, stays.
		{"template macros", "{start_tabs}\n{tab|desktop-web}\n{relative|gear|settings}\nClick **Save**.\n{end_tabs}\n{not a macro}", "Click **Save**.\n{not a macro}"},
		{"docsify helpers", "?> Restart first.\n\n!> Careful.", "Restart first.\n\nCareful."},
		// MyST tabs nest colon fences, the outer one longer.
		{"myst nested colon fences", "::::{tab-set}\n:::{tab-item} Mac\nA.\n:::\n:::{tab-item} Linux\nB.\n:::\n::::", "\n\nMac\n\nA.\n\n\nLinux\n\nB.\n\n"},
	} {
		if got, _ := convertMarkup(c.in); got != c.want {
			t.Errorf("%s:\n  in %q\n got %q\nwant %q", c.name, c.in, got, c.want)
		}
	}
}

// TestNavigationFiles leaves out the files generators read as navigation
// when they hold only links, and keeps a page that has their name.
func TestNavigationFiles(t *testing.T) {
	for _, c := range []struct {
		path, src string
		excluded  bool
	}{
		{"SUMMARY.md", "# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n", true},
		{"src/SUMMARY.md", "# Summary\n\n[Introduction](intro.md)\n\n- [Setup](setup.md)\n- [Draft]()\n\n---\n\n[Contributors](contributors.md)\n", true},
		{"_Sidebar.md", "**Accounts**\n* [[Password-Reset]]\n* [[Admin-Rights]]\n\n**Devices**\n* [[Laptop]]\n", true},
		{"_sidebar.md", "* Guides:\n  * [Install](install.md)\n", true},
		{"guide/_sidebar.md", "- [Home](/)\n- Scheduling\n  - [Booking](guide/booking.md)\n  - [API changelog](api/changelog.md ':disabled')\n", true},
		{"_sidebar.md", "- [Home](/)\n- Every page of the docs, grouped by the product area it covers and sorted\n", false},
		{"reports/summary.md", "# Summary\n\nSales grew 4% in the quarter, see [the figures](figures.md).\n", false},
		{"SUMMARY.md", "# Summary\n\nNo links at all.\n", false},
		{"guides/install.md", "* [Install](install.md)\n", false},
	} {
		_, _, err := parseDoc(c.path, []byte(c.src))
		var w Warning
		excluded := errors.As(err, &w) && w.Kind == Excluded
		if excluded != c.excluded {
			t.Errorf("%s %q: excluded %v (err %v), want %v", c.path, c.src, excluded, err, c.excluded)
		}
	}
}

// TestNotionExportTitle: Notion appends a page id to the file name of
// every exported page; the title a page without a heading gets from its
// name leaves it out.
func TestNotionExportTitle(t *testing.T) {
	doc, err := ParseDoc("Guides 0123456789abcdef0123456789abcdef/Getting Started 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md", []byte("Text only."))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "Getting Started" {
		t.Errorf("title %q, want %q", doc.Title, "Getting Started")
	}
}
