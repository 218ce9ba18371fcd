package ingest

import "testing"

func TestNoteMarkdownCapsHeadings(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"two words", "KNOWN WORKAROUND\nRestart the app.", "## KNOWN WORKAROUND\nRestart the app."},
		{"one long word", "STEPS\n1. Open settings.", "## STEPS\n1. Open settings."},
		{"with digits and a colon", "STEP 2: RESET SYNC\nText.", "## STEP 2: RESET SYNC\nText."},
		{"question", "WHY DOES IT FAIL?\nBecause.", "## WHY DOES IT FAIL?\nBecause."},
		{"accented capitals", "ÉTAPES SUIVANTES\nTexte.", "## ÉTAPES SUIVANTES\nTexte."},
		{"several sections", "SYMPTOM\nIt hangs.\n\nFIX\nNone.\n\nROOT CAUSE\nA lock.", "## SYMPTOM\nIt hangs.\n\nFIX\nNone.\n\n## ROOT CAUSE\nA lock."},

		// Lines that must stay as they are.
		{"acronym in a sentence", "Call the API to sync.\nUse the API.", "Call the API to sync.\nUse the API."},
		{"one short acronym alone", "API\nText.", "API\nText."},
		{"mixed case", "Known Workaround\nText.", "Known Workaround\nText."},
		{"in a fenced code block", "```\nSELECT NAME FROM USERS\n```", "```\nSELECT NAME FROM USERS\n```"},
		{"in a tilde fence", "~~~sql\nDROP TABLE NOTES\n~~~\nAFTER CODE", "~~~sql\nDROP TABLE NOTES\n~~~\n## AFTER CODE"},
		{"indented code", "Run:\n\n    RESTART ALL NODES", "Run:\n\n    RESTART ALL NODES"},
		{"list item", "- CHECK THE LOGS\n* RESTART NOW\n+ ALSO THIS\n1. FIRST STEP\n2) SECOND STEP", "- CHECK THE LOGS\n* RESTART NOW\n+ ALSO THIS\n1. FIRST STEP\n2) SECOND STEP"},
		{"quote", "> DO NOT DELETE", "> DO NOT DELETE"},
		{"already a heading", "# SETUP GUIDE\n## MORE HERE", "# SETUP GUIDE\n## MORE HERE"},
		{"setext heading", "SETUP GUIDE\n===========\nSECOND PART\n---", "SETUP GUIDE\n===========\nSECOND PART\n---"},
		{"a shouted sentence", "DO NOT RESTART THE SERVER.", "DO NOT RESTART THE SERVER."},
		{"too many words", "A B C D E F G H I J K L M", "A B C D E F G H I J K L M"},
		{"inline code", "`GET /API/NOTES`", "`GET /API/NOTES`"},
		{"table row", "NAME | VALUE", "NAME | VALUE"},
		{"HTML", "<DIV CLASS>", "<DIV CLASS>"},
		{"no letters", "----\n1234 5678", "----\n1234 5678"},
		{"caseless script", "同步 失败", "同步 失败"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := noteMarkdown(tt.in); got != tt.want {
				t.Errorf("noteMarkdown(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
