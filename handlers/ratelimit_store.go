package handlers

import (
	"context"
	"sync"
	"time"

	"github.com/ulule/limiter/v3"
)

// memoryStore is a limiter.Store of fixed windows in this process, like
// ulule's own memory store, but on an injected clock: the library's store
// reads time.Now, so a test of a 15-minute window would have to wait 15
// minutes. Each key's window starts at its first attempt and lasts the
// rate's period.
type memoryStore struct {
	now func() time.Time
	mu  sync.Mutex
	// counts holds each key's current window.
	counts map[string]*memoryWindow
	// sweepAt is when expired windows are next dropped, so the map does not
	// keep every address ever seen.
	sweepAt time.Time
}

type memoryWindow struct {
	count int64
	end   time.Time
}

// memorySweepEvery is how often expired windows are dropped.
const memorySweepEvery = time.Minute

func newMemoryStore(now func() time.Time) *memoryStore {
	return &memoryStore{now: now, counts: map[string]*memoryWindow{}}
}

// window returns key's live window, a new one when it has none; s.mu is held.
func (s *memoryStore) window(key string, rate limiter.Rate, now time.Time) *memoryWindow {
	if now.After(s.sweepAt) {
		for k, w := range s.counts {
			if !now.Before(w.end) {
				delete(s.counts, k)
			}
		}
		s.sweepAt = now.Add(memorySweepEvery)
	}
	w := s.counts[key]
	if w == nil || !now.Before(w.end) {
		w = &memoryWindow{end: now.Add(rate.Period)}
		s.counts[key] = w
	}
	return w
}

func windowContext(rate limiter.Rate, w *memoryWindow) limiter.Context {
	lc := limiter.Context{Limit: rate.Limit, Reset: w.end.Unix(), Reached: w.count > rate.Limit}
	if !lc.Reached {
		lc.Remaining = rate.Limit - w.count
	}
	return lc
}

// Get counts one attempt.
func (s *memoryStore) Get(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return s.Increment(ctx, key, 1, rate)
}

// Peek reads the count without changing it.
func (s *memoryStore) Peek(_ context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return windowContext(rate, s.window(key, rate, s.now())), nil
}

// Reset forgets key's attempts.
func (s *memoryStore) Reset(_ context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.counts, key)
	return limiter.Context{Limit: rate.Limit, Remaining: rate.Limit, Reset: s.now().Add(rate.Period).Unix()}, nil
}

// Increment adds count attempts (negative gives attempts back).
func (s *memoryStore) Increment(_ context.Context, key string, count int64, rate limiter.Rate) (limiter.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.window(key, rate, s.now())
	w.count += count
	return windowContext(rate, w), nil
}
