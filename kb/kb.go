// Package kb embeds docent's demo knowledge base: the documentation of
// "Notewell", a fictional note-taking product. It is what a newcomer sees on
// the first run, and the fixed corpus the ingestion, store and retrieval tests
// use, so it ships inside the binary instead of being read from disk.
package kb

import (
	"embed"
	"io/fs"
)

//go:embed docs
var docsFS embed.FS

// Docs returns the demo knowledge base as an fs.FS rooted at the docs folder
// (so paths are "concepts/home.md"), the same shape as a knowledge base read
// from a directory with os.DirFS.
func Docs() fs.FS {
	sub, err := fs.Sub(docsFS, "docs")
	if err != nil {
		// fs.Sub only fails on an invalid path name; "docs" is a constant and
		// the go:embed directive guarantees the folder exists.
		panic("kb: embedded docs folder: " + err.Error())
	}
	return sub
}

//go:embed glossary.md
var glossary string

// Glossary returns the core-concepts glossary markdown. Retrieval always puts
// it into the model's context so answers use the product's vocabulary even
// when the retrieved chunks do not define it.
func Glossary() string { return glossary }
