package conversation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/docent-sh/docent/cite"
	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// MarkdownOptions says how an export links its sources.
type MarkdownOptions struct {
	// DocsRoot prefixes each source's file in its link (the docs folder,
	// so the links open from wherever the export is read); "" leaves the
	// file as the knowledge base names it.
	DocsRoot string
}

// Markdown writes a conversation as a markdown document: a heading per
// question, the answer with its citations as numbered links to the
// source files, the sources under it, and the asker's rating. Text from
// docs and models is stripped of terminal control sequences: an export is
// read in terminals too.
func Markdown(c knowledge.Conversation, opts MarkdownOptions) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", mdLine(c.Title))
	fmt.Fprintf(&b, "Conversation `%s` · %s · started %s · %s\n", c.ID, mdLine(c.Workspace+"/"+c.User),
		c.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), plural(len(c.Turns), "turn"))
	for i, t := range c.Turns {
		picked := PickedLabel(c.Turns, i)
		q := t.Question
		if q == "" {
			q = "(picked " + picked + ")"
		}
		fmt.Fprintf(&b, "\n## %d. %s\n\n", t.Index+1, mdLine(q))
		if t.Picked != "" && t.Question != "" {
			fmt.Fprintf(&b, "_Picked %s._\n\n", mdLine(picked))
		}
		foot := cite.Footnotes(textsafe.String(t.Answer), Sources(t))
		links := map[int]string{}
		for _, n := range foot.Notes {
			if n.Known && n.Source.File != "" {
				links[n.N] = link(opts.DocsRoot, n.Source.File)
			}
		}
		text := strings.TrimSpace(linkCitations(foot.Text, links))
		if text == "" {
			text = "_(no answer)_"
		}
		b.WriteString(text + "\n")
		if len(t.Options) > 0 {
			b.WriteString("\nOptions offered:\n\n")
			for _, o := range t.Options {
				label := mdLine(o.Label)
				if o.Category != "" {
					label += " (" + mdLine(o.Category) + ")"
				}
				fmt.Fprintf(&b, "- %s\n", label)
			}
		}
		if len(foot.Notes) > 0 {
			b.WriteString("\nSources:\n\n")
			for _, n := range foot.Notes {
				if l, ok := links[n.N]; ok {
					fmt.Fprintf(&b, "%d. [%s](%s)\n", n.N, mdLine(sourceName(n.Source)), l)
				} else {
					fmt.Fprintf(&b, "%d. %s\n", n.N, mdLine(n.Label()))
				}
			}
		}
		var meta []string
		meta = append(meta, t.Status)
		switch {
		case t.Model != "" && t.Model != t.Provider:
			meta = append(meta, mdLine(t.Provider+"/"+t.Model))
		case t.Provider != "":
			meta = append(meta, mdLine(t.Provider))
		}
		meta = append(meta, t.At.UTC().Format("2006-01-02 15:04 UTC"))
		if f := t.Feedback; f != nil {
			rated := "rated 👍"
			if f.Rating == knowledge.RatingDown {
				rated = "rated 👎"
				if f.Reason != "" {
					rated += " (" + f.Reason.Label() + ")"
				}
			}
			meta = append(meta, rated)
		}
		fmt.Fprintf(&b, "\n<sub>%s</sub>\n", strings.Join(meta, " · "))
	}
	return b.Bytes()
}

// PickedLabel names what turn i picked: the pill's label and category as
// the turn before offered it, else the slug (or chunk id) itself.
func PickedLabel(turns []knowledge.Turn, i int) string {
	t := turns[i]
	if i > 0 {
		for _, o := range turns[i-1].Options {
			if o.Slug == t.Picked {
				if o.Category != "" {
					return o.Label + " (" + o.Category + ")"
				}
				return o.Label
			}
		}
	}
	return t.Picked
}

// footnoteRef is a footnote as cite numbers it: "[1]" or "[1, 2]".
var footnoteRef = regexp.MustCompile(`\[(\d+(?:, \d+)*)\]`)

// linkCitations turns each numbered footnote with a link into a link to
// its source: "[1]" becomes "[[1]](file)", "[1, 2]" becomes one link a
// number. A number without a link stays as written.
func linkCitations(text string, links map[int]string) string {
	return footnoteRef.ReplaceAllStringFunc(text, func(m string) string {
		parts := strings.Split(strings.Trim(m, "[]"), ", ")
		out := make([]string, len(parts))
		for i, p := range parts {
			n, _ := strconv.Atoi(p)
			l, ok := links[n]
			if !ok {
				return m
			}
			out[i] = "[\\[" + p + "\\]](" + l + ")"
		}
		return strings.Join(out, "")
	})
}

// link is a markdown link destination for a source file, in angle
// brackets so spaces need no escaping.
func link(root, file string) string {
	p := file
	if root != "" {
		p = path.Join(strings.ReplaceAll(root, `\`, "/"), file)
	}
	p = strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "", "\r", "").Replace(p)
	return "<" + p + ">"
}

// sourceName is a source as a link's text: "Title › Section".
func sourceName(s cite.Source) string {
	name := strings.ReplaceAll(s.Path, " > ", " › ")
	switch {
	case name == "":
		name = s.Title
	case s.Title != "" && !strings.HasPrefix(name, s.Title):
		name = s.Title + " › " + name
	}
	if name == "" {
		name = s.ID
	}
	return name
}

// mdLine is text for one markdown line: terminal-safe, on one line, with
// the characters that would start markup escaped.
func mdLine(s string) string {
	s = textsafe.Line(s)
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;").Replace(s)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// FileName is an export's default file name: the date the conversation
// started and the first words of its title, e.g.
// "2026-03-01-how-do-i-archive-a-workspace.md".
func FileName(c knowledge.Conversation) string {
	var words []string
	size := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(c.Title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if size+len(w) > maxFileNameWords {
			break
		}
		words = append(words, w)
		size += len(w) + 1
	}
	slug := strings.Join(words, "-")
	if slug == "" {
		slug = "conversation"
	}
	return c.CreatedAt.UTC().Format(time.DateOnly) + "-" + slug + ".md"
}

// maxFileNameWords bounds the title's share of a file name, in bytes.
const maxFileNameWords = 60

// Export writes c as markdown to file ("" names one after the
// conversation with FileName, in the current directory; "-" is stdout)
// and returns the path written ("" for stdout). It never overwrites a
// file: an export is written once, and a second export of a conversation
// under its default name gets "-2", "-3"… A file given by name that
// exists is an error.
func Export(ctx context.Context, c knowledge.Conversation, file string, opts MarkdownOptions, stdout io.Writer) (string, error) {
	data := Markdown(c, opts)
	if file == "-" {
		if _, err := stdout.Write(data); err != nil {
			return "", fmt.Errorf("export conversation %s: %w", c.ID, err)
		}
		return "", nil
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	named := file != ""
	if !named {
		file = FileName(c)
	}
	base := strings.TrimSuffix(file, ".md")
	for n := 2; ; n++ {
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) && !named && n < maxExportTries {
			file = fmt.Sprintf("%s-%d.md", base, n)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("export conversation %s: %w", c.ID, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(file) // a half-written export is worse than none
			return "", fmt.Errorf("export conversation %s to %s: %w", c.ID, file, werr)
		}
		return file, nil
	}
}

// maxExportTries bounds the search for a free default file name.
const maxExportTries = 100
