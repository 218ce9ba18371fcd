package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

// TestConventions ingests one small page per documentation convention
// (testdata/markup, each written the way its site generator's docs write
// them) and checks the plain text shows what a reader of the rendered page
// reads, in order, with the markup gone, while the markdown keeps the code.
func TestConventions(t *testing.T) {
	tests := []struct {
		file     string
		title    string
		keywords []string
		text     []string // in the doc's plain text, in this order
		absent   []string // nowhere in the plain text
		content  []string // kept in the doc's markdown
		notes    []string // "line: part of the message"
	}{
		{
			file:  "hugo.md",
			title: "Deleting your account",
			text: []string{
				"Delete your account. You can delete your account from Preferences > Account.",
				"The account deletion screen.",                             // the figure's caption
				"Deleting your account is permanent and cannot be undone.", // the hint's text
				"consider moving your account or exporting your data instead.",
				"Command line. lib/mastodon/cli/accounts.rb.",
				"tootctl accounts delete. Delete a user account with the given USERNAME.", // a definition list
				"--dry-run. Print what would be deleted.",
				"Sample response.",
			},
			absent:  []string{"{{", "}}", "{#", "&gt;", "relref", "user/moving", "assets/account-delete.png", "required", "removed", "RAILS_ENV", "aliases"},
			content: []string{"[moving your account](user/moving#migration)", "````bash\nRAILS_ENV=production bin/tootctl accounts delete alice\n````", "```json\n{\"id\": \"1\"}\n```"},
		},
		{
			file:    "jekyll.md",
			title:   "Installing the desktop app",
			text:    []string{"Download the installer from the releases page and run it.", "Beta builds are available too.", "The app version is at the time of writing."},
			absent:  []string{"{%", "{{", "TODO", "toc.html", "curl"},
			content: []string{"[releases page](/releases/)", "````shell\n{% raw %}curl -L {{ release_url }} | sh{% endraw %}\n````"},
			notes:   []string{"7: Liquid include left out"},
		},
		{
			file:    "mdbook.md",
			title:   "Reading files",
			text:    []string{"Reading files. Use std::fs::read_to_string to read a whole file: The file name comes from the command line."},
			absent:  []string{"{{#", "The Book", "listings"},
			content: []string{"```rust\n```"},
			notes:   []string{"8: mdBook {{#include}} left out", "11: mdBook {{#playground}} left out"},
		},
		{
			file:     "obsidian.md",
			title:    "Sync",
			keywords: []string{"sync", "notes", "syncing"}, // an Obsidian alias is another name of the note
			text: []string{
				"Sync keeps your vaults identical on every device.", "See Conflicts > Resolving by hand and Encryption.",
				"Back up first. Turning sync on for an existing vault merges both copies.",
				"Tip. Pause sync before moving large folders.",
				"Note. GitHub writes its alerts the same way.",
			},
			absent: []string{"[[", "]]", "[!", "sync-diagram", "Vault|", "Syncing", "%%", "TODO", "Draft"},
		},
		{
			file:  "mkdocs.md",
			title: "Setting up navigation",
			text: []string{
				"Instant loading. When instant loading is enabled, clicks on internal links are intercepted.",
				"Press Ctrl+Alt+Del to restart, or Custom key.",
				"The site_url setting must be set. Note that you must set site_url when using instant navigation.",
				"This is important and underlined and struck.",
				"Note. A note without a title shows its type.", "No title at all.",
				"Can tabs nest in admonitions? Yes: macOS. Run the installer. The annotation explains the command.",
				"Windows. Run pip install mkdocs-material.",
				"Subscribe to our newsletter.", "Image title. The caption of the image.",
				"This mode is active when the search is focused: Arrow Down : select next result.",
				"Added new Highlighted.", "Call range() to count.",
			},
			absent: []string{
				"!!!", "???", "===", "==", "^^", "++", "{", "}", ":material-", ":fontawesome-", ":octicons-", ":smile:", "md:",
				"5.0.0", "///", "--8<--", "#!python", "Deleted", "old", "A comment", "mkdocs.site_url", "brew", "(1)", "Tip.", "[", "]",
			},
			// Admonition and tab bodies are dedented: code inside stays a
			// fenced block, not an indented one.
			content: []string{"Yes:\n\nmacOS\n\nRun the installer.\n\n``` sh\nbrew install mkdocs-material # (1)!\n```", "{% raw %}{{ page.title }}{% endraw %}"},
			notes:   []string{"67: snippet include (--8<--) left out"},
		},
		{
			file:     "docusaurus.mdx",
			title:    "Deploying",
			keywords: []string{"deploy"},
			text:     []string{"Deploy with one command. Before you deploy. Run the build locally first. Take care. Deploying overwrites the live site. Run npm run deploy."},
			absent:   []string{":::", "import", "Tabs", "TabItem", "internal note", "{", "<"},
		},
		{
			// VitePress (and Azure DevOps wiki's table of contents and
			// diagrams): a box without a title shows its type's name, a
			// code group none; a diagram's source is not text; GitHub's
			// alerts read as their type and text.
			file:  "vitepress.md",
			title: "Webhooks",
			text: []string{
				"Webhooks send an HTTP POST to your URL when an event fires. Retry policy. Failed deliveries are retried five times. Details. The payload is JSON.",
				"Create a webhook. Open Settings → Webhooks. Click Add endpoint. Warning. Endpoints must use HTTPS.",
				"Verify signatures. Each request carries an X-Signature header. Important. Reject requests older than five minutes. The delivery log keeps 30 days.",
			},
			absent:  []string{":::", "[[", "TOC", "Badge", "v2.1", "{#", "script", "count", "Code-group", "code-group", "Mermaid", "Queue", "[!"},
			content: []string{"```sh [npm]\nnpm i acme\n```"},
		},
		{
			// MyST (Sphinx, Jupyter Book): directives hold prose, code or
			// nothing shown; targets and roles are not text.
			file:  "myst.md",
			title: "Installing the agent",
			text: []string{
				"The agent runs on every server you monitor. See the requirements and agent options first; run agent --version to check it.",
				"Note. The agent needs outbound port 443 only.",
				"Old kernels. Kernels before 4.18 are not supported.",
				"Upgrading from 1.x. Stop the old service first:",
				"The status page after the first check.",
				"Press Ctrl+C to stop, or choose File > Quit.",
			},
			absent:  []string{"(install)=", "(requirements)=", "{", "}", ":class:", "dropdown", ":caption:", "linenos", "maxdepth", "install/linux", "images/agent.png", "-->"},
			content: []string{"```bash\nsystemctl stop agent1\n```", "```yaml\n\ninterval: 30s\n```"},
		},
		{
			// GitBook: hints and tabs keep their text, tabs their labels;
			// a content-ref card shows a page's title, not its URL.
			file:  "gitbook.md",
			title: "Installing the app",
			text: []string{
				"The app is free for teams of up to five.",
				"macOS. Open the .dmg and drag the app to Applications.",
				"Windows. Run the .msi installer as an administrator.",
				"A two-minute tour of the app.",
			},
			absent:  []string{"{%", "%}", "hint", "configuration.md", "youtube", "install.sh"},
			content: []string{"```bash\ncurl -fsSL https://example.com/install.sh | sh\n```"},
		},
		{
			// Just the Docs (Jekyll, kramdown): setext title under the
			// front matter's, the "1. TOC {:toc}" marker and IALs go.
			file:   "justthedocs.md",
			title:  "Importing data",
			text:   []string{"Table of contents.", "Imports read a CSV file (format).", "Large files. Files over 50 MB are split in parts."},
			absent: []string{"TOC", "{:", "{%", "{{", "no_toc", "text-delta", "fs-6", ".note"},
		},
		{
			file:  "html.md",
			title: "Keyboard shortcuts",
			text: []string{
				"Press Ctrl+K to search. Press Esc to close.",
				"Why these keys? They match the browser’s own \"find\" shortcut & feel familiar.",
				"Search: find any page.", "Keyboard with the Ctrl key highlighted Use the <Ctrl> key — not ⌘.",
			},
			absent: []string{"<kbd>", "<br>", "generated", "analytics", "border", "<div", "&amp;", "&rsquo;", "&#", "keyboard.png"},
		},
		{
			// ReadMe's legacy magic blocks: JSON between "[block:type]" and
			// "[/block]" lines, read as the page renders them.
			file:  "readme.md",
			title: "Managing users",
			text: []string{
				"Admins manage them from the API or from the dashboard.",
				"Rate limits. You can make 100 requests a minute. Past that, the API answers 429 Too Many Requests.", // a callout
				"Create a user. Send the new user's email and role.",                                                 // an API header
				"Name, Type, Description. email, string, The address the invitation goes to. role, string, One of admin, member or viewer.",
				"The invitation email a new user receives.", // an image's caption
				"Remove a user. Removing a user signs them out everywhere.",
				"Removed users can be invited again at any time.", // HTML
				"Managing users in two minutes.",                  // an embed's title
				"To list users, see the users endpoint.",
			},
			absent: []string{
				"[block:", "[/block]", "{", "}", `"`, "callout", "api-header", "codes", "cols", "h-0", "0-0", "files.readme.io",
				"youtube", "iframe", "cURL", "curl", "Invite a whole team", "tutorial", "#018FF4", "note-box",
			},
			content: []string{
				"## Create a user", "## Remove a user",
				"```curl\ncurl -X POST https://api.example.com/v1/users \\\n  -H \"Authorization: Bearer $TOKEN\" \\\n",
				"```javascript\nconst user = await client.users.create({ email: 'ana@example.com', role: 'admin' });\n```",
				"| Name | Type | Description |\n| --- | --- | --- |\n| email | string | The address the invitation goes to. |",
				"<div class=\"note-box\">\n  <p>Removed users can be invited again at any time.</p>\n</div>",
			},
			notes: []string{"105: ReadMe [block:tutorial-tile] left out"},
		},
		{
			// Quarto: a callout shows its title attribute, else its type; a
			// panel-tabset's and a layout div's attributes show nothing.
			file:  "quarto.qmd",
			title: "Sharing a notebook",
			text: []string{
				"Share a notebook from Share in the toolbar.",
				"Links are public. Anyone with a public link can view the outputs.",
				"Tip. Viewers can comment but not run cells.",
				"Link. Copy the link and send it.", "Email. Type an address and press Invite.",
				"Margin notes show beside the text.",
				"Older releases. Older notes are in the archive.", // a heading opening a callout is its title
				"Important. After an empty box.",
			},
			absent:  []string{":::", "{", "callout", "panel-tabset", "collapse", "column-margin", "echo", "share("},
			content: []string{"```{python}\n#| echo: false\nshare(notebook, \"ana@example.com\")\n```"},
		},
		{
			// Markdoc: a callout shows its title, a tab its label; tags
			// closing themselves ({% partial /%}) show nothing.
			file:  "billing.mdoc",
			title: "Billing and invoices",
			text: []string{
				"Before you cancel. Download your invoices first: they are deleted 30 days after you cancel.",
				"Card. Card payments are charged on the 1st.", "Invoice. Invoice payments are due in 30 days.",
			},
			absent: []string{"{%", "%}", "callout", "partial", "footer.md", "label"},
		},
		{
			file:  "basics.md",
			title: "Exporting notes",
			text: []string{
				"Export a note from File > Export, as described in the export guide.",
				"Visit https://example.com/help for more.", "Escaped *stars* stay.",
				"Format, Keeps images, Notes. PDF, yes, Best for printing. Markdown, no, Images become links.",
				"One item. Another item: nested step. last step.",
				"Setext heading. Links point to the original image files.",
			},
			absent:  []string{"**", "|", "---", "[^", "export.md", "indented code"},
			content: []string{"    indented code stays code"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "markup", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			doc, notes, err := parseDoc("guides/"+tt.file, src)
			if err != nil {
				t.Fatalf("parseDoc: %v", err)
			}
			checkChunkInvariants(t, doc)
			if doc.Title != tt.title || fmt.Sprint(doc.Keywords) != fmt.Sprint(tt.keywords) {
				t.Errorf("title %q keywords %q, want %q %q", doc.Title, doc.Keywords, tt.title, tt.keywords)
			}
			var texts []string
			for _, c := range doc.Chunks {
				texts = append(texts, c.Text)
			}
			text := strings.Join(texts, " ")
			checkInOrder(t, "plain text", text, tt.text, tt.absent)
			for _, want := range tt.content {
				if !strings.Contains(doc.Content, want) {
					t.Errorf("markdown lacks %q", want)
				}
			}
			var got []string
			for _, n := range notes {
				if n.Kind != Note || n.Path != "guides/"+tt.file {
					t.Errorf("note %v", n)
				}
				got = append(got, fmt.Sprintf("%d: %s", n.Line, n.Msg))
			}
			checkNotes(t, got, tt.notes)
			if t.Failed() {
				t.Logf("plain text: %s\nmarkdown:\n%s", text, doc.Content)
			}
		})
	}
}

