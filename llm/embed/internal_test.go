package embed

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tmc/langchaingo/embeddings"

	"github.com/docent-sh/docent/internal/redact"
)

// JSON cannot carry NaN or infinity, so the providers' clients never
// return them; the check stands for any client that can (and is tested
// here with one that does).
func TestNonFiniteValuesRefused(t *testing.T) {
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		r := &remote{provider: "openai", model: "m", redactor: redact.New(), log: nil,
			opt: options{batchSize: 2, requestTimeout: 1e9, maxRetries: 3}}
		calls := 0
		r.client = embeddings.EmbedderClientFunc(func(_ context.Context, texts []string) ([][]float32, error) {
			calls++
			out := make([][]float32, len(texts))
			for i := range out {
				out[i] = []float32{0.5, 0.5}
			}
			out[len(out)-1][1] = bad
			return out, nil
		})
		got, err := r.Embed(context.Background(), []string{"a", "b", "c"})
		if !errors.Is(err, ErrBadVectors) || got != nil || calls != 1 {
			t.Errorf("value %v: %d vectors, %v after %d calls; want ErrBadVectors at once", bad, len(got), err, calls)
		}
		if err != nil && !strings.Contains(err.Error(), "vector 1 holds") {
			t.Errorf("value %v: %q does not say which vector", bad, err)
		}
	}
}

func TestCheckVectors(t *testing.T) {
	for _, c := range []struct {
		vecs [][]float32
		want int
		ok   bool
	}{
		{[][]float32{{1, 0}, {0, 1}}, 0, true},
		{[][]float32{{1, 0}, {0, 1}}, 2, true},
		{[][]float32{{1, 0}, {0, 1}}, 3, false},
		{[][]float32{{1, 0}, {0}}, 0, false},
		{[][]float32{{}, {}}, 0, false},
		{[][]float32{{1, float32(math.NaN())}}, 0, false},
	} {
		if got := checkVectors(c.vecs, c.want); (got == "") != c.ok {
			t.Errorf("checkVectors(%v, %d) = %q, want ok %v", c.vecs, c.want, got, c.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	r := &remote{opt: options{backoffBase: 100e6, backoffMax: 1e9}}
	for try := range 40 {
		d := r.backoff(try, 0)
		if d < 0 || d > 1e9 {
			t.Fatalf("backoff(%d) = %s, outside [0, 1s]", try, d)
		}
	}
	if d := r.backoff(0, 5e9); d != 5e9 {
		t.Errorf("backoff with Retry-After 5s = %s, want 5s", d)
	}
}

// FuzzErrorReason covers the wording of what a server sends back: any
// bytes in a rejection, with the key put anywhere in them (whole or
// without its prefix), give an error line with no part of the key, no
// control character and no invalid UTF-8, of bounded length.
func FuzzErrorReason(f *testing.F) {
	const key = "sk-test-s3cret-0123"
	for _, seed := range []struct {
		msg string
		at  uint16
	}{
		{"Incorrect API key provided", 27},
		{"\x1b[31mred\x07 and \xff\xfe bytes", 3},
		{`{"error":{"message":"bad"}}`, 0},
		{strings.Repeat("long ", 100), 250},
		{"Authorization: Bearer ", 22},
		// A key split by an escape sequence, which the terminal-safe
		// cleaning removes: it must be masked after the cleaning.
		{"echo: test-s3c\x1b[0mret-0123", 0},
	} {
		f.Add([]byte(seed.msg), seed.at, false)
		f.Add([]byte(seed.msg), seed.at, true)
	}
	f.Fuzz(func(t *testing.T, msg []byte, at uint16, bare bool) {
		secret := key
		if bare {
			secret = strings.TrimPrefix(key, "sk-")
		}
		i := int(at) % (len(msg) + 1)
		text := string(msg[:i]) + secret + string(msg[i:])
		red := redact.New()
		red.AddKey(key)
		r := &remote{provider: "openai", model: "m", baseURL: "http://127.0.0.1:1/v1", redactor: red}
		for _, status := range []int{400, 422} {
			f := r.classify(errors.New(text), attemptResult{status: status}, false, nil, 1)
			e := r.newError(batch{n: 1, of: 1}, f.reason, status, 0, f.cause)
			for _, s := range []string{e.Error(), errors.Unwrap(e).Error()} {
				if strings.Contains(s, secret) || strings.Contains(s, "s3cret-0123") {
					t.Fatalf("the key shows in %q", s)
				}
			}
			line := e.Error()
			if !utf8.ValidString(line) || strings.ContainsFunc(line, unicode.IsControl) {
				t.Fatalf("error %q holds a control character or invalid UTF-8", line)
			}
			if n := utf8.RuneCountInString(f.reason); n > maxReason+40 {
				t.Fatalf("reason of %d runes: %q", n, f.reason)
			}
		}
	})
}
