package extractive

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSplitPieces(t *testing.T) {
	text := "one two three four  five\nsix seven"
	pieces := splitPieces(text, 3)
	if strings.Join(pieces, "") != text {
		t.Fatalf("pieces %q do not join back to the text", pieces)
	}
	want := []string{"one two three ", "four  five\nsix ", "seven"}
	if !slices.Equal(pieces, want) {
		t.Errorf("pieces = %q, want %q", pieces, want)
	}
}

func TestModelStreams(t *testing.T) {
	p := buildPrompt("What is a workspace?", workspaceEvidence())
	m := New()
	var pieces []string
	answer, err := m.Stream(context.Background(), p, func(_ context.Context, chunk []byte) error {
		pieces = append(pieces, string(chunk))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) < 3 {
		t.Fatalf("streamed %d pieces, want several: %q", len(pieces), pieces)
	}
	for _, piece := range pieces {
		if n := len(strings.Fields(piece)); n > defaultPieceWords {
			t.Errorf("piece %q has %d words", piece, n)
		}
	}
	if got := strings.Join(pieces, ""); got != answer || got != Answer(p) {
		t.Errorf("streamed %q, returned %q", got, answer)
	}

	// Without a streaming func it returns the same answer.
	got, err := m.Stream(context.Background(), p, nil)
	if err != nil || got != answer {
		t.Errorf("Stream without a func = %q, %v", got, err)
	}
}

func TestModelStopsOnCancel(t *testing.T) {
	p := buildPrompt("How do I restore an archived workspace?", workspaceEvidence())
	m := New(WithPace(time.Millisecond), WithPieceWords(1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var pieces []string
	_, err := m.Stream(ctx, p, func(_ context.Context, chunk []byte) error {
		pieces = append(pieces, string(chunk))
		if len(pieces) == 2 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(pieces) != 2 {
		t.Errorf("streamed %d pieces after cancelling at 2", len(pieces))
	}

	// A streaming func's error stops the stream too, as with real clients.
	stop := errors.New("consumer gone")
	_, err = m.Stream(context.Background(), p, func(context.Context, []byte) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("err = %v, want the streaming func's error", err)
	}
}
