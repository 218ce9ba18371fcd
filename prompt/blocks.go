package prompt

import (
	"strings"

	"github.com/docent-sh/docent/textsafe"
)

// DocBlock is one retrieved chunk as it appears in the user message:
//
//	<doc id="guides/setup#chunk-1" title="Setup" path="Setup > Sign in">
//	...chunk content...
//	</doc>
//
// Prompt.Docs holds the blocks themselves, so no caller of the builder
// parses them back to answer; ParseDocBlocks is the reading side of the
// format, for checking what a model is actually sent.
type DocBlock struct {
	ID      string
	Title   string
	Path    string
	Content string
}

const (
	docOpen  = "<doc"
	docClose = "</doc>"
)

// reservedTags are the section tags of the prompt. Text coming from
// documents, app state, the session or the question must never open or
// close one of them, or a document could smuggle in a fake block or end the
// data section and speak as the prompt itself.
var reservedTags = []string{"doc", "core_concepts", "session", "app_state", "widgets"}

// RenderDocBlock renders b in the fixed block format. Attribute values are
// flattened to one line and escaped; the content is sanitized and any
// opening of a reserved tag in it is neutralized, so ParseDocBlocks of the
// result gives back b exactly when b was already clean.
func RenderDocBlock(b DocBlock) string {
	var sb strings.Builder
	writeDocBlock(&sb, b)
	return sb.String()
}

func writeDocBlock(sb *strings.Builder, b DocBlock) {
	sb.WriteString(`<doc id="`)
	sb.WriteString(escapeAttr(textsafe.Line(b.ID)))
	sb.WriteString(`" title="`)
	sb.WriteString(escapeAttr(textsafe.Line(b.Title)))
	sb.WriteString(`" path="`)
	sb.WriteString(escapeAttr(textsafe.Line(b.Path)))
	sb.WriteString("\">\n")
	sb.WriteString(neutralize(textsafe.String(b.Content)))
	sb.WriteString("\n")
	sb.WriteString(docClose)
}

// ParseDocBlocks returns the well-formed <doc> blocks of text in order,
// with attributes and content unescaped. A malformed opening tag or a block
// that is never closed is skipped rather than guessed at. It reads a user
// message as a model reads it: tests check with it what a provider was
// sent, and its fuzz target proves that a rendered block reads back as
// exactly one block, whatever a doc holds.
func ParseDocBlocks(text string) []DocBlock {
	var blocks []DocBlock
	rest := text
	for {
		i := strings.Index(rest, docOpen)
		if i < 0 {
			return blocks
		}
		rest = rest[i+len(docOpen):]
		if rest == "" {
			return blocks
		}
		// "<docs" or "<doctype" are not our tag.
		if c := rest[0]; c != ' ' && c != '\t' && c != '\n' && c != '>' {
			continue
		}
		attrs, body, ok := parseOpenTag(rest)
		if !ok {
			continue
		}
		end := strings.Index(body, docClose)
		if end < 0 {
			return blocks
		}
		content := body[:end]
		// The renderer puts the content on its own lines; undo exactly that.
		content = strings.TrimPrefix(content, "\n")
		content = strings.TrimSuffix(content, "\n")
		blocks = append(blocks, DocBlock{
			ID:      attrs["id"],
			Title:   attrs["title"],
			Path:    attrs["path"],
			Content: unescapeContent(content),
		})
		rest = body[end+len(docClose):]
	}
}

// parseOpenTag reads ` name="value" ...>` and returns the attributes and
// the text after '>'. Values must be double-quoted; anything else makes the
// tag malformed.
func parseOpenTag(s string) (map[string]string, string, bool) {
	attrs := make(map[string]string, 3)
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return nil, "", false
		}
		if s[0] == '>' {
			return attrs, s[1:], true
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, "", false
		}
		name := s[:eq]
		if strings.ContainsAny(name, " \t\n<>\"") {
			return nil, "", false
		}
		s = s[eq+1:]
		if s == "" || s[0] != '"' {
			return nil, "", false
		}
		s = s[1:]
		q := strings.IndexByte(s, '"')
		if q < 0 {
			return nil, "", false
		}
		if _, dup := attrs[name]; !dup {
			attrs[name] = unescapeAttr(s[:q])
		}
		s = s[q+1:]
	}
}

// Attribute values escape '&' and '"' so a value can never end its quotes,
// and '<' so no tag appears inside one. '>' stays readable ("A > B" header
// paths) since it cannot end a quoted value.
var (
	attrEscaper   = strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;")
	attrUnescaper = strings.NewReplacer("&amp;", `&`, "&quot;", `"`, "&lt;", `<`, "&gt;", `>`)
)

func escapeAttr(s string) string   { return attrEscaper.Replace(s) }
func unescapeAttr(s string) string { return attrUnescaper.Replace(s) }

// neutralize makes s safe to place inside a prompt section: every '<' that
// would open or close a reserved tag (in any letter case) becomes "&lt;".
// To keep that reversible, an '&' that already starts "&lt;" or "&amp;"
// becomes "&amp;"; every other character, including a lone '&' as in
// "R&D", is left alone so the model reads the markdown as written.
func neutralize(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 16)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' && opensReservedTag(s[i+1:]):
			sb.WriteString("&lt;")
		case c == '&' && (strings.HasPrefix(s[i:], "&lt;") || strings.HasPrefix(s[i:], "&amp;")):
			sb.WriteString("&amp;")
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// opensReservedTag reports whether s (the text after a '<') starts with an
// optional '/' and a reserved tag name followed by a tag boundary or the
// end of the text.
func opensReservedTag(s string) bool {
	s = strings.TrimPrefix(s, "/")
	for _, tag := range reservedTags {
		if len(s) < len(tag) || !strings.EqualFold(s[:len(tag)], tag) {
			continue
		}
		if len(s) == len(tag) {
			return true
		}
		switch s[len(tag)] {
		case ' ', '\t', '\n', '\r', '>', '/':
			return true
		}
	}
	return false
}

// unescapeContent is the inverse of neutralize.
func unescapeContent(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "&lt;"):
			sb.WriteByte('<')
			i += len("&lt;") - 1
		case strings.HasPrefix(s[i:], "&amp;"):
			sb.WriteByte('&')
			i += len("&amp;") - 1
		default:
			sb.WriteByte(s[i])
		}
	}
	return sb.String()
}

// questionPrefix starts the last part of the user message.
const questionPrefix = "Question: "

// sectionEnds are what precedes the question in a user message: the end of
// a block or section. None of them can occur inside the neutralized
// question. The note that no documentation was found opens the message
// when present, so only there does it count.
var sectionEnds = []string{docClose + "\n\n", "</session>\n\n", "</app_state>\n\n", "</widgets>\n\n"}

// ParseQuestion returns the question of a user message built by Build, as
// the builder received it (cleaned of control characters, tags restored),
// or "" when text is not such a message. Prompt.Question holds the same
// without parsing; this reads a message as sent, for tests.
func ParseQuestion(text string) string {
	start := 0
	if strings.HasPrefix(text, noDocsNote) {
		start = len(noDocsNote)
	}
	for _, end := range sectionEnds {
		if i := strings.LastIndex(text, end); i >= 0 {
			start = max(start, i+len(end))
		}
	}
	rest, ok := strings.CutPrefix(text[start:], questionPrefix)
	if !ok {
		return ""
	}
	return unescapeContent(rest)
}
