// Package kb embeds docent's demo knowledge base: the documentation of
// "Notewell", a fictional note-taking product. It is what a newcomer sees on
// the first run, and the fixed corpus the ingestion, store and retrieval tests
// use, so it ships inside the binary instead of being read from disk.
package kb

import (
	"embed"
	"io/fs"
)

// The files starting with "_" must be named: a folder pattern leaves them out.
//
//go:embed docs docs/_glossary.md docs/_synonyms.txt
var docsFS embed.FS

// Docs returns the demo knowledge base as an fs.FS rooted at the docs folder
// (so paths are "concepts/home.md"), the same shape as a knowledge base read
// from a directory with os.DirFS. Its vocabulary sits at the root as in any
// docs folder (docent.yaml, _glossary.md, _synonyms.txt): ingest.LoadBundle
// reads it into the demo's bundle.
func Docs() fs.FS {
	sub, err := fs.Sub(docsFS, "docs")
	if err != nil {
		// fs.Sub only fails on an invalid path name; "docs" is a constant and
		// the go:embed directive guarantees the folder exists.
		panic("kb: embedded docs folder: " + err.Error())
	}
	return sub
}

//go:embed docs/_glossary.md
var glossary string

// Glossary returns the demo's core-concepts glossary markdown, the
// _glossary.md of Docs, for tests that build prompts without loading the
// whole bundle.
func Glossary() string { return glossary }
