package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/store"
)

// noteLine is one line of the notes file: a note with its chunks, and
// when it was deleted (a deleted note keeps its line, without chunks).
type noteLine struct {
	ID          string               `json:"id"`
	Workspace   string               `json:"workspace"`
	Owner       string               `json:"owner"`
	Visibility  knowledge.Visibility `json:"visibility"`
	Title       string               `json:"title"`
	Body        string               `json:"body"`
	Format      knowledge.BodyFormat `json:"format"`
	Tags        []string             `json:"tags"`
	CreatedAt   time.Time            `json:"created_at"`
	UpdatedAt   time.Time            `json:"updated_at"`
	DeletedAt   *time.Time           `json:"deleted_at,omitempty"`
	ContentHash string               `json:"content_hash"`
	Chunks      []chunkLine          `json:"chunks"`
}

// chunkLine is a chunk as the notes file keeps it; its slug, category
// and title are the note's.
type chunkLine struct {
	Index       int      `json:"index"`
	HeaderPath  string   `json:"header_path"`
	Content     string   `json:"content"`
	Text        string   `json:"text"`
	Keywords    []string `json:"keywords,omitempty"`
	Hash        string   `json:"hash"`
	HeadingOnly bool     `json:"heading_only,omitempty"`
	BodyChars   int      `json:"body_chars"`
}

// storedNote is one note of the notes file. Values are never modified
// once stored: a write replaces them.
type storedNote struct {
	note      knowledge.Note
	deletedAt *time.Time
	// line caches the note's encoding: a write rewrites the whole file and
	// should encode only what changed. Set by encodeNote, which runs under
	// the notes lock (or on records no one else holds).
	line []byte
}

func (r *storedNote) live() bool { return r.deletedAt == nil }

// encodeNote renders one line, newline included.
func encodeNote(r *storedNote) ([]byte, error) {
	if r.line != nil {
		return r.line, nil
	}
	n := r.note
	l := noteLine{
		ID: n.ID, Workspace: n.Workspace, Owner: n.Owner, Visibility: n.Visibility, Title: n.Title, Body: n.Body,
		Format: n.Format, Tags: n.Tags, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt, DeletedAt: r.deletedAt,
		ContentHash: n.ContentHash, Chunks: make([]chunkLine, len(n.Chunks)),
	}
	if l.Tags == nil {
		l.Tags = []string{}
	}
	for i, c := range n.Chunks {
		l.Chunks[i] = chunkLine{Index: c.Index, HeaderPath: c.HeaderPath, Content: c.Content, Text: c.Text,
			Keywords: c.Keywords, Hash: c.Hash, HeadingOnly: c.HeadingOnly, BodyChars: c.BodyChars}
	}
	line, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("encode note %s: %w", n.ID, err)
	}
	r.line = append(line, '\n')
	return r.line, nil
}

// encodeNotes renders the whole file, notes in the given order.
func encodeNotes(records []*storedNote) ([]byte, error) {
	lines := make([][]byte, len(records))
	size := 0
	for i, r := range records {
		line, err := encodeNote(r)
		if err != nil {
			return nil, err
		}
		lines[i] = line
		size += len(line)
	}
	out := make([]byte, 0, size)
	for _, line := range lines {
		out = append(out, line...)
	}
	return out, nil
}

// decodeNotes reads a notes file's content. A line that is not a valid
// note is an error naming the file and the line: the file is the only copy
// of the notes, and nothing may be guessed or dropped. Blank lines are
// skipped.
func decodeNotes(path string, data []byte) ([]*storedNote, error) {
	var (
		out  []*storedNote
		seen = map[string]int{}
	)
	for lineNo := 1; len(data) > 0; lineNo++ {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r, err := decodeNote(line)
		if err != nil {
			return nil, fmt.Errorf("notes file %s, line %d: %w", path, lineNo, err)
		}
		if first, dup := seen[r.note.ID]; dup {
			return nil, fmt.Errorf("notes file %s, line %d: note %s is already on line %d", path, lineNo, r.note.ID, first)
		}
		seen[r.note.ID] = lineNo
		out = append(out, r)
	}
	return out, nil
}

func decodeNote(line []byte) (*storedNote, error) {
	if !utf8.Valid(line) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	// A field this docent does not know may be a newer docent's: refusing
	// the file keeps a rewrite from dropping it.
	dec.DisallowUnknownFields()
	var l noteLine
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("not a note: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a note: more than one JSON value")
	}
	if u, err := uuid.Parse(l.ID); err != nil || u.String() != l.ID {
		return nil, fmt.Errorf("note id %q is not a lower-case uuid", l.ID)
	}
	n := knowledge.Note{
		ID: l.ID, Workspace: l.Workspace, Owner: l.Owner, Visibility: l.Visibility, Title: l.Title, Body: l.Body,
		Format: l.Format, Tags: l.Tags, CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(),
	}
	for _, c := range l.Chunks {
		n.Chunks = append(n.Chunks, knowledge.Chunk{Index: c.Index, HeaderPath: c.HeaderPath, Content: c.Content, Text: c.Text,
			Keywords: c.Keywords, Hash: c.Hash, HeadingOnly: c.HeadingOnly, BodyChars: c.BodyChars})
	}
	// The same checks and normal form as a write: a hand-edited line is
	// held to what docent would have stored.
	n, err := store.PrepareNote(n)
	if err != nil {
		return nil, err
	}
	r := &storedNote{note: n}
	if l.DeletedAt != nil {
		at := l.DeletedAt.UTC()
		r.deletedAt = &at
		if len(n.Chunks) > 0 {
			return nil, fmt.Errorf("deleted note %s has chunks", n.ID)
		}
	}
	return r, nil
}

// workspacePrints fingerprints each workspace's notes, so a reload after
// another process wrote changes the generation of the workspaces whose
// notes changed, and only theirs.
func workspacePrints(records []*storedNote) (map[string][32]byte, error) {
	hashes := map[string]*[32]byte{}
	for _, r := range records {
		line, err := encodeNote(r)
		if err != nil {
			return nil, err
		}
		prev := hashes[r.note.Workspace]
		if prev == nil {
			prev = new([32]byte)
			hashes[r.note.Workspace] = prev
		}
		*prev = sha256.Sum256(append(prev[:], line...))
	}
	out := make(map[string][32]byte, len(hashes))
	for w, h := range hashes {
		out[w] = *h
	}
	return out, nil
}

// writeFileAtomic replaces path with data so that a reader or a crash
// sees the old file or the new one, never a part: a temporary file in the
// same directory, synced, renamed over path, and the directory synced.
// It returns the new file's stamp.
func writeFileAtomic(path string, data []byte) (fileStamp, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fileStamp{}, fmt.Errorf("create directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fileStamp{}, fmt.Errorf("create a temporary file beside %s: %w", path, err)
	}
	tmp := f.Name()
	renamed := false
	defer func() {
		if !renamed {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fileStamp{}, fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return fileStamp{}, fmt.Errorf("sync %s: %w", tmp, err)
	}
	info, err := f.Stat()
	if err != nil {
		return fileStamp{}, fmt.Errorf("stat %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fileStamp{}, fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fileStamp{}, fmt.Errorf("replace %s: %w", path, err)
	}
	renamed = true
	if d, err := os.Open(dir); err == nil {
		// The rename is durable once the directory is; some systems cannot
		// sync a directory, and the file itself is already safe.
		_ = d.Sync()
		_ = d.Close()
	}
	return stampOf(info), nil
}
