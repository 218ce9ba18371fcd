package analysis

import (
	"unicode"
	"unicode/utf8"
)

// porterStem returns the Porter stem of word: M.F. Porter's suffix
// stripping algorithm (1980, "An algorithm for suffix stripping"), written
// for docent so the binary links no search library just for this.
//
// The stems must stay the ones docent has always indexed under (they are
// stem keys in every built index and the decision policy's coverage counts
// them), so the function keeps the behaviour of the implementation it
// replaces, github.com/blevesearch/go-porterstemmer, byte for byte; the
// differential test and FuzzPorterStem hold it to that. That means these
// departures from the 1980 paper, all deliberate:
//
//   - like Porter's own published reference implementation, step 2 turns
//     "bli" (not "abli") into "ble" and "logi" into "log";
//   - a suffix only matches when something is left in front of it: "ies"
//     becomes "ie" (step 1a's "s"), not "i", and "ated" stays "at";
//   - words of one or two letters are left alone;
//   - every rune is lower-cased with unicode.ToLower first (the analyzer's
//     terms already are), and anything but a–z counts as a consonant;
//   - invalid UTF-8 comes back with each bad byte as U+FFFD, as a []rune
//     conversion makes it.
//
// Most words are ASCII and lose only a suffix: their stem is a prefix of
// word and costs no allocation.
func porterStem(word string) string {
	// A stack buffer holds any ordinary word; longer ones spill to the
	// heap. Ranging over the string decodes each invalid byte as U+FFFD.
	var buf [48]rune
	w := buf[:0]
	ascii := true // then w[i] is word[i] lower-cased
	for _, r := range word {
		ascii = ascii && r < utf8.RuneSelf
		w = append(w, unicode.ToLower(r))
	}
	w = stem(w)
	// A capital in word fails the comparison, so lower-cased words are new.
	if ascii && prefix(w, word) {
		return word[:len(w)]
	}
	return string(w)
}

// prefix reports whether the ASCII runes w begin word.
func prefix(w []rune, word string) bool {
	if len(w) > len(word) {
		return false
	}
	for i, r := range w {
		if r != rune(word[i]) {
			return false
		}
	}
	return true
}

// stem applies the algorithm's five steps to w, lower-case, in place.
// Anything but a-z is a consonant, so a multi-byte letter is one.
func stem(w []rune) []rune {
	if len(w) <= 2 {
		return w
	}
	w = step1a(w)
	w = step1b(w)
	w = step1c(w)
	w = replaceSuffix(w, step2, 0)
	w = replaceSuffix(w, step3, 0)
	w = replaceSuffix(w, step4, 1)
	w = step5a(w)
	return step5b(w)
}

// plainVowel reports whether c is one of a, e, i, o, u: the letters that
// are vowels wherever they stand.
func plainVowel(c rune) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'
}

// vowelAt reports whether w[i] is a vowel. A y is one after a consonant
// and a consonant at the start of a word or after a vowel, so in a run of
// ys the roles alternate from the letter before the run.
func vowelAt(w []rune, i int) bool {
	if w[i] != 'y' {
		return plainVowel(w[i])
	}
	j := i
	for j > 0 && w[j-1] == 'y' {
		j--
	}
	first := j > 0 && !plainVowel(w[j-1])
	return first == ((i-j)%2 == 0)
}

// measure is Porter's m: the number of vowel-consonant sequences in
// [C](VC)^m[V], i.e. how many times a vowel is followed by a consonant.
func measure(w []rune) int {
	m := 0
	prevVowel := false
	for i, c := range w {
		vowel := plainVowel(c) || c == 'y' && i > 0 && !prevVowel
		if prevVowel && !vowel {
			m++
		}
		prevVowel = vowel
	}
	return m
}

// hasVowel is Porter's *v*: the stem contains a vowel.
func hasVowel(w []rune) bool {
	for i := range w {
		if vowelAt(w, i) {
			return true
		}
	}
	return false
}

// doubleConsonant is Porter's *d: w ends with two equal consonants.
func doubleConsonant(w []rune) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && !vowelAt(w, n-1)
}

// cvc is Porter's *o: w ends consonant-vowel-consonant and the last
// consonant is not w, x or y ("hop" is one, "snow" and "box" are not).
func cvc(w []rune) bool {
	n := len(w)
	if n < 3 {
		return false
	}
	last := w[n-1]
	return !vowelAt(w, n-3) && vowelAt(w, n-2) && !vowelAt(w, n-1) &&
		last != 'w' && last != 'x' && last != 'y'
}

// ends reports whether w ends with suffix with at least one letter before
// it: a whole word is never its own suffix.
func ends(w []rune, suffix string) bool {
	// Most words fail on their last letter: compare it first.
	if len(w) <= len(suffix) || w[len(w)-1] != rune(suffix[len(suffix)-1]) {
		return false
	}
	tail := w[len(w)-len(suffix):]
	for i := range tail {
		if tail[i] != rune(suffix[i]) {
			return false
		}
	}
	return true
}

