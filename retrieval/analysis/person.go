package analysis

// Who a text speaks to, and who a question speaks for. Documentation is
// written for a reader: a user guide addresses them ("you can delete your
// account from …"), a reference describes objects in the third person
// ("Returns the account"). A question asked in the first person ("how do
// I delete my account") is a reader's task, and the pages written to the
// reader are where such tasks are answered.

// firstPerson are the words that make the thing asked about the asker's
// own ("my account", "notify me"). "I" is not one: "how do I …" frames
// every how-to question, a developer's ("how do I get an oauth token") as
// much as a user's, and says nothing of who the answer is written for.
var firstPerson = WordSet("me my mine myself")

// secondPerson are the words a text uses to address its reader.
var secondPerson = WordSet("you your yours yourself yourselves")

// IsFirstPerson reports whether words (as Tokens splits a question) speak
// for the asker.
func IsFirstPerson(words []string) bool {
	for _, w := range words {
		if firstPerson[w] {
			return true
		}
	}
	return false
}

// AddressesReader reports whether text (one sentence) speaks to its
// reader.
func AddressesReader(text string) bool {
	for _, w := range Tokens(text) {
		if secondPerson[w] {
			return true
		}
	}
	return false
}

// possessives make what follows someone's own: the asker's ("my", "our")
// or the asker's customer's ("their", "his"). Not "your", which a pasted
// reply or page addresses to its reader, nor "its", nor "her", as often
// the object of a verb as a possessive ("remind her friday morning").
var possessives = WordSet("my our their his")

// IsPossessive reports whether w (as Tokens splits a question) makes the
// words after it someone's own ("my gmail password").
func IsPossessive(w string) bool { return possessives[w] }
