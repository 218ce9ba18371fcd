package embed_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/docent-sh/docent/llm/embed"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHashed(t *testing.T) {
	h := embed.Hashed(64)
	if h.Dimension() != 64 || h.Model() != "docent-hashed-trigram-64" {
		t.Errorf("Hashed(64): dimension %d, model %q", h.Dimension(), h.Model())
	}
	if embed.Hashed(0).Dimension() != embed.DefaultHashedDimension {
		t.Errorf("Hashed(0) dimension %d, want the default", embed.Hashed(0).Dimension())
	}
	var _ embed.Embedder = h

	in := []string{
		"Delete your account",
		"How do I delete my account?",
		"Rate limits for the API",
		"DELETE YOUR ACCOUNT",
	}
	vecs, err := embed.Hashed(256).Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if len(v) != 256 {
			t.Fatalf("vector %d has %d values", i, len(v))
		}
		if n := math.Sqrt(dot(v, v)); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d has norm %v, want 1", i, n)
		}
	}
	if !slices.Equal(vecs[0], vecs[3]) {
		t.Errorf("case changed the vector")
	}
	near, far := dot(vecs[0], vecs[1]), dot(vecs[0], vecs[2])
	if near <= far || near < 0.3 {
		t.Errorf("shared words scored %.3f, unrelated text %.3f: shared words must score higher", near, far)
	}
	again, _ := embed.Hashed(256).Embed(context.Background(), in[:1])
	if !slices.Equal(again[0], vecs[0]) {
		t.Errorf("the same text gave another vector")
	}
	if _, err := h.Embed(context.Background(), []string{"ok", "\t \n"}); !errors.Is(err, embed.ErrEmptyText) {
		t.Errorf("a blank text: %v, want ErrEmptyText", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Embed(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

// FuzzHashed: any bytes give, twice over, the same bits; a vector of the
// dimension, finite, of norm 1; or ErrEmptyText exactly when the text is
// white space alone.
func FuzzHashed(f *testing.F) {
	for _, s := range []string{"Delete your account", "", " \t\n", "a", "\xff\xfe", "日本語のテキスト", "x\x00y", "\u00a0"} {
		f.Add(s, uint8(16))
	}
	f.Fuzz(func(t *testing.T, text string, dim uint8) {
		h := embed.Hashed(int(dim)%64 + 1)
		a, errA := h.Embed(context.Background(), []string{text})
		b, errB := h.Embed(context.Background(), []string{text})
		if (errA == nil) != (errB == nil) {
			t.Fatalf("two calls disagree: %v, %v", errA, errB)
		}
		blank := strings.TrimFunc(text, unicode.IsSpace) == ""
		if errA != nil {
			if !errors.Is(errA, embed.ErrEmptyText) || !blank {
				t.Fatalf("%q: %v", text, errA)
			}
			return
		}
		if blank {
			t.Fatalf("blank text %q embedded", text)
		}
		v := a[0]
		if len(v) != h.Dimension() {
			t.Fatalf("%d values, want %d", len(v), h.Dimension())
		}
		for i := range v {
			if math.Float32bits(v[i]) != math.Float32bits(b[0][i]) {
				t.Fatalf("value %d differs between calls: %v, %v", i, v[i], b[0][i])
			}
			if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
				t.Fatalf("value %d is %v", i, v[i])
			}
		}
		if n := math.Sqrt(dot(v, v)); math.Abs(n-1) > 1e-5 {
			t.Fatalf("norm %v, want 1", n)
		}
	})
}