// put overwrites w from position at with s, extending w if it must; the
// callers only ever write over letters they removed, so w's array holds it.
func put(w []rune, at int, s string) []rune {
	w = w[:at]
	for i := 0; i < len(s); i++ {
		w = append(w, rune(s[i]))
	}
	return w
}

// step1a removes plural endings: sses → ss, ies → i, ss stays, s → "".
func step1a(w []rune) []rune {
	switch {
	case ends(w, "sses"), ends(w, "ies"):
		return w[:len(w)-2]
	case ends(w, "ss"):
		return w
	case ends(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// step1b removes -eed, -ed and -ing, then tidies the stem so that
// "hopping" gives "hop" and "hoping" "hope".
func step1b(w []rune) []rune {
	var base []rune
	switch {
	case ends(w, "eed"):
		// (m>0) eed → ee; with m = 0 the word keeps its ending and "ed"
		// is not tried ("feed" stays).
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	case ends(w, "ed"):
		base = w[:len(w)-2]
	case ends(w, "ing"):
		base = w[:len(w)-3]
	default:
		return w
	}
	if !hasVowel(base) {
		return w
	}
	switch last := base[len(base)-1]; {
	case ends(base, "at"), ends(base, "bl"), ends(base, "iz"):
		return put(base, len(base), "e")
	case doubleConsonant(base) && last != 'l' && last != 's' && last != 'z':
		return base[:len(base)-1]
	case measure(base) == 1 && cvc(base):
		return put(base, len(base), "e")
	}
	return base
}

// step1c turns a final y into i when the stem has a vowel: "happy" gives
// "happi", "sky" stays.
func step1c(w []rune) []rune {
	if ends(w, "y") && hasVowel(w[:len(w)-1]) {
		w[len(w)-1] = 'i'
	}
	return w
}

// rule replaces a suffix; onlyAfterST limits it to stems ending in s or t
// (step 4's "ion").
type rule struct {
	suffix, with string
	onlyAfterST  bool
}

// Porter's steps 2, 3 and 4, in the paper's order. In each step the first
// suffix that matches decides: when its stem's measure is too small the
// word is left alone, and no shorter suffix is tried.
var (
	step2 = []rule{
		{suffix: "ational", with: "ate"}, {suffix: "tional", with: "tion"},
		{suffix: "enci", with: "ence"}, {suffix: "anci", with: "ance"},
		{suffix: "izer", with: "ize"}, {suffix: "bli", with: "ble"},
		{suffix: "alli", with: "al"}, {suffix: "entli", with: "ent"},
		{suffix: "eli", with: "e"}, {suffix: "ousli", with: "ous"},
		{suffix: "ization", with: "ize"}, {suffix: "ation", with: "ate"},
		{suffix: "ator", with: "ate"}, {suffix: "alism", with: "al"},
		{suffix: "iveness", with: "ive"}, {suffix: "fulness", with: "ful"},
		{suffix: "ousness", with: "ous"}, {suffix: "aliti", with: "al"},
		{suffix: "iviti", with: "ive"}, {suffix: "biliti", with: "ble"},
		{suffix: "logi", with: "log"},
	}
	step3 = []rule{
		{suffix: "icate", with: "ic"}, {suffix: "ative"}, {suffix: "alize", with: "al"},
		{suffix: "iciti", with: "ic"}, {suffix: "ical", with: "ic"}, {suffix: "ful"},
		{suffix: "ness"},
	}
	step4 = []rule{
		{suffix: "al"}, {suffix: "ance"}, {suffix: "ence"}, {suffix: "er"},
		{suffix: "ic"}, {suffix: "able"}, {suffix: "ible"}, {suffix: "ant"},
		{suffix: "ement"}, {suffix: "ment"}, {suffix: "ent"},
		{suffix: "ion", onlyAfterST: true}, {suffix: "ou"}, {suffix: "ism"},
		{suffix: "ate"}, {suffix: "iti"}, {suffix: "ous"}, {suffix: "ive"},
		{suffix: "ize"},
	}
)

// replaceSuffix applies the first rule whose suffix w ends with, when the
// stem in front of it measures more than minMeasure.
func replaceSuffix(w []rune, rules []rule, minMeasure int) []rune {
	for _, r := range rules {
		if !ends(w, r.suffix) {
			continue
		}
		base := w[:len(w)-len(r.suffix)]
		if r.onlyAfterST {
			if last := base[len(base)-1]; last != 's' && last != 't' {
				return w
			}
		}
		if measure(base) > minMeasure {
			return put(base, len(base), r.with)
		}
		return w
	}
	return w
}

// step5a removes a final e: (m>1) e → "", and (m=1 and not *o) e → "",
// so "probate" gives "probat" and "rate" stays.
func step5a(w []rune) []rune {
	if !ends(w, "e") {
		return w
	}
	base := w[:len(w)-1]
	if m := measure(base); m > 1 || m == 1 && !cvc(base) {
		return base
	}
	return w
}

// step5b turns a final ll into l when m>1: "controll" gives "control",
// "roll" stays.
func step5b(w []rune) []rune {
	if ends(w, "ll") && measure(w[:len(w)-1]) > 1 {
		return w[:len(w)-1]
	}
	return w
}
