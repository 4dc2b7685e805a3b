package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/rivertype"

	"larder/repo"
)

// Presence is a worker process's proof of life in PostgreSQL: a session of
// its own holding the presence lock whose key is in the process's River
// client ID (repo.TakeWorkerPresence). It lets the status of a restore
// whose worker was killed before the restore claimed the job read as
// interrupted at once (repo.GetJob), where River would call it running
// until its rescuer ends it, hours later. Restores claim their job on
// this session (claimRestore). Close it after the River client has
// stopped.
type Presence struct {
	connect func(context.Context) (*pgx.Conn, error)
	key     int32
	id      string
	logger  *slog.Logger
	stop    chan struct{}
	done    chan struct{}

	mu    sync.Mutex
	conn  *pgx.Conn // nil after the session was lost, until opened again
	since time.Time
}

// presenceCheckEvery is how often the presence session is checked, and
// opened again when it was lost (a database restart, a proxy cutting it):
// a restore River hands this process while it has no presence session
// cannot be claimed, and ends as interrupted.
const presenceCheckEvery = 10 * time.Second

// presenceKeyTries bounds the random keys tried: a key is taken only if
// another live process drew the same one among a billion.
const presenceKeyTries = 5

// OpenPresence opens the presence session of this process on pool's
// database, takes a presence lock with a random key, and keeps the session
// open (checked every presenceCheckEvery) until Close.
func OpenPresence(ctx context.Context, pool *pgxpool.Pool, logger *slog.Logger) (*Presence, error) {
	host, _ := os.Hostname()
	p := &Presence{connect: func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	}, logger: logger, stop: make(chan struct{}), done: make(chan struct{})}
	for range presenceKeyTries {
		p.key = rand.Int32N(repo.MaxPresenceKey) + 1
		err := p.reopen(ctx)
		if errors.Is(err, errPresenceKeyTaken) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p.id = repo.WorkerClientID(host, p.key)
		go p.keep()
		return p, nil
	}
	return nil, fmt.Errorf("worker presence: %w %d times", errPresenceKeyTaken, presenceKeyTries)
}

var errPresenceKeyTaken = errors.New("presence key held by another session")

// reopen connects the presence session and takes the lock with p.key.
// The caller holds p.mu (or owns p alone).
func (p *Presence) reopen(ctx context.Context) error {
	conn, err := p.connect(ctx)
	if err != nil {
		return fmt.Errorf("worker presence: connect: %w", err)
	}
	since, ok, err := repo.TakeWorkerPresence(ctx, conn, p.key)
	if err == nil && !ok {
		err = errPresenceKeyTaken
	}
	if err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return err
	}
	p.conn, p.since = conn, since
	return nil
}

// keep checks the presence session every presenceCheckEvery until Close.
func (p *Presence) keep() {
	defer close(p.done)
	tick := time.NewTicker(presenceCheckEvery)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			if err := p.check(context.Background()); err != nil {
				p.logger.Warn("worker presence session lost; restores taken meanwhile end as interrupted", "error", err)
			}
		}
	}
}

// check opens the presence session again (same key) if it was lost.
func (p *Presence) check(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		ping, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := p.conn.Ping(ping)
		cancel()
		if err == nil {
			return nil
		}
		_ = p.conn.Close(context.WithoutCancel(ctx))
		p.conn = nil
	}
	return p.reopen(ctx)
}

// ClientID is the River client ID carrying the presence key.
func (p *Presence) ClientID() string { return p.id }

// claimRestore claims River job job for the restore whose lock session
// is lockPID (repo.ClaimRestore), on the presence session. A session lost
// and not yet opened again by check is opened again first. Either way,
// the jobs this process took while it had none may read as abandoned, and
// repo.ClaimRestore refuses them (they were taken before the new lock).
// false: the restore must not run.
func (p *Presence) claimRestore(ctx context.Context, job *rivertype.JobRow, lockPID int32) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil || p.conn.IsClosed() {
		if err := p.reopen(ctx); err != nil {
			return false, err
		}
	}
	if job.AttemptedAt == nil {
		return false, errors.New("claim restore: River recorded no attempt")
	}
	ok, err := repo.ClaimRestore(ctx, p.conn, job.ID, lockPID, *job.AttemptedAt, p.since)
	if err != nil {
		// Whatever failed, a session in doubt is not trusted again.
		_ = p.conn.Close(context.WithoutCancel(ctx))
		p.conn = nil
	}
	return ok, err
}

// Close ends the presence session, and with it the lock.
func (p *Presence) Close() {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		_ = p.conn.Close(context.Background())
		p.conn = nil
	}
}
