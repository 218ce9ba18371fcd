package apitoken

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzTokenFile reads any token file: a file it accepts, written back,
// reads the same.
func FuzzTokenFile(f *testing.F) {
	f.Add([]byte(`{"tokens":[{"id":"a1","sha256":"` + "00000000000000000000000000000000000000000000000000000000000000ff" +
		`","workspace":"acme","user":"alice","created_at":"2026-11-26T08:00:00Z"}]}`))
	f.Add([]byte(`{"tokens":[{"id":"x","sha256":"zz"}]}`))
	f.Add([]byte(`{"tokens":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "tokens.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st := NewFileStore(path)
		ctx := context.Background()
		records, err := st.read(ctx)
		if err != nil {
			return
		}
		if err := st.write(records); err != nil {
			t.Fatalf("write back what was read: %v", err)
		}
		again, err := st.read(ctx)
		if err != nil || len(again) != len(records) {
			t.Fatalf("read back %d records (err %v), want %d", len(again), err, len(records))
		}
		for i := range records {
			if again[i].ID != records[i].ID || again[i].Hash != records[i].Hash || again[i].Scope() != records[i].Scope() {
				t.Fatalf("record %d changed: %+v, then %+v", i, records[i], again[i])
			}
		}
	})
}
