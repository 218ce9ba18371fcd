package analysis

import "testing"

func TestActionBase(t *testing.T) {
	for word, want := range map[string]string{
		"archive": "archive", "archived": "archive", "archiving": "archive", "archives": "archive",
		"pinned": "pin", "pinning": "pin", "copies": "copy", "copied": "copy", "removal": "remove",
		"creation": "create", "switches": "switch", "renamed": "rename", "added": "add",
		"settings": "", "setting": "", "need": "", "string": "", "notes": "", "workspace": "",
	} {
		got, ok := ActionBase(word)
		if got != want || ok != (want != "") {
			t.Errorf("ActionBase(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
}
