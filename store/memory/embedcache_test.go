package memory

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func sampleVectors() map[string][]float32 {
	return map[string][]float32{
		md5Hex("a"): {1, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32},
		md5Hex("b"): {math.MaxFloat32, -1.0 / 3, 0},
		md5Hex("c"): {0.5, 0.25, -0.125},
	}
}

func TestEmbeddingCacheRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cache.bin")
	want := sampleVectors()
	if err := SaveEmbeddingCache(path, "text-embedding-3-small", want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadEmbeddingCache(path, "text-embedding-3-small")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("loaded %d vectors, want %d", len(got), len(want))
	}
	for h, v := range want {
		g := got[h]
		for i := range v {
			if math.Float32bits(g[i]) != math.Float32bits(v[i]) {
				t.Errorf("%s[%d] = %g, want %g", h, i, g[i], v[i])
			}
		}
	}
	// No temporary file is left beside it.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("cache folder holds %d files, want 1", len(entries))
	}
	// Another model's file is an empty cache, said as an error.
	if got, err := LoadEmbeddingCache(path, "nomic-embed-text"); !errors.Is(err, ErrCorruptCache) || len(got) != 0 {
		t.Errorf("load as another model: %d vectors, %v; want none and ErrCorruptCache", len(got), err)
	}
	// A missing file is an empty cache and no error.
	if got, err := LoadEmbeddingCache(filepath.Join(t.TempDir(), "none.bin"), "m"); err != nil || len(got) != 0 {
		t.Errorf("load a missing file: %d vectors, %v", len(got), err)
	}
}

func TestEmbeddingCacheRejectsDamage(t *testing.T) {
	good, err := EncodeEmbeddingCache("m", sampleVectors())
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	for name, b := range map[string][]byte{
		"empty":       nil,
		"truncated":   good[:len(good)-5],
		"extra":       append(bytes.Clone(good), 0),
		"bit flipped": flipped,
		"bad magic":   append([]byte("docentE\x02"), good[8:]...),
	} {
		if _, _, err := DecodeEmbeddingCache(b); !errors.Is(err, ErrCorruptCache) {
			t.Errorf("%s: %v, want ErrCorruptCache", name, err)
		}
		path := filepath.Join(t.TempDir(), "c.bin")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := LoadEmbeddingCache(path, "m"); err == nil || len(got) != 0 {
			t.Errorf("%s: load gave %d vectors and %v, want none and an error", name, len(got), err)
		}
	}
}

func TestEncodeEmbeddingCacheRefuses(t *testing.T) {
	for name, v := range map[string]map[string][]float32{
		"ragged": {md5Hex("a"): {1, 2}, md5Hex("b"): {1}},
		"NaN":    {md5Hex("a"): {float32(math.NaN())}},
		"Inf":    {md5Hex("a"): {float32(math.Inf(-1))}},
		"empty":  {md5Hex("a"): {}},
	} {
		if _, err := EncodeEmbeddingCache("m", v); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// Keys that are not chunk hashes are left out, not written.
	b, err := EncodeEmbeddingCache("m", map[string][]float32{"not-a-hash": {1}, strings.ToUpper(md5Hex("a")): {1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := DecodeEmbeddingCache(b); err != nil || len(got) != 0 {
		t.Errorf("cache of non-hash keys decodes to %v, %v; want empty", got, err)
	}
}

func TestEmbeddingCachePath(t *testing.T) {
	a := EmbeddingCachePath("/c", "org/model:latest")
	b := EmbeddingCachePath("/c", "org_model_latest")
	if a == b || filepath.Dir(a) != "/c" || strings.ContainsAny(filepath.Base(a), "/:") {
		t.Errorf("paths %q and %q: want distinct safe names under /c", a, b)
	}
}

// FuzzDecodeEmbeddingCache: whatever the decoder accepts, the encoder
// writes back byte for byte; nothing makes it panic.
func FuzzDecodeEmbeddingCache(f *testing.F) {
	good, err := EncodeEmbeddingCache("text-embedding-3-small", sampleVectors())
	if err != nil {
		f.Fatal(err)
	}
	empty, _ := EncodeEmbeddingCache("m\xff", nil)
	f.Add(good)
	f.Add(empty)
	f.Add(good[:20])
	f.Fuzz(func(t *testing.T, b []byte) {
		model, vectors, err := DecodeEmbeddingCache(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptCache) {
				t.Fatalf("error %v does not wrap ErrCorruptCache", err)
			}
			return
		}
		again, err := EncodeEmbeddingCache(model, vectors)
		if err != nil {
			t.Fatalf("re-encode what was decoded: %v", err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("re-encoded %x, read %x", again, b)
		}
		m2, v2, err := DecodeEmbeddingCache(again)
		if err != nil || m2 != model || !reflect.DeepEqual(v2, vectors) && len(v2)+len(vectors) > 0 {
			t.Fatalf("decode of the re-encoding differs: %v", err)
		}
	})
}
