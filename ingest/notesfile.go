package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// Notes come into docent in bulk (`docent notes import`) from a folder of
// markdown files, as note-taking apps export them, or from a JSON Lines
// file, as a helpdesk or a script writes them. Both readers return notes
// with Title, Body, Format and Tags (lower-cased) set, and whatever
// Visibility and Owner the file gives; the caller fills in the rest (the
// workspace, an owner or visibility the file leaves out), then the store
// assigns IDs, and chunks are made with ChunkNote. Every note returned
// passes ChunkNote: a body it would refuse is a Warning instead.

// ErrNoNotes reports a notes folder without a single markdown file.
var ErrNoNotes = errors.New("no notes found")

// ReadNotesDir reads every markdown file under fsys (recursively; hidden
// files and folders skipped and symbolic links followed inside it, as
// Load does) as one note: the body is the file without its front matter;
// the title is front matter's title, else the first # heading, else the
// file name; the tags are front matter's tags. root only names the folder
// in errors. A file that cannot be read as a note (too big, binary, bad
// front matter, empty) is a Warning naming it and the others are still
// read; only an unreadable folder, one without markdown files (wrapping
// ErrNoNotes) or a cancelled ctx is an error. Notes come in path order.
func ReadNotesDir(ctx context.Context, fsys fs.FS, root string) ([]knowledge.Note, []Warning, error) {
	info, err := fs.Stat(fsys, ".")
	if err != nil {
		return nil, nil, fmt.Errorf("notes folder %s: %w", root, err)
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("notes folder %s: not a directory", root)
	}
	files, warnings, err := findMarkdown(ctx, fsys, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("notes folder %s: %w", root, err)
	}
	// A docs folder of plain text is read as its .txt files; a notes
	// folder holds markdown notes only.
	files = slices.DeleteFunc(files, func(f mdFile) bool { return isTextDoc(f.path) })
	if len(files) == 0 {
		return nil, warnings, fmt.Errorf("notes folder %s: %w (looked for %s)", root, ErrNoNotes, strings.Join(markdownExts, ", "))
	}
	var notes []knowledge.Note
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("notes folder %s: %w", root, err)
		}
		n, warn := readNoteFile(fsys, f)
		if warn != nil {
			warnings = append(warnings, *warn)
			continue
		}
		notes = append(notes, n)
	}
	return notes, warnings, nil
}

func readNoteFile(fsys fs.FS, f mdFile) (knowledge.Note, *Warning) {
	fail := func(line int, kind Kind, format string, args ...any) (knowledge.Note, *Warning) {
		return knowledge.Note{}, &Warning{Path: f.path, Line: line, Kind: kind, Msg: fmt.Sprintf(format, args...)}
	}
	// Stat first so an oversized file is never read into memory.
	info, err := fs.Stat(fsys, f.real)
	if err != nil {
		return fail(0, Problem, "cannot read: %s", bareCause(err))
	}
	if info.Size() > MaxNoteSize {
		return fail(0, Problem, "file too large for a note: %d bytes, the limit is %d", info.Size(), MaxNoteSize)
	}
	src, err := fs.ReadFile(fsys, f.real)
	if err != nil {
		return fail(0, Problem, "cannot read: %s", bareCause(err))
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return fail(lineAt(src, i), Problem, "binary file (contains NUL bytes)")
	}
	if i := invalidUTF8(src); i >= 0 {
		return fail(lineAt(src, i), Problem, "invalid UTF-8")
	}
	// textsafe first: normalizeLines drops an escape sequence's ESC but
	// would leave the rest ("[31m") in the stored body.
	lines := normalizeLines(textsafe.String(string(src)))
	fm, bodyLines, fmErr := splitFrontMatter(lines)
	if fmErr != nil {
		return fail(fmErr.line, Problem, "broken front matter: %s", fmErr.msg)
	}
	body := strings.Join(trimBlankLines(bodyLines), "\n")
	if body == "" {
		return fail(0, Excluded, "no body: nothing to answer from")
	}
	n := knowledge.Note{Body: body, Format: knowledge.FormatMarkdown, Tags: NoteTags(fm.tags)}
	md, err := bodyMarkdown(n.Body, n.Format)
	if err != nil {
		return fail(0, Problem, "%s", err)
	}
	n.Title = firstNonEmpty(textsafe.Line(fm.title), firstHeading(parseMarkdown(md)), titleFromPath(f.path))
	return n, nil
}

// MaxNotesLine is the longest line ReadNotesJSONL reads: a body at
// MaxNoteSize, with room for JSON escaping and the other fields.
const MaxNotesLine = 4 * MaxNoteSize

// jsonNote is one line of a notes JSON Lines file.
type jsonNote struct {
	Title      *string         `json:"title"`
	Body       json.RawMessage `json:"body"`
	Format     string          `json:"format"`
	Tags       json.RawMessage `json:"tags"`
	Visibility string          `json:"visibility"`
	Owner      string          `json:"owner"`
}

