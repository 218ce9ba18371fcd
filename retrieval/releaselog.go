package retrieval

import (
	"path"
	"regexp"
	"strings"
)

// releaseLogDamp is the factor a release log's chunks rank with: a
// changelog or release notes page names every feature as it changes, in
// passing, and so ranks for questions about any of them ("pin the
// section menu under the header" found the changelog line that fixed it,
// before the page that explains it). Halved, a log still answers when
// nothing else does; a question that writes a version or a date ("what
// changed in 9.5") ranks it undamped. Part of the definition, not a knob.
const releaseLogDamp = 0.5

// versionOrDate matches a version number ("9.5", "v2.4.0", "(1.2)") or a
// date ("2025-05-12", "May 12, 2025", "12 May 2025").
var versionOrDate = regexp.MustCompile(`(?i)(?:^|[\s(\[v])\d+\.\d+|\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}\b|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}\b`)

// minLogHeadings is how many headings a release log has at least: one or
// two dated headings are a page's history section, not a log.
const minLogHeadings = 3

// releaseLog reports whether a doc's markdown is a release log: at least
// minLogHeadings headings, half or more of them a version or a date; or
// so at the log's entry level, the shallowest that has minLogHeadings
// headings, whatever the headings under each entry. The shape, not the
// name: "Changelog", "Release notes", "What's new" and "History" pages
// alike, in any language, and a log that files each version's changes
// under "Added", "Changed" and "Fixed" (the Keep a Changelog convention)
// as much as one that lists them.
func releaseLog(md string) bool {
	if !strings.Contains(md, "#") {
		return false
	}
	var n, dated [7]int // by heading level; [0] counts every level
	for _, t := range linesOutsideFences(md) {
		h, level, ok := headingText(t)
		if !ok {
			continue
		}
		n[0]++
		n[level]++
		if versionOrDate.MatchString(h) {
			dated[0]++
			dated[level]++
		}
	}
	if n[0] >= minLogHeadings && 2*dated[0] >= n[0] {
		return true
	}
	for level := 1; level < len(n); level++ {
		if n[level] >= minLogHeadings {
			return 2*dated[level] >= n[level]
		}
	}
	return false
}

// titleVersion matches a version number in a title: "3.2", "1.0.1",
// "v2.4".
var titleVersion = regexp.MustCompile(`(?i)\bv?\d+(?:\.\d+)+\b`)

// releaseSeries reports, per doc, whether it is one page of a series of
// release notes: a page per version, minLogHeadings or more pages of one
// folder whose titles are the same but for the version ("Django 3.2
// release notes", "Django 3.2.1 release notes"). Each page reads as a
// feature guide (an overview, then a section per change), so
// releaseLog, which looks for dated headings, does not see it; yet each
// names, in passing, every feature its version changed. The shape of
// the titles, not their words: it holds for "What's new in 2.1" and
// "Notas de la versión 2.1" alike. slugs and titles are the docs', in
// the same order.
func releaseSeries(slugs, titles []string) []bool {
	type key struct{ dir, title string }
	members := map[key][]int{}
	for i, t := range titles {
		if !titleVersion.MatchString(t) {
			continue
		}
		k := key{path.Dir(slugs[i]), strings.Join(strings.Fields(strings.ToLower(titleVersion.ReplaceAllString(t, " "))), " ")}
		members[k] = append(members[k], i)
	}
	series := make([]bool, len(titles))
	for _, m := range members {
		if len(m) < minLogHeadings {
			continue
		}
		for _, i := range m {
			series[i] = true
		}
	}
	return series
}
