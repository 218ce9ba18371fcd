package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docent-sh/docent/retrieval/vector"
)

// The embedded store keeps no data file for docs (the docs folder is read
// at each start), so the chunks' vectors are kept in a cache file per
// model, keyed by chunk hash (the md5 of its content): an unchanged chunk
// is never embedded twice, whatever moved around it. The cache is only
// an optimization: a missing, corrupt or foreign file is read as empty.
//
// The file, little-endian throughout:
//
//	magic    "docentE" 0x01
//	uint32   length of the model name, then its bytes
//	uint32   dimension (0 when there are no vectors)
//	uint32   count of vectors
//	count ×  16-byte md5 of the chunk's content, strictly ascending,
//	         then dimension × 4 bytes (vector.Encode)
//	uint32   CRC-32 (IEEE) of every byte before it
//
// Every file DecodeEmbeddingCache accepts is what EncodeEmbeddingCache
// writes for what it returned, byte for byte.

var cacheMagic = []byte("docentE\x01")

// Limits on what a cache file may declare, so a corrupt header cannot ask
// for gigabytes: no embedding model has 64k dimensions, nor a name of 1k.
const (
	maxCacheModel     = 1 << 10
	maxCacheDimension = 1 << 16
)

// ErrCorruptCache is a cache file DecodeEmbeddingCache cannot read.
var ErrCorruptCache = errors.New("corrupt embeddings cache")

// EmbeddingCachePath is the cache file of model under dir: the model's
// name made safe for a file name, plus a digest of the name so that two
// names made alike do not share a file.
func EmbeddingCachePath(dir, model string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, model)
	if len(safe) > 64 {
		safe = safe[:64]
	}
	sum := sha256.Sum256([]byte(model))
	return filepath.Join(dir, safe+"-"+hex.EncodeToString(sum[:4])+".bin")
}

