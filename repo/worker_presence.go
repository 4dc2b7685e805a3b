package repo

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// A worker process shows that it is alive by holding a session advisory
// lock (class "lwpr", object its presence key) on a connection of its own
// for its whole life. PostgreSQL ends the lock with the session, so with
// the process: at once when the process is killed (its socket closes),
// within a minute when its machine vanishes (watchClient's keepalives).
// The key is in the process's River client ID, which River records on
// every job the process takes (river_job.attempted_by), so the lock says
// whether the worker of a running job is still there. pg_locks needs no
// privilege to read.
const workerPresenceClass = 0x6c777072

// MaxPresenceKey is the largest presence key: nine digits, so any key
// read back from a client ID is a positive int4.
const MaxPresenceKey = 999_999_999

// WorkerClientID is the River client ID of the worker process on host
// whose presence key is key (1..MaxPresenceKey): River allows 100
// characters and wants IDs unique, which the key makes them while the
// process lives.
func WorkerClientID(host string, key int32) string {
	host = strings.NewReplacer(".", "_", "-", "_").Replace(host)
	if len(host) > 60 {
		host = host[:60]
	}
	if host == "" {
		host = "unknown_host"
	}
	return fmt.Sprintf("%s_w%d", host, key)
}

// presenceKeyOf is the SQL expression of the presence key in the client
// ID expression id (see WorkerClientID), NULL for an ID that carries none
// (a client that keeps no presence lock, whose jobs are left to River's
// rescuer).
func presenceKeyOf(id string) string {
	return `substring(` + id + ` from '_w([1-9][0-9]{0,8})$')::integer`
}

// TakeWorkerPresence takes the presence lock with key on conn's session,
// which must be a new connection (its start is read as the start of the
// presence, see restoreWorkerGone) kept for this and for ClaimRestore.
// ok is false when another session holds that key. since is the time from
// which the lock is held: a restore taken by River before it is not
// claimed (ClaimRestore).
func TakeWorkerPresence(ctx context.Context, conn DBTX, key int32) (since time.Time, ok bool, err error) {
	watchClient(ctx, conn)
	// A presence session is idle most of its life; a server-wide idle
	// timeout would end it, and with it the lock, under a live worker.
	_, _ = conn.Exec(ctx, `SET idle_session_timeout = 0`)
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, workerPresenceClass, key).Scan(&ok); err != nil || !ok {
		return since, ok, wrap("take worker presence lock", err)
	}
	// Read after the lock is granted: every job taken after this time was
	// taken while the lock was held.
	err = conn.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&since)
	return since, true, wrap("take worker presence lock", err)
}
