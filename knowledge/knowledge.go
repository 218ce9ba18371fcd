// Package knowledge holds docent's documentation model: a Doc is one
// markdown file of the knowledge base and a Chunk is one header-aware piece
// of it. The package is pure (no I/O): ingestion turns bytes into Docs, the
// stores persist them and the retrieval engine indexes them.
package knowledge

import (
	"slices"
	"strconv"
	"strings"
)

// Doc is one document of the knowledge base.
type Doc struct {
	Slug        string // category/name, lower-case, e.g. "concepts/workspace"
	Category    string // first folder of the path, or "docs"
	Title       string
	Description string // the author's one-line summary (front matter "description"), "" when none
	Content     string // normalized markdown body: front matter removed, site-generator markup converted
	ContentHash string // hex sha256 of the normalized source, front matter included: a title or keyword edit is a change
	Version     int    // starts at 1, incremented by a store each time ContentHash changes
	// Keywords are the topics the author declared (front matter keywords
	// and tags), lower-cased; none are guessed from the body.
	Keywords   []string
	SourcePath string // path relative to the knowledge base root, e.g. "concepts/workspace.md"
	Chunks     []Chunk
}

// Chunk is one header-aware piece of a Doc, the unit of retrieval.
type Chunk struct {
	DocSlug    string
	Category   string
	Title      string // the doc's title
	HeaderPath string // "Title > Section > Subsection"
	Index      int    // 0-based, deterministic for the same content
	Content    string // the chunk's markdown, headings included
	// Text is what a reader sees of Content, on one line: headings,
	// paragraphs, list items and table rows each ending as a sentence,
	// link and image text kept, markup, HTML and code blocks left out.
	// Retrieval indexes it and answers quote it. "" for a chunk stored
	// before it existed.
	Text        string
	Keywords    []string
	Hash        string // hex md5 of Content
	HeadingOnly bool   // no body text beyond headings
	BodyChars   int    // characters of body text and code (headings excluded)
	// Embedding is the chunk's vector from an embedding model, nil when
	// none is configured or the chunk was not embedded yet. It is made from
	// Content alone (no title or path mixed in) and kept with the model
	// that made it: a query is only compared with vectors of its model.
	Embedding *Embedding
}

// Embedding is one text's vector from one embedding model.
type Embedding struct {
	Model  string    // the provider's model name, e.g. "text-embedding-3-small"
	Vector []float32 // as the model returned it; searches normalize their own copy
}

// ChunkID is the stable identifier of a chunk: "{slug}#chunk-{index}".
func ChunkID(slug string, index int) string {
	// Concatenation, not fmt: search builds an id for every hit it returns.
	return slug + "#chunk-" + strconv.Itoa(index)
}

// ParseChunkID splits an id ChunkID made back into its slug and index,
// reporting false for anything else (surrounding space is allowed: ids
// come back from users and models).
func ParseChunkID(id string) (slug string, index int, ok bool) {
	slug, rest, found := strings.Cut(strings.TrimSpace(id), "#chunk-")
	if !found || slug == "" {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || rest[0] == '+' {
		return "", 0, false
	}
	return slug, n, true
}

// ID returns the chunk's stable identifier.
func (c Chunk) ID() string { return ChunkID(c.DocSlug, c.Index) }

// DocSummary is what `docent docs list` shows for one doc.
type DocSummary struct {
	Slug        string
	Category    string
	Title       string
	ChunkCount  int
	ContentHash string
	Version     int
}

// Clone deep-copies a doc, so one snapshot can be kept or edited without
// touching another.
func (d Doc) Clone() Doc {
	d.Keywords = slices.Clone(d.Keywords)
	d.Chunks = slices.Clone(d.Chunks)
	for i := range d.Chunks {
		d.Chunks[i].Keywords = slices.Clone(d.Chunks[i].Keywords)
		d.Chunks[i].Embedding = d.Chunks[i].Embedding.Clone()
	}
	return d
}

// Clone deep-copies an embedding; nil stays nil.
func (e *Embedding) Clone() *Embedding {
	if e == nil {
		return nil
	}
	return &Embedding{Model: e.Model, Vector: slices.Clone(e.Vector)}
}
