package assistant

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docent-sh/docent/prompt"
)

func TestReadAppStateErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), prompt.MaxAppStateBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{big, "app state " + big + ": over the 1048576-byte limit"},
		{dir, "read app state: read " + dir + ": is a directory"},
		{filepath.Join(dir, "none.json"), "read app state: open " + filepath.Join(dir, "none.json") + ": no such file or directory"},
	} {
		_, err := ReadAppState(context.Background(), tc.path)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ReadAppState(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
}

func TestReadAppStateExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, "state.txt"), []byte("Customer is on the billing page\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := ReadAppState(context.Background(), "~/state.txt")
	if err != nil || len(st.UI) != 1 || st.UI[0].Text != "Customer is on the billing page" {
		t.Fatalf("~/state.txt: %+v, %v", st, err)
	}
}
