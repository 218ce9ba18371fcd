package analysis

import (
	"slices"
	"strings"
)

// actionWords are the things users ask how to do, in base form: a
// question with one of them is about doing something, not a request for a
// definition ("what are workspace actions" wants the actions doc), and the
// offline responder recognizes steps by them. "set" and
// "use" are left out: they are in too many sentences that are not steps
// ("the scope setting", "How to use it").
var actionWords = WordSet(`add archive change clear close collapse configure copy create delete
	duplicate edit empty expand export filter find hide import insert invite link list move open pin print
	remove rename reorder resize restore search share show sort switch tag undo unpin upload`)

// IsActionWord reports whether w is an action word in its base form.
func IsActionWord(w string) bool { return actionWords[w] }

// ActionBase returns the action word (in base form) that w is a form of:
// "pinned" and "pinning" are forms of "pin", "copied" of "copy".
func ActionBase(w string) (string, bool) {
	if actionWords[w] {
		return w, true
	}
	try := func(f string) bool { return actionWords[f] }
	for _, suffix := range []string{"ing", "ed", "ion", "al"} {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 2 {
			continue
		}
		switch n := len(stem); {
		case try(stem):
			return stem, true
		case try(stem + "e"):
			return stem + "e", true
		case stem[n-1] == stem[n-2] && try(stem[:n-1]): // pinned, pinning
			return stem[:n-1], true
		case suffix == "ed" && stem[n-1] == 'i' && try(stem[:n-1]+"y"): // copied
			return stem[:n-1] + "y", true
		}
	}
	for _, form := range [][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if stem, ok := strings.CutSuffix(w, form[0]); ok && try(stem+form[1]) {
			return stem + form[1], true
		}
	}
	return "", false
}

// doingVerbs are the action words that never name the thing a question
// asks about: "what is a link" or "what are filters" asks for a
// definition although link and filter are actions, "what does creating
// a workspace do" does not.
var doingVerbs = WordSet("create delete rename list open move add")

// asksToDo reports whether w, in any form, makes a question about doing
// something rather than a request for a definition.
func asksToDo(w string) bool {
	if w == "action" || w == "actions" {
		return true
	}
	base, ok := ActionBase(w)
	return ok && doingVerbs[base]
}

// IsDefinitional reports a request for a definition ("what is X", "what are
// X", "what's X", "explain X", "define X", "meaning of X", "definition of
// X", "tell me about X", "what does X mean") that is not about an action.
func IsDefinitional(words []string) bool {
	def := false
	for i, w := range words {
		switch w {
		case "explain", "define", "definition", "meaning", "whats":
			def = true
		case "what":
			if i+1 < len(words) && (words[i+1] == "is" || words[i+1] == "are") {
				def = true
			}
			if AsksMeaning(words[i:]) || asksFunction(words[i:]) {
				def = true
			}
		case "tell":
			if i+2 < len(words) && words[i+1] == "me" && words[i+2] == "about" {
				def = true
			}
		}
	}
	if !def {
		return false
	}
	for _, w := range words {
		if asksToDo(w) {
			return false
		}
	}
	return true
}

// asksFunction reports the question form "what does X do" ("what does
// cargo vendor do", "what does AUTHORIZED_FETCH do"): what a thing is
// for, which the doc about that thing says first. X opening with an -ing
// word is an action ("what does archiving a workspace do"): the question
// asks what doing it does, not what a thing is.
func asksFunction(words []string) bool {
	n := len(words)
	return n >= 4 && words[0] == "what" && (words[1] == "does" || words[1] == "do") && words[n-1] == "do" &&
		!strings.HasSuffix(words[2], "ing")
}

// AsksMeaning reports the question form "what does X mean" ("what do the
// icons mean", "what does 2FA stand for"): words begins with "what", then
// "does" or "do", and ends with "mean" or "stand for". Its verb asks for a
// definition and is no word of the topic.
func AsksMeaning(words []string) bool {
	if len(words) < 4 || words[0] != "what" || words[1] != "does" && words[1] != "do" {
		return false
	}
	n := len(words)
	return words[n-1] == "mean" || n >= 5 && words[n-2] == "stand" && words[n-1] == "for"
}

// followUpPhrases continue the last resource instead of starting a search.
var followUpPhrases = [][]string{{"tell", "me", "more"}, {"more"}, {"go", "on"}, {"continue"}}

// IsFollowUp reports whether text is only a request to continue the last
// answer ("tell me more").
func IsFollowUp(text string) bool {
	words := Tokens(text)
	for _, p := range followUpPhrases {
		if slices.Equal(words, p) {
			return true
		}
	}
	return false
}

// intentBreaks are the characters that end one intent of a question.
const intentBreaks = "+&,;?"

