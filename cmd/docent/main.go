// Command docent is a terminal chat assistant that answers support staff's
// questions from a product's documentation.
package main

import "fmt"

// The chat is not built yet: until it lands, docent says so in one line
// and exits cleanly, so `make run` stays true from the first commit.
func main() {
	fmt.Println("docent: the chat is not built yet; the foundation (knowledge base, stores, retrieval) comes first")
}
