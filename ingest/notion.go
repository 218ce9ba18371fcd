package ingest

import (
	"regexp"
	"strings"
)

// Notion's "Markdown & CSV" export writes no front matter: a page's
// properties follow its "# Title" as a paragraph of "Key: value" lines,
// one per property ("Owner: Dana Ruiz", "Last edited: March 3, 2026",
// "Tags: Payments, Refunds"). They are the page's metadata, not its text:
// read as body, they opened every answer with "Owner: … Status: Published".

// notionProperty matches one property line: a capitalized name of a few
// words, a colon, a value.
var notionProperty = regexp.MustCompile(`^([A-Z][A-Za-z]*(?: [A-Za-z]+){0,3}): +(\S.*)$`)

// notionKeys are property names Notion's workspaces use by default or by
// habit; a block must name one of them to be taken for properties, so a
// paragraph of "Step 1: …" lines stays text.
var notionKeys = map[string]bool{
	"Owner": true, "Created": true, "Created by": true, "Created time": true, "Last edited": true,
	"Last edited by": true, "Last edited time": true, "Last updated": true, "Status": true, "Tags": true,
	"Category": true, "Type": true, "Verification": true, "Assignee": true, "Reviewed": true,
}

// notionTagKeys are the properties whose values are the page's keywords.
var notionTagKeys = map[string]bool{"Tags": true, "Keywords": true, "Category": true}

// notionProperties finds a page's property block in a body without front
// matter: after the first line, a "# Title", and blank lines, two or more
// property lines, one of them a known property, ending at a blank line or
// the end. It returns the body with those lines blank (so line numbers
// stay), and the values of its tag properties; the body as it was when
// there is no such block.
func notionProperties(body []string) ([]string, []string) {
	i := 0
	for i < len(body) && strings.TrimSpace(body[i]) == "" {
		i++
	}
	if i == len(body) || !strings.HasPrefix(body[i], "# ") {
		return body, nil
	}
	for i++; i < len(body) && strings.TrimSpace(body[i]) == ""; i++ {
	}
	start, known := i, false
	var tags []string
	for ; i < len(body) && strings.TrimSpace(body[i]) != ""; i++ {
		m := notionProperty.FindStringSubmatch(strings.TrimRight(body[i], " \t"))
		if m == nil {
			return body, nil
		}
		known = known || notionKeys[m[1]]
		if notionTagKeys[m[1]] {
			for _, t := range strings.Split(m[2], ",") {
				if t = strings.TrimSpace(t); t != "" {
					tags = append(tags, t)
				}
			}
		}
	}
	if i-start < 2 || !known {
		return body, nil
	}
	out := append([]string(nil), body...)
	for j := start; j < i; j++ {
		out[j] = ""
	}
	return out, tags
}
