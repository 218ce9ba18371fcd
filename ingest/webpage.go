package ingest

import (
	"regexp"
	"slices"
	"strings"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// Pages saved from the web keep what the browser showed around the
// article. Two traces of that reach a knowledge base often enough to read:
// the header a reader service writes above the page, and the site's name
// in every page's title.

// readerHeaderKeys are the lines Jina Reader (r.jina.ai), the usual way to
// turn a web page into markdown for a model, writes above the page:
// "Title: …", "URL Source: …", sometimes "Published Time: …" and
// "Warning: …", then "Markdown Content:".
var readerHeaderKeys = []string{"Title:", "URL Source:", "Published Time:", "Warning:", "Markdown Content:"}

// maxReaderHeader bounds the lines a reader header may take: its keys,
// each once, and blank lines between them.
const maxReaderHeader = 2 * 5

// readerHeader reads a Jina Reader header at the start of a body without
// front matter: a "Title:" line first and a "URL Source:" line among the
// header lines. It returns the body with the header's lines blank (so
// line numbers stay) and the page's title; the body as it was and "" when
// there is no such header.
func readerHeader(body []string) ([]string, string) {
	i := 0
	for i < len(body) && strings.TrimSpace(body[i]) == "" {
		i++
	}
	if i == len(body) || !strings.HasPrefix(body[i], "Title:") {
		return body, ""
	}
	title, end, source := "", i, false
	for j := i; j < len(body) && j < i+maxReaderHeader; j++ {
		l := body[j]
		if strings.TrimSpace(l) == "" {
			continue
		}
		key := ""
		for _, k := range readerHeaderKeys {
			if strings.HasPrefix(l, k) {
				key = k
			}
		}
		if key == "" {
			break
		}
		switch {
		case key == "Title:" && j == i:
			title = strings.TrimSpace(strings.TrimPrefix(l, key))
		case key == "URL Source:":
			source = true
		}
		end = j + 1
		if key == "Markdown Content:" {
			break
		}
	}
	if !source {
		return body, ""
	}
	out := slices.Clone(body)
	for j := i; j < end; j++ {
		out[j] = ""
	}
	return out, title
}

// siteTitleSeparators set a site's name apart from the page's in an HTML
// title: "Deposits | Brightdesk Help Center", "Refunds – Acme Support".
// A plain hyphen is left out: authors write it inside titles ("Install -
// Linux").
var siteTitleSeparators = []string{" | ", " – ", " — "}

// minSiteTitleDocs is how many docs must end their titles with the same
// suffix, and minSiteTitleShare what share of the docs, for it to be the
// site's name rather than part of a few titles.
const (
	minSiteTitleDocs  = 3
	minSiteTitleShare = 0.1
)

// stripSiteTitles removes from the docs' titles a suffix that many of
// them share after a separator ("… | Brightdesk Help Center"): the
// site's name, which a crawler copies from each page's HTML title. It
// names no page, and it keeps a question from meeting the title it asks
// for. The chunks of a doc whose title changed are rebuilt: their header
// paths start with it.
//
// A prefix is the same: Confluence's export titles each page "Space :
// Page", and some sites write "Site | Page".
func stripSiteTitles(docs []knowledge.Doc) {
	suffixes, prefixes := map[string]int{}, map[string]int{}
	weakSuffixes, weakPrefixes := map[string]int{}, map[string]int{}
	for _, d := range docs {
		if s := siteSuffix(d.Title); s != "" {
			suffixes[s]++
		}
		if s := weakSuffix(d.Title); s != "" {
			weakSuffixes[s]++
		}
		if p := sitePrefix(d.Title); p != "" {
			prefixes[p]++
		}
		if p := colonPrefix(d.Title); p != "" {
			weakPrefixes[p]++
		}
	}
	numbered := 0
	for _, d := range docs {
		if bareSectionNumber.MatchString(d.Title) {
			numbered++
		}
	}
	shared := func(counts map[string]int, s string, share float64) bool {
		return s != "" && counts[s] >= minSiteTitleDocs && float64(counts[s]) >= share*float64(len(docs))
	}
	var retitled []int
	for i := range docs {
		title := docs[i].Title
		if s := siteSuffix(title); shared(suffixes, s, minSiteTitleShare) {
			title = strings.TrimSpace(strings.TrimSuffix(title, s))
		} else if s := weakSuffix(title); shared(weakSuffixes, s, weakSiteTitleShare) {
			title = strings.TrimSpace(strings.TrimSuffix(title, s))
		}
		if p := sitePrefix(title); shared(prefixes, p, minSiteTitleShare) {
			title = strings.TrimSpace(strings.TrimPrefix(title, p))
		} else if p := colonPrefix(title); shared(weakPrefixes, p, weakSiteTitleShare) {
			title = strings.TrimSpace(strings.TrimPrefix(title, p))
		}
		if numbered >= minSiteTitleDocs && float64(numbered) >= weakSiteTitleShare*float64(len(docs)) {
			if m := bareSectionNumber.FindStringSubmatchIndex(title); m != nil {
				title = title[m[3]:]
			}
		}
		if title != docs[i].Title {
			docs[i].Title = textsafe.Line(title)
			retitled = append(retitled, i)
		}
	}
	chunkEach(docs, retitled)
}

// weakSiteTitleShare is the share of the docs that must have the same
// weaker mark of a site's name for it to be one: a " - " suffix, as
// MkDocs writes it ("Setup - Material for MkDocs"); a name in brackets
// after the title, as makeinfo writes every page of a manual ("11
// Arithmetic Evaluation (zsh)"); a name and a colon before it ("libvirt:
// Client access control"). Authors write those inside titles too
// ("Install - Linux", "Tokens (API)", "FAQ: The admin"), but not on most
// of the pages.
const weakSiteTitleShare = 0.5

// bareSectionNumber matches a section number written without a full stop
// before a title that starts with a capital, as makeinfo numbers a
// manual's chapters ("11 Arithmetic Evaluation", "14.3 Parameter
// Expansion"). One title written so is the title's own ("2024
// Roadmap"); most of a folder's are the book's numbering, which no
// question writes (see withoutSectionNumber for the numbers with one).
var bareSectionNumber = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)* +)\p{Lu}`)

// weakSuffix returns a title's hyphen suffix (see hyphenSuffix) or, when
// it has none, the name in brackets it ends with, with the space before
// it: " (zsh)". "" when it has neither or nothing precedes it.
func weakSuffix(title string) string {
	if s := hyphenSuffix(title); s != "" {
		return s
	}
	if !strings.HasSuffix(title, ")") {
		return ""
	}
	i := strings.LastIndex(title, " (")
	if i <= 0 || strings.TrimSpace(title[:i]) == "" || strings.ContainsAny(title[i+2:len(title)-1], "()") {
		return ""
	}
	return title[i:]
}

// colonPrefix returns a title's first "name: " (no space before the
// colon), "" when it has none or nothing follows it.
func colonPrefix(title string) string {
	i := strings.Index(title, ": ")
	if i <= 0 || strings.TrimSpace(title[i+2:]) == "" || strings.TrimSpace(title[:i]) != title[:i] {
		return ""
	}
	return title[:i+2]
}

// hyphenSuffix returns a title's last " - " and what follows it, "" when
// it has none or nothing precedes it.
func hyphenSuffix(title string) string {
	i := strings.LastIndex(title, " - ")
	if i <= 0 || strings.TrimSpace(title[:i]) == "" {
		return ""
	}
	return title[i:]
}

// sitePrefixSeparators set a site's name apart before the page's:
// Confluence's " : " and the suffix separators.
var sitePrefixSeparators = append([]string{" : "}, siteTitleSeparators...)

// sitePrefix returns a title's first separator and what precedes it, ""
// when it has none or nothing follows it.
func sitePrefix(title string) string {
	best := -1
	for _, sep := range sitePrefixSeparators {
		if i := strings.Index(title, sep); i > 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	for _, sep := range sitePrefixSeparators {
		if strings.HasPrefix(title[best:], sep) {
			if strings.TrimSpace(title[best+len(sep):]) == "" {
				return ""
			}
			return title[:best+len(sep)]
		}
	}
	return ""
}

// siteSuffix returns a title's last separator and what follows it, ""
// when it has none or nothing precedes it.
func siteSuffix(title string) string {
	best := -1
	for _, sep := range siteTitleSeparators {
		if i := strings.LastIndex(title, sep); i > best {
			best = i
		}
	}
	if best <= 0 || strings.TrimSpace(title[:best]) == "" {
		return ""
	}
	return title[best:]
}
