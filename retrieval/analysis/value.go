package analysis

import (
	"slices"
	"strings"
)

// A question that asks for a value ("how long are invitations valid for",
// "what's the size limit on webhook payloads", "how much does the
// business plan cost") is answered by a passage that gives one:
// "invitations expire after 7 days", "payloads are capped at 25 MB",
// "Business is $49 a month". The words that ask ("long", "much", "how
// big") are seldom written where the answer is, and the words that
// answer ("7 days", "$49") are not the question's: by words alone such a
// question is no match, though the docs answer it.
//
// So the kind of value becomes a word of both sides. A passage that gives
// a value of a kind carries the kind's value word in the index
// (AppendValueWords), and a question that asks for one writes the same
// word in place of the words that ask (AskedValue). The value word then
// ranks and covers as any word does: it is rare where values of its kind
// are rare, and a passage with the question's other words and a value of
// the kind asked is the likelier answer.
//
// The value words are strings no text writes as a word: lower-case
// letters only, so the tokenizer keeps them whole, that no English word
// or identifier spells.

// Value words, one per kind of value.
const (
	ValueDuration = "xvalduration" // "7 days", "24 hours", "a week"
	ValueSize     = "xvalsize"     // "25 MB", "1,000 characters", "512px"
	ValuePrice    = "xvalprice"    // "$49", "€10", "20 USD"
)

// ValueLabel is how a value word reads in an explanation: "a duration".
func ValueLabel(word string) (string, bool) {
	switch word {
	case ValueDuration:
		return "a duration", true
	case ValueSize:
		return "a size", true
	case ValuePrice:
		return "a price", true
	}
	return "", false
}

// durationUnits, sizeUnits and currencies are the words after a number
// that make it a value of their kind: "7 days", "25 mb", "20 usd".
var (
	durationUnits = WordSet(`second seconds sec secs minute minutes min mins hour hours hr hrs h
		day days week weeks wk wks month months year years yr yrs`)
	sizeUnits = WordSet(`b kb mb gb tb kib mib gib tib byte bytes kilobytes megabytes gigabytes terabytes
		character characters char chars pixel pixels px`)
	currencies = WordSet(`usd eur gbp dollar dollars euro euros cent cents`)
	// countWords are the numbers written as words before a unit: "an
	// hour", "thirty days".
	countWords = WordSet(`a an one two three four five six seven eight nine ten eleven twelve
		fifteen twenty thirty forty fifty sixty ninety hundred`)
)

// maxCountWord is the length of the longest count word: a longer word is
// none, and a text has many more words than numbers.
const maxCountWord = len("fifteen")

// AppendValueWords appends to dst the value word of each kind of value
// that tokens (a text's words, as Tokens returns them) give, once each:
// a number followed by a unit of the kind ("7 days", "25 mb", "20 usd"),
// a number written against its unit ("24h", "10mb"), or a number word
// before a unit of time written in full ("an hour", "thirty days").
// text is the text tokens came from: a currency sign before a number
// ("$49", "€ 10") is no token.
func AppendValueWords(dst, tokens []string, text string) []string {
	var found [3]bool // duration, size, price
	for i, w := range tokens {
		num, unit := SplitNumberUnit(w)
		switch {
		case unit != "":
		case i+1 < len(tokens) && (num != "" || len(w) <= maxCountWord && countWords[w]):
			unit = tokens[i+1]
		default:
			continue
		}
		switch {
		case durationUnits[unit] && (num != "" || len(unit) > 3):
			// A number word before a clipped unit is no value: "an h",
			// "a min".
			found[0] = true
		case sizeUnits[unit] && num != "":
			found[1] = true
		case currencies[unit] && num != "":
			found[2] = true
		}
	}
	if !found[2] && hasCurrencyAmount(text) {
		found[2] = true
	}
	for i, word := range []string{ValueDuration, ValueSize, ValuePrice} {
		if found[i] {
			dst = append(dst, word)
		}
	}
	return dst
}

// SplitNumberUnit splits a token into its leading digits and the letters
// after them: "24h" is "24" and "h", "7" is "7" and "", "days" is "" and
// "". A token of digits alone has no unit; one that does not start with a
// digit is no number.
func SplitNumberUnit(w string) (num, unit string) {
	i := 0
	for i < len(w) && '0' <= w[i] && w[i] <= '9' {
		i++
	}
	if i == 0 {
		return "", ""
	}
	num, unit = w[:i], w[i:]
	for j := 0; j < len(unit); j++ {
		if unit[j] < 'a' || unit[j] > 'z' {
			return num, "" // "v2beta1", "1st": no unit we know
		}
	}
	return num, unit
}

// hasCurrencyAmount reports whether text writes a currency sign before a
// number: "$49", "€ 10", "£5".
func hasCurrencyAmount(text string) bool {
	for _, sign := range []string{"$", "€", "£"} {
		for rest := text; ; {
			i := strings.Index(rest, sign)
			if i < 0 {
				break
			}
			rest = strings.TrimPrefix(rest[i+len(sign):], " ")
			if rest != "" && '0' <= rest[0] && rest[0] <= '9' {
				return true
			}
		}
	}
	return false
}

// priceWords say a "how much" question asks for a price: "how much does
// the business plan cost", "how much do you charge per seat".
var priceWords = WordSet(`cost costs price prices pricing charge charges charged pay fee fees`)

// limitWords say a question about a size or a length asks for its
// limit: "max attachment size", "the biggest layer size", "size limit".
var limitWords = WordSet(`max maximum biggest largest limit limits`)

// AskedValue returns the value word of the kind of value words (a
// question's words, as Tokens returns them) ask for, "" for none; the
// positions of the words that ask for it, which the value word stands for;
// and the phrase that asks, for an explanation. They are "how long" (a
// duration, for "long"), "how far back" (a duration, for "far back"),
// "how big" and "how large" (a size, for "big", "large"), "how much" with
// a word of price (a price, for "much"), and a size or a length with a
// word of limit ("max attachment size": a size, for no word: "max" and
// "size" are the docs' words as well).
func AskedValue(words []string) (word string, frame []int, phrase string) {
	for i := 1; i < len(words); i++ {
		if words[i-1] != "how" {
			continue
		}
		switch words[i] {
		case "long":
			return ValueDuration, []int{i}, "how long"
		case "far":
			if i+1 < len(words) && words[i+1] == "back" {
				return ValueDuration, []int{i, i + 1}, "how far back"
			}
		case "big", "large":
			return ValueSize, []int{i}, "how " + words[i]
		case "much":
			if slices.ContainsFunc(words, func(w string) bool { return priceWords[w] }) {
				return ValuePrice, []int{i}, "how much"
			}
		}
	}
	size := slices.IndexFunc(words, func(w string) bool { return w == "size" || w == "length" })
	limit := slices.IndexFunc(words, func(w string) bool { return limitWords[w] })
	if size >= 0 && limit >= 0 {
		return ValueSize, nil, words[min(size, limit)] + " … " + words[max(size, limit)]
	}
	return "", nil, ""
}
