package prompt

import "strings"

// cutToFit returns the longest prefix of s ending at a sentence boundary
// whose cost is within budget; when no sentence fits, at a word boundary.
// It reports the prefix's cost and the kind of boundary, or false when not
// even the first word fits. cost must grow with the prefix.
func cutToFit(s string, budget int, cost func(prefix string) int) (string, int, string, bool) {
	for _, kind := range []string{"sentence", "word"} {
		var cuts []int
		if kind == "sentence" {
			cuts = sentenceEnds(s)
		} else {
			cuts = wordEnds(s)
		}
		best, bestCost := -1, 0
		lo, hi := 0, len(cuts)-1
		for lo <= hi {
			mid := (lo + hi) / 2
			if n := cost(s[:cuts[mid]]); n <= budget {
				best, bestCost, lo = mid, n, mid+1
			} else {
				hi = mid - 1
			}
		}
		if best >= 0 {
			return s[:cuts[best]], bestCost, kind, true
		}
	}
	return "", 0, "", false
}

// sentenceEnds returns the byte offsets at which s can be cut after a
// whole sentence, ascending: after '.', '!' or '?' (and any closing quotes
// or brackets) followed by whitespace or the end, and at the end of a
// paragraph or of a line that a markdown block (heading, list item, table,
// quote, fence) follows. Hard-wrapped lines inside a paragraph are not
// boundaries: the sentence goes on. Offsets exclude trailing whitespace.
func sentenceEnds(s string) []int {
	var ends []int
	add := func(p int) {
		p = len(strings.TrimRight(s[:p], " \t\n"))
		if p > 0 && (len(ends) == 0 || ends[len(ends)-1] < p) {
			ends = append(ends, p)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			j := i + 1
			for j < len(s) && strings.IndexByte(`"')]*_`, s[j]) >= 0 {
				j++
			}
			if j == len(s) || isBlank(s[j]) {
				add(j)
			}
		case '\n':
			if rest := s[i+1:]; blockStarts(rest) {
				add(i)
			}
		}
	}
	return ends
}

// blockStarts reports whether the line at the start of s is blank or
// opens a markdown block, so the line before it ended a unit of text.
func blockStarts(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimLeft(line, " \t")
	if line == "" {
		return true
	}
	for _, prefix := range []string{"#", "- ", "* ", "+ ", "|", ">", "```", "~~~"} {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	// An ordered list item: digits then ". " or ") ".
	digits := len(line) - len(strings.TrimLeft(line, "0123456789"))
	return digits > 0 && digits < len(line)-1 &&
		(line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' '
}

// wordEnds returns the byte offsets just after each word of s, ascending.
func wordEnds(s string) []int {
	var ends []int
	for i := 1; i <= len(s); i++ {
		if (i == len(s) || isBlank(s[i])) && !isBlank(s[i-1]) {
			ends = append(ends, i)
		}
	}
	return ends
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
