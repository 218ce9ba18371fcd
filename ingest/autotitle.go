package ingest

import (
	"path"
	"regexp"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// GitHub Docs writes most links between its pages as
// "[AUTOTITLE](/repositories/archiving-a-repository)": the site fills in
// the linked page's title. Read as written, every such link says
// "AUTOTITLE", an answer reads "For more information, see AUTOTITLE.",
// and a closing "see AUTOTITLE" line on many pages looks like the site's
// frame. So the link gets the title of the doc it names, or, when that
// page is not in the knowledge base, the words of its last path segment.

// autotitleLink is such a link, with an optional link title.
var autotitleLink = regexp.MustCompile(`\[AUTOTITLE\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)

// fillAutotitles writes the linked docs' titles into docs' AUTOTITLE links
// and chunks the docs it changed again.
func fillAutotitles(docs []knowledge.Doc) {
	var byPath map[string]string // a doc's path, and each tail of it, → its title ("" when two docs share a tail)
	for i := range docs {
		d := &docs[i]
		if !strings.Contains(d.Content, "[AUTOTITLE]") {
			continue
		}
		if byPath == nil {
			byPath = docPaths(docs)
		}
		from := path.Dir(d.Slug)
		d.Content = autotitleLink.ReplaceAllStringFunc(d.Content, func(link string) string {
			target := autotitleLink.FindStringSubmatch(link)[1]
			title := linkedTitle(byPath, from, target)
			return "[" + escapeLinkText(title) + "](" + target + ")"
		})
		Chunk(d)
	}
}

// docPaths maps each doc's slug, without a folder page's index name, and
// each of its tails (a link from the site's root may lack the folders the
// knowledge base keeps its pages in, or have a language or version the
// folder lacks) to its title.
func docPaths(docs []knowledge.Doc) map[string]string {
	m := map[string]string{}
	exact := map[string]bool{}
	for _, d := range docs {
		p := strings.ToLower(d.Slug)
		if isIndexPage(p + ".md") {
			p = path.Dir(p)
		}
		if p == "." {
			continue
		}
		m[p], exact[p] = d.Title, true
		for t := p; strings.Contains(t, "/"); {
			_, t, _ = strings.Cut(t, "/")
			if exact[t] {
				continue
			}
			if prev, seen := m[t]; seen && prev != d.Title {
				m[t] = "" // two docs end so: it names neither
				continue
			}
			m[t] = d.Title
		}
	}
	return m
}

// linkedTitle is the title of the doc a link names, tried from the
// linking doc's folder and from the root, by the link's tails too; else
// the link's last segment in words.
func linkedTitle(byPath map[string]string, from, target string) string {
	p := strings.ToLower(target)
	if i := strings.IndexAny(p, "#?"); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(p, ".md"), "/"), "/index")
	candidates := []string{strings.TrimPrefix(path.Clean("/"+p), "/")}
	if !strings.HasPrefix(p, "/") {
		candidates = append([]string{path.Join(from, p)}, candidates...)
	}
	for _, c := range candidates {
		for t := c; t != ""; {
			if title := byPath[t]; title != "" {
				return title
			}
			var ok bool
			if _, t, ok = strings.Cut(t, "/"); !ok {
				break
			}
		}
	}
	words := strings.Join(strings.FieldsFunc(path.Base("/"+p), func(r rune) bool { return r == '-' || r == '_' }), " ")
	if words == "" || words == "/" || words == "." {
		return "this page"
	}
	return words
}

// escapeLinkText keeps a title from closing the link it is written into.
func escapeLinkText(s string) string {
	s = textsafe.Line(s)
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}
