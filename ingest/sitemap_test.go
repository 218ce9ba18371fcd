package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A book's index links to most of the book's pages, each under a term it
// names and does not explain: it is left out. A command's page that lists
// its subcommands, saying what each does, links to as many and stays.
func TestDropSiteMaps(t *testing.T) {
	site := fstest.MapFS{}
	var index, command strings.Builder
	index.WriteString(`<html><head><title>Index</title></head><body><div id="main"><h1>Index</h1><dl>`)
	command.WriteString(`<html><head><title>tool</title></head><body><div id="main"><h1>tool</h1><p>The tool runs one of its subcommands.</p><ul>`)
	for i := range 16 {
		site[fmt.Sprintf("sub/cmd-%d.html", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			`<html><head><title>cmd-%d</title></head><body><div id="main"><h1>cmd-%d</h1><p>Runs step %d of the build and writes its report to the output folder.</p></div></body></html>`, i, i, i))}
		fmt.Fprintf(&index, `<dt>step %d, <a href="sub/cmd-%d.html#x">cmd %d</a>, <a href="sub/cmd-%d.html">Build steps</a></dt>`, i, i, i, i)
		fmt.Fprintf(&command, `<li><a href="sub/cmd-%d.html">cmd-%d</a>: runs step %d of the build, and writes what it did to the report, before the next step starts.</li>`, i, i, i)
	}
	site["bookindex.html"] = &fstest.MapFile{Data: []byte(index.String() + `</dl></div></body></html>`)}
	site["tool.html"] = &fstest.MapFile{Data: []byte(command.String() + `</ul></div></body></html>`)}
	res, err := Load(context.Background(), site, "html")
	if err != nil {
		t.Fatal(err)
	}
	slugs := docSlugs(res.Docs)
	if slices.Contains(slugs, "bookindex") || !slices.Contains(slugs, "tool") || len(slugs) != 17 {
		t.Errorf("docs %v, want the pages and the command's page, not the index", slugs)
	}
	if !slices.ContainsFunc(res.Notices, func(w Warning) bool {
		return w.Path == "bookindex.html" && w.Kind == Excluded && strings.Contains(w.Msg, "links to 16 of its 18 pages")
	}) {
		t.Errorf("notices %v, want the index left out as a map of the site", res.Notices)
	}
}
