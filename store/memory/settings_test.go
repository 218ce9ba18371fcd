package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docent-sh/docent/store"
	"github.com/docent-sh/docent/store/storetest"
)

func TestSwitchConformance(t *testing.T) {
	t.Run("InMemory", func(t *testing.T) {
		storetest.RunSwitch(t, func(t *testing.T) (store.RetrievalSwitch, store.RetrievalSwitch) {
			s := New(Options{})
			return s, s
		})
	})
	t.Run("File", func(t *testing.T) {
		storetest.RunSwitch(t, func(t *testing.T) (store.RetrievalSwitch, store.RetrievalSwitch) {
			path := filepath.Join(t.TempDir(), "state", "settings.json")
			return New(Options{SettingsPath: path}), New(Options{SettingsPath: path})
		})
	})
}

// A settings file that does not parse is an error naming it, and a set
// refuses to overwrite it: nothing an admin wrote is lost.
func TestBrokenSettingsFileIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	broken := []byte(`{"retrieval_enabled": "nope"}`)
	if err := os.WriteFile(path, broken, 0o600); err != nil {
		t.Fatal(err)
	}
	s := New(Options{SettingsPath: path})
	if _, err := s.RetrievalEnabled(context.Background()); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("read: err %v, want one naming %s", err, path)
	}
	if err := s.SetRetrievalEnabled(context.Background(), false); err == nil {
		t.Error("set over a broken file succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != string(broken) {
		t.Errorf("the broken file was changed to %q", got)
	}
}

func FuzzSettingsFile(f *testing.F) {
	f.Add([]byte(`{"retrieval_enabled": false}`))
	f.Add([]byte(`{"retrieval_enabled": true, "x": 1}`))
	f.Add([]byte("\xff{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s := New(Options{SettingsPath: path})
		ctx := context.Background()
		before, err := s.RetrievalEnabled(ctx)
		if err != nil {
			if !before {
				t.Fatal("an unreadable file read as off")
			}
			return
		}
		// A file that reads can be flipped and read back.
		if err := s.SetRetrievalEnabled(ctx, !before); err != nil {
			t.Fatalf("set over a readable file: %v", err)
		}
		if after, err := s.RetrievalEnabled(ctx); err != nil || after == before {
			t.Fatalf("flip from %v read back %v, %v", before, after, err)
		}
	})
}
