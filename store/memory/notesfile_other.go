//go:build !unix

package memory

import (
	"context"
	"io/fs"
	"time"
)

// fileStamp tells one version of the notes file from another by size and
// modification time.
type fileStamp struct {
	exists    bool
	size      int64
	modTimeNs int64
}

func stampOf(info fs.FileInfo) fileStamp {
	return fileStamp{exists: true, size: info.Size(), modTimeNs: info.ModTime().UnixNano()}
}

// lockFile has no cross-process lock on this system: writers in one
// process still take turns, but two docent processes must not write the
// same notes file at once.
func lockFile(ctx context.Context, path string, wait time.Duration) (func(), error) {
	return func() {}, ctx.Err()
}
