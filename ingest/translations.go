package ingest

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// A multilingual site keeps each page once per language: mdBook's books
// under es/ and ja/ beside the English at the root, Hugo's content/en/
// and content/fr/, a docs folder's zh-cn/. Read as docs of their own,
// translations are rivals of their page: "HashMap" asked in English got
// "Do you mean zh/std/hash or std/hash?", the translation sharing the
// page's code and names. docent reads questions with English words,
// stems and function words, so of a page's versions one is read: the
// English one.
//
// A page's versions are the docs whose paths are the same once a segment
// naming a language ("es", "zh-cn", "pt_BR") is taken out, or left out
// (the site's default language at the root); a file name may end with
// the code instead ("about.fr" beside "about", as Hugo allows). A folder named by a
// language code is a translation of the site when at least half of its
// pages have another version: a folder of the site's own that happens to
// be named like a language ("it" for the IT team, "ml") holds pages of
// its own, and is left alone. Of a page's versions the one read is the
// one at the root, or in an "en" folder, unless another writes English
// function words translationShare times as often (the root of a site
// written in another language); else the one writing them most often.

// translationShare is how many times as often as the version at the root
// (or in "en") another version must write English function words to be
// the one read instead.
const translationShare = 2

// dropTranslations leaves out of docs each version of a page in another
// language than the one read (see above), with a note naming that one.
func dropTranslations(docs []knowledge.Doc, notices []Warning) ([]knowledge.Doc, []Warning) {
	type version struct {
		doc    int
		folder string // the language folder ("es", "docs/zh-cn"), "" at the root
		lang   string // its code, lower-cased
	}
	groups := map[string][]version{} // the path without its language segment → its versions
	for i, d := range docs {
		segs := strings.Split(d.Slug, "/")
		v := version{doc: i}
		key := d.Slug
		for k := 0; k < len(segs)-1; k++ {
			if isLanguageCode(segs[k]) {
				v.folder, v.lang = strings.Join(segs[:k+1], "/"), strings.ToLower(segs[k])
				key = strings.Join(segs[:k], "/") + "\x00" + strings.Join(segs[k+1:], "/")
				break
			}
		}
		last := segs[len(segs)-1]
		if dot := strings.LastIndexByte(last, '.'); v.folder == "" && dot > 0 && isLanguageCode(last[dot+1:]) {
			// Hugo's and mkdocs-static-i18n's translation by file name:
			// "about.fr" beside "about"; all of a language's such pages
			// count as one folder.
			v.folder, v.lang = last[dot:], strings.ToLower(last[dot+1:])
			key = strings.Join(segs[:len(segs)-1], "/") + "\x00" + last[:dot]
		}
		if v.folder == "" {
			// A page at the root is the version, in the default language, of
			// a page under a language folder at any depth: keyed at each.
			for k := 0; k < len(segs); k++ {
				root := strings.Join(segs[:k], "/") + "\x00" + strings.Join(segs[k:], "/")
				groups[root] = append(groups[root], v)
			}
			continue
		}
		groups[key] = append(groups[key], v)
	}
	folders := map[string][2]int{} // language folder → its pages, those with another version
	for _, vs := range groups {
		coded := 0
		for _, v := range vs {
			if v.folder != "" {
				coded++
			}
		}
		if coded == 0 {
			continue
		}
		for _, v := range vs {
			if v.folder != "" {
				n := folders[v.folder]
				n[0]++
				if len(vs) > 1 {
					n[1]++
				}
				folders[v.folder] = n
			}
		}
	}
	shares := map[int]float64{}
	share := func(i int) float64 {
		if v, ok := shares[i]; ok {
			return v
		}
		shares[i] = englishShare(docs[i])
		return shares[i]
	}
	drop := make([]int, len(docs)) // 1 + the index of the doc read instead, 0 to keep
	for _, vs := range groups {
		var in []version // the versions in translation folders, and the root's
		for _, v := range vs {
			if n := folders[v.folder]; v.folder == "" || 2*n[1] >= n[0] {
				in = append(in, v)
			}
		}
		coded := slices.ContainsFunc(in, func(v version) bool { return v.folder != "" })
		if len(in) < 2 || !coded {
			continue
		}
		read := -1
		for _, v := range in {
			if v.folder == "" || v.lang == "en" || strings.HasPrefix(v.lang, "en-") {
				read = v.doc
				break
			}
		}
		for _, v := range in {
			if read < 0 || share(v.doc) > translationShare*share(read) {
				read = v.doc
			}
		}
		for _, v := range in {
			if v.doc != read && drop[v.doc] == 0 {
				drop[v.doc] = read + 1
			}
		}
	}
	out := docs[:0:0]
	for i, d := range docs {
		if drop[i] == 0 {
			out = append(out, d)
			continue
		}
		notices = append(notices, Warning{Path: d.SourcePath, Slug: d.Slug, Kind: Excluded,
			Msg: "a translation of " + docs[drop[i]-1].SourcePath + ": the page in English is read"})
	}
	return out, notices
}

// englishFunctionWords are the most frequent words of English text, none
// of them a word of another language's common text.
var englishFunctionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("the and of to is in you that it for with as are this be can or by an your if from not will when which") {
		englishFunctionWords[w] = true
	}
}

// englishShare is the share of a doc's letters that spell English
// function words. Letters, not words: Chinese and Japanese write no
// spaces, and a sentence of theirs would count as one word beside the
// English names and code it keeps.
func englishShare(d knowledge.Doc) float64 {
	letters, english := 0, 0
	for _, c := range d.Chunks {
		for _, w := range strings.FieldsFunc(strings.ToLower(c.Text), func(r rune) bool { return !unicode.IsLetter(r) }) {
			n := utf8.RuneCountInString(w)
			letters += n
			if englishFunctionWords[w] {
				english += n
			}
		}
	}
	if letters == 0 {
		return 0
	}
	return float64(english) / float64(letters)
}

// isLanguageCode reports a path segment naming a language as sites do:
// an ISO 639-1 code, alone or with a region or script ("pt-br",
// "zh_CN", "zh-hans").
func isLanguageCode(seg string) bool {
	lang, region, hasRegion := strings.Cut(strings.ReplaceAll(strings.ToLower(seg), "_", "-"), "-")
	if !iso639[lang] {
		return false
	}
	if !hasRegion {
		return true
	}
	if len(region) == 4 {
		return scripts[region] // "zh-hans"; not "it-team", the IT team's folder
	}
	if len(region) != 2 {
		return false
	}
	for _, r := range region {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// scripts are the ISO 15924 codes sites write after a language: a
// region is two letters, a script four, and only these are one.
var scripts = map[string]bool{"hans": true, "hant": true, "latn": true, "cyrl": true, "arab": true, "deva": true, "beng": true, "guru": true, "hebr": true, "grek": true, "thai": true, "jpan": true, "kore": true}

// iso639 holds the ISO 639-1 language codes.
var iso639 = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy
da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it
iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl
nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg
th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`) {
		iso639[c] = true
	}
}
