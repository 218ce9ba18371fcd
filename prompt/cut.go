package prompt

import "github.com/docent-sh/docent/internal/sentence"

// cutToFit returns the longest prefix of s ending at a sentence boundary
// whose cost is within budget; when no sentence fits, at a word boundary.
// It reports the prefix's cost and the kind of boundary, or false when not
// even the first word fits. cost must grow with the prefix.
func cutToFit(s string, budget int, cost func(prefix string) int) (string, int, string, bool) {
	for _, kind := range []string{"sentence", "word"} {
		var cuts []int
		if kind == "sentence" {
			cuts = sentence.Ends(s)
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
