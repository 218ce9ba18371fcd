package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// The vocabulary files at a knowledge base's root. None is a doc, and each
// is optional: a folder without them has no glossary, no synonyms and no
// declared concept docs.
const (
	// ManifestFile names other vocabulary files and the concept docs.
	ManifestFile = "docent.yaml"
	// GlossaryFile is the core concepts, unless the manifest names another.
	GlossaryFile = "_glossary.md"
	// SynonymsFile is the query rewrites, unless the manifest names another.
	SynonymsFile = "_synonyms.txt"
)

// ErrVocabulary reports a vocabulary file that cannot be used: the
// knowledge base is not loaded, since answers without the team's words
// would be quietly worse.
var ErrVocabulary = errors.New("invalid vocabulary file")

// isVocabularyFile reports the root files Load must not take for docs.
func isVocabularyFile(p string) bool { return p == GlossaryFile }

// LoadBundle loads a knowledge base with its vocabulary: the docs as Load
// reads them, the glossary and synonyms files and the concept docs the
// manifest declares. A vocabulary file that cannot be read or parsed is an
// error wrapping ErrVocabulary and naming the file (and line).
func LoadBundle(ctx context.Context, fsys fs.FS, root string) (knowledge.Bundle, Result, error) {
	return LoadBundleWithOptions(ctx, fsys, root, LoadOptions{})
}

// LoadBundleWithOptions is LoadBundle with optional settings.
func LoadBundleWithOptions(ctx context.Context, fsys fs.FS, root string, opts LoadOptions) (knowledge.Bundle, Result, error) {
	res, err := LoadWithOptions(ctx, fsys, root, opts)
	if err != nil {
		return knowledge.Bundle{}, res, err
	}
	vocabErr := func(err error) error {
		return fmt.Errorf("knowledge base %s: %w: %w", root, ErrVocabulary, err)
	}
	m, err := readManifest(fsys)
	if err != nil {
		return knowledge.Bundle{}, res, vocabErr(err)
	}
	glossary, err := readVocabularyFile(fsys, m.glossary)
	if err != nil {
		return knowledge.Bundle{}, res, vocabErr(err)
	}
	var synonyms []knowledge.Synonym
	if src, err := readVocabularyFile(fsys, m.synonyms); err != nil {
		return knowledge.Bundle{}, res, vocabErr(err)
	} else if src != nil {
		if synonyms, err = ParseSynonyms(src); err != nil {
			return knowledge.Bundle{}, res, vocabErr(fmt.Errorf("%s: %w", m.synonyms.path, err))
		}
	}
	if m.glossary.path != GlossaryFile && isMarkdown(m.glossary.path) {
		res = withoutFile(res, m.glossary.path)
		if len(res.Docs) == 0 {
			return knowledge.Bundle{}, res, fmt.Errorf("knowledge base %s: %w (the only one is the glossary %s)", root, ErrNoDocs, m.glossary.path)
		}
	}
	if err := checkConcepts(m.concepts, res); err != nil {
		return knowledge.Bundle{}, res, vocabErr(err)
	}
	b := knowledge.Bundle{Docs: res.Docs, Glossary: string(glossary), Synonyms: synonyms}
	for _, c := range m.concepts {
		b.Concepts = append(b.Concepts, c.value)
	}
	return b, res, nil
}

// manifest is what docent.yaml says, with the defaults filled in.
type manifest struct {
	glossary vocabularyFile
	synonyms vocabularyFile
	concepts []manifestEntry
}

// vocabularyFile is a file the manifest names, or a conventional one
// (line 0), which may be absent.
type vocabularyFile struct {
	path string
	line int
	key  string // the manifest key that named it
}

type manifestEntry struct {
	value string
	line  int
}

func (f vocabularyFile) where() string {
	if f.line == 0 {
		return f.path
	}
	return fmt.Sprintf("%s:%d: %s %s", ManifestFile, f.line, f.key, f.path)
}

func readManifest(fsys fs.FS) (manifest, error) {
	src, err := readVocabularyFile(fsys, vocabularyFile{path: ManifestFile})
	if err != nil {
		return manifest{}, err
	}
	return parseManifest(src)
}