// EncodeEmbeddingCache writes vectors (by hex md5 chunk hash) of model in
// the cache format. A key that is not 32 lower-case hex digits cannot be
// a chunk hash and is left out; vectors of different lengths, or with a
// NaN or infinite value, are an error.
func EncodeEmbeddingCache(model string, vectors map[string][]float32) ([]byte, error) {
	if len(model) > maxCacheModel {
		return nil, fmt.Errorf("encode embeddings cache: model name of %d bytes", len(model))
	}
	type entry struct {
		key [16]byte
		vec []float32
	}
	var entries []entry
	dim := 0
	for h, v := range vectors {
		var key [16]byte
		if len(h) != 32 || strings.ToLower(h) != h {
			continue
		}
		if _, err := hex.Decode(key[:], []byte(h)); err != nil {
			continue
		}
		if len(entries) == 0 {
			dim = len(v)
		}
		if len(v) != dim || dim == 0 || dim > maxCacheDimension {
			return nil, fmt.Errorf("encode embeddings cache: vector of %d values among vectors of %d", len(v), dim)
		}
		entries = append(entries, entry{key, v})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key[:], b.key[:]) })

	b := make([]byte, 0, len(cacheMagic)+16+len(model)+len(entries)*(16+4*dim))
	b = append(b, cacheMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(model)))
	b = append(b, model...)
	b = binary.LittleEndian.AppendUint32(b, uint32(dim))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(entries)))
	for _, e := range entries {
		enc := vector.Encode(e.vec)
		if _, err := vector.Decode(enc, len(e.vec)); err != nil {
			return nil, fmt.Errorf("encode embeddings cache: chunk %x: %w", e.key, err)
		}
		b = append(b, e.key[:]...)
		b = append(b, enc...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// DecodeEmbeddingCache reads a cache file: its model and vectors by hex
// md5 chunk hash. Anything but a whole, well-formed file is an error
// wrapping ErrCorruptCache.
func DecodeEmbeddingCache(b []byte) (model string, vectors map[string][]float32, err error) {
	bad := func(format string, args ...any) (string, map[string][]float32, error) {
		return "", nil, fmt.Errorf("%w: %s", ErrCorruptCache, fmt.Sprintf(format, args...))
	}
	if !bytes.HasPrefix(b, cacheMagic) {
		return bad("not an embeddings cache (bad magic)")
	}
	if len(b) < len(cacheMagic)+4+4 {
		return bad("%d bytes: too short", len(b))
	}
	body, tail := b[:len(b)-4], b[len(b)-4:]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(tail); got != want {
		return bad("checksum %08x, want %08x", got, want)
	}
	r := body[len(cacheMagic):]
	u32 := func() (uint32, bool) {
		if len(r) < 4 {
			return 0, false
		}
		v := binary.LittleEndian.Uint32(r)
		r = r[4:]
		return v, true
	}
	n, ok := u32()
	if !ok || n > maxCacheModel || int(n) > len(r) {
		return bad("model name length %d", n)
	}
	model, r = string(r[:n]), r[n:]
	dim, ok1 := u32()
	count, ok2 := u32()
	switch {
	case !ok1 || !ok2:
		return bad("header cut short")
	case dim > maxCacheDimension:
		return bad("dimension %d", dim)
	case (dim == 0) != (count == 0):
		return bad("%d vectors of dimension %d", count, dim)
	}
	entry := 16 + 4*uint64(dim)
	if uint64(len(r)) != uint64(count)*entry {
		return bad("%d bytes of vectors, want %d for %d of dimension %d", len(r), uint64(count)*entry, count, dim)
	}
	vectors = make(map[string][]float32, count)
	var prev []byte
	for i := range int(count) {
		key := r[:16]
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			return bad("vector %d: chunk hashes out of order", i)
		}
		v, err := vector.Decode(r[16:entry], int(dim))
		if err != nil {
			return bad("vector %d: %v", i, err)
		}
		vectors[hex.EncodeToString(key)] = v
		prev, r = key, r[entry:]
	}
	return model, vectors, nil
}

// LoadEmbeddingCache reads model's vectors from the cache file at path.
// A missing file is an empty cache and no error; a file that is corrupt
// or holds another model's vectors is an empty cache and an error saying
// so, for the caller to warn about: the cache is never worth failing for.
func LoadEmbeddingCache(path, model string) (map[string][]float32, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string][]float32{}, nil
	}
	if err != nil {
		return map[string][]float32{}, fmt.Errorf("read embeddings cache %s: %w", path, err)
	}
	got, vectors, err := DecodeEmbeddingCache(b)
	if err != nil {
		return map[string][]float32{}, fmt.Errorf("read embeddings cache %s: %w", path, err)
	}
	if got != model {
		return map[string][]float32{}, fmt.Errorf("read embeddings cache %s: %w: it holds vectors of %q, not %q", path, ErrCorruptCache, got, model)
	}
	return vectors, nil
}

// LatestOtherCacheModel names the model of the most recently written
// cache file in dir other than model's own, reading only its header, or
// "" when there is none: the model the embedded store used last, when
// the configured one changed. Unreadable files are passed over.
func LatestOtherCacheModel(dir, model string) string {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	own := EmbeddingCachePath(dir, model)
	latest, name := int64(0), ""
	for _, p := range paths {
		info, err := os.Stat(p)
		if p == own || err != nil || info.ModTime().UnixNano() <= latest {
			continue
		}
		if m, ok := cacheHeaderModel(p); ok {
			latest, name = info.ModTime().UnixNano(), m
		}
	}
	return name
}

// cacheHeaderModel reads the model name from a cache file's header.
func cacheHeaderModel(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	head := make([]byte, len(cacheMagic)+4+maxCacheModel)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, cacheMagic) || len(head) < len(cacheMagic)+4 {
		return "", false
	}
	l := int(binary.LittleEndian.Uint32(head[len(cacheMagic):]))
	rest := head[len(cacheMagic)+4:]
	if l > len(rest) {
		return "", false
	}
	return string(rest[:l]), true
}

// SaveEmbeddingCache writes model's vectors to path through a temporary
// file renamed over it, so a reader (another docent starting) sees the
// old file or the new one, never half of one.
func SaveEmbeddingCache(path, model string, vectors map[string][]float32) error {
	b, err := EncodeEmbeddingCache(model, vectors)
	if err != nil {
		return fmt.Errorf("save embeddings cache %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save embeddings cache: create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save embeddings cache %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("save embeddings cache %s: %w", path, werr)
	}
	return nil
}
