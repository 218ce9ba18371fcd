package ingest

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// GitHub Docs keeps what many pages share in data files beside its
// content: "{% data reusables.repositories.navigate-to-repo %}" stands for
// the markdown file data/reusables/repositories/navigate-to-repo.md, and
// "{% data variables.product.prodname_actions %}" for the value of
// prodname_actions in data/variables/product.yml ("GitHub Actions").
// Jekyll sites do the same with "{{ site.data.product.name }}" and
// _data/product.yml. The product's own names live there: a page titled
// "About {% data variables.product.prodname_actions %}" is about GitHub
// Actions, and without the value a question naming the product finds a
// page that never says it. So docent reads the value where the tag stands.
// A tag whose file is not in the knowledge base (the content folder
// copied without its data folder) is left out, as before.

var (
	// liquidDataLine is a data tag alone on its line: a reusable, read in
	// as an include (it may hold several paragraphs, a list, a table).
	liquidDataLine = regexp.MustCompile(`^\s*\{%-?\s*data\s+([A-Za-z0-9_][\w.-]*)\s*-?%\}\s*$`)
	// liquidDataRef is a data tag, or Jekyll's data output, anywhere.
	liquidDataRef = regexp.MustCompile(`\{%-?\s*data\s+([A-Za-z0-9_][\w.-]*)\s*-?%\}|\{\{-?\s*site\.data\.([A-Za-z0-9_][\w.-]*)\s*-?\}\}`)
)

// The folders data tags read from: GitHub Docs' "{% data %}" from data/,
// Jekyll's "site.data" from _data/.
const (
	githubDataFolder = "data"
	jekyllDataFolder = "_data"
)

// maxDataDepth bounds values holding data tags themselves ("{% data
// variables.product.prodname_dotcom %} Enterprise"): a cycle must end.
const maxDataDepth = 4

// dataInclude is the include a data tag alone on its line stands for: the
// markdown file of a reusable, from the root.
func dataInclude(line string) (includeDirective, bool) {
	m := liquidDataLine.FindStringSubmatch(line)
	if m == nil {
		return includeDirective{}, false
	}
	return includeDirective{target: dataPath(githubDataFolder, m[1]) + ".md", root: true, inFences: true}, true
}

// dataPath is the path a dotted key names under folder, without extension.
func dataPath(folder, key string) string {
	return path.Join(folder, strings.ReplaceAll(key, ".", "/"))
}

// substituteData replaces the data tags of s that name a value of the
// knowledge base with the value; keep says whether a tag naming none stays
// as written (for the converter to drop) or goes (in a title, where no
// converter runs). used collects the data files read, for the doc's hash.
func (sf *siteFiles) substituteData(s string, keep bool, used *[]string) string {
	return sf.substituteDepth(s, keep, used, 0)
}

func (sf *siteFiles) substituteDepth(s string, keep bool, used *[]string, depth int) string {
	if !strings.Contains(s, "data") || !strings.ContainsRune(s, '{') {
		return s
	}
	return liquidDataRef.ReplaceAllStringFunc(s, func(tag string) string {
		m := liquidDataRef.FindStringSubmatch(tag)
		folder, key := githubDataFolder, m[1]
		if key == "" {
			folder, key = jekyllDataFolder, m[2]
		}
		v, ok := sf.dataValue(folder, key, used)
		if !ok {
			if keep {
				return tag
			}
			return ""
		}
		if depth < maxDataDepth {
			v = sf.substituteDepth(v, keep, used, depth+1)
		}
		return v
	})
}

// dataValue finds a dotted key's value: a scalar in a YAML or JSON file
// named by a prefix of the key (the longest first), the rest of the key
// walking its mappings; or a markdown file of one paragraph, named by the
// whole key, inline.
func (sf *siteFiles) dataValue(folder, key string, used *[]string) (string, bool) {
	if sf == nil {
		return "", false // parsing a file alone: no other file to read
	}
	segs := strings.Split(key, ".")
	for i := len(segs) - 1; i >= 1; i-- {
		base := dataPath(folder, strings.Join(segs[:i], "."))
		for _, ext := range []string{".yml", ".yaml", ".json"} {
			m := sf.dataFile(base + ext)
			if m == nil {
				continue
			}
			if v, ok := walkData(m, segs[i:]); ok {
				*used = append(*used, base+ext)
				return v, true
			}
		}
	}
	p := dataPath(folder, key) + ".md"
	text, err := sf.read(p)
	if err != nil {
		return "", false
	}
	lines := trimBlankLines(normalizeLines(text))
	if len(lines) != 1 {
		return "", false // several lines: only a block reads them, as an include
	}
	*used = append(*used, p)
	return strings.TrimSpace(lines[0]), true
}

// dataFile parses a data file once per load; nil when it is missing, not
// readable or not a mapping.
func (sf *siteFiles) dataFile(p string) map[string]any {
	sf.dataMu.Lock()
	defer sf.dataMu.Unlock()
	if m, ok := sf.data[p]; ok {
		return m
	}
	var m map[string]any
	if text, err := sf.read(p); err == nil {
		if yaml.Unmarshal([]byte(text), &m) != nil {
			m = nil // JSON is YAML too; a file neither parses as is not data
		}
	}
	if sf.data == nil {
		sf.data = map[string]map[string]any{}
	}
	sf.data[p] = m
	return m
}

// walkData follows keys through nested mappings to a scalar.
func walkData(m map[string]any, keys []string) (string, bool) {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = mm[k]; !ok {
			return "", false
		}
	}
	switch x := v.(type) {
	case string:
		return x, true
	case int:
		return strconv.Itoa(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// dataTexts are the texts of the data files a doc read values from, once
// each, for its content hash: a changed value is a new version of the page.
func dataTexts(sf *siteFiles, paths []string) []string {
	var texts []string
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if text, err := sf.read(p); err == nil {
			texts = append(texts, text)
		}
	}
	return texts
}