// parseManifest reads docent.yaml:
//
//	glossary: FILE          # default _glossary.md
//	synonyms: FILE          # default _synonyms.txt
//	concepts: [SLUG, ...]   # slugs or path.Match patterns ("concepts/*")
//
// An unknown key is an error, so a misspelt one is not silently ignored.
func parseManifest(src []byte) (manifest, error) {
	m := manifest{glossary: vocabularyFile{path: GlossaryFile}, synonyms: vocabularyFile{path: SynonymsFile}}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return m, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	if len(doc.Content) == 0 {
		return m, nil // empty file, or only comments
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return m, nil
	}
	if top.Kind != yaml.MappingNode {
		return m, lineErr(top, "want a mapping with the keys glossary, synonyms, concepts")
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if seen[k.Value] {
			return m, lineErr(k, fmt.Sprintf("%q given twice", textsafe.Clip(k.Value, 40)))
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "glossary":
			err = setPath(&m.glossary, k.Value, v)
		case "synonyms":
			err = setPath(&m.synonyms, k.Value, v)
		case "concepts":
			m.concepts, err = conceptEntries(v)
		default:
			err = lineErr(k, fmt.Sprintf("unknown key %q (want glossary, synonyms or concepts)", textsafe.Clip(k.Value, 40)))
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func lineErr(n *yaml.Node, msg string) error {
	return fmt.Errorf("%s:%d: %s", ManifestFile, n.Line, msg)
}

// setPath reads a file name; empty keeps the conventional file.
func setPath(f *vocabularyFile, key string, v *yaml.Node) error {
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!null") {
		return lineErr(v, key+": want a file name")
	}
	if v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
		return nil
	}
	p := path.Clean(strings.TrimSpace(v.Value))
	if !validVocabularyPath(p) {
		return lineErr(v, fmt.Sprintf("%s: %q: want a file inside the knowledge base, as a relative path with /", key, textsafe.Clip(v.Value, 60)))
	}
	*f = vocabularyFile{path: p, line: v.Line, key: key}
	return nil
}

// validVocabularyPath accepts a file inside the folder, written with "/".
func validVocabularyPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.Contains(p, `\`)
}

func conceptEntries(v *yaml.Node) ([]manifestEntry, error) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, lineErr(v, "concepts: want a list of doc slugs, e.g. [concepts/*, guides/glossary]")
	}
	var out []manifestEntry
	for _, item := range v.Content {
		slug := strings.TrimSpace(item.Value)
		if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || slug == "" {
			return nil, lineErr(item, "concepts: want a doc slug or a pattern of slugs")
		}
		if _, err := path.Match(slug, ""); err != nil {
			return nil, lineErr(item, fmt.Sprintf("concepts: %q: %v", textsafe.Clip(slug, 60), err))
		}
		out = append(out, manifestEntry{value: slug, line: item.Line})
	}
	return out, nil
}

// readVocabularyFile returns the file's bytes, or nil when a conventional
// file is absent. A file the manifest names must exist.
func readVocabularyFile(fsys fs.FS, f vocabularyFile) ([]byte, error) {
	info, err := fs.Stat(fsys, f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && f.line == 0:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %s", f.where(), bareCause(err))
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", f.where())
	case info.Size() > MaxFileSize:
		return nil, fmt.Errorf("%s: file too large: %.1f MB, the limit is %d MB", f.where(), float64(info.Size())/(1<<20), MaxFileSize>>20)
	}
	src, err := fs.ReadFile(fsys, f.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", f.where(), bareCause(err))
	}
	if !utf8.Valid(src) {
		return nil, fmt.Errorf("%s: not valid UTF-8 text", f.where())
	}
	return src, nil
}

// withoutFile drops a markdown file the manifest made the glossary from
// what Load found: a vocabulary file is never a doc.
func withoutFile(res Result, p string) Result {
	before := len(res.Docs) + len(res.Warnings)
	res.Docs = slices.DeleteFunc(res.Docs, func(d knowledge.Doc) bool { return d.SourcePath == p })
	res.Warnings = slices.DeleteFunc(res.Warnings, func(w Warning) bool { return w.Path == p })
	if len(res.Docs)+len(res.Warnings) < before {
		res.Files--
	}
	return res
}

// checkConcepts rejects a concept entry that names no doc: a renamed or
// misspelt slug would otherwise quietly stop being a concept doc. An entry
// that names a file skipped with a warning is left to that warning.
func checkConcepts(concepts []manifestEntry, res Result) error {
	for _, c := range concepts {
		b := knowledge.Bundle{Concepts: []string{c.value}}
		matches := func(slug string) bool { return slug != "" && b.IsConcept(slug) }
		if slices.ContainsFunc(res.Docs, func(d knowledge.Doc) bool { return matches(d.Slug) }) ||
			slices.ContainsFunc(res.Warnings, func(w Warning) bool { return matches(w.Slug) }) {
			continue
		}
		return fmt.Errorf("%s:%d: concepts: %q matches no doc", ManifestFile, c.line, textsafe.Clip(c.value, 60))
	}
	return nil
}
