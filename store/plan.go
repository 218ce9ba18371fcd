package store

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docent-sh/docent/knowledge"
)

// StoredDoc is what a store knows about one stored doc when it plans a
// seed: enough to detect changes without reading any content.
type StoredDoc struct {
	Slug        string
	ContentHash string
	Version     int
	// Fingerprint is DocFingerprint of the stored row. It catches changes a
	// content hash misses, such as a title edited in front matter.
	Fingerprint string
	Chunks      map[int]string // chunk index → ChunkFingerprint
	// ChunkHashes are the stored chunks' content hashes and Embeddings
	// the EmbeddingKey of their stored embeddings (absent: none), by chunk
	// index: an embedding is made from content alone, so it outlives a
	// metadata edit and dies with a content one.
	ChunkHashes map[int]string
	Embeddings  map[int]string
}

// StoredDocOf summarizes a stored doc, chunks included.
func StoredDocOf(d knowledge.Doc) StoredDoc {
	sd := StoredDoc{
		Slug:        d.Slug,
		ContentHash: d.ContentHash,
		Version:     d.Version,
		Fingerprint: DocFingerprint(d),
		Chunks:      make(map[int]string, len(d.Chunks)),
		ChunkHashes: make(map[int]string, len(d.Chunks)),
		Embeddings:  map[int]string{},
	}
	for _, c := range d.Chunks {
		sd.AddChunk(c, ChunkFingerprint(c), EmbeddingKey(c.Embedding))
	}
	return sd
}

// AddChunk records one stored chunk, its fingerprint and the EmbeddingKey
// of its stored embedding ("" for none), allocating the maps as needed.
func (s *StoredDoc) AddChunk(c knowledge.Chunk, fingerprint, embeddingKey string) {
	if s.Chunks == nil {
		s.Chunks = map[int]string{}
	}
	if s.ChunkHashes == nil {
		s.ChunkHashes = map[int]string{}
	}
	if s.Embeddings == nil {
		s.Embeddings = map[int]string{}
	}
	s.Chunks[c.Index] = fingerprint
	s.ChunkHashes[c.Index] = c.Hash
	if embeddingKey != "" {
		s.Embeddings[c.Index] = embeddingKey
	}
}

// EmbeddingKey identifies an embedding without its vector: its model and
// dimension. A vector is a function of the content and the model, so two
// embeddings of the same chunk content with the same key are taken to be
// the same, and a seed does not rewrite one with the other. "" for nil.
func EmbeddingKey(e *knowledge.Embedding) string {
	if e == nil {
		return ""
	}
	return EmbeddingKeyOf(e.Model, len(e.Vector))
}

// EmbeddingKeyOf is EmbeddingKey from a stored model and dimension.
func EmbeddingKeyOf(model string, dim int) string {
	return model + "/" + strconv.Itoa(dim)
}

// KeepsEmbedding reports whether a seed writing c over a stored chunk of
// storedHash keeps the stored embedding: c brings none and its content
// is the stored content. An incoming embedding replaces the stored one;
// a changed content without one clears it, as it is stale. Both stores
// apply this rule to every chunk they write over.
func KeepsEmbedding(c knowledge.Chunk, storedHash string) bool {
	return c.Embedding == nil && c.Hash == storedHash
}

// DocFingerprint identifies everything stored in a doc's own row: the
// content hash stands for the content, and the metadata is included so an
// edit that leaves the body alone is still written.
func DocFingerprint(d knowledge.Doc) string {
	f := newFingerprinter()
	f.add(d.Slug, d.Category, d.Title, d.ContentHash, d.SourcePath, d.Description)
	f.add(d.Keywords...)
	return f.sum()
}

// ChunkFingerprint identifies everything stored in a chunk's row: its hash
// stands for its content and a digest for its plain text, plus the
// metadata retrieval ranks on. The text is rendered from the content by
// ingestion, so it changes with ingestion itself: an upgrade that renders
// it differently (or a row stored before it existed) is rewritten.
func ChunkFingerprint(c knowledge.Chunk) string {
	return StoredChunkFingerprint(c, TextDigest(c.Text))
}

// StoredChunkFingerprint is ChunkFingerprint for a chunk read without its
// text, given the TextDigest of the stored text: planning a seed never
// reads contents.
func StoredChunkFingerprint(c knowledge.Chunk, textDigest string) string {
	f := newFingerprinter()
	f.add(c.DocSlug, strconv.Itoa(c.Index), c.Hash, c.HeaderPath, c.Title, c.Category,
		strconv.FormatBool(c.HeadingOnly), strconv.Itoa(c.BodyChars), textDigest)
	f.add(c.Keywords...)
	return f.sum()
}

// TextDigest is the hex md5 of a chunk's text, the digest PostgreSQL's
// md5() computes of the same UTF-8 text.
func TextDigest(text string) string {
	sum := md5.Sum([]byte(text))
	return hex.EncodeToString(sum[:])
}

