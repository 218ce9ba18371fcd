package analysis

import (
	"testing"

	"github.com/docent-sh/docent/knowledge"
)

func TestCorpusIntent(t *testing.T) {
	for _, tt := range []struct {
		text   string
		corpus knowledge.Corpus
		rest   string
	}{
		{"search my notes for workspace", knowledge.CorpusNotes, "workspace"},
		{"tell me about my notes", knowledge.CorpusNotes, "tell me about"},
		{"find in notes the refund workaround", knowledge.CorpusNotes, "the refund workaround"},
		{"what do our notes say about SSO?", knowledge.CorpusNotes, "what do say about SSO?"},
		{"team notes on billing", knowledge.CorpusNotes, "on billing"},
		{"the note titled Refunds", knowledge.CorpusNotes, "the Refunds"},
		{"is there anything in the team's notes about exports", knowledge.CorpusNotes, "is there anything about exports"},
		{"what does the documentation say about exports", knowledge.CorpusDocs, "what does about exports"},
		{"how do I export, according to the docs", knowledge.CorpusDocs, "how do I export,"},
		{"search the docs for webhooks", knowledge.CorpusDocs, "for webhooks"},
		{"what's in my notes about refunds", knowledge.CorpusNotes, "what's about refunds"},
		{"my notes on SSO", knowledge.CorpusNotes, "on SSO"},
		// A product's own "notes" feature, or a doc term, is no intent;
		// nor is "my notes" in a how-to question, a customer's voice.
		{"how do I find my notes?", knowledge.CorpusAuto, "how do I find my notes?"},
		{"Why can't I delete my notes", knowledge.CorpusAuto, "Why can't I delete my notes"},
		{"how do I search my notes for tags", knowledge.CorpusAuto, "how do I search my notes for tags"},
		{"how do I reset SSO, per our team notes", knowledge.CorpusNotes, "how do I reset SSO, per our"},
		{"how do I delete a note", knowledge.CorpusAuto, "how do I delete a note"},
		{"what are notes", knowledge.CorpusAuto, "what are notes"},
		{"what is workspace", knowledge.CorpusAuto, "what is workspace"},
		{"release notes for 4.2", knowledge.CorpusAuto, "release notes for 4.2"},
		{"docs", knowledge.CorpusAuto, "docs"},
	} {
		corpus, rest := CorpusIntent(tt.text)
		if corpus != tt.corpus || rest != tt.rest {
			t.Errorf("CorpusIntent(%q) = %s %q, want %s %q", tt.text, corpus, rest, tt.corpus, tt.rest)
		}
	}
}

func FuzzCorpusIntent(f *testing.F) {
	for _, s := range []string{"search my notes for x", "in the docs", "", "\xff my notes \x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		corpus, rest := CorpusIntent(text)
		if corpus == knowledge.CorpusAuto && rest != text {
			t.Fatalf("no intent, yet the text changed: %q → %q", text, rest)
		}
		if corpus != knowledge.CorpusAuto && len(rest) >= len(text) {
			t.Fatalf("%s intent removed nothing: %q → %q", corpus, text, rest)
		}
	})
}
