package knowledge

import "testing"

func TestParseChunkID(t *testing.T) {
	for _, tc := range []struct {
		id    string
		slug  string
		index int
		ok    bool
	}{
		{"guides/setup#chunk-3", "guides/setup", 3, true},
		{" user/moving#chunk-0\n", "user/moving", 0, true},
		{"a#b#chunk-12", "a#b", 12, true},
		{"guides/setup", "", 0, false},
		{"#chunk-1", "", 0, false},
		{"guides/setup#chunk-", "", 0, false},
		{"guides/setup#chunk--1", "", 0, false},
		{"guides/setup#chunk-+1", "", 0, false},
		{"guides/setup#chunk-1x", "", 0, false},
		{"guides/setup#chunk-99999999999999999999", "", 0, false},
	} {
		slug, index, ok := ParseChunkID(tc.id)
		if slug != tc.slug || index != tc.index || ok != tc.ok {
			t.Errorf("ParseChunkID(%q) = %q, %d, %v; want %q, %d, %v", tc.id, slug, index, ok, tc.slug, tc.index, tc.ok)
		}
	}
}

// Ids come back from users (--after) and from models' citations: whatever
// parses must be what ChunkID would have made.
func FuzzParseChunkID(f *testing.F) {
	for _, s := range []string{"guides/setup#chunk-3", "#chunk-", "x#chunk-007", "a#chunk-1#chunk-2", " s#chunk-1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		slug, index, ok := ParseChunkID(id)
		if !ok {
			return
		}
		if slug == "" || index < 0 {
			t.Fatalf("ParseChunkID(%q) = %q, %d, true", id, slug, index)
		}
		again, n, ok2 := ParseChunkID(ChunkID(slug, index))
		if !ok2 || again != slug || n != index {
			t.Fatalf("round trip of %q: %q, %d, %v", id, again, n, ok2)
		}
	})
}
