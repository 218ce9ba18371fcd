package retrieval

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/textsafe"
)

var (
	mdImage     = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdWikiLink  = regexp.MustCompile(`\[\[([^\]]*)\]\]`)
	mdHTMLTag   = regexp.MustCompile(`</?[A-Za-z][^<>]*>`)
	mdTableRule = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	mdEmphasis  = strings.NewReplacer("**", "", "__", "", "`", "")
)

// plainText turns a markdown chunk into prose for replies and snippets:
// headings, code fences, table rules and markup are dropped, links keep
// their text, each list item or table row becomes a sentence-like line, and
// control characters never survive.
func plainText(md string) string {
	var b strings.Builder
	b.Grow(len(md))
	for _, trimmed := range linesOutsideFences(md) {
		if trimmed == "" || trimmed[0] == '#' || isTableRule(trimmed) {
			continue
		}
		trimmed = stripListMarker(strings.TrimLeft(trimmed, "> "))
		if strings.HasPrefix(trimmed, "|") {
			cells := strings.Split(strings.Trim(trimmed, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			trimmed = joinNonEmpty(", ", cells...)
		}
		trimmed = stripInlineMarkup(trimmed)
		if trimmed == "" {
			continue
		}
		// Lines become sentences: a list item without final punctuation
		// would otherwise run into the next one.
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(trimmed)
		if !strings.ContainsRune(".!?:;", lastRune(trimmed)) {
			b.WriteByte('.')
		}
	}
	return textsafe.Line(b.String())
}

// stripInlineMarkup keeps the text of links and images and drops emphasis,
// code ticks and HTML tags. The regular expressions only run when their
// opening character is present: this is on every reply's path.
func stripInlineMarkup(s string) string {
	if strings.Contains(s, "](") {
		s = mdImage.ReplaceAllString(s, "$1")
		s = mdLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "[[") {
		s = mdWikiLink.ReplaceAllString(s, "$1")
	}
	if strings.IndexByte(s, '<') >= 0 {
		s = mdHTMLTag.ReplaceAllString(s, "")
	}
	return strings.TrimSpace(mdEmphasis.Replace(s))
}

// stripListMarker removes a leading "-", "*", "+" or "1." / "1)" marker.
func stripListMarker(s string) string {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return strings.TrimSpace(s[2:])
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:])
	}
	return s
}

