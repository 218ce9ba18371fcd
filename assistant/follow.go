package assistant

import (
	"context"
	"sync"

	"github.com/docent-sh/docent/store"
)

// Changes is a store that tells of the kill switch and of seeds as they
// commit (the PostgreSQL store's LISTEN/NOTIFY): a session following it
// learns of both at once, and asks the store neither before each turn
// while the feed listens. The channel closes when ctx ends.
type Changes interface {
	Watch(ctx context.Context) <-chan store.Change
}

// told is whether a value the change feed keeps current may be used
// without asking the store: only while the feed listens, and once it was
// told, or read with no event of the feed in between, since the feed
// last connected. The struct holding it guards it with its own mutex,
// the one that guards the value, so a value and its trust change as one.
type told struct {
	listening bool
	current   bool
	// epoch moves with every event of the feed: a read begun before one
	// may be older than what the feed said, and is not trusted.
	epoch uint64
}

func (t *told) trusted() bool { return t.listening && t.current }

// connected records that the feed (re)connected or was lost: either way
// what it said before says nothing of now.
func (t *told) connected(listening bool) {
	t.listening, t.current = listening, false
	t.epoch++
}

// tell records that the feed told the value.
func (t *told) tell() {
	t.current = t.listening
	t.epoch++
}

// read records that the value was read from the store, in a read begun
// at epoch.
func (t *told) read(epoch uint64) {
	if t.listening && epoch == t.epoch {
		t.current = true
	}
}

// generationState is the knowledge generation as the change feed told it.
type generationState struct {
	mu         sync.Mutex
	generation int64
	told       told
}

// known is the generation when the feed keeps it current.
func (g *generationState) known() (int64, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.generation, g.told.trusted()
}

// snapshot is known's answer and whether the feed listens: without it no
// read of the store is learnt.
func (g *generationState) snapshot() (gen int64, known, listening bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.generation, g.told.trusted(), g.told.listening
}

func (g *generationState) epoch() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.told.epoch
}

func (g *generationState) learn(epoch uint64, gen int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if epoch == g.told.epoch {
		g.generation = gen
		g.told.read(epoch)
	}
}

func (g *generationState) connected(listening bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.told.connected(listening)
}

func (g *generationState) tell(gen int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.generation = gen
	g.told.tell()
}

// Follow keeps the session in step with its store's changes as c tells
// them, until ctx ends and the feed closes: the kill switch flips at once,
// and a seed rebuilds the engine before the next turn needs it. While the
// feed is down the session polls as it does without one, and when it
// comes back the session reads the store once for what went untold.
// Forks follow with the session they were forked from. Call it once, in
// a goroutine of its own.
func (s *Session) Follow(ctx context.Context, c Changes) {
	// Catching up reads the store and may rebuild the engine: it runs
	// apart, so a slow rebuild does not hold up the switch, and a burst
	// of seeds costs one rebuild, not one each.
	catchUp := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range catchUp {
			s.retrievalEnabled(ctx)
			s.currentEngine(ctx)
		}
	}()
	defer func() {
		close(catchUp)
		<-done
	}()
	wake := func() {
		select {
		case catchUp <- struct{}{}:
		default:
		}
	}
	for ch := range c.Watch(ctx) {
		switch ch.Kind {
		case store.ChangeListening:
			s.log.Info("listening for the store's changes")
			s.switchState.connected(true)
			s.generationState.connected(true)
			wake()
		case store.ChangeLost:
			s.log.Warn("lost the store's change feed; polling until it is back", "err", ch.Err)
			s.switchState.connected(false)
			s.generationState.connected(false)
		case store.ChangeSwitch:
			s.switchState.tell(s, ch.Enabled)
		case store.ChangeGeneration:
			s.generationState.tell(ch.Generation)
			wake()
		}
	}
	// The feed is gone for good: the session polls from now on.
	s.switchState.connected(false)
	s.generationState.connected(false)
}
