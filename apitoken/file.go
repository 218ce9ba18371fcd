package apitoken

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// FileStore keeps tokens in a JSON file, for docent without a database.
// Every write replaces the file whole (a temporary file, synced, renamed
// over it) with mode 0600: the hashes are not secrets, but who holds
// tokens for which workspace is nobody else's business. The file is read
// on every lookup, so a token created or revoked by another docent
// process counts at once.
type FileStore struct {
	path string
	mu   sync.Mutex // one read-modify-write at a time within the process

	// cache is the file as last read, reused while the file's size and
	// modification time stay the same: a server checks a token per
	// request, and the file rarely changes. A write renames a new file
	// into place, which changes both.
	cacheMu sync.Mutex
	cache   *fileCache
}

type fileCache struct {
	size    int64
	modTime time.Time
	records []Record
}

// NewFileStore uses the file at path, created on the first write.
func NewFileStore(path string) *FileStore { return &FileStore{path: path} }

// Path is the file the tokens are in.
func (f *FileStore) Path() string { return f.path }

var _ Store = (*FileStore)(nil)

// fileRecord is a Record as the file holds it.
type fileRecord struct {
	ID        string     `json:"id"`
	Hash      string     `json:"sha256"`
	Name      string     `json:"name,omitempty"`
	Workspace string     `json:"workspace"`
	User      string     `json:"user"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

type fileContents struct {
	Tokens []fileRecord `json:"tokens"`
}

func (f *FileStore) read(ctx context.Context) ([]Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info, err := os.Stat(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read API tokens: %w", err)
	}
	f.cacheMu.Lock()
	cached := f.cache
	f.cacheMu.Unlock()
	if cached != nil && cached.size == info.Size() && cached.modTime.Equal(info.ModTime()) {
		return slices.Clone(cached.records), nil
	}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read API tokens: %w", err)
	}
	var c fileContents
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("read API tokens from %s: %w", f.path, err)
	}
	out := make([]Record, 0, len(c.Tokens))
	for i, fr := range c.Tokens {
		raw, err := hex.DecodeString(fr.Hash)
		if err != nil || len(raw) != len(Hash{}) {
			return nil, fmt.Errorf("read API tokens from %s: token %d: sha256 is not 64 hex digits", f.path, i+1)
		}
		r := Record{ID: fr.ID, Name: fr.Name, Workspace: fr.Workspace, User: fr.User, CreatedAt: fr.CreatedAt, RevokedAt: fr.RevokedAt}
		copy(r.Hash[:], raw)
		out = append(out, r)
	}
	// The stat is from before the read: a write in between leaves a stale
	// stamp, which only costs a read next time.
	f.cacheMu.Lock()
	f.cache = &fileCache{size: info.Size(), modTime: info.ModTime(), records: slices.Clone(out)}
	f.cacheMu.Unlock()
	return out, nil
}

func (f *FileStore) write(records []Record) error {
	c := fileContents{Tokens: make([]fileRecord, len(records))}
	for i, r := range records {
		c.Tokens[i] = fileRecord{ID: r.ID, Hash: hex.EncodeToString(r.Hash[:]), Name: r.Name, Workspace: r.Workspace,
			User: r.User, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt}
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("encode API tokens: %w", err)
	}
	return writeFileAtomic(f.path, append(data, '\n'))
}

// CreateToken adds a record; an id or hash already there is refused.
func (f *FileStore) CreateToken(ctx context.Context, r Record) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	records, err := f.read(ctx)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(records, func(o Record) bool { return o.ID == r.ID || o.Hash == r.Hash }) {
		return fmt.Errorf("create API token %s: already stored", r.ID)
	}
	return f.write(append(records, r))
}

// LookupToken finds a record by hash.
func (f *FileStore) LookupToken(ctx context.Context, h Hash) (Record, error) {
	records, err := f.read(ctx)
	if err != nil {
		return Record{}, err
	}
	for _, r := range records {
		if r.Hash == h {
			return r, nil
		}
	}
	return Record{}, ErrNotFound
}

// ListTokens returns every record, oldest first.
func (f *FileStore) ListTokens(ctx context.Context) ([]Record, error) {
	records, err := f.read(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(records, func(a, b Record) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return records, nil
}

// RevokeToken marks a record revoked.
func (f *FileStore) RevokeToken(ctx context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	records, err := f.read(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(records, func(r Record) bool { return r.ID == id })
	if i < 0 {
		return fmt.Errorf("revoke API token %q: %w", id, ErrNotFound)
	}
	if records[i].RevokedAt != nil {
		return nil
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	records[i].RevokedAt = &now
	return f.write(records)
}

// writeFileAtomic replaces path with data, mode 0600, so that a reader or
// a crash sees the old file or the new one, never a part.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create directory for %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*") // CreateTemp makes it 0600
	if err != nil {
		return fmt.Errorf("create a temporary file beside %s: %w", path, err)
	}
	name := tmp.Name()
	defer os.Remove(name) // after the rename there is nothing left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync %s: %w", name, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}
