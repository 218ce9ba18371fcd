// Package cite reads the chunk ids an answer cites ("[guides/setup#chunk-1]")
// and renders them for a person: numbered footnotes ("[1]") in the text
// and a list of the cited sources only, each with its title, section and
// file. An id the answer was not given is kept and flagged: a model may
// invent one. The text it reads comes from models, so it is parsed
// without trusting its shape: pure, with a fuzz target.
package cite

import (
	"fmt"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// NotGiven is how a citation of a source the answer was not given is
// flagged.
const NotGiven = "cited a source it was not given"

// maxIDBytes bounds one cited id: an id is a slug and a chunk number, and
// a bracket much longer than that is prose, not a citation.
const maxIDBytes = 240

// Source is a chunk an answer may cite, as a person recognizes it.
type Source struct {
	ID    string // "api/rate-limits#chunk-1"
	Title string // the doc's title
	Path  string // the chunk's header path, "Rate limits > Limits"
	File  string // the doc's file in the knowledge base
}

// Note is one footnote: its number, the id it stands for, and the source
// when the answer was given it.
type Note struct {
	N      int
	ID     string
	Source Source
	Known  bool
}

// Label is how a footnote names its source: "Rate limits › Limits —
// api/rate-limits.md", or the id and the flag when it was not given.
func (n Note) Label() string {
	if !n.Known {
		return textsafe.Line(n.ID) + " — " + NotGiven
	}
	s := n.Source
	name := strings.ReplaceAll(textsafe.Line(s.Path), " > ", " › ")
	if name == "" {
		name = textsafe.Line(s.Title)
	} else if t := textsafe.Line(s.Title); t != "" && !strings.HasPrefix(name, t) {
		name = t + " › " + name
	}
	if name == "" {
		name = textsafe.Line(s.ID)
	}
	if f := textsafe.Line(s.File); f != "" {
		name += " — " + f
	}
	return name
}

// Footnoted is an answer with its citations numbered.
type Footnoted struct {
	Text  string // the answer, each citation replaced by its number: "[1]", "[1, 2]"
	Notes []Note // the cited sources, by number
}

// Unknown is the ids the answer cited without being given them.
func (f Footnoted) Unknown() []string {
	var ids []string
	for _, n := range f.Notes {
		if !n.Known {
			ids = append(ids, n.ID)
		}
	}
	return ids
}

// SourcesText is the list of cited sources, one a line: "[1] Rate limits
// › Limits — api/rate-limits.md". It is empty when nothing was cited.
func (f Footnoted) SourcesText() string {
	var b strings.Builder
	for _, n := range f.Notes {
		fmt.Fprintf(&b, "[%d] %s\n", n.N, n.Label())
	}
	return b.String()
}

// WithSources is the answer followed by its sources: what a person pastes
// into a ticket.
func (f Footnoted) WithSources() string {
	text := strings.TrimRight(f.Text, " \n")
	if len(f.Notes) == 0 {
		return text
	}
	return text + "\n\nSources:\n" + f.SourcesText()
}

// Footnotes numbers the citations of text in the order they first appear.
// given are the sources the answer was given, which name the notes; an id
// not among them still gets a number, flagged in its note.
func Footnotes(text string, given []Source) Footnoted {
	r := NewRenumberer(given)
	return Footnoted{Text: r.Write(text) + r.Flush(), Notes: r.Notes()}
}

// Strip removes the citations from text, for the answer alone.
func Strip(text string) string {
	var b strings.Builder
	for _, span := range scan(text) {
		if span.ids == nil {
			b.WriteString(span.text)
			continue
		}
		// The space before a citation goes with it.
		s := strings.TrimRight(b.String(), " ")
		b.Reset()
		b.WriteString(s)
	}
	return b.String()
}

// IDs returns the distinct ids text cites, in the order they first appear.
func IDs(text string) []string {
	var ids []string
	for _, span := range scan(text) {
		for _, id := range span.ids {
			if !contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// span is a run of text, or a citation: a bracket of one or more ids.
type span struct {
	text string
	ids  []string
}

// scan splits text into prose and citations.
func scan(text string) []span {
	var out []span
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		end := strings.IndexByte(text[i+1:], ']')
		if end < 0 {
			break
		}
		end += i + 1
		ids, ok := parseBracket(text[i+1 : end])
		if !ok {
			continue
		}
		if last < i {
			out = append(out, span{text: text[last:i]})
		}
		out = append(out, span{text: text[i : end+1], ids: ids})
		last = end + 1
		i = end
	}
	if last < len(text) {
		out = append(out, span{text: text[last:]})
	}
	return out
}

// parseBracket reads the inside of a bracket as one or more chunk ids
// separated by commas or semicolons; ok is false for anything else.
func parseBracket(inner string) ([]string, bool) {
	if inner == "" || len(inner) > 4*maxIDBytes {
		return nil, false
	}
	parts := strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ';' })
	if len(parts) == 0 {
		return nil, false
	}
	ids := make([]string, 0, len(parts))
	for _, p := range parts {
		id := strings.TrimSpace(p)
		if !IsChunkID(id) {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, true
}

// IsChunkID reports whether s is a chunk id as written in an answer: one
// knowledge.ParseChunkID reads, with no space or bracket in it.
func IsChunkID(s string) bool {
	if len(s) > maxIDBytes || strings.ContainsAny(s, " \t\r\n[]") {
		return false
	}
	_, _, ok := knowledge.ParseChunkID(s)
	return ok
}