type fingerprinter struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

func newFingerprinter() *fingerprinter { return &fingerprinter{h: sha256.New()} }

// add length-prefixes every field so that no two different field lists
// ("ab","c" and "a","bc") hash alike.
func (f *fingerprinter) add(fields ...string) {
	n := binary.PutUvarint(f.buf[:], uint64(len(fields)))
	f.h.Write(f.buf[:n])
	for _, s := range fields {
		n := binary.PutUvarint(f.buf[:], uint64(len(s)))
		f.h.Write(f.buf[:n])
		f.h.Write([]byte(s))
	}
}

func (f *fingerprinter) sum() string { return hex.EncodeToString(f.h.Sum(nil)) }

// DefaultMaxDeleteShare is the share of the stored docs a seed may delete
// without being told to prune: a docs folder that lost a fifth of its files
// at once more likely lost a mount or a checkout than the docs themselves.
const DefaultMaxDeleteShare = 0.2

// SeedOptions says what a seed may take from the store. The zero value
// deletes nothing: every deletion is refused unless Prune is set or
// MaxDeleteShare allows it.
type SeedOptions struct {
	// Keep lists the slugs of files that exist but were skipped (bad front
	// matter, unreadable, too large): their stored versions stay.
	Keep []string
	// KeepUnder lists slug prefixes, each ending in "/", of folders that
	// could not be read: the stored docs under them stay.
	KeepUnder []string
	// MaxDeleteShare is the largest share of the stored docs (0 to 1) a
	// seed deletes; a seed that would delete more is refused.
	MaxDeleteShare float64
	// Prune allows a seed to delete any number of docs.
	Prune bool
	// Vocabulary is the glossary, synonyms and concept docs that came with
	// the docs; the store keeps it beside them so every reader of a shared
	// store answers with it. nil leaves the stored vocabulary as it is.
	Vocabulary *knowledge.Vocabulary
}

// VocabularyChanged reports whether seeding with opts rewrites the stored
// vocabulary.
func (o SeedOptions) VocabularyChanged(stored knowledge.Vocabulary) bool {
	return o.Vocabulary != nil && !o.Vocabulary.Equal(stored)
}

// keeps reports whether a stored doc missing from the snapshot stays.
func (o SeedOptions) keeps(slug string) bool {
	if slices.Contains(o.Keep, slug) {
		return true
	}
	for _, prefix := range o.KeepUnder {
		if strings.HasPrefix(slug, prefix) {
			return true
		}
	}
	return false
}

// SeedPlan is every write a seed must make to turn the stored state into
// the incoming snapshot, and the counts it will report.
type SeedPlan struct {
	Insert []knowledge.Doc // new docs with Version 1; all their chunks are new
	Update []DocUpdate     // docs that exist and changed
	Delete []string        // slugs missing from the snapshot and not kept, sorted; their chunks go with them
	Docs   Counts
	Chunks Counts
}

// DocUpdate is the writes for one changed doc.
type DocUpdate struct {
	// Doc is the incoming doc with the version to store: the stored one plus
	// one when the content hash changed, else unchanged.
	Doc knowledge.Doc
	// RowChanged is false when only chunks changed, so the doc's own row
	// must not be rewritten.
	RowChanged   bool
	InsertChunks []knowledge.Chunk
	// UpdateChunks are only the chunks whose fingerprint differs or that
	// bring an embedding other than the stored one (a model change). Each
	// is written with its Embedding, except that one without an Embedding
	// keeps the stored one when KeepsEmbedding says so.
	UpdateChunks []knowledge.Chunk
	DeleteChunks []int // stale indices, ascending
}

// HasWrites reports whether applying the plan writes anything.
func (p SeedPlan) HasWrites() bool {
	return len(p.Insert)+len(p.Update)+len(p.Delete) > 0
}

// Report turns the plan's counts into a seed report.
func (p SeedPlan) Report(took time.Duration) SeedReport {
	return SeedReport{Docs: p.Docs, Chunks: p.Chunks, Duration: took}
}

