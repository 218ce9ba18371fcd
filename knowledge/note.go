package knowledge

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Note is what support staff know that the docs do not say: a
// workaround, a known bug, a saved reply. It belongs to one workspace (a
// team) and one owner (an agent), and is seen by the whole team or by its
// owner only. Its Chunks are made by ingestion, like a doc's, and indexed
// under the slug NoteSlug(ID).
type Note struct {
	ID          string // uuid, assigned by the store on add
	Workspace   string
	Owner       string
	Visibility  Visibility
	Title       string
	Body        string     // as written: markdown or TipTap JSON, see Format
	Format      BodyFormat // how Body is written
	Tags        []string   // lower-cased
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ContentHash string // hex sha256 of title, format and body: an edit that changes none is no change
	Chunks      []Chunk
}

// Visibility says who may read a note.
type Visibility string

const (
	// VisibilityWorkspace notes are read by everyone in their workspace.
	VisibilityWorkspace Visibility = "workspace"
	// VisibilityPrivate notes are read by their owner only.
	VisibilityPrivate Visibility = "private"
)

// BodyFormat is how a note's body is written.
type BodyFormat string

const (
	FormatMarkdown BodyFormat = "markdown"
	// FormatTipTap is a TipTap (ProseMirror) JSON document, as editors
	// built on it save notes.
	FormatTipTap BodyFormat = "tiptap"
)

// Scope is who is asking: a user (an agent) in a workspace (a team). Every
// read of notes is made in one, and sees only what Visible allows.
type Scope struct {
	Workspace string
	User      string
}

// Visible reports whether someone in scope may read a note of the given
// workspace, owner and visibility. It is the one rule every store and
// index applies, before anything is scored.
func (s Scope) Visible(workspace, owner string, v Visibility) bool {
	if s.Workspace == "" || workspace != s.Workspace {
		return false
	}
	switch v {
	case VisibilityWorkspace:
		return true
	case VisibilityPrivate:
		return s.User != "" && owner == s.User
	}
	return false
}

// CanSee reports whether someone in scope may read n.
func (s Scope) CanSee(n Note) bool { return s.Visible(n.Workspace, n.Owner, n.Visibility) }

// Validate names what is wrong with a scope, or returns nil.
func (s Scope) Validate() error {
	if strings.TrimSpace(s.Workspace) == "" {
		return fmt.Errorf("no workspace: set --workspace or DOCENT_WORKSPACE")
	}
	if strings.TrimSpace(s.User) == "" {
		return fmt.Errorf("no user: set --user or DOCENT_USER")
	}
	return nil
}

// notePrefix starts every note's slug, so note chunks and doc chunks
// never share an id (doc slugs are category/name and "notes" is no
// category a docs folder can make ambiguous: the id also carries a uuid).
const notePrefix = "notes/"

// NoteSlug is the slug a note's chunks are indexed under, so chunk ids
// (ChunkID) work for notes as for docs.
func NoteSlug(id string) string { return notePrefix + id }

// NoteIDFromSlug reverses NoteSlug, reporting false for a doc's slug.
func NoteIDFromSlug(slug string) (string, bool) {
	id, ok := strings.CutPrefix(slug, notePrefix)
	return id, ok && id != ""
}

// Validate names what is wrong with a note before it is stored.
func (n Note) Validate() error {
	if strings.TrimSpace(n.Workspace) == "" {
		return fmt.Errorf("note %q: no workspace", n.Title)
	}
	if strings.TrimSpace(n.Owner) == "" {
		return fmt.Errorf("note %q: no owner", n.Title)
	}
	switch n.Visibility {
	case VisibilityWorkspace, VisibilityPrivate:
	default:
		return fmt.Errorf("note %q: visibility %q is neither %q nor %q", n.Title, n.Visibility, VisibilityWorkspace, VisibilityPrivate)
	}
	switch n.Format {
	case FormatMarkdown, FormatTipTap:
	default:
		return fmt.Errorf("note %q: body format %q is neither %q nor %q", n.Title, n.Format, FormatMarkdown, FormatTipTap)
	}
	return nil
}

// Clone deep-copies a note.
func (n Note) Clone() Note {
	n.Tags = slices.Clone(n.Tags)
	n.Chunks = slices.Clone(n.Chunks)
	for i := range n.Chunks {
		n.Chunks[i].Keywords = slices.Clone(n.Chunks[i].Keywords)
	}
	return n
}

// AsDoc presents a note as a doc of its own slug, so the one retrieval
// engine indexes notes as it indexes docs.
func (n Note) AsDoc() Doc {
	return Doc{
		Slug:        NoteSlug(n.ID),
		Category:    "notes",
		Title:       n.Title,
		ContentHash: n.ContentHash,
		Version:     1,
		Keywords:    slices.Clone(n.Tags),
		Chunks:      slices.Clone(n.Chunks),
	}
}

// NoteSummary is what `docent notes list` shows for one note.
type NoteSummary struct {
	ID         string     `json:"id"`
	Workspace  string     `json:"workspace"`
	Owner      string     `json:"owner"`
	Visibility Visibility `json:"visibility"`
	Title      string     `json:"title"`
	Tags       []string   `json:"tags"`
	ChunkCount int        `json:"chunk_count"`
	UpdatedAt  time.Time  `json:"updated_at"`
}

// NoteRead is one read of a private note, kept for audit: who read which
// note, when and why.
type NoteRead struct {
	User   string
	NoteID string
	Time   time.Time
	Reason ReadReason
}

// ReadReason says why a note was read.
type ReadReason string

const (
	ReadAsk      ReadReason = "ask"       // a question's evidence
	ReadLookup   ReadReason = "lookup"    // a note opened by id
	ReadFollowUp ReadReason = "follow-up" // "tell me more" after a pick
)

// Corpus names what a question is answered from: the product's docs, the
// team's notes, or both (auto), as the question or the caller says.
type Corpus string

const (
	CorpusDocs  Corpus = "docs"
	CorpusNotes Corpus = "notes"
	CorpusAuto  Corpus = "auto"
)

// ParseCorpus reads a corpus name as flags and requests give it; "" is auto.
func ParseCorpus(s string) (Corpus, error) {
	switch c := Corpus(strings.ToLower(strings.TrimSpace(s))); c {
	case "", CorpusAuto:
		return CorpusAuto, nil
	case CorpusDocs, CorpusNotes:
		return c, nil
	}
	return "", fmt.Errorf("corpus %q: want docs, notes or auto", s)
}
