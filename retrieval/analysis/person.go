package analysis

// Who a text speaks to, and who a question speaks for. Documentation is
// written for a reader: a user guide addresses them ("you can delete your
// account from …"), a reference describes objects in the third person
// ("Returns the account"). A question asked in the first person ("how do
// I delete my account") is a reader's task, and the pages written to the
// reader are where such tasks are answered.

// firstPerson are the words by which the asker speaks for themself: the
// thing asked about is their own ("my account", "notify me") or their task
// ("how do I set up object storage"). "I" counts: a developer's "how do
// I …" is a task too, and the pages written to the reader ("you") are the
// guides for it, whoever reads them; only a rank factor depends on it.
var firstPerson = WordSet("i me my mine myself")

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
