package tui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunReturnsTheLoaderError: a failed start-up ends Run with the
// loader's own error, so the caller can pick the exit code from it.
func TestRunReturnsTheLoaderError(t *testing.T) {
	boom := errors.New("knowledge base ./docs: no markdown docs found")
	load := func(context.Context, func(Progress)) (Ready, error) { return Ready{}, boom }
	in, stop := io.Pipe() // no key is ever typed
	defer stop.Close()
	err := runWithin(t, func() error { return Run(context.Background(), load, in, io.Discard, WithTheme(ThemeDark)) })
	if err != boom {
		t.Errorf("Run = %v, want the loader's error itself", err)
	}
}

// TestRunWaitsForTheLoader: quitting while docent starts cancels the
// loader, and Run returns only once it has: what it built is then the
// caller's to close, with no goroutine still writing it.
func TestRunWaitsForTheLoader(t *testing.T) {
	started := make(chan struct{})
	var returned atomic.Bool
	load := func(ctx context.Context, _ func(Progress)) (Ready, error) {
		close(started)
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond) // cleaning up takes a moment
		returned.Store(true)
		return Ready{}, ctx.Err()
	}
	in, typed := io.Pipe()
	go func() {
		<-started
		io.Copy(typed, strings.NewReader("\x03")) // Ctrl+C
	}()
	err := runWithin(t, func() error { return Run(context.Background(), load, in, io.Discard, WithTheme(ThemeDark)) })
	if err != nil {
		t.Errorf("Ctrl+C while starting: Run = %v, want a normal end", err)
	}
	if !returned.Load() {
		t.Error("Run returned before the loader did")
	}
}

func runWithin(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
		return nil
	}
}
