package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/docent-sh/docent/knowledge"
	"github.com/docent-sh/docent/textsafe"
)

// ParseSynonyms reads a synonyms file: one rule a line, "from => to", what
// users say on the left and what the docs say on the right. Several
// left-hand sides may share a right-hand side: "shortcut, shortcuts =>
// quick links". Blank lines and lines starting with # are ignored. Rules
// come back in file order; errors name the line.
func ParseSynonyms(src []byte) ([]knowledge.Synonym, error) {
	var rules []knowledge.Synonym
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		left, right, ok := strings.Cut(text, "=>")
		if !ok {
			return nil, fmt.Errorf("line %d: %q: want \"from => to\"", line, textsafe.Clip(text, 60))
		}
		to := strings.TrimSpace(right)
		if len(synonymWords(to)) == 0 {
			return nil, fmt.Errorf("line %d: nothing to the right of \"=>\"", line)
		}
		for _, f := range strings.Split(left, ",") {
			from := strings.TrimSpace(f)
			if len(synonymWords(from)) == 0 {
				return nil, fmt.Errorf("line %d: empty word or phrase to the left of \"=>\"", line)
			}
			if slices.Equal(synonymWords(from), synonymWords(to)) {
				return nil, fmt.Errorf("line %d: %q maps to itself", line, textsafe.Clip(from, 60))
			}
			rules = append(rules, knowledge.Synonym{From: from, To: to})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return rules, nil
}

// synonymWords splits a side of a rule into lower-case words the way a
// query is read: runs of letters and digits.
func synonymWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