// Plan computes what a seed must write given the stored state (by slug) and
// the incoming snapshot, which is the complete knowledge base: stored docs
// it lacks are deleted, unless opts keeps them. A plan that deletes more
// than opts allows comes back with a *DeleteRefusedError, and the store
// writes nothing. A chunk without an Embedding leaves the stored one alone
// unless its content changed (KeepsEmbedding). The snapshot must have passed ValidateSnapshot. Plan is
// pure, so both stores make exactly the same decisions.
func Plan(stored map[string]StoredDoc, incoming []knowledge.Doc, opts SeedOptions) (SeedPlan, error) {
	var p SeedPlan
	present := make(map[string]bool, len(incoming))
	for _, d := range incoming {
		present[d.Slug] = true
		old, exists := stored[d.Slug]
		if !exists {
			d.Version = 1
			p.Insert = append(p.Insert, d)
			p.Docs.Inserted++
			p.Chunks.Inserted += len(d.Chunks)
			continue
		}

		u := DocUpdate{RowChanged: DocFingerprint(d) != old.Fingerprint}
		var unchangedChunks int
		incomingIdx := make(map[int]bool, len(d.Chunks))
		for _, c := range d.Chunks {
			incomingIdx[c.Index] = true
			oldPrint, had := old.Chunks[c.Index]
			switch {
			case !had:
				u.InsertChunks = append(u.InsertChunks, c)
			case oldPrint != ChunkFingerprint(c):
				u.UpdateChunks = append(u.UpdateChunks, c)
			case c.Embedding != nil && EmbeddingKey(c.Embedding) != old.Embeddings[c.Index]:
				// Same content, a new embedding: the model changed or the
				// chunk was not embedded yet.
				u.UpdateChunks = append(u.UpdateChunks, c)
			default:
				unchangedChunks++
			}
		}
		for idx := range old.Chunks {
			if !incomingIdx[idx] {
				u.DeleteChunks = append(u.DeleteChunks, idx)
			}
		}
		slices.Sort(u.DeleteChunks)

		p.Chunks.Unchanged += unchangedChunks
		if !u.RowChanged && len(u.InsertChunks)+len(u.UpdateChunks)+len(u.DeleteChunks) == 0 {
			p.Docs.Unchanged++
			continue
		}
		d.Version = old.Version
		if d.ContentHash != old.ContentHash {
			d.Version++
		}
		u.Doc = d
		p.Update = append(p.Update, u)
		p.Docs.Updated++
		p.Chunks.Inserted += len(u.InsertChunks)
		p.Chunks.Updated += len(u.UpdateChunks)
		p.Chunks.Deleted += len(u.DeleteChunks)
	}
	for slug, old := range stored {
		switch {
		case present[slug]:
		case opts.keeps(slug):
			p.Docs.Kept++
			p.Chunks.Kept += len(old.Chunks)
		default:
			p.Delete = append(p.Delete, slug)
			p.Docs.Deleted++
			p.Chunks.Deleted += len(old.Chunks)
		}
	}
	slices.Sort(p.Delete)
	if len(p.Delete) > 0 && !opts.Prune && float64(len(p.Delete)) > opts.MaxDeleteShare*float64(len(stored)) {
		return SeedPlan{}, newDeleteRefusedError(p.Delete, len(stored), opts.MaxDeleteShare)
	}
	return p, nil
}

// DeleteRefusedError is a seed refused because it would delete more of the
// stored docs than allowed. Nothing was written.
type DeleteRefusedError struct {
	Deleting int     // docs the seed would have deleted
	Stored   int     // docs in the store
	MaxShare float64 // the share allowed
	// Folders counts the docs it would have deleted by folder (the slug
	// without its last element; "." for the top level), most first.
	Folders []FolderCount
}

// FolderCount is how many docs of one folder a refused seed would delete.
type FolderCount struct {
	Folder string
	Docs   int
}

// maxListedFolders bounds the refusal message; the biggest folders tell
// where the files went.
const maxListedFolders = 5

func newDeleteRefusedError(deleting []string, stored int, maxShare float64) *DeleteRefusedError {
	counts := map[string]int{}
	for _, slug := range deleting {
		counts[path.Dir(slug)]++
	}
	e := &DeleteRefusedError{Deleting: len(deleting), Stored: stored, MaxShare: maxShare}
	for folder, n := range counts {
		e.Folders = append(e.Folders, FolderCount{Folder: folder, Docs: n})
	}
	slices.SortFunc(e.Folders, func(a, b FolderCount) int {
		if a.Docs != b.Docs {
			return b.Docs - a.Docs
		}
		return strings.Compare(a.Folder, b.Folder)
	})
	return e
}

func (e *DeleteRefusedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to delete %d of %d stored docs (%s; the limit is %s)",
		e.Deleting, e.Stored, percent(float64(e.Deleting)/float64(e.Stored)), percent(e.MaxShare))
	shown := e.Folders
	if len(shown) > maxListedFolders {
		shown = shown[:maxListedFolders]
	}
	for i, f := range shown {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		folder := f.Folder
		if folder == "." {
			folder = "the top level"
		}
		fmt.Fprintf(&b, "%s%d in %s", sep, f.Docs, folder)
	}
	if more := len(e.Folders) - len(shown); more > 0 {
		fmt.Fprintf(&b, " and %d more folder(s)", more)
	}
	return b.String()
}

// percent renders a share to a tenth of a percent, without trailing
// zeros: "20%", "66.7%".
func percent(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', -1, 64) + "%"
}
