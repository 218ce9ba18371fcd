package memory

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Events recorded while another is being written wait for that write and
// are then written together, by one of them, each caller getting its
// group's outcome: a caller never waits behind a lock held across
// another's file system calls, and never writes for others indefinitely.
func TestEventQueueWritesWaitingEventsTogether(t *testing.T) {
	var q eventQueue
	var mu sync.Mutex
	var groups [][]string
	firstWriting, releaseFirst := make(chan struct{}), make(chan struct{})
	errSecond := errors.New("disk full")
	write := func(lines [][]byte) error {
		mu.Lock()
		n := len(groups)
		var g []string
		for _, l := range lines {
			g = append(g, string(l))
		}
		groups = append(groups, g)
		mu.Unlock()
		switch n {
		case 0:
			close(firstWriting)
			<-releaseFirst
			return nil
		case 1:
			return errSecond
		}
		return nil
	}
	first := make(chan error, 1)
	go func() { first <- q.append([]byte("first"), write) }()
	<-firstWriting

	const waiting = 5
	results := make(chan error, waiting)
	for i := range waiting {
		go func() { results <- q.append(fmt.Appendf(nil, "waiting %d", i), write) }()
	}
	// The five queue behind the first write.
	for deadline := time.Now().Add(5 * time.Second); ; {
		q.mu.Lock()
		n := len(q.queued)
		q.mu.Unlock()
		if n == waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events queued, want %d", n, waiting)
		}
		time.Sleep(time.Millisecond)
	}
	close(releaseFirst)
	if err := <-first; err != nil {
		t.Fatalf("first event: %v", err)
	}
	for range waiting {
		if err := <-results; !errors.Is(err, errSecond) {
			t.Errorf("a waiting event got %v, want its group's error %v", err, errSecond)
		}
	}
	if len(groups) != 2 || len(groups[0]) != 1 || len(groups[1]) != waiting {
		t.Fatalf("written in groups %q, want the first alone then the %d waiting together", groups, waiting)
	}
	// Nothing is left queued, and the next event is written at once.
	if err := q.append([]byte("later"), write); err != nil || len(groups) != 3 {
		t.Errorf("a later event: %v, %d groups", err, len(groups))
	}
}
