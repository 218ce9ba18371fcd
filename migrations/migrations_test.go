package migrations

import (
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/golang-migrate/migrate/v4/source/iofs"
)

var fileName = regexp.MustCompile(`^(\d{3})_([a-z0-9_]+)\.(up|down)\.sql$`)

// shippedVersions reads the versions from the file names, in order, and
// checks the conventions golang-migrate and reviewers rely on: every
// version has an up and a down, one name, and no file is empty. Versions
// need not be contiguous: work on separate branches reserves its numbers,
// and golang-migrate walks whatever versions there are in order.
func shippedVersions(t *testing.T) []uint {
	t.Helper()
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		t.Fatalf("read embedded migrations: %v", err)
	}
	type pair struct{ name, up, down string }
	byVersion := map[uint]*pair{}
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
		p := byVersion[uint(version)]
		if p == nil {
			p = &pair{name: m[2]}
			byVersion[uint(version)] = p
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
	if byVersion[0] != nil {
		t.Error("version 0 means no migration applied: migrations start at 1")
	}
	versions := slices.Sorted(maps.Keys(byVersion))
	for _, v := range versions {
		if p := byVersion[v]; p.up == "" || p.down == "" {
			t.Errorf("version %d (%s): needs both an up and a down file (up=%q down=%q)", v, p.name, p.up, p.down)
		}
	}
	return versions
}

func TestFilesPairUp(t *testing.T) {
	if v := shippedVersions(t); len(v) < 4 || !slices.Equal(v[:4], []uint{1, 2, 3, 4}) {
		t.Errorf("versions %v, want 1 to 4 (docs, chunks, events, generation) first", v)
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
	if want := shippedVersions(t); !slices.Equal(versions, want) {
		t.Fatalf("the source walks versions %v, the files are %v", versions, want)
	}
}
