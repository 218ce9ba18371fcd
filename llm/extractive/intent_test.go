package extractive

import (
	"strings"
	"testing"
)

func TestParseIntent(t *testing.T) {
	tests := []struct {
		question string
		kind     questionKind
		subject  string // space-joined normalized words of X
		action   string
	}{
		{"explain workspace", askExplanation, "workspace", ""},
		{"Explain workspaces.", askExplanation, "workspace", ""},
		{"What is Quick Links?", askExplanation, "quick link", ""},
		{"what’s a quick link", askExplanation, "quick link", ""},
		{"whats home", askExplanation, "home", ""},
		{"Tell me about the workspaces", askExplanation, "workspace", ""},
		{"describe the Recent widget", askExplanation, "recent widget", ""},
		{"define entry", askExplanation, "entry", ""},
		{"meaning of dashboard", askExplanation, "dashboard", ""},
		{"what is the meaning of panels", askExplanation, "panel", ""},
		{"What does Continue mean?", askExplanation, "continue", ""},
		{"can you explain what a workspace is", askExplanation, "workspace", ""},
		{"what is a workspace in Notewell", askExplanation, "workspace", ""},
		{"what are archived workspaces", askExplanation, "archive workspace", ""},
		{"what is the shortcut to create a note", askExplanation, "shortcut", "create"},
		{"explain how to archive a workspace", askHowTo, "", "archive"},
		{"how do I rename a workspace?", askHowTo, "", "rename"},
		{"How can I get my deleted notes back", askHowTo, "", "delete"},
		{"what is the way to pin a note", askHowTo, "", "pin"},
		{"delete a workspace", askHowTo, "", "delete"},
		{"Removing widgets", askHowTo, "", "remove"},
		{"Which setting limits the Recent widget to one workspace?", askOther, "", ""},
		{"what does archiving keep", askOther, "", "archive"},
		{"Tell me more", askOther, "", ""},
		{"", askOther, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			in := parseIntent(tt.question)
			if in.kind != tt.kind || strings.Join(in.subject, " ") != tt.subject || in.action != tt.action {
				t.Errorf("parseIntent(%q) = kind %d, subject %q, action %q; want kind %d, subject %q, action %q",
					tt.question, in.kind, strings.Join(in.subject, " "), in.action, tt.kind, tt.subject, tt.action)
			}
		})
	}
}
