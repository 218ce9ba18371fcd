package tokens

import "testing"

func TestDefaultCountsCl100k(t *testing.T) {
	c := Default()
	if c.Name() != "cl100k_base" {
		t.Fatalf("encoding = %q, want cl100k_base", c.Name())
	}
	// "hello world" is two tokens in cl100k_base.
	if got := c.Count("hello world"); got != 2 {
		t.Fatalf("Count(hello world) = %d, want 2", got)
	}
	if got := c.Count(""); got != 0 {
		t.Fatalf("Count(empty) = %d, want 0", got)
	}
}

func TestForModelFallsBackToDefault(t *testing.T) {
	if got := ForModel("no-such-model").Name(); got != "cl100k_base" {
		t.Fatalf("unknown model encoding = %q, want cl100k_base", got)
	}
	if got := ForModel("gpt-4o").Name(); got != "o200k_base" {
		t.Fatalf("gpt-4o encoding = %q, want o200k_base", got)
	}
}

// Common words are whole tokens; misspellings and the empty string are not.
func TestWhole(t *testing.T) {
	c := Default()
	for _, w := range []string{"world", "night", "sock", "wifi"} {
		if !c.Whole(w) {
			t.Errorf("Whole(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"pasword", "recieve", "uplaod", "", "two words"} {
		if c.Whole(w) {
			t.Errorf("Whole(%q) = true, want false", w)
		}
	}
}
