package analysis

// StemKey is the index key under which a term's morphological variants
// meet: the Porter stem behind a prefix no analyzed term can start with
// (terms are letters and digits). "deleting" and "delete", "moving" and
// "move" share a key.
//
// The keys add rank (a variant is worth half of the word itself, which
// scores under its own term too) and are what the decision policy's
// coverage counts: a question about deleting an account is covered by a
// section titled "Delete your account".
func StemKey(term string) string {
	return "~" + porterStem(term)
}