// isTableRule reports a markdown table's header rule, e.g. "|---|:--:|".
func isTableRule(s string) bool {
	if !strings.Contains(s, "--") {
		return false
	}
	return mdTableRule.MatchString(s)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// snippetOf returns an excerpt of prose (plainText's output) around the
// first place a query term occurs, about width bytes long, with "…" where
// text was cut.
func snippetOf(text string, terms []string, width int) string {
	if len(text) <= width {
		return text
	}
	pos := firstTermPosition(text, terms)
	// pos comes from a lower-cased copy whose length may differ slightly
	// for a few scripts: clamp before slicing.
	start := min(max(pos-width/3, 0), len(text))
	for start > 0 && text[start-1] != ' ' {
		start--
	}
	end := min(start+width, len(text))
	for end < len(text) && text[end] != ' ' && end-start < width+20 {
		end++
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	out := strings.TrimSpace(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}

// firstTermPosition finds the byte offset of the first word that starts
// with a query term (terms are stems, so "note" finds "notes"), or 0.
func firstTermPosition(text string, terms []string) int {
	lower := strings.ToLower(text)
	best := -1
	for _, t := range terms {
		for from := 0; from < len(lower); {
			i := strings.Index(lower[from:], t)
			if i < 0 {
				break
			}
			i += from
			if i == 0 || !isWordByte(lower[i-1]) {
				if best < 0 || i < best {
					best = i
				}
				break
			}
			from = i + len(t)
		}
	}
	return max(best, 0)
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// linksOnly reports whether the body of a markdown chunk (headings aside)
// consists of nothing but links, list markers and punctuation.
func linksOnly(md string) bool {
	if !strings.Contains(md, "](") && !strings.Contains(md, "[[") {
		return false
	}
	links := 0
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		links += len(mdLink.FindAllStringIndex(line, -1)) + len(mdWikiLink.FindAllStringIndex(line, -1))
		rest := mdWikiLink.ReplaceAllString(mdLink.ReplaceAllString(line, ""), "")
		rest = stripListMarker(strings.TrimSpace(rest))
		if strings.IndexFunc(rest, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return false
		}
	}
	return links > 0
}

// innerHeadings returns the headings of a markdown chunk, outside code
// fences, joined by " ; ": a short section merged into its parent's chunk
// keeps its heading only in the text, and a heading names what its
// section is about wherever it ends up. Trailing attribute blocks
// ("{#anchor}") are dropped. The title of a disclosure, HTML's
// <summary>, counts as a heading: it names the text it folds, as a FAQ's
// question names its answer. (MkDocs' collapsible `??? kind "Title"` is
// a paragraph by now: ingestion writes admonition titles as text.)
func innerHeadings(md string) string {
	if !strings.Contains(md, "#") && !strings.Contains(md, "<") {
		return ""
	}
	var out []string
	lines := linesOutsideFences(md)
	for _, t := range lines {
		if h := disclosureTitle(t); h != "" {
			out = append(out, h)
			continue
		}
		h, _, ok := headingText(t)
		if !ok {
			continue // no heading: "#hashtag", "#!" or a bare run of #
		}
		if i := strings.LastIndexByte(h, '{'); i >= 0 && strings.HasSuffix(h, "}") {
			h = strings.TrimSpace(h[:i])
		}
		if h != "" {
			out = append(out, h)
		}
	}
	out = append(out, definitionTerms(strings.Join(lines, "\n"))...)
	return strings.Join(out, " ; ")
}

// htmlTerm matches an HTML definition list's term, to its end tag or to
// its definition's start.
var htmlTerm = regexp.MustCompile(`(?is)<dt\b[^>]*>(.*?)(?:</dt\s*>|<dd\b)`)

// maxTermChars is how long a term's text may be to name its definition:
// longer, it is a sentence (a FAQ's question is a <summary> or a heading).
const maxTermChars = 120

// definitionTerms returns the terms of the HTML definition lists of s:
// a term names the definition it introduces, as a heading its section
// ("work_mem (integer)", a server's setting; "Field.null", an API's
// attribute).
func definitionTerms(s string) []string {
	if !strings.Contains(s, "<dt") && !strings.Contains(s, "<DT") {
		return nil
	}
	var out []string
	for _, m := range htmlTerm.FindAllStringSubmatch(s, -1) {
		t := strings.Join(strings.Fields(html.UnescapeString(htmlTag.ReplaceAllString(m[1], ""))), " ")
		if t != "" && len(t) <= maxTermChars {
			out = append(out, t)
		}
	}
	return out
}

// headingText returns the text of an ATX heading line (trimmed, closing
// #s dropped) and its level, and whether the line is one: "#hashtag",
// "#!" and a bare run of # are not.
func headingText(t string) (string, int, bool) {
	level := len(t) - len(strings.TrimLeft(t, "#"))
	if level == 0 || level > 6 || level == len(t) || t[level] != ' ' {
		return "", 0, false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[level:]), "#")), level, true
}

// htmlTag matches one HTML tag, for the plain text of a summary.
var htmlTag = regexp.MustCompile(`<[^>]*>`)

// disclosureTitle returns the text of a <summary> element written on a
// trimmed markdown line, "" for any other line.
func disclosureTitle(t string) string {
	// Matched without lower-casing t: strings.ToLower can change a
	// string's length (an invalid byte becomes U+FFFD), and the indexes
	// must be t's.
	open := indexFoldASCII(t, "<summary")
	if open < 0 {
		return ""
	}
	gt := strings.IndexByte(t[open:], '>')
	end := indexFoldASCII(t[open:], "</summary")
	if gt < 0 || end < gt {
		return "" // a summary written over several lines, or no element
	}
	return strings.TrimSpace(htmlTag.ReplaceAllString(t[open+gt+1:open+end], ""))
}

// indexFoldASCII is strings.Index for a lower-case ASCII sub, ignoring
// the case of s's ASCII letters.
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// linesOutsideFences returns the lines of markdown outside code fences,
// trimmed, the fence lines themselves left out.
func linesOutsideFences(md string) []string {
	var out []string
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if !inFence {
			out = append(out, t)
		}
	}
	return out
}
