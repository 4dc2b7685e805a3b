package handlers

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"

	"larder/repo"
	"larder/token"
)

// ListEvents tells the browsers that have a shopping list open when it
// changes. The database notifies every committed change of a list, its
// items or its members (migration 0040, channel repo.ShoppingListChannel)
// whichever API instance or process made it; Follow listens on a
// connection of its own and wakes the list's subscribers, and each
// GET /api/shopping-lists/:id/events stream tells its browser to read the
// list again. Nothing of the list travels on the stream, so a member who
// was removed learns nothing from it (their next read is a 404).
//
// A stream lives no longer than the access that opened it: it ends when
// the access token expires (the client reconnects with a fresh one) and,
// before any event is sent and at every heartbeat, when the caller may no
// longer read the list (removed as a member, the list deleted, the user
// deleted or signed out everywhere). A change of the list's members is
// itself an event, so losing the list ends the stream at once; a session
// ended elsewhere ends it within a heartbeat.
type ListEvents struct {
	mu   sync.Mutex
	subs map[uuid.UUID]map[chan string]struct{}
	// done is closed when Follow returns: streams end, so a shutdown does
	// not wait for them.
	done chan struct{}
	once sync.Once
	// listening is closed once Follow first listens.
	listening     chan struct{}
	listeningOnce sync.Once
	// Heartbeat is how often an idle stream sends a comment, so proxies and
	// phones keep it open and a vanished client is noticed.
	Heartbeat time.Duration
}

// NewListEvents returns a hub with no subscribers; run Follow to feed it.
func NewListEvents() *ListEvents {
	return &ListEvents{subs: map[uuid.UUID]map[chan string]struct{}{}, done: make(chan struct{}), listening: make(chan struct{}), Heartbeat: 25 * time.Second}
}

// Event names on the stream.
const (
	eventChange = "change" // the list changed: read it again
	eventResync = "resync" // changes may have been missed (the listener reconnected): read it again
)

func (h *ListEvents) subscribe(listID uuid.UUID) (<-chan string, func()) {
	// Room for one pending event: a change and a resync mean the same
	// thing to a client, so a full buffer may drop the newer one.
	ch := make(chan string, 1)
	h.mu.Lock()
	if h.subs[listID] == nil {
		h.subs[listID] = map[chan string]struct{}{}
	}
	h.subs[listID][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[listID], ch)
		if len(h.subs[listID]) == 0 {
			delete(h.subs, listID)
		}
		h.mu.Unlock()
	}
}

// Listening is closed once Follow listens for the first time: from then
// on every committed change reaches the streams.
func (h *ListEvents) Listening() <-chan struct{} { return h.listening }

// Subscribers is how many streams are open, for tests and benchmarks.
func (h *ListEvents) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.subs {
		n += len(s)
	}
	return n
}

func (h *ListEvents) publish(listID uuid.UUID, event string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[listID] {
		select {
		case ch <- event:
		default: // one is pending already
		}
	}
}

func (h *ListEvents) publishAll(event string) {
	h.mu.Lock()
	ids := make([]uuid.UUID, 0, len(h.subs))
	for id := range h.subs {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	for _, id := range ids {
		h.publish(id, event)
	}
}

// Follow listens for list changes on a connection from connect until ctx
// ends, reconnecting with a growing pause. After every (re)connection the
// open streams are told to read their lists again, since a change may have
// come while nobody listened.
func (h *ListEvents) Follow(ctx context.Context, connect func(context.Context) (*pgx.Conn, error), logger *slog.Logger) {
	defer h.once.Do(func() { close(h.done) })
	pause := time.Second
	for ctx.Err() == nil {
		err := h.listen(ctx, connect, func() { pause = time.Second })
		if ctx.Err() != nil {
			return
		}
		logger.Warn("shopping lists: lost the change notifications; open lists update again once they are back", "err", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Minute)
	}
}

func (h *ListEvents) listen(ctx context.Context, connect func(context.Context) (*pgx.Conn, error), connected func()) error {
	conn, err := connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+repo.ShoppingListChannel); err != nil {
		return err
	}
	connected()
	h.listeningOnce.Do(func() { close(h.listening) })
	h.publishAll(eventResync)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if id, err := uuid.Parse(n.Payload); err == nil {
			h.publish(id, eventChange)
		}
	}
}

// accessClaims returns the claims of the request's verified access token
// (requireAuth put it there), nil without one.
func accessClaims(c *fiber.Ctx) *token.Claims {
	jt, _ := c.Locals("jwt").(*jwt.Token)
	if jt == nil {
		return nil
	}
	claims, _ := jt.Claims.(*token.Claims)
	if claims == nil || claims.ExpiresAt == nil {
		return nil
	}
	return claims
}

// shoppingListEvents answers GET /api/shopping-lists/:id/events with a
// stream of server-sent events: "ready" at once, then "change" whenever
// the list changes and "resync" when changes may have been missed. Each
// says only "read the list again".
func (s *Server) shoppingListEvents(c *fiber.Ctx) error {
	l, err := s.editableList(c, s.DB, false)
	if err != nil {
		return err
	}
	h := s.ListEvents
	if h == nil {
		return newError(fiber.StatusServiceUnavailable, "unavailable", "live updates are off on this server; read the list again from time to time")
	}
	// The stream outlives the handler, and c with it: take what the
	// checks need now.
	claims := accessClaims(c)
	if claims == nil {
		return errUnauthenticated("the access token is invalid or expired")
	}
	userID, version, expires := caller(c).ID, claims.SessionVersion, claims.ExpiresAt.Time
	allowed := func() bool {
		if !s.now().Before(expires) {
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// A failed check ends the stream too: the client reconnects and is
		// answered as any request is.
		ok, err := repo.ShoppingListSessionAlive(ctx, s.DB, l.ID, userID, version)
		return err == nil && ok
	}
	events, cancel := h.subscribe(l.ID)
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	c.Context().SetBodyStreamWriter(fasthttp.StreamWriter(func(w *bufio.Writer) {
		defer cancel()
		send := func(event string) bool {
			fmt.Fprintf(w, "event: %s\ndata: {\"listId\":%q}\n\n", event, l.ID)
			return w.Flush() == nil
		}
		// retry: how long a browser waits before reconnecting.
		fmt.Fprint(w, "retry: 2000\n\n")
		if !send("ready") {
			return
		}
		beat := time.NewTicker(h.Heartbeat)
		defer beat.Stop()
		// At the token's expiry by the server's clock; the heartbeat's check
		// covers a clock that moves otherwise (tests).
		expiry := time.NewTimer(max(0, expires.Sub(s.now())))
		defer expiry.Stop()
		for {
			select {
			case ev := <-events:
				if !allowed() || !send(ev) {
					return
				}
			case <-beat.C:
				if !allowed() {
					return
				}
				fmt.Fprint(w, ": ping\n\n")
				if w.Flush() != nil {
					return
				}
			case <-expiry.C:
				return
			case <-h.done:
				return
			}
		}
	}))
	return nil
}