// TestListItemsEndingWithComma: items written as one running sentence
// read as one, without a full stop after each comma.
func TestListItemsEndingWithComma(t *testing.T) {
	doc := parsed(t, "a.md", "# A\n\nEnter:\n\n- the name,\n- the email,\n- the lead time.\n")
	if got, want := doc.Chunks[0].Text, "A. Enter: the name, the email, the lead time."; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	// A table row whose last cells are empty still ends as a sentence.
	doc = parsed(t, "b.md", "# B\n\n| Size | Before | After |\n|---|---|---|\n| Docs | | |\n| Index | 573 kB | 335 kB |\n")
	if got, want := doc.Chunks[0].Text, "B. Size, Before, After. Docs. Index, 573 kB, 335 kB."; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// TestConvertMarkupKeepsCode checks what must never change: code in
// fences (Jinja and Liquid included), inline code and indented code.
func TestConvertMarkupKeepsCode(t *testing.T) {
	for _, in := range []string{
		"```jinja\n{% for page in pages %}{{ page.title }}{% endfor %}\n!!! note\n[[x]] ++a++ :smile:\n```",
		"~~~~\n```\n{{< hint >}}\n```\n~~~~",
		"Use `{{< relref \"x\" >}}`, ``{% raw %}`` and `:material-home:` in prose.",
		"    {{ indented }} code block",
	} {
		if out, _ := convertMarkup(in); out != in {
			t.Errorf("convertMarkup changed code:\n in %q\nout %q", in, out)
		}
	}
}

// TestRemoveColumns dedents container bodies as markdown counts columns:
// a tab reaches the next multiple of four.
func TestRemoveColumns(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"    abc", 4, "abc"}, {"      abc", 4, "  abc"}, {"  abc", 4, "abc"}, {"\tabc", 4, "abc"},
		{"  \tabc", 2, "  abc"}, {"\t\tx", 4, "    x"}, {" \tx", 2, "  x"}, {"abc", 0, "abc"},
		{"    ", 4, ""}, {"", 4, ""}, {"x", 4, "x"},
	} {
		if got := removeColumns(c.in, c.n); got != c.want {
			t.Errorf("removeColumns(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// A help centre exported as HTML marks its sections with <h2> and <h3>:
// they split and name the doc's chunks as markdown headings do, and a
// heading in code stays code.
func TestHTMLHeadingsAreHeadings(t *testing.T) {
	src := "---\ntitle: Managing your team\n---\n" +
		"<p>Your team shares monitors.</p>\n" +
		"<h2 id=\"invite\">Invite <b>someone</b></h2>\n" +
		"<p>Open <strong>Settings &gt; Team</strong> and click Invite.</p>\n" +
		"<p>Pick a role.</p><h2>Remove a member</h2><p>Click the trash icon.</p><h3>Transfer &amp; ownership</h3><p>Make them an owner.</p>\n" +
		"<h2>Mismatched</h3>\n" +
		"<p>Write `<h2>Code</h2>` for a heading.</p>\n" +
		"<pre>\n<h2>Pre</h2>\n</pre>\n" +
		"```html\n<h2>Fenced</h2>\n```\n" +
		"    <h2>Indented code</h2>\n"
	d := parsed(t, "account/team.md", src)
	paths := headerPaths(d)
	want := []string{"Managing your team", "Managing your team > Invite someone", "Managing your team > Remove a member"}
	if strings.Join(paths, "|") != strings.Join(want, "|") {
		t.Fatalf("header paths %q, want %q", paths, want)
	}
	last := d.Chunks[len(d.Chunks)-1]
	for _, s := range []string{"### Transfer & ownership", "<h2>Mismatched</h3>", "`<h2>Code</h2>`", "<pre>\n<h2>Pre</h2>\n</pre>", "```html\n<h2>Fenced</h2>\n```", "    <h2>Indented code</h2>"} {
		if !strings.Contains(last.Content, s) {
			t.Errorf("the last chunk lacks %q:\n%s", s, last.Content)
		}
	}
	if !strings.Contains(last.Text, "Click the trash icon.") || strings.Contains(d.Chunks[1].Text, "trash") {
		t.Errorf("a heading's text is not its own section's: %q / %q", d.Chunks[1].Text, last.Text)
	}
}

// A pretty-printed export writes a heading element over several lines.
func TestHTMLHeadingOverSeveralLines(t *testing.T) {
	src := "# Team\n\n<p>Intro.</p>\n<h2 id=\"remove\">\n  Remove a\n  member\n</h2>\n<p>Click the trash icon.</p>\n" +
		"<h2>\nNot closed\n\n<p>Text.</p>\n" +
		"```html\n<h2>\nFenced\n</h2>\n```\n"
	d := parsed(t, "team.md", src)
	paths := headerPaths(d)
	if want := []string{"Team", "Team > Remove a member"}; strings.Join(paths, "|") != strings.Join(want, "|") {
		t.Fatalf("header paths %q, want %q", paths, want)
	}
	if last := d.Chunks[1].Content; !strings.Contains(last, "<h2>\nNot closed") || !strings.Contains(last, "```html\n<h2>\nFenced\n</h2>\n```") {
		t.Errorf("an unclosed or fenced heading changed:\n%s", last)
	}
}

// Code elements are followed across a line once: a heading after a closed
// <pre> on the same line is a heading, one inside an open <pre> is not.
func TestHTMLHeadingsAfterCodeOnOneLine(t *testing.T) {
	out, _ := convertMarkup("<pre><h2>A</h2></pre><h2>B</h2>\n<pre>\n<h2>C</h2></pre><h2>D</h2>\n")
	for _, want := range []string{"<pre><h2>A</h2></pre>", "## B", "<h2>C</h2></pre>", "## D"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "## A") || strings.Contains(out, "## C") {
		t.Errorf("a heading in code was converted:\n%s", out)
	}
}

// checkInOrder fails t unless s holds every want, in order, and no absent.
func checkInOrder(t *testing.T, what, s string, want, absent []string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Errorf("%s lacks %q after %q", what, w, s[:at])
			continue
		}
		at += i + len(w)
	}
	for _, bad := range absent {
		if strings.Contains(s, bad) {
			t.Errorf("%s holds %q", what, bad)
		}
	}
}

// checkNotes fails t unless got holds one note per want, each starting
// with it ("12: Liquid include").
// noticeLines are a load's notices as they print.
func noticeLines(res Result) []string {
	var lines []string
	for _, n := range res.Notices {
		lines = append(lines, n.String())
	}
	return lines
}

func checkNotes(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("notes %q, want %q", got, want)
	}
	for i := range min(len(got), len(want)) {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("note %q, want %q", got[i], want[i])
		}
	}
}

// headerPaths lists the header paths of a doc's chunks.
func headerPaths(d knowledge.Doc) []string {
	var paths []string
	for _, c := range d.Chunks {
		paths = append(paths, c.HeaderPath)
	}
	return paths
}
