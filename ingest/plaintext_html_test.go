package ingest

import (
	"strings"
	"testing"
)

// HTML's list items, table rows and paragraphs are sentences of their own
// in the plain text, as markdown's are: "A conversation is created. A
// customer replies." rather than one run of words.
func TestHTMLBlocksEndSentences(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"<ul>\n<li>A conversation is created</li>\n<li>A customer replies</li>\n</ul>", "A conversation is created. A customer replies."},
		{"<p>Events:</p><ol><li>first</li><li>second,</li></ol>", "Events: first. second,"},
		{"<table><tr><th>Role</th><th>Can bill</th></tr><tr><td>Owner</td><td>Yes</td></tr><tr><td>Agent</td><td></td></tr></table>",
			"Role, Can bill. Owner, Yes. Agent."},
		{"<div class=\"note\">Keep the tab open.<br>It saves as you type.</div>", "Keep the tab open. It saves as you type."},
		{"<p>Use <strong>Settings &gt; Team</strong>.</p>", "Use Settings > Team."},
	} {
		d := parsed(t, "a.md", "# T\n\n"+tc.md+"\n")
		got := strings.TrimSpace(strings.TrimPrefix(d.Chunks[0].Text, "T. "))
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.md, got, tc.want)
		}
	}
}

// A placeholder in an HTML code element is text the author wrote, kept as
// a markdown code span keeps it; outside code it is a template's output.
func TestHTMLCodeKeepsPlaceholders(t *testing.T) {
	src := "# T\n\n<p>Write <code>{{customer.first_name | \"there\"}}</code> or <kbd>{{x}}</kbd>; {{ site.url }} goes.</p>\n"
	d := parsed(t, "a.md", src)
	c := d.Chunks[0]
	for _, want := range []string{"<code>{{customer.first_name | \"there\"}}</code>", "<kbd>{{x}}</kbd>"} {
		if !strings.Contains(c.Content, want) {
			t.Errorf("content lost %q:\n%s", want, c.Content)
		}
	}
	if strings.Contains(c.Content, "site.url") {
		t.Errorf("a template's output outside code was kept:\n%s", c.Content)
	}
	if !strings.Contains(c.Text, "{{customer.first_name") {
		t.Errorf("text lost the placeholder: %q", c.Text)
	}
}
