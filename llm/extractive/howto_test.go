package extractive

import (
	"testing"

	"github.com/docent-sh/docent/prompt"
)

func TestHowTo(t *testing.T) {
	toc := block("actions/workspaces#chunk-0", "Workspace Actions", "Workspace Actions",
		"## Workspace Actions\n\nHow to create, rename, archive and delete the workspaces of an entry.")
	steps := block("actions/workspaces#chunk-3", "Workspace Actions", "Workspace Actions > Steps",
		"## Steps\n\n### Create a workspace\n\n1. Press `Ctrl+Alt+N` to start.\n2. Type a name of up to 80 characters.\n\n"+
			"### Rename a workspace\n\nChoose **More > Workspace settings** and change **Name**. Links to its notes keep working.\n\n"+
			"### Archive a workspace\n\n1. Open the workspace and choose **More > Archive workspace**.\n2. Confirm the archive.\n\n"+
			"To bring it back, open the archive tray and click **Restore**.")
	noteSteps := block("actions/notes#chunk-3", "Note Actions", "Note Actions > Steps",
		"## Steps\n\n### Rename a note\n\nClick the title at the top of the note and type a new one. Links keep working after a rename.")
	widget := block("widgets/quick-links#chunk-3", "Quick Links", "Quick Links > How to use it",
		"## How to use it\n\n- **Reorder**: drag a link by its handle.\n- **Pin the note you are reading**: press `Ctrl+Shift+P`. "+
			"The link goes to the first Quick Links widget.\n- **Pin a workspace**: right-click it in the Navigator.")
	lead := block("widgets/quick-links#chunk-0", "Quick Links", "Quick Links",
		"## Quick Links\n\nThe Quick Links widget holds shortcuts that you pin yourself.")
	calendar := block("articles/sync#chunk-0", "Syncing with Google Calendar", "Syncing with Google Calendar",
		"# Syncing with Google Calendar\n\nConnect Google Calendar so your appointments appear in Google.\n\n"+
			"### Connect Google Calendar\n\n1. Open **My profile** > **Calendar sync**.\n2. Click **Connect Google Calendar** and sign in with Google.\n3. Choose the calendar to write to.\n\n"+
			"### Set up two calendars\n\nTo set up a second calendar, connect it the same way.")

	tests := []struct {
		name string
		user prompt.Prompt
		want string
	}{
		{
			name: "the procedure whose heading names the action and object, from its first step",
			user: userMessage("how do I rename a workspace?", toc, noteSteps, steps),
			want: "Choose More > Workspace settings and change Name. Links to its notes keep working. [actions/workspaces#chunk-3]",
		},
		{
			name: "numbered steps in order",
			user: userMessage("create a workspace", toc, steps),
			want: "1. Press Ctrl+Alt+N to start.\n2. Type a name of up to 80 characters. [actions/workspaces#chunk-3]",
		},
		{
			name: "an action without its own heading: the step that names it",
			user: userMessage("How can I restore an archived workspace", toc, steps),
			want: "To bring it back, open the archive tray and click Restore. [actions/workspaces#chunk-3]",
		},
		{
			// "connect" is no action word analysis knows; the verb after
			// "how do I" is what is asked, and its heading's procedure
			// answers, from its first step.
			name: "the verb asked, under its heading",
			user: userMessage("how do I connect google calendar", calendar),
			want: "1. Open My profile > Calendar sync.\n2. Click Connect Google Calendar and sign in with Google.\n3. Choose the calendar to write to. [articles/sync#chunk-0]",
		},
		{
			// A light verb says too little to pick a step by: "Set up
			// two calendars" is not the procedure asked for.
			name: "a light verb is no action",
			user: userMessage("how do I set up google calendar", calendar),
			want: "Click Connect Google Calendar and sign in with Google. [articles/sync#chunk-0]",
		},
		{
			name: "a list item with its continuation, not the doc's lead",
			user: userMessage("how do I pin a note to quick links", lead, widget),
			want: "Pin the note you are reading: press Ctrl+Shift+P. The link goes to the first Quick Links widget. [widgets/quick-links#chunk-3]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Answer(tt.user); got != tt.want {
				t.Errorf("answer =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Under a heading that names the action in other words ("Add Role"), the
// sentence that does what was asked still answers.
func TestHowToUnderAnotherActionsHeading(t *testing.T) {
	defaults := block("admin/roles#chunk-1", "Roles", "Roles > Default roles",
		"## Default roles\n\nNo role can be created above the owner role, as its priority is the highest.")
	add := block("admin/roles#chunk-2", "Roles", "Roles > Add Role",
		"## Add Role\n\nThe new role page allows for the creation of a custom role.")
	got, cited := firstSentence(Answer(userMessage("how do I create a custom role?", defaults, add)))
	if got != "The new role page allows for the creation of a custom role." || cited != "admin/roles#chunk-2" {
		t.Errorf("answer opens with %q [%s]", got, cited)
	}
}
