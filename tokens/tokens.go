// Package tokens counts LLM tokens with tiktoken vocabularies that are
// embedded in the binary, so counting works offline.
package tokens

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Counter counts the tokens of a text for one encoding.
type Counter struct {
	codec tokenizer.Codec
	name  string
}

var (
	defaultOnce    sync.Once
	defaultCounter *Counter
	defaultErr     error
)

// Default returns the cl100k_base counter, loaded once. The vocabulary is
// embedded, so an error here means a broken build, not a missing download.
func Default() *Counter {
	defaultOnce.Do(func() {
		defaultCounter, defaultErr = ForEncoding(string(tokenizer.Cl100kBase))
	})
	if defaultErr != nil {
		panic(fmt.Sprintf("tokens: load cl100k_base: %v", defaultErr))
	}
	return defaultCounter
}

// ForEncoding returns a counter for a tiktoken encoding name such as
// "cl100k_base" or "o200k_base".
func ForEncoding(name string) (*Counter, error) {
	codec, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		return nil, fmt.Errorf("tokens: encoding %q: %w", name, err)
	}
	return &Counter{codec: codec, name: name}, nil
}

// ForModel returns the counter of a model's encoding when tiktoken knows
// the model, else the cl100k_base counter.
func ForModel(model string) *Counter {
	codec, err := tokenizer.ForModel(tokenizer.Model(model))
	if err != nil {
		return Default()
	}
	return &Counter{codec: codec, name: codec.GetName()}
}

// Name is the encoding's name.
func (c *Counter) Name() string { return c.name }

// Count returns the number of tokens in s. Should the codec reject the
// input, an estimate of four bytes a token stands in: a count is for
// budgeting, never a reason to drop a user's turn.
func (c *Counter) Count(s string) int {
	n, err := c.codec.Count(s)
	if err != nil {
		return (len(s) + 3) / 4
	}
	return n
}

// Whole reports whether the vocabulary holds word, after a space, as one
// token. A byte-pair vocabulary gives a whole token to the words common in
// the text it was learned from ("world", "sock", "wifi") and splits rare
// strings, most misspellings among them ("pasword", "recieve"): it is the
// dictionary that ships in the binary, telling a word of its own from a
// slip of another.
func (c *Counter) Whole(word string) bool {
	if word == "" {
		return false
	}
	ids, _, err := c.codec.Encode(" " + word)
	return err == nil && len(ids) == 1
}
