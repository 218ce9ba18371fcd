package storetest

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// Section is one chunk of a hand-built doc: its heading (empty for the
// doc's title chunk) and its body (empty for a heading-only chunk).
type Section struct {
	Heading  string
	Body     string
	Keywords []string
}

// NewDoc builds a doc the way ingest would shape it, without depending on
// ingest: chunk 0 carries the "# Title" heading and each further section a
// "## Heading". Category is the slug's first folder. Hashes and body
// counts are derived by Finish.
func NewDoc(slug, title string, sections ...Section) knowledge.Doc {
	category, _, found := strings.Cut(slug, "/")
	if !found {
		category = "docs"
	}
	d := knowledge.Doc{
		Slug:       slug,
		Category:   category,
		Title:      title,
		SourcePath: slug + ".md",
	}
	for i, s := range sections {
		heading, path := "# "+title, title
		if s.Heading != "" {
			heading, path = "## "+s.Heading, title+" > "+s.Heading
		}
		content := heading
		if s.Body != "" {
			content += "\n\n" + s.Body
		}
		d.Chunks = append(d.Chunks, knowledge.Chunk{
			Index:      i,
			HeaderPath: path,
			Content:    content,
			Keywords:   slices.Clone(s.Keywords),
		})
	}
	return Finish(d)
}

// Finish re-derives what ingest computes from a doc's chunks after a test
// edited them: the doc's content and hash, and each chunk's owner fields,
// hash, plain text, body character count and heading-only flag. It returns
// a copy and leaves d untouched.
func Finish(d knowledge.Doc) knowledge.Doc {
	d = d.Clone()
	parts := make([]string, 0, len(d.Chunks))
	for i := range d.Chunks {
		c := &d.Chunks[i]
		c.DocSlug, c.Category, c.Title = d.Slug, d.Category, d.Title
		c.Hash = md5Hex(c.Content)
		c.Text = plainText(c.Content)
		c.BodyChars = bodyChars(c.Content)
		c.HeadingOnly = c.BodyChars == 0
		parts = append(parts, c.Content)
	}
	d.Content = strings.Join(parts, "\n\n")
	d.ContentHash = sha256Hex(d.Content)
	return d
}

// plainText is a rough stand-in for ingest's plain text of a chunk,
// enough for the stores to carry one: markup characters dropped, lines
// joined.
func plainText(content string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("#", "", "*", "").Replace(content)), " ")
}

// bodyChars counts the characters outside heading lines.
func bodyChars(content string) int {
	n := 0
	for line := range strings.SplitSeq(content, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		n += utf8.RuneCountInString(strings.TrimSpace(line))
	}
	return n
}

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// CloneDocs deep-copies a snapshot.
func CloneDocs(docs []knowledge.Doc) []knowledge.Doc {
	out := make([]knowledge.Doc, len(docs))
	for i, d := range docs {
		out[i] = d.Clone()
	}
	return out
}

var (
	genCategories = []string{"concepts", "guides", "troubleshooting", "reference", "billing", "integrations"}
	genNouns      = []string{"workspace", "invoice", "webhook", "token", "project", "member", "role", "export",
		"import", "report", "dashboard", "alert", "schedule", "template", "integration", "plan", "seat",
		"domain", "audit log", "session", "password", "backup", "region", "quota", "API key"}
	genVerbs = []string{"create", "rename", "delete", "restore", "configure", "rotate", "invite", "export",
		"filter", "share", "archive", "verify", "upgrade", "downgrade", "sync"}
	genHeadings = []string{"Overview", "Before you begin", "Steps", "Permissions", "Limits", "Troubleshooting",
		"Examples", "Related settings", "Billing impact", "FAQ"}
)

// GenerateDocs returns n realistic, deterministic docs of 4 to 8 chunks
// (a few hundred characters each, some heading-only), for benchmarks and
// large-snapshot tests. The same n always yields the same docs.
func GenerateDocs(n int) []knowledge.Doc {
	r := rand.New(rand.NewPCG(uint64(n), 0x646f63656e74))
	pick := func(words []string) string { return words[r.IntN(len(words))] }
	docs := make([]knowledge.Doc, 0, n)
	for i := range n {
		noun, verb := pick(genNouns), pick(genVerbs)
		category := genCategories[i%len(genCategories)]
		slug := fmt.Sprintf("%s/%s-%s-%04d", category, verb, strings.ReplaceAll(noun, " ", "-"), i)
		title := fmt.Sprintf("%s a %s", strings.ToUpper(verb[:1])+verb[1:], noun)

		sections := make([]Section, 4+r.IntN(5))
		for j := range sections {
			if j > 0 {
				sections[j].Heading = genHeadings[(j-1+i)%len(genHeadings)]
			}
			if j > 0 && r.IntN(10) == 0 {
				continue // heading-only section, as ingest produces for empty headings
			}
			var body strings.Builder
			for range 2 + r.IntN(5) {
				fmt.Fprintf(&body, "To %s a %s, open **Settings → %s** and choose *%s*; admins with the %s role can %s it for every %s. ",
					pick(genVerbs), noun, strings.ToUpper(noun[:1])+noun[1:], pick(genHeadings),
					pick(genNouns), pick(genVerbs), pick(genNouns))
			}
			sections[j].Body = strings.TrimSpace(body.String())
			sections[j].Keywords = []string{verb, noun}
		}
		d := NewDoc(slug, title, sections...)
		d.Keywords = []string{verb, noun, category}
		d.Description = fmt.Sprintf("How to %s a %s.", verb, noun)
		docs = append(docs, d)
	}
	return docs
}