// splitBreaks splits a whitespace-free field at intentBreaks, as
// strings.FieldsFunc would, but for a comma between digits: "2,000" is a
// number, not two questions.
func splitBreaks(field string) []string {
	var out []string
	start := 0
	for i := 0; i < len(field); i++ {
		if !strings.ContainsRune(intentBreaks, rune(field[i])) ||
			field[i] == ',' && i > 0 && i+1 < len(field) && isDigit(field[i-1]) && isDigit(field[i+1]) {
			continue
		}
		if i > start {
			out = append(out, field[start:i])
		}
		start = i + 1
	}
	if start < len(field) {
		out = append(out, field[start:])
	}
	return out
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// SplitIntents splits a question at "and", "+", "&", commas, semicolons
// and a question mark with more after it ("what webhook events are
// there? also how do I file a claim"). It returns nil when there is
// nothing to split.
func SplitIntents(text string) []string {
	text = maskMessageBreaks(text)
	var parts []string
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(cur.String())
		// "…? also how do I pin a note": the joining word is no part of
		// the second question, which a reply quotes.
		for _, lead := range []string{"also ", "and ", "then ", "plus "} {
			if len(s) > len(lead) && strings.EqualFold(s[:len(lead)], lead) {
				s = strings.TrimSpace(s[len(lead):])
			}
		}
		if s != "" {
			parts = append(parts, s)
		}
		cur.Reset()
	}
	for _, field := range strings.Fields(text) {
		pieces := splitBreaks(field)
		lead := len(field) > 0 && strings.ContainsRune(intentBreaks, rune(field[0]))
		trail := len(field) > 0 && strings.ContainsRune(intentBreaks, rune(field[len(field)-1]))
		if strings.EqualFold(field, "and") {
			// "between A and B", "both A and B" join two things in one
			// question: the difference between limiting and suspending
			// is one intent.
			if words := Tokens(cur.String()); !slices.ContainsFunc(words, func(w string) bool { return w == "between" || w == "both" }) {
				flush()
				continue
			}
		}
		if lead {
			flush()
		}
		for i, p := range pieces {
			if i > 0 {
				flush()
			}
			cur.WriteString(p)
			cur.WriteByte(' ')
		}
		if trail {
			flush()
		}
	}
	flush()
	parts = joinCircumstances(text, parts)
	parts = joinEnumeration(parts)
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// maskMessageBreaks blanks the commas, semicolons and other intent breaks
// inside the messages a question pastes (see Messages): "FATAL: no
// pg_hba.conf entry for host …, user …, database …" is one message, not
// three questions. So it does inside what the question quotes, puts in
// brackets or in backticks, and blanks the word "and" there too:
// "EXPLAIN (ANALYZE, BUFFERS)", "`a, b`" and 'it says "X and Y"' each
// name one thing. The text keeps its length.
func maskMessageBreaks(text string) string {
	messages := messageSpans(text)
	enclosed := append(QuoteSpans(text), enclosedSpans(text)...)
	if len(messages) == 0 && len(enclosed) == 0 {
		return text
	}
	b := []byte(text)
	for k, sp := range append(enclosed, messages...) {
		for i := sp[0]; i < sp[1]; i++ {
			if strings.IndexByte(intentBreaks, b[i]) >= 0 {
				b[i] = ' '
			}
		}
		if k >= len(enclosed) {
			continue // a message runs to its sentence's end: "disk full, and how do I …"
		}
		for i := sp[0]; i+3 <= sp[1]; i++ {
			if (b[i] == 'a' || b[i] == 'A') && strings.EqualFold(string(b[i:i+3]), "and") &&
				(i == 0 || !isWordByte(b[i-1])) && (i+3 == len(b) || !isWordByte(b[i+3])) {
				copy(b[i:i+3], "   ")
			}
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// enclosedSpans returns where text has a span in backticks or in
// brackets, (…) or […], each from its opening mark to after its closing
// one; an unclosed one encloses nothing.
func enclosedSpans(text string) [][2]int {
	if strings.IndexAny(text, "`([") < 0 {
		return nil // most questions
	}
	var out [][2]int
	for i := 0; i < len(text); i++ {
		var closer byte
		switch text[i] {
		case '`':
			closer = '`'
		case '(':
			closer = ')'
		case '[':
			closer = ']'
		default:
			continue
		}
		if j := strings.IndexByte(text[i+1:], closer); j >= 0 {
			out = append(out, [2]int{i, i + 1 + j + 1})
			i += j + 1
		}
	}
	return out
}

// joinEnumeration rejoins a list the question ends with ("runs the tests
// on stable, beta and nightly"): three parts or more, each after the
// first a single word, are the items of the first part's last words, not
// questions of their own. Two one-word parts ("workspace and widgets")
// are two topics.
func joinEnumeration(parts []string) []string {
	if len(parts) < 3 || len(Tokens(parts[0])) < 2 {
		return parts
	}
	for _, p := range parts[1:] {
		if len(Tokens(p)) != 1 {
			return parts
		}
	}
	return []string{strings.Join(parts, ", ")}
}

// joinCircumstances joins to the part after it each part that tells what
// happened rather than asks ("customer archived their repo, can they
// still publish from it?", "a client says she never got her reminder,
// what should I check?") when only a comma stands between them: the
// circumstance and the question are one question. A part tells when it
// does not open with a question word and a verb after its first word is
// in the past or the present tense of a subject ("archived", "says",
// "can't"), or when it opens with a subject pronoun ("i think i found a
// vulnerability, should i open an issue?"); a participle after an
// article ("restore a deleted file, …") is an adjective, and an
// imperative ("add a caption, make tables sortable") has no subject.
// Across "and", "&" or "+", which join two imperatives as often ("generate
// a fine grained token and cancel a run"), only a part that opens with a
// subject pronoun is joined ("we forgot the console password and nobody
// can log in"): a participle there is as often an adjective. A part that
// opens with a continuation (see continuations) joins the one before it
// whatever stands between them.
func joinCircumstances(text string, parts []string) []string {
	if len(parts) < 2 {
		return parts
	}
	lower := strings.ToLower(text)
	out := []string{parts[0]}
	at := strings.Index(lower, strings.ToLower(parts[0])) + len(parts[0])
	for _, p := range parts[1:] {
		next := strings.Index(lower[max(at, 0):], strings.ToLower(p))
		if at < 0 || next < 0 {
			out = append(out, p)
			at = -1
			continue
		}
		sep := strings.TrimSpace(lower[at : at+next])
		prev := out[len(out)-1]
		if sep == "," && tellsWhatHappened(prev) || (sep == "and" || sep == "&" || sep == "+") && (opensWithSubject(prev) || opensWithFiniteVerb(p)) || continues(p) {
			out[len(out)-1] = prev + ", " + p
		} else {
			out = append(out, p)
		}
		at += next + len(p)
	}
	return out
}

// continuations open a part that goes on with the one before it rather
// than asks something else: a comparison ("…client.close(), versus
// client.destroy()"), an example ("…inside .npmrc, like ${NPM_TOKEN}"),
// a scope ("…, including leftover files", "…, even ones pulled in by
// other deps") or a cause ("…, since upgrading we get SSLError").
var continuations = WordSet(`versus vs like including even especially such or than instead rather except because since`)

// continues reports whether part opens with a continuation.
func continues(part string) bool {
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(part)), " ")
	return continuations[strings.TrimRight(first, ".,:;")]
}

// tellsWhatHappened reports a statement of what happened (see
// joinCircumstances).
func tellsWhatHappened(part string) bool {
	if opensWithSubject(part) {
		return true
	}
	words := strings.Fields(strings.ToLower(part))
	if len(words) < 2 || questionOpeners[strings.Trim(words[0], "?,.!")] {
		return false
	}
	for i := 1; i < len(words); i++ {
		w := strings.Trim(words[i], "?,.!\"'")
		if finiteVerbs[w] || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "'m") || strings.HasSuffix(w, "'re") {
			return true
		}
		if strings.HasSuffix(w, "ed") && len(w) > 4 && !determiners[strings.Trim(words[i-1], ",")] {
			return true
		}
	}
	return false
}

// opensWithFiniteVerb reports whether part opens with a verb in a tense
// only a subject has ("wants", "kept", "doesn't"): after "and" it goes
// on with the subject of the part before ("the customer upgraded and
// wants to roll back", "npm refuses to run and tells me to use --force"),
// which asks nothing of its own.
func opensWithFiniteVerb(part string) bool {
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(part)), " ")
	first = strings.Trim(first, "?,.!\"'")
	return finiteVerbs[first] || strings.HasSuffix(first, "n't")
}

