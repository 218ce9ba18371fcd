package extractive

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	// The package is aliased: this package has a type named sentence.
	sentences "github.com/docent-sh/docent/internal/sentence"
	"github.com/docent-sh/docent/textsafe"
)

// A passage is a sentence of at least minSentenceWords words, cut when it
// is long enough to be a wall of text.
const (
	minSentenceWords = 3
	maxSentenceRunes = 320
)

// Markdown clean-up for the extractive answer: the answer is plain prose.
var (
	mdImage = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink  = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	// mdPermalink is a heading's link to itself with no words in it:
	// Docusaurus' zero-width "[​](#id)", Sphinx's and MkDocs' "¶",
	// GitHub's "#".
	mdPermalink = regexp.MustCompile(`\[[^\]\pL\pN]*\]\(#[^)]*\)`)
	mdRefLink   = regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`)
	mdCode      = regexp.MustCompile("`+([^`]*)`+")
	mdStrong    = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	mdEmphasis  = regexp.MustCompile(`(^|[\s(])[*_](\S(?:[^*_]*?\S)?)[*_]([\s).,;:!?]|$)`)
	htmlTag     = regexp.MustCompile(`</?[A-Za-z][^>]*>`)
	listMarker  = regexp.MustCompile(`^(?:[-*+]|\d{1,3}[.)])\s+`)
	taskMarker  = regexp.MustCompile(`^\[[ xX]\]\s+`)
	headingLine = regexp.MustCompile(`^#{1,6}(\s|$)`)
	ruleLine    = regexp.MustCompile(`^(?:[-*_]\s*){3,}$`)
)

// passage is one plain sentence of a chunk with where it sits.
type passage struct {
	text    string
	heading string // the nearest heading above it in the chunk, cleaned
	section string // the headings above it in the chunk, outermost first, joined by " > "
	para    int    // the paragraph or list item it belongs to
	item    bool   // it belongs to a list item
	number  int    // the number of its item in a numbered list, else 0
}

// passagesOf turns a chunk's markdown into plain sentences: headings,
// code blocks, tables and rules are left out (a heading is kept as the
// context of the sentences under it), list items and paragraphs are split
// into sentences, and inline markup is removed.
func passagesOf(content string) []passage {
	type paragraph struct {
		text    string
		heading string
		section string
		item    bool
		number  int
		cont    bool // an indented paragraph that goes on with the list item before it
	}
	type level struct {
		depth int
		text  string
	}
	var paragraphs []paragraph
	var para []string
	var headings []level // the open headings, outermost first
	heading, item, number, cont := "", false, 0, false
	// afterItem holds while indented paragraphs may still belong to the
	// list item before them ("5. Create an alias …" then an indented
	// warning, then "6. …"): one item, so the list stays whole.
	afterItem, lastNumber := false, 0
	section := func() string {
		parts := make([]string, len(headings))
		for i, h := range headings {
			parts[i] = h.text
		}
		return strings.Join(parts, " > ")
	}
	flush := func() {
		if len(para) > 0 {
			paragraphs = append(paragraphs, paragraph{strings.Join(para, " "), heading, section(), item, number, cont})
			para = para[:0]
			if item {
				afterItem, lastNumber = true, number
			}
		}
		item, number, cont = false, 0, false
	}
	fence := ""
	for _, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if fence != "" {
			if strings.HasPrefix(line, fence) {
				fence = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"):
			flush()
			fence = line[:3]
			continue
		case headingLine.MatchString(line):
			flush()
			afterItem = false
			depth := len(line) - len(strings.TrimLeft(line, "#"))
			heading = cleanInline(strings.TrimLeft(line, "# "))
			for len(headings) > 0 && headings[len(headings)-1].depth >= depth {
				headings = headings[:len(headings)-1]
			}
			headings = append(headings, level{depth, heading})
			continue
		case line == "", ruleLine.MatchString(line), strings.HasPrefix(line, "|"), strings.HasPrefix(line, "<!--"):
			flush()
			continue
		}
		for strings.HasPrefix(line, ">") {
			line = strings.TrimSpace(strings.TrimPrefix(line, ">"))
		}
		if len(para) == 0 && !listMarker.MatchString(line) {
			if afterItem && (strings.HasPrefix(raw, "  ") || strings.HasPrefix(raw, "\t")) {
				item, number, cont = true, lastNumber, true
			} else {
				afterItem = false
			}
		}
		if m := listMarker.FindString(line); m != "" {
			flush()
			item = true
			// A numbered item keeps its number: a procedure is told in
			// its own order, and a continuation goes on from where it was.
			if n, err := strconv.Atoi(strings.TrimRight(m, ".) \t")); err == nil {
				number = max(n, 1)
			}
			line = taskMarker.ReplaceAllString(line[len(m):], "")
		}
		para = append(para, line)
	}
	flush()

	var out []passage
	pi := -1
	for _, p := range paragraphs {
		if !p.cont || pi < 0 {
			pi++
		}
		for _, s := range sentences.Split(cleanInline(p.text)) {
			// A step is kept however short: "Click Done." ends a procedure.
			if len(strings.Fields(s)) >= minSentenceWords || (p.item && s != "") {
				out = append(out, passage{text: truncateSentence(s), heading: p.heading, section: p.section, para: pi, item: p.item, number: p.number})
			}
		}
	}
	return out
}

func cleanInline(s string) string {
	s = textsafe.String(s)
	// Most prose has little markup: each pattern runs only when the text
	// holds its marker, which cut the answer's cost about fourfold
	// (BenchmarkAnswer).
	replace := func(marker string, re *regexp.Regexp, repl string) {
		if strings.Contains(s, marker) {
			s = re.ReplaceAllString(s, repl)
		}
	}
	replace("![", mdImage, "")
	replace("](#", mdPermalink, "")
	replace("](", mdLink, "$1")
	replace("][", mdRefLink, "$1")
	replace("`", mdCode, "$1")
	replace("**", mdStrong, "$2")
	replace("__", mdStrong, "$2")
	if strings.ContainsAny(s, "*_") {
		s = mdEmphasis.ReplaceAllString(s, "$1$2$3")
	}
	replace("<", htmlTag, "")
	return strings.Join(strings.Fields(s), " ")
}

func truncateSentence(s string) string {
	if utf8.RuneCountInString(s) <= maxSentenceRunes {
		return s
	}
	r := []rune(s)[:maxSentenceRunes]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
