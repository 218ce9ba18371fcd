package knowledge

import "path"

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