// ReadNotesJSONL reads one note per line of JSON:
//
//	{"title": "...", "body": ..., "format": "markdown"|"tiptap", "tags": ["..."], "visibility": "workspace"|"private", "owner": "..."}
//
// body is a markdown string or a TipTap document, as an object or as a
// string holding one (format "tiptap"); format may be left out, and is
// then read from body's type. tags may be a list or one string of comma
// separated tags. A note without a title takes its first # heading.
// Other fields are ignored (an export's "id", "created_at"), and so are
// blank lines.
//
// A line that is not such a note is a Warning with its 1-based Line and
// what was wrong, and the other lines are still read; Path is left
// empty for the caller to name the file. A line longer than MaxNotesLine,
// a read error or a cancelled ctx is an error naming the line, and no
// notes are returned.
func ReadNotesJSONL(ctx context.Context, r io.Reader) ([]knowledge.Note, []Warning, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxNotesLine)
	var notes []knowledge.Note
	var warnings []Warning
	line := 0
	for sc.Scan() {
		line++
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("notes: line %d: %w", line, err)
		}
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		n, msg := parseNoteLine(b)
		if msg != "" {
			warnings = append(warnings, Warning{Line: line, Kind: Problem, Msg: msg})
			continue
		}
		notes = append(notes, n)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("notes: line %d: longer than %d bytes, the limit for one note", line+1, MaxNotesLine)
		}
		return nil, nil, fmt.Errorf("notes: line %d: %w", line+1, err)
	}
	return notes, warnings, nil
}

// parseNoteLine reads one line as a note, or says what is wrong with it.
func parseNoteLine(b []byte) (knowledge.Note, string) {
	var j jsonNote
	if err := json.Unmarshal(b, &j); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return knowledge.Note{}, fmt.Sprintf("not a JSON object: %s (at byte %d)", se, se.Offset)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return knowledge.Note{}, fmt.Sprintf("not a JSON object: it is a JSON %s", te.Value)
			}
			return knowledge.Note{}, fmt.Sprintf("%s is a JSON %s, want a %s", te.Field, te.Value, te.Type)
		}
		return knowledge.Note{}, "not a JSON object: " + err.Error()
	}
	var n knowledge.Note
	format := knowledge.BodyFormat(strings.ToLower(strings.TrimSpace(j.Format)))
	switch format {
	case "", knowledge.FormatMarkdown, knowledge.FormatTipTap:
	default:
		return n, fmt.Sprintf("format %s is neither %q nor %q", quoteLine(j.Format), knowledge.FormatMarkdown, knowledge.FormatTipTap)
	}
	body := bytes.TrimSpace(j.Body)
	switch {
	case len(body) == 0 || string(body) == "null":
		return n, "no body"
	case body[0] == '{':
		if format == knowledge.FormatMarkdown {
			return n, "body is a JSON object (TipTap) but format is \"markdown\""
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, body); err != nil {
			return n, "body: " + err.Error()
		}
		// Compact checks the syntax, not the text: a string may still hold
		// bytes that are no UTF-8, which no store keeps.
		if !utf8.Valid(compact.Bytes()) {
			return n, "body: the TipTap JSON is not valid UTF-8"
		}
		n.Body, n.Format = compact.String(), knowledge.FormatTipTap
	case body[0] == '"':
		if err := json.Unmarshal(body, &n.Body); err != nil {
			return n, "body: " + err.Error()
		}
		n.Format = knowledge.FormatMarkdown
		if format == knowledge.FormatTipTap {
			n.Format = knowledge.FormatTipTap
		}
	default:
		return n, "body is a JSON " + jsonValueKind(body) + ", want a markdown string or a TipTap object"
	}
	if strings.TrimSpace(n.Body) == "" {
		return n, "no body"
	}

	tags, msg := jsonTags(j.Tags)
	if msg != "" {
		return n, msg
	}
	n.Tags = NoteTags(tags)
	switch v := knowledge.Visibility(strings.ToLower(strings.TrimSpace(j.Visibility))); v {
	case "", knowledge.VisibilityWorkspace, knowledge.VisibilityPrivate:
		n.Visibility = v
	default:
		return n, fmt.Sprintf("visibility %s is neither %q nor %q", quoteLine(j.Visibility), knowledge.VisibilityWorkspace, knowledge.VisibilityPrivate)
	}
	n.Owner = strings.TrimSpace(j.Owner)
	if strings.ContainsFunc(n.Owner, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }) {
		return n, fmt.Sprintf("owner %s holds control characters or invalid UTF-8", quoteLine(n.Owner))
	}

	md, err := bodyMarkdown(n.Body, n.Format)
	if err != nil {
		return n, err.Error()
	}
	if j.Title != nil {
		n.Title = textsafe.Line(*j.Title)
	}
	if n.Title == "" {
		n.Title = firstHeading(parseMarkdown(md))
	}
	if n.Title == "" {
		return n, "no title, and no # heading in the body to take one from"
	}
	return n, ""
}

// jsonTags reads tags written as a list of strings or as one string of
// comma separated tags.
func jsonTags(raw json.RawMessage) ([]string, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, ""
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, "tags: " + err.Error()
		}
		return strings.Split(s, ","), ""
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var te *json.UnmarshalTypeError
		if raw[0] == '[' && errors.As(err, &te) {
			return nil, "tags must be a list of strings, and one is a JSON " + te.Value
		}
		return nil, "tags must be a list of strings, got a JSON " + jsonValueKind(raw)
	}
	return list, ""
}

// jsonValueKind names the kind of a JSON value by its first byte.
func jsonValueKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		if bytes.Equal(raw, []byte("[]")) {
			return "empty array"
		}
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
