package analysis

import (
	"slices"
	"unicode/utf8"
)

// TypoFixer corrects a misspelled query word to a known term. Known terms
// are few (titles, keywords, glossary headwords), so they are bucketed by
// length and only buckets within the allowed distance are compared: the
// cost does not grow with the corpus.
type TypoFixer struct {
	byLen map[int][]knownWord
}

type knownWord struct {
	word  string
	runes []rune
	df    int // how many units contain it: breaks ties toward the common term
}

// NewTypoFixer knows words, each with how many units contain it (df).
func NewTypoFixer(words map[string]bool, df func(string) int) *TypoFixer {
	f := &TypoFixer{byLen: map[int][]knownWord{}}
	sorted := make([]string, 0, len(words))
	for w := range words {
		sorted = append(sorted, w)
	}
	slices.Sort(sorted) // deterministic tie-breaks
	for _, w := range sorted {
		r := []rune(w)
		f.byLen[len(r)] = append(f.byLen[len(r)], knownWord{word: w, runes: r, df: df(w)})
	}
	return f
}

// maxTypoDistance is the edit distance tolerated for a word: none under 4
// characters (too many short words are one edit apart), 1 up to 7, 2 from 8.
func maxTypoDistance(word string) int {
	switch n := utf8.RuneCountInString(word); {
	case n < 4:
		return 0
	case n < 8:
		return 1
	default:
		return 2
	}
}

// Fix returns the closest known word within the allowed distance, preferring
// the smaller distance, then the term found in more units, then the
// alphabetically first, so the same typo always gets the same fix.
func (f *TypoFixer) Fix(word string) (string, bool) {
	maxD := maxTypoDistance(word)
	if maxD == 0 {
		return "", false
	}
	q := []rune(word)
	best, bestD, bestDF := "", maxD+1, -1
	for n := len(q) - maxD; n <= len(q)+maxD; n++ {
		for _, k := range f.byLen[n] {
			d := editDistance(q, k.runes, bestD)
			if d < bestD || d == bestD && d <= maxD && k.df > bestDF {
				best, bestD, bestDF = k.word, d, k.df
			}
		}
	}
	if bestD > maxD || best == word {
		return "", false
	}
	return best, true
}

// EditDistance is editDistance over strings, for matching a misspelt name
// (a configuration key) the way a misspelt word is matched. It returns
// limit+1 or more once the distance exceeds limit.
func EditDistance(a, b string, limit int) int { return editDistance([]rune(a), []rune(b), limit) }

// editDistance is the optimal-string-alignment distance (insertions,
// deletions, substitutions and adjacent transpositions each cost 1): a
// swapped pair of letters is the most common typing slip. It gives up early
// and returns limit+1 or more once every alignment exceeds limit.
func editDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// longStopwords are the stopwords of four letters or more, sorted: the
// function words a hurried question misspells ("wher", "waht", "shoud").
var longStopwords = func() []string {
	var out []string
	for w := range stopwords {
		if utf8.RuneCountInString(w) >= 4 {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
}()

// StopwordTypo returns the function word word is a slip of, and whether
// it is one: one edit from a stopword of five letters or more ("wher" for
// where, "shoud"), or two swapped letters of a four-letter one ("waht",
// "tihs"). A four-letter word one letter from a stopword is often a word
// of its own ("come" and "some", "wire" and "were"), so only a swap
// counts there. Left as it is, a slip the docs never write would weigh
// most of the question.
func StopwordTypo(word string) (string, bool) {
	if len(word) < 4 || stopwords[word] || !isASCII(word) {
		return "", false // stopwords are ASCII: a word that is not is no slip of one
	}
	for _, s := range longStopwords {
		if d := len(s) - len(word); d > 1 || d < -1 {
			continue
		}
		if len(s) >= 5 && oneEdit(word, s) || swapped(word, s) {
			return s, true
		}
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// oneEdit reports whether ASCII strings a and b differ by one insertion,
// deletion or substitution (or not at all), without allocating: it runs
// for every word of a question the docs do not write.
func oneEdit(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return i == len(a) || a[i+1:] == b[i+1:]
	}
	return a[i:] == b[i+1:]
}

// swapped reports whether ASCII strings a and b differ only by two
// adjacent letters swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// FixSlip returns the known word that word is a spelling slip of: two
// adjacent letters swapped ("recieve", "defualt") or a doubled letter
// written once or a letter written twice ("automaticaly", "adress",
// "untill"). These are how people misspell words they know; a word one
// other edit from a known one is as often a word of its own ("coaching"
// and "caching", "bread" and "break"), which a fixer without a dictionary
// cannot tell from a typo. Ties go to the word found in more units, then
// to the alphabetically first.
func (f *TypoFixer) FixSlip(word string) (string, bool) {
	q := []rune(word)
	best, bestDF := "", -1
	for n := len(q) - 1; n <= len(q)+1; n++ {
		for _, k := range f.byLen[n] {
			if k.df > bestDF && isSlip(q, k.runes) {
				best, bestDF = k.word, k.df
			}
		}
	}
	return best, best != ""
}

// isSlip reports whether a is b with two adjacent letters swapped, or
// with one letter of a doubled pair left out or one letter doubled.
func isSlip(a, b []rune) bool {
	switch len(a) - len(b) {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i] != a[i+1] && slices.Equal(a[i+2:], b[i+2:])
	case 1:
		return doubledOnce(a, b)
	case -1:
		return doubledOnce(b, a)
	}
	return false
}

// doubledOnce reports whether long is short with one letter written twice
// where short writes it once.
func doubledOnce(long, short []rune) bool {
	i := 0
	for i < len(short) && long[i] == short[i] {
		i++
	}
	// long[i] is the extra letter: it repeats its neighbour.
	if !slices.Equal(long[i+1:], short[i:]) {
		return false
	}
	return i > 0 && long[i] == long[i-1] || i+1 < len(long) && long[i] == long[i+1]
}
