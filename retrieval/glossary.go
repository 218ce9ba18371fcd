package retrieval

import (
	"strings"

	"github.com/docent-sh/docent/retrieval/analysis"
	"github.com/docent-sh/docent/textsafe"
)

// glossaryEntry is one core concept: a headword and its definition.
type glossaryEntry struct {
	term       string
	definition string
	terms      []string // the headword's index terms
}

// parseGlossary reads the core-concepts glossary. Three shapes are
// understood, because authors write glossaries all three ways:
//
//   - **Term**: definition        (list item or paragraph, bold headword)
//   - Term: definition            (list item with a plain headword)
//     ## Term                       (heading, definition in the lines below)
//
// Anything else (the title, prose) is ignored.
func parseGlossary(src string, an *analysis.Analyzer) []glossaryEntry {
	var entries []glossaryEntry
	var heading string
	var body []string
	flushHeading := func() {
		if heading != "" && len(body) > 0 {
			entries = append(entries, glossaryEntry{term: heading, definition: strings.Join(body, " ")})
		}
		heading, body = "", nil
	}
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			flushHeading()
			level := len(line) - len(strings.TrimLeft(line, "#"))
			if level >= 2 {
				heading = strings.TrimSpace(line[level:])
			}
			continue
		}
		item := strings.TrimSpace(strings.TrimLeft(line, "-*+"))
		if term, def, ok := splitDefinition(item, line != item); ok {
			flushHeading()
			entries = append(entries, glossaryEntry{term: term, definition: def})
			continue
		}
		if heading != "" {
			body = append(body, line)
		}
	}
	flushHeading()
	out := entries[:0]
	for _, e := range entries {
		e.term = textsafe.Line(e.term)
		e.definition = plainText(e.definition)
		e.terms = an.Terms(e.term)
		if len(e.terms) > 0 && e.definition != "" {
			out = append(out, e)
		}
	}
	return out
}

// splitDefinition splits "**Term**: definition", "**Term** — definition"
// or, in a list item, "Term: definition".
func splitDefinition(s string, listItem bool) (term, def string, ok bool) {
	if strings.HasPrefix(s, "**") {
		end := strings.Index(s[2:], "**")
		if end < 0 {
			return "", "", false
		}
		term = s[2 : 2+end]
		rest := strings.TrimSpace(s[4+end:])
		rest = strings.TrimLeft(rest, ":—–-")
		// "**Term:** definition" puts the colon inside the bold.
		term = strings.TrimRight(term, ": ")
		return term, strings.TrimSpace(rest), strings.TrimSpace(rest) != ""
	}
	if listItem {
		t, d, found := strings.Cut(s, ":")
		if found && len(strings.Fields(t)) <= 4 && strings.TrimSpace(d) != "" {
			return strings.TrimSpace(t), strings.TrimSpace(d), true
		}
	}
	return "", "", false
}
