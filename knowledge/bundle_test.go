package knowledge

import "testing"

func TestIsConcept(t *testing.T) {
	b := Bundle{Concepts: []string{"concepts/*", "reference/glossary", "faq[1]", "bad["}}
	for _, tt := range []struct {
		slug string
		want bool
	}{
		{"concepts/workspace", true},
		{"concepts/deep/workspace", false}, // * stops at a slash, as in path.Match
		{"reference/glossary", true},
		{"reference/glossary-old", false},
		{"faq[1]", true}, // named literally although it reads as a pattern
		{"faq1", true},   // and as the pattern it also is
		{"bad[", true},   // a broken pattern still names itself
		{"guides/setup", false},
	} {
		if got := b.IsConcept(tt.slug); got != tt.want {
			t.Errorf("IsConcept(%q) = %v, want %v", tt.slug, got, tt.want)
		}
	}
	if (Bundle{}).IsConcept("concepts/workspace") {
		t.Error("a bundle without declared concepts has no concept docs")
	}
}
