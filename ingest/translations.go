package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docent-sh/docent/knowledge"
)

// A multilingual site keeps each page once per language: mdBook's books
// under es/ and ja/, Hugo's content/fr/, a docs folder's zh-cn/. Read as
// docs of their own, translations are rivals of their page: "HashMap"
// asked in English got "Do you mean 哈希表 HashMap or HashMap?", the
// translation sharing the page's code and names. docent reads questions
// with English words, stems and function words, so of a page and its
// translation one is read: the English one.
//
// A folder named by a language code ("es", "zh-cn", "pt_BR") is a
// translation of the site when at least half of its pages have a twin
// at the same path without that folder ("es/hello/print" and
// "hello/print"): a folder of the site's own that happens to be named
// like a language ("it", "ml", "os") holds pages of its own. Of each
// twin pair the page in the language folder goes, unless the other one
// writes English function words translationShare times less often: then
// the site's root is the translation (a site written in another
// language, with an English version).

// translationShare is how much less often a page must write English
// function words than its twin to be the translation of the two, when
// it is the one outside the language folder.
const translationShare = 2

// dropTranslations leaves out of docs each translation of another doc
// (see above), with a note naming the doc kept.
func dropTranslations(docs []knowledge.Doc, notices []Warning) ([]knowledge.Doc, []Warning) {
	bySlug := make(map[string]int, len(docs))
	for i, d := range docs {
		bySlug[d.Slug] = i
	}
	type twin struct{ coded, plain int }
	var twins []twin
	folders := map[string][2]int{} // language folder → pages in it, pages with a twin
	for i, d := range docs {
		segs := strings.Split(d.Slug, "/")
		for k := 0; k < len(segs)-1; k++ {
			if !isLanguageCode(segs[k]) {
				continue
			}
			folder := strings.Join(segs[:k+1], "/")
			n := folders[folder]
			n[0]++
			if j, ok := bySlug[strings.Join(append(segs[:k:k], segs[k+1:]...), "/")]; ok {
				n[1]++
				twins = append(twins, twin{coded: i, plain: j})
			}
			folders[folder] = n
			break
		}
	}
	drop := make([]int, len(docs)) // 1 + the index of the doc kept instead, 0 to keep
	for _, t := range twins {
		segs := strings.Split(docs[t.coded].Slug, "/")
		folder := ""
		for k, seg := range segs {
			if isLanguageCode(seg) {
				folder = strings.Join(segs[:k+1], "/")
				break
			}
		}
		if n := folders[folder]; 2*n[1] < n[0] {
			continue // a folder of the site's own
		}
		if englishShare(docs[t.coded]) > translationShare*englishShare(docs[t.plain]) {
			drop[t.plain] = t.coded + 1
		} else {
			drop[t.coded] = t.plain + 1
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
	if n := len(region); n < 2 || n > 4 {
		return false
	}
	for _, r := range region {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

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
