package handlers

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/repo"
)

// liveStream is an open GET /events stream, line by line.
type liveStream struct {
	lines chan string
}

func openLiveStream(t *testing.T, ctx context.Context, base string, list uuid.UUID, tok string) *liveStream {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/shopping-lists/"+list.String()+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &liveStream{lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	return s
}

// pings waits for n heartbeats: the stream went through n access checks
// and is still open.
func (s *liveStream) pings(t *testing.T, n int) {
	t.Helper()
	for line := range s.lines {
		if line == ": ping" {
			if n--; n == 0 {
				return
			}
		}
	}
	t.Fatal("the stream ended while its access was still good")
}

// ends waits for the server to end the stream and returns the events it
// sent first. The request's deadline fails a stream that never ends.
func (s *liveStream) ends(t *testing.T) []string {
	t.Helper()
	var events []string
	for line := range s.lines {
		if strings.HasPrefix(line, "event: ") {
			events = append(events, strings.TrimPrefix(line, "event: "))
		}
	}
	return events
}

// A live stream ends with the access that opened it: at the token's expiry
// by the server's clock, and when the caller loses the list (removed as a
// member, the list deleted) or their session (signed out everywhere).
// The heartbeat is short so that checks come often; the time that passes
// is the test clock's.
func TestShoppingListEventsEndWithAccess(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	events := NewListEvents()
	events.Heartbeat = 20 * time.Millisecond
	b := setup(t, withClock(clock), func(d *Deps) { d.ListEvents = events })
	follow, stop := context.WithCancel(context.Background())
	defer stop()
	go events.Follow(follow, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, b.db.Config().ConnConfig.Copy())
	}, b.deps.Logger)
	<-events.Listening()
	base := b.serve(t)
	owner, ownerTok := b.user(t, repo.RoleUser)
	member, memberTok := b.user(t, repo.RoleUser)
	l := slList(t, b, owner, "metric")
	path := "/api/shopping-lists/" + l.String()
	wantStatus(t, b.do(t, "POST", path+"/members", map[string]any{"email": member.Email}, ownerTok), 201)

	// Each stream's request has a deadline: a stream that does not end
	// fails its case instead of hanging the test.
	deadline := func(t *testing.T) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		t.Cleanup(cancel)
		return ctx
	}

	t.Run("the access token expires", func(t *testing.T) {
		ctx := deadline(t)
		s := openLiveStream(t, ctx, base, l, ownerTok)
		s.pings(t, 3)
		// Past the token's expiry, however long the setup took.
		clock.Advance(2 * b.deps.Tokens.AccessTTL)
		defer clock.Advance(-2 * b.deps.Tokens.AccessTTL)
		s.ends(t)
		if ctx.Err() != nil {
			t.Fatal("the stream outlived its token")
		}
	})

	t.Run("the member is removed", func(t *testing.T) {
		ctx := deadline(t)
		s := openLiveStream(t, ctx, base, l, memberTok)
		s.pings(t, 1)
		wantStatus(t, b.do(t, "DELETE", path+"/members/"+member.ID.String(), nil, ownerTok), 204)
		// The removal is a change of the list, which a former member is
		// not told of ("ready" came before the pings).
		if ev := s.ends(t); ctx.Err() != nil || len(ev) != 0 {
			t.Fatalf("a removed member's stream: events %v, ended %v", ev, ctx.Err() == nil)
		}
	})

	t.Run("the session ends", func(t *testing.T) {
		ctx := deadline(t)
		other, otherTok := b.user(t, repo.RoleUser)
		l2 := slList(t, b, other, "metric")
		s := openLiveStream(t, ctx, base, l2, otherTok)
		s.pings(t, 1)
		if _, err := b.db.Exec(context.Background(), `UPDATE app_user SET session_version = session_version + 1 WHERE id = $1`, other.ID); err != nil {
			t.Fatal(err)
		}
		s.ends(t)
		if ctx.Err() != nil {
			t.Fatal("the stream outlived its session")
		}
	})

	t.Run("the list is deleted", func(t *testing.T) {
		ctx := deadline(t)
		s := openLiveStream(t, ctx, base, l, ownerTok)
		s.pings(t, 1)
		wantStatus(t, b.do(t, "DELETE", path, nil, ownerTok), 204)
		if ev := s.ends(t); ctx.Err() != nil || len(ev) != 0 {
			t.Fatalf("a deleted list's stream: events %v, ended %v", ev, ctx.Err() == nil)
		}
	})
}
