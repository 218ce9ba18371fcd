package knowledge

import (
	"path"
	"slices"
)

// Bundle is a knowledge base with the vocabulary that comes with it. The
// vocabulary belongs to the docs, not to the engine: a folder of docs
// brings its own, or has none.
type Bundle struct {
	Docs []Doc
	// Glossary is the core concepts as markdown, put into every prompt so
	// answers use the product's words; "" for none.
	Glossary string
	// Synonyms rewrite what users say into what the docs say, applied in
	// order: a later rule for the same words replaces an earlier one.
	Synonyms []Synonym
	// Concepts are the docs that answer "what is X": slugs, or path.Match
	// patterns of slugs ("concepts/*"); nil when none are declared.
	Concepts []string
}

// Synonym is one query rewrite: From is a word or phrase users say, To
// what the docs call it.
type Synonym struct {
	From string
	To   string
}

// IsConcept reports whether the doc with this slug is one of the bundle's
// concept docs.
func (b Bundle) IsConcept(slug string) bool {
	for _, c := range b.Concepts {
		// Equality first: a slug may hold a pattern character ("faq[1]")
		// and still be named literally.
		if c == slug {
			return true
		}
		if ok, err := path.Match(c, slug); ok && err == nil {
			return true
		}
	}
	return false
}

// Vocabulary is a bundle without its docs: what a store keeps beside the
// docs so every docent reading a shared store answers with the words the
// seed brought.
type Vocabulary struct {
	Glossary string
	Synonyms []Synonym
	Concepts []string
}

// Vocabulary returns the bundle's vocabulary.
func (b Bundle) Vocabulary() Vocabulary {
	return Vocabulary{Glossary: b.Glossary, Synonyms: b.Synonyms, Concepts: b.Concepts}
}

// Bundle joins the vocabulary to docs.
func (v Vocabulary) Bundle(docs []Doc) Bundle {
	return Bundle{Docs: docs, Glossary: v.Glossary, Synonyms: v.Synonyms, Concepts: v.Concepts}
}

// Equal reports whether two vocabularies say the same; nil and empty
// lists are the same.
func (v Vocabulary) Equal(w Vocabulary) bool {
	return v.Glossary == w.Glossary && slices.Equal(v.Synonyms, w.Synonyms) && slices.Equal(v.Concepts, w.Concepts)
}
