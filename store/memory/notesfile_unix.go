//go:build unix

package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// fileStamp tells one version of the notes file from another: a write
// renames a new file into place, so the inode changes with every write,
// and size and modification time catch an edit in place.
type fileStamp struct {
	exists    bool
	dev, ino  uint64
	size      int64
	modTimeNs int64
}

func stampOf(info fs.FileInfo) fileStamp {
	st := fileStamp{exists: true, size: info.Size(), modTimeNs: info.ModTime().UnixNano()}
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		// Dev is an int32 on some systems, a uint64 on Linux.
		st.dev, st.ino = uint64(sys.Dev), uint64(sys.Ino)
	}
	return st
}

// lockPollInterval is how often a writer retries the notes file lock.
const lockPollInterval = 5 * time.Millisecond

// lockFile takes an exclusive advisory lock (flock) on path, creating it,
// waiting at most wait; the lock goes with the returned release or with
// the process. Another docent process writing the same notes file takes
// the same lock, so read-modify-write cycles never interleave.
func lockFile(ctx context.Context, path string, wait time.Duration) (release func(), _ error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				_ = f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			_ = f.Close()
			return nil, fmt.Errorf("another docent process has held %s for over %s; nothing was written", path, wait)
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("wait for %s: %w", path, ctx.Err())
		case <-time.After(lockPollInterval):
		}
	}
}
