package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// DefaultHashedDimension is Hashed's vector length when given none.
const DefaultHashedDimension = 256

// HashedEmbedder is a deterministic offline embedder: a test double, and a
// lexical fallback that lets the hybrid path run end to end without a
// provider. It is NOT a semantic model. Each text is lower-cased and cut
// into words at white space; every word, padded with a space on each
// side, gives its character trigrams, and the word itself is a feature
// too. Each feature is hashed (FNV-1a) to one of Dimension buckets with a
// sign taken from the hash, so that collisions tend to cancel rather than
// pile up, and the vector is L2-normalized. Texts that share words or
// parts of words ("account", "accounts") come out close; texts that mean
// the same in other words ("get rid of" and "delete") do not.
//
// The same bytes always give the same vector, on every machine: nothing
// is random and nothing is downloaded. Invalid UTF-8 is read one
// replacement character per bad byte.
type HashedEmbedder struct{ dim int }

// Hashed returns a HashedEmbedder of dim values a vector (dim < 1:
// DefaultHashedDimension).
func Hashed(dim int) *HashedEmbedder {
	if dim < 1 {
		dim = DefaultHashedDimension
	}
	return &HashedEmbedder{dim: dim}
}

// Model names the scheme and its dimension, so that its vectors are never
// compared with a real model's or with another dimension's.
func (h *HashedEmbedder) Model() string { return fmt.Sprintf("docent-hashed-trigram-%d", h.dim) }

// Dimension is the length of every vector.
func (h *HashedEmbedder) Dimension() int { return h.dim }

// Embed returns the hashed vector of each text. A text that is empty or
// white space alone has no features and is refused with ErrEmptyText, as
// the providers' embedders refuse it; only a cancelled ctx is otherwise an
// error.
func (h *HashedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("embed: hashed: %w", err)
			}
		}
		v, ok := h.vector(t)
		if !ok {
			return nil, fmt.Errorf("embed: hashed: text %d: %w", i, ErrEmptyText)
		}
		out[i] = v
	}
	return out, nil
}

// vector is one text's vector; ok is false when the text has no feature.
func (h *HashedEmbedder) vector(text string) ([]float32, bool) {
	acc := make([]float64, h.dim)
	features := 0
	add := func(feature string) {
		f := fnv.New64a()
		_, _ = f.Write([]byte(feature))
		sum := f.Sum64()
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		acc[(sum&(1<<63-1))%uint64(h.dim)] += sign
		features++
	}
	for _, word := range strings.FieldsFunc(text, unicode.IsSpace) {
		word = strings.ToLower(word)
		// The word prefixed, so that a one- or two-rune word is a feature
		// of its own kind rather than a trigram of another word.
		add("w:" + word)
		r := []rune(" " + word + " ")
		for i := 0; i+3 <= len(r); i++ {
			add(string(r[i : i+3]))
		}
	}
	if features == 0 {
		return nil, false
	}
	var norm float64
	for _, x := range acc {
		norm += x * x
	}
	v := make([]float32, h.dim)
	if norm == 0 {
		// Every feature cancelled another out: rare, and no direction is
		// left to keep. One bucket stands for the text, so that the
		// vector still has length 1.
		f := fnv.New64a()
		_, _ = f.Write([]byte(text))
		v[f.Sum64()%uint64(h.dim)] = 1
		return v, true
	}
	norm = math.Sqrt(norm)
	for i, x := range acc {
		v[i] = float32(x / norm)
	}
	return v, true
}