// opensWithSubject reports whether part opens with a subject pronoun, so
// states what its subject did or has ("we run nginx on our servers", "it
// keeps crashing"), unless it asks for something in the asker's words
// ("I need a standing appointment", "we want to export"): a request is
// a question of its own.
func opensWithSubject(part string) bool {
	words := strings.Fields(strings.ToLower(part))
	return len(words) > 1 && subjectPronouns[strings.Trim(words[0], ",")] && !requestVerbs[strings.Trim(words[1], ",")]
}

// subjectPronouns open a statement: "I", "we", "it" and their contractions
// with a verb ("we're", "it's").
var subjectPronouns = WordSet(`i we they he she it it's its i'm we're they're he's she's i've we've they've`)

// requestVerbs after a subject pronoun ask for something ("I need …",
// "we'd like …" is written with its own pronoun and left out above).
var requestVerbs = WordSet(`need needs want wants wanna would`)

// questionOpeners open a question, not a statement.
var questionOpeners = WordSet(`how what what's whats where where's when why which who whom whose can could
	is are do does did should will would may might shall am`)

// finiteVerbs are verbs in a tense only a statement with a subject has.
var finiteVerbs = WordSet(`is are was were has had says said keeps kept got gets gave gives paid pays lost
	quit went goes came comes took takes made makes sent sends saw sees told tells thinks thought wants wanted
	needs cant wont doesnt didnt isnt arent wasnt`)

// determiners before a participle make it an adjective: "a deleted file".
var determiners = WordSet(`a an the my our your their his her its this that these those some any no each every`)
