package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// Note chunk sizes, in tokens as package tokens counts them. A note is
// read as a whole more often than a doc's section, and is usually short:
// a section of one stays whole up to NoteMaxChunkTokens, and a longer one
// is cut into parts of about NoteChunkTargetTokens.
const (
	NoteChunkTargetTokens = 400
	NoteMaxChunkTokens    = 500
)

var noteLimits = chunkLimits{target: NoteChunkTargetTokens, max: NoteMaxChunkTokens}

// MaxNoteSize is the largest note body read, in bytes (TipTap JSON
// included). A note is a few paragraphs; a body this big is a pasted log
// or export, and chunking it would fill the index with noise.
const MaxNoteSize = 1 << 20

// NoteCategory is the category of every note chunk, as Note.AsDoc gives.
const NoteCategory = "notes"

// untitledNote titles a note that has no title and no heading, so its
// chunks' header paths never start empty.
const untitledNote = "Untitled note"

// ChunkNote makes n's chunks from its body, exactly as a doc's are made
// (one per # or ## section, header path starting with the title, plain
// text, hash, heading-only flag), but with the note sizes above, and sets
// n.ContentHash (NoteContentHash). The body is read by n.Format: markdown
// as written, where a line in capitals is a section heading too (see
// noteMarkdown), or TipTap JSON through TipTapText. Terminal control
// sequences are removed (textsafe) before parsing, so neither a chunk's
// markdown nor its text can carry one. Keywords are n.Tags, lower-cased.
// A body without text gives no chunks.
//
// ChunkNote works for any ID, the empty one included: chunks are made
// before the store assigns a new note its ID, and nothing in a chunk but
// its DocSlug depends on it. Whoever assigns the ID sets the DocSlug of
// every chunk to knowledge.NoteSlug(id); SetNoteID does both.
//
// n.Title is left as written; chunks carry it cleaned for the terminal,
// or the note's first # heading when it has none.
func ChunkNote(n *knowledge.Note) error {
	chunks, err := noteChunks(n)
	if err != nil {
		return err
	}
	n.Chunks = chunks
	n.ContentHash = NoteContentHash(n.Title, n.Format, n.Body)
	return nil
}

// NoteChunks returns the chunks ChunkNote would make for n without
// changing it: the chunker store.Notes.ReindexNotes takes.
func NoteChunks(n knowledge.Note) ([]knowledge.Chunk, error) {
	return noteChunks(&n)
}

// SetNoteID gives n its ID and moves its chunks under the matching slug.
func SetNoteID(n *knowledge.Note, id string) {
	n.ID = id
	for i := range n.Chunks {
		n.Chunks[i].DocSlug = knowledge.NoteSlug(id)
	}
}

func noteChunks(n *knowledge.Note) ([]knowledge.Chunk, error) {
	md, err := NoteMarkdown(*n)
	if err != nil {
		return nil, err
	}
	parsed := parseMarkdown(md)
	doc := knowledge.Doc{
		Slug:     knowledge.NoteSlug(n.ID),
		Category: NoteCategory,
		Title:    firstNonEmpty(textsafe.Line(n.Title), firstHeading(parsed), untitledNote),
		Content:  md,
		Keywords: NoteTags(n.Tags),
	}
	return chunkParsed(parsed, &doc, noteLimits), nil
}

// NoteMarkdown is a note's body as the markdown its chunks are made of:
// TipTap turned into markdown, control sequences removed, lines
// normalized, capitals lines made headings. Errors name the note.
func NoteMarkdown(n knowledge.Note) (string, error) {
	md, err := bodyMarkdown(n.Body, n.Format)
	if err != nil {
		return "", fmt.Errorf("note %s: %w", noteName(n), err)
	}
	return md, nil
}

// bodyMarkdown is NoteMarkdown with errors that do not name the note,
// for the readers, whose warnings name the file or line instead.
func bodyMarkdown(body string, format knowledge.BodyFormat) (string, error) {
	if len(body) > MaxNoteSize {
		return "", fmt.Errorf("body of %d bytes is over the limit of %d", len(body), MaxNoteSize)
	}
	switch format {
	case knowledge.FormatMarkdown:
	case knowledge.FormatTipTap:
		md, err := TipTapText([]byte(body))
		if err != nil {
			return "", err
		}
		body = md
	default:
		return "", fmt.Errorf("body format %q is neither %q nor %q", format, knowledge.FormatMarkdown, knowledge.FormatTipTap)
	}
	// textsafe drops escape sequences whole (normalizeLines alone would
	// leave "[31m" behind) and replaces invalid UTF-8.
	lines := trimBlankLines(normalizeLines(textsafe.String(body)))
	if line, depth := deepestNesting(lines); depth > maxNesting {
		return "", fmt.Errorf("line %d: markdown nested %d levels deep (lists or quotes), over the limit of %d", line, depth, maxNesting)
	}
	if format == knowledge.FormatTipTap {
		// Capitals in an editor's paragraph are emphasis, not a title:
		// editors have headings.
		return strings.Join(lines, "\n"), nil
	}
	return noteMarkdown(strings.Join(lines, "\n")), nil
}

// noteName names a note in errors: its id, else its title.
func noteName(n knowledge.Note) string {
	if n.ID != "" {
		return n.ID
	}
	return quoteLine(textsafe.Line(n.Title))
}

// NoteTags lower-cases tags, collapses their white space, drops control
// characters and empty or repeated tags, keeping the first order.
func NoteTags(tags []string) []string {
	return frontMatter{tags: tags}.keywordList()
}

// NoteContentHash is the hex sha256 of a note's title, format and body,
// each length-prefixed so no two different notes hash the same text.
func NoteContentHash(title string, format knowledge.BodyFormat, body string) string {
	h := sha256.New()
	for _, s := range []string{title, string(format), body} {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}
