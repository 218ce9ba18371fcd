package migrations

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/golang-migrate/migrate/v4/source/iofs"
)

var fileName = regexp.MustCompile(`^(\d{3})_([a-z0-9_]+)\.(up|down)\.sql$`)

// TestFilesPairUp guards the conventions golang-migrate and reviewers rely
// on: every version has an up and a down, versions are contiguous from 1,
// and no file is empty.
func TestFilesPairUp(t *testing.T) {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		t.Fatalf("read embedded migrations: %v", err)
	}
	type pair struct{ name, up, down string }
	byVersion := map[int]*pair{}
	for _, e := range entries {
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("%s: name does not match NNN_name.(up|down).sql", e.Name())
			continue
		}
		version, _ := strconv.Atoi(m[1])
		body, err := fs.ReadFile(FS, e.Name())
		if err != nil {
			t.Fatalf("read %s: %v", e.Name(), err)
		}
		if strings.TrimSpace(string(body)) == "" {
			t.Errorf("%s: empty migration", e.Name())
		}
		p := byVersion[version]
		if p == nil {
			p = &pair{name: m[2]}
			byVersion[version] = p
		}
		if p.name != m[2] {
			t.Errorf("version %d has two names: %q and %q", version, p.name, m[2])
		}
		if m[3] == "up" {
			p.up = e.Name()
		} else {
			p.down = e.Name()
		}
	}
	if len(byVersion) == 0 {
		t.Fatal("no migrations embedded")
	}
	for v := 1; v <= len(byVersion); v++ {
		p, ok := byVersion[v]
		if !ok {
			t.Errorf("version %d missing: versions must be contiguous from 1", v)
			continue
		}
		if p.up == "" || p.down == "" {
			t.Errorf("version %d (%s): needs both an up and a down file (up=%q down=%q)", v, p.name, p.up, p.down)
		}
	}
}

// TestSourceReadsEveryVersion checks that golang-migrate's iofs source, the
// one the postgres store uses, sees the same chain of versions.
func TestSourceReadsEveryVersion(t *testing.T) {
	src, err := iofs.New(FS, ".")
	if err != nil {
		t.Fatalf("iofs source: %v", err)
	}
	t.Cleanup(func() { _ = src.Close() })

	var versions []uint
	v, err := src.First()
	for err == nil {
		versions = append(versions, v)
		for _, read := range []func(uint) (io.ReadCloser, string, error){src.ReadUp, src.ReadDown} {
			r, _, rerr := read(v)
			if rerr != nil {
				t.Fatalf("version %d: %v", v, rerr)
			}
			_ = r.Close()
		}
		v, err = src.Next(v)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("walk versions: %v", err)
	}
	for i, got := range versions {
		if got != uint(i+1) {
			t.Fatalf("versions = %v, want 1..%d", versions, len(versions))
		}
	}
	if len(versions) < 3 {
		t.Fatalf("versions = %v, want at least docs, chunks and events", versions)
	}
}
