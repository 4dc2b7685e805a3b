package backup

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"larder/filestore"
	"larder/imageproc"
	"larder/migrations"
	"larder/repo"
)

// RestoreOptions configure Restore.
type RestoreOptions struct {
	// Backups is where the backup is.
	Backups filestore.Store
	// Files are the uploaded files to replace: their store and the
	// database's generation of them (see filestore.Generations).
	Files filestore.Generations
	// TempDir is a local scratch directory: the archive is fetched there
	// (streamed) when the store is not local disk, since ZIP needs random
	// access and the archive is read more than once.
	TempDir string
	Limits  Limits
	// Progress, if not nil, gets the fraction done (0..1). It is called
	// from its own goroutine, so a slow or blocked call never holds up the
	// restore transaction.
	Progress func(float64)
	// Migrations are the schema migrations of this build; nil means
	// migrations.All().
	Migrations []migrations.Migration
	// AfterTable, if not nil, runs inside the restore transaction after
	// each table is loaded (for an older backup: into the scratch schema,
	// then into the application tables); an error aborts the restore.
	// Tests inject failures with it.
	AfterTable func(table string) error
	// AfterFiles, if not nil, runs once every file is stored under the new
	// generation, before the commit; an error aborts the restore. Tests
	// inject failures with it.
	AfterFiles func() error
	// Lock, if not nil, is the restore lock, taken by the caller
	// (LockRestore), who gives it up after Restore returns; nil: Restore
	// takes the lock itself and gives it up as soon as it has committed.
	Lock *RestoreLock
	// BeforeCommit, if not nil, runs inside the restore transaction once
	// everything is loaded and stored, just before the commit, with the
	// result; an error aborts the restore. A job records its result there,
	// so the result is committed with the data, or neither is.
	BeforeCommit func(ctx context.Context, tx pgx.Tx, res RestoreResult) error
	Logger       *slog.Logger

	// deferRows overrides deferRows; tests set it low so that the small
	// fixture exercises the dropping and rebuilding of indexes and keys.
	deferRows int64
}

// RestoreResult is what a restore did.
type RestoreResult struct {
	Name string `json:"name"`
	// SchemaVersion is the backup's; MigratedTo the database's after the
	// restore (higher when an older backup was migrated forward).
	SchemaVersion int   `json:"schemaVersion"`
	MigratedTo    int   `json:"migratedTo"`
	Tables        int   `json:"tables"`
	Rows          int64 `json:"rows"`
	Files         int   `json:"files"`
}

// Restore replaces the database's application data and the uploaded files
// with those of backup name, all or nothing:
//
//  1. It holds the restore lock (LockRestore, or RestoreOptions.Lock) for
//     its whole run; the API answers with 503 while it is held.
//  2. The archive is fetched to local disk (fetchArchive) and verified
//     (Verify's rules): its directory, manifest, entry names, modes and
//     bounds first, then the size and SHA-256 of every table dump,
//     streamed, before the database is touched.
//  3. The files are verified (checksums, and by content: only the image
//     kinds the service writes) while they are stored under a new file
//     generation (storeFiles), invisible to the service.
//  4. One transaction, running meanwhile, empties the application tables
//     and loads the dumps in dependency order with COPY (no superuser
//     rights needed); a backup of an older schema is loaded into a scratch
//     schema built by the old migrations, migrated forward there, and
//     copied across. Every session issued before is ended
//     (repo.FinishRestore). It switches the file generation and commits
//     only once every file has passed its check and is stored (and
//     RestoreOptions.BeforeCommit has run); any
//     problem, anywhere, rolls it back, removes the new generation and
//     refuses the restore (a *Refusal when the archive is at fault) with
//     nothing changed.
//  5. After the commit, the lock is released (by the caller, when it is
//     the caller's) and the replaced files are removed in the background.
func Restore(ctx context.Context, pool *pgxpool.Pool, name string, o RestoreOptions) (res RestoreResult, err error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	all := o.Migrations
	if all == nil {
		if all, err = migrations.All(); err != nil {
			return res, err
		}
	}
	info, err := Stat(ctx, o.Backups, name)
	if err != nil {
		return res, err
	}
	res.Name = name

	lock := o.Lock
	if lock == nil {
		if lock, err = LockRestore(ctx, pool); err != nil {
			return res, err
		}
		defer lock.Release()
	}
	conn := lock.conn

	report := newProgressPump(o.Progress)
	defer report.close()
	phase := phaseTimer(logger, name)

	dbVersion, err := migrations.Version(ctx, conn)
	if err != nil {
		return res, err
	}
	if len(all) == 0 || all[len(all)-1].Version < dbVersion {
		return res, &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
			"the database is at schema version %d, newer than this worker's release knows; upgrade the worker", dbVersion)}
	}
	current, err := repo.FileGeneration(ctx, conn)
	if err != nil {
		return res, err
	}
	// Files a crashed restore left under a generation of its own; holding
	// the lock, no other restore can be writing them.
	if err := filestore.RemoveOtherGenerations(ctx, o.Files.Base, current); err != nil {
		logger.Warn("restore: remove files left by an earlier restore", "error", err)
	}

	path, removeArchive, err := fetchArchive(ctx, o.Backups, info, o.TempDir)
	if err != nil {
		return res, err
	}
	defer removeArchive()
	phase("fetch archive")
	a, err := openArchive(path, o.Limits, dbVersion)
	if err != nil {
		return res, err
	}
	defer a.Close()
	m := a.manifest
	res.SchemaVersion, res.MigratedTo, res.Files = m.SchemaVersion, dbVersion, m.Files

	var dbBytes int64
	for _, t := range m.Tables {
		dbBytes += a.expected[t.Entry].Size
	}
	// Every entry is read once to be verified, and the dumps once more to
	// be loaded.
	prog := newProgress(report.set, 0, 0.95, a.total+dbBytes)
	if err := a.readAll(isDump, nil, prog.add); err != nil {
		return res, err
	}
	phase("verify dumps")

	gen := filestore.NewGeneration()
	committed := false
	defer func() {
		if !committed {
			if err := filestore.RemoveGeneration(context.WithoutCancel(ctx), o.Files.Base, gen); err != nil {
				logger.Warn("restore: remove the files of the failed restore", "generation", gen, "error", err)
			}
		}
	}()
	res.Tables = len(m.Tables)
	res.Rows, err = loadAndSwitch(ctx, conn, a, o, all, dbVersion, gen, prog, phase, res)
	if err != nil {
		return res, err
	}
	committed = true
	phase("commit")

	// The restore is complete: requests may resume (when the lock is the
	// caller's, once it has recorded the outcome).
	if o.Lock == nil {
		lock.Release()
	}
	report.set(1)
	// The replaced files are garbage now; deleting thousands of them takes
	// a while, so it happens in the background. What a process that stops
	// meanwhile leaves is removed by the next restore.
	cleanups.Add(1)
	go func() {
		defer cleanups.Done()
		if err := filestore.RemoveOtherGenerations(context.WithoutCancel(ctx), o.Files.Base, gen); err != nil {
			logger.Warn("restore: remove the replaced files", "error", err)
		}
		phase("remove old files")
	}()
	return res, nil
}

func isDump(name string) bool { return strings.HasPrefix(name, tablePrefix) }
func isFile(name string) bool { return strings.HasPrefix(name, filesPrefix) }

// RestoreLock is the restore lock (see repo.TryLockRestore), held by a
// connection of its own, on which the restore then runs.
type RestoreLock struct {
	conn     *pgxpool.Conn
	ctx      context.Context
	released bool
}

// LockRestore takes the restore lock, or returns ErrRestoreRunning when
// another session holds it. Release gives it back.
func LockRestore(ctx context.Context, pool *pgxpool.Pool) (*RestoreLock, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("restore: acquire connection: %w", err)
	}
	l := &RestoreLock{conn: conn, ctx: ctx}
	locked, err := repo.TryLockRestore(ctx, conn)
	if err != nil {
		l.Release()
		return nil, err
	}
	if !locked {
		l.Release()
		return nil, ErrRestoreRunning
	}
	return l, nil
}

// Conn is the session holding the lock.
func (l *RestoreLock) Conn() *pgxpool.Conn { return l.conn }

// Release gives the lock back; calling it again does nothing.
func (l *RestoreLock) Release() {
	if l.released {
		return
	}
	l.released = true
	// If the lock cannot be released cleanly, closing the session
	// releases it for sure.
	if uerr := repo.UnlockRestore(context.WithoutCancel(l.ctx), l.conn); uerr != nil {
		_ = l.conn.Conn().Close(context.WithoutCancel(l.ctx))
	}
	l.conn.Release()
}

// fetchArchive returns a local path of the archive: the file itself when
// the store is local disk, else a copy streamed into tempDir (removed by
// the returned function).
func fetchArchive(ctx context.Context, store filestore.Store, info Info, tempDir string) (string, func(), error) {
	if l, ok := store.(filestore.Local); ok {
		return filepath.Join(l.Root, info.Name), func() {}, nil
	}
	if err := os.MkdirAll(tempDir, 0o700); err != nil {
		return "", nil, fmt.Errorf("restore: scratch directory: %w", err)
	}
	f, err := os.CreateTemp(tempDir, restoreScratchPrefix+"*"+scratchSuffix)
	if err != nil {
		return "", nil, fmt.Errorf("restore: %w", err)
	}
	remove := func() { os.Remove(f.Name()) }
	rc, err := store.Open(ctx, info.Name)
	if err == nil {
		err = pipeCopy(f, rc) // the network and the disk overlap
		rc.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("restore: fetch %s: %w", info.Name, err)
	}
	return f.Name(), remove, nil
}

// loadAndSwitch stores the files under generation gen (storeFiles) while
// the restore transaction loads the tables, then switches the file
// generation and commits, once both have succeeded. It returns the rows
// loaded.
func loadAndSwitch(ctx context.Context, conn *pgxpool.Conn, a *archive, o RestoreOptions, all []migrations.Migration,
	dbVersion int, gen string, prog *progress, phase func(string), res RestoreResult) (int64, error) {
	filesCtx, stopFiles := context.WithCancel(ctx)
	defer stopFiles()
	filesDone := make(chan error, 1)
	go func() {
		err := storeFiles(filesCtx, a, o.Files.Base, gen, prog)
		if err == nil && o.AfterFiles != nil {
			err = o.AfterFiles()
		}
		phase("verify and store files")
		filesDone <- err
	}()

	tx, err := conn.Begin(ctx)
	if err != nil {
		stopFiles()
		<-filesDone
		return 0, fmt.Errorf("restore: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after commit
	load := loader{ctx: ctx, a: a, tx: tx, progress: prog, afterTable: o.AfterTable, phase: phase, deferRows: o.deferRows}
	if load.deferRows <= 0 {
		load.deferRows = deferRows
	}
	m := a.manifest
	loadErr := repo.SetCopySettings(ctx, tx)
	if loadErr == nil && m.SchemaVersion == dbVersion {
		loadErr = load.current()
	} else if loadErr == nil {
		loadErr = load.older(all, dbVersion)
	}
	if loadErr != nil {
		stopFiles()
	}
	filesErr := <-filesDone
	phase("wait for the files")
	// A refused file says more than the failure it caused elsewhere.
	if filesErr != nil && (loadErr == nil || !errors.Is(filesErr, context.Canceled)) {
		return 0, filesErr
	}
	if loadErr != nil {
		return 0, loadErr
	}
	// The triggers that tell API instances of changed recipes were off.
	if err := repo.NotifyRecipeChange(ctx, tx); err != nil {
		return 0, err
	}
	if err := repo.SetFileGeneration(ctx, tx, gen); err != nil {
		return 0, err
	}
	if o.BeforeCommit != nil {
		res.Rows = load.rows
		if err := o.BeforeCommit(ctx, tx, res); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("restore: commit: %w", err)
	}
	return load.rows, nil
}

// Files are stored by putWorkers uploads at once (an object store answers
// each request after a round trip; a disk flushes each file), holding at
// most putBudget bytes of verified files in memory. A file larger than the
// budget streams on its own.
const (
	putWorkers = 4
	putBudget  = 32 << 20
)

// storeFiles verifies every file entry (checksum, and content: checkImage)
// and stores it under generation gen of base.
func storeFiles(ctx context.Context, a *archive, base filestore.Store, gen string, prog *progress) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(putWorkers)
	budget := semaphore.NewWeighted(putBudget)
	err := a.readAll(isFile, func(entry string, r io.Reader) error {
		if err := gctx.Err(); err != nil {
			return err
		}
		key := strings.TrimPrefix(entry, filesPrefix)
		body, err := checkImage(entry, key, r)
		if err != nil {
			return err
		}
		target := filestore.InGeneration(gen, key)
		size := a.expected[entry].Size
		if size > putBudget {
			return base.Put(gctx, target, body)
		}
		if err := budget.Acquire(gctx, size); err != nil {
			return err
		}
		// Read whole, the entry has passed its checks before it is sent.
		data, err := io.ReadAll(body)
		if err != nil {
			budget.Release(size)
			return err
		}
		g.Go(func() error {
			defer budget.Release(size)
			return base.Put(gctx, target, bytes.NewReader(data))
		})
		return nil
	}, prog.add)
	// A failed upload says more than the cancellation it caused.
	if werr := g.Wait(); werr != nil && (err == nil || errors.Is(err, context.Canceled)) {
		return werr
	}
	return err
}

// checkImage accepts only the files the service itself stores: images
// named .jpg, .png, .gif or .webp whose first bytes are of that very kind.
// An archive carrying anything else (an .html or .svg page that would run
// script on the service's origin, an image named as another kind) is
// refused. It returns a reader of the whole content.
func checkImage(entry, key string, r io.Reader) (io.Reader, error) {
	want := imageproc.FormatOfExt(path.Ext(key))
	if want == "" {
		return nil, refuse("entry %s is not an image the service stores (only .jpg, .png, .gif and .webp files are restored)", entry)
	}
	head := make([]byte, 16)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	if got := imageproc.Sniff(head[:n]); got != want {
		return nil, refuse("entry %s is named as a %s image but its content is not one", entry, want)
	}
	return io.MultiReader(bytes.NewReader(head[:n]), r), nil
}

// cleanups tracks the background removals of replaced files (tests wait
// for them).
var cleanups sync.WaitGroup

// pipeBuffers is how many copyBufferSize buffers pipeCopy keeps in flight.
const pipeBuffers = 3

// pipeCopy copies r to w, reading and writing on two goroutines. Reading an
// archive entry (inflating it, its CRC, its SHA-256) and writing the file
// cost about the same, so overlapping them nearly halves a restore's
// extraction on two cores. Memory stays at pipeBuffers buffers. The error
// of the read side (a *Refusal among them) comes first.
func pipeCopy(w io.Writer, r io.Reader) error {
	type chunk struct {
		b *[]byte
		n int
	}
	free := make(chan *[]byte, pipeBuffers)
	full := make(chan chunk, pipeBuffers) // never blocks: there are only pipeBuffers buffers
	for range pipeBuffers {
		free <- copyBuffers.Get().(*[]byte)
	}
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() {
		defer close(full)
		for {
			var b *[]byte
			select {
			case <-stop:
				readErr <- nil
				return
			case b = <-free:
			}
			n, err := io.ReadFull(r, *b)
			if n > 0 {
				full <- chunk{b, n}
			} else {
				free <- b
			}
			switch {
			case err == io.EOF || err == io.ErrUnexpectedEOF:
				readErr <- nil
				return
			case err != nil:
				readErr <- err
				return
			}
		}
	}()
	var werr error
	for c := range full {
		if werr == nil {
			if _, err := w.Write((*c.b)[:c.n]); err != nil {
				werr = err
				close(stop)
			}
		}
		free <- c.b
	}
	for range pipeBuffers {
		copyBuffers.Put(<-free)
	}
	if err := <-readErr; err != nil {
		return err
	}
	return werr
}

// loader loads the tables of an archive inside the restore transaction.
type loader struct {
	ctx        context.Context
	a          *archive
	tx         pgx.Tx
	progress   *progress
	afterTable func(string) error
	phase      func(string)
	deferRows  int64
	rows       int64
}

// current loads a backup of the database's own schema version straight
// into the application tables.
func (l *loader) current() error {
	ctx := l.ctx
	tables, err := repo.ListBackupTables(ctx, l.tx, "")
	if err != nil {
		return err
	}
	if err := l.matchTables(tables, "this database"); err != nil {
		return err
	}
	// Indexes go before the tables are emptied: TRUNCATE then has fewer
	// index files to replace.
	deferred, err := repo.DeferConstraints(ctx, l.tx, "", tables, l.large())
	if err != nil {
		return err
	}
	state, err := repo.PrepareRestore(ctx, l.tx, tables)
	if err != nil {
		return err
	}
	triggers, err := repo.DisableUserTriggers(ctx, l.tx, "", tables)
	if err != nil {
		return err
	}
	l.phase("empty tables")
	for _, t := range tables {
		if err := l.loadTable("", t.Name, !t.ReferencedFromOutside); err != nil {
			return err
		}
	}
	l.phase("load tables")
	if err := deferred.Restore(ctx, l.tx, tables); err != nil {
		return err
	}
	l.phase("indexes and foreign keys")
	if err := repo.EnableTriggers(ctx, l.tx, triggers); err != nil {
		return err
	}
	return repo.FinishRestore(ctx, l.tx, state, tables)
}

// older restores a backup of an older schema version: the migrations up
// to its version build that schema in a scratch schema, the dump is loaded
// there, the newer migrations bring it forward (they run on the backup's
// data exactly as they ran on the live database), and the rows are copied
// into the application tables. All of it is inside the restore
// transaction, so a failing migration changes nothing. It needs only the
// CREATE privilege on the database, which its owner has; the migrations
// must name objects without a schema, as ours do.
func (l *loader) older(all []migrations.Migration, dbVersion int) error {
	ctx := l.ctx
	scratch := "larder_restore_" + randomHex()
	previousPath, err := repo.CreateScratchSchema(ctx, l.tx, scratch)
	if err != nil {
		return err
	}
	for _, mg := range all {
		if mg.Version > l.a.manifest.SchemaVersion {
			break
		}
		if _, err := l.tx.Exec(ctx, mg.SQL); err != nil {
			return fmt.Errorf("restore: build schema version %d (%04d_%s): %w", l.a.manifest.SchemaVersion, mg.Version, mg.Name, err)
		}
	}
	old, err := repo.ListBackupTables(ctx, l.tx, scratch)
	if err != nil {
		return err
	}
	if err := l.matchTables(old, fmt.Sprintf("schema version %d", l.a.manifest.SchemaVersion)); err != nil {
		return err
	}
	triggers, err := repo.DisableUserTriggers(ctx, l.tx, scratch, old)
	if err != nil {
		return err
	}
	deferred, err := repo.DeferConstraints(ctx, l.tx, scratch, old, l.large())
	if err != nil {
		return err
	}
	for _, t := range old {
		if err := l.loadTable(scratch, t.Name, true); err != nil {
			return err
		}
	}
	// The newer migrations see the old schema whole, constraints included.
	if err := deferred.Restore(ctx, l.tx, old); err != nil {
		return err
	}
	if err := repo.EnableTriggers(ctx, l.tx, triggers); err != nil {
		return err
	}
	for _, mg := range all {
		if mg.Version <= l.a.manifest.SchemaVersion || mg.Version > dbVersion {
			continue
		}
		if _, err := l.tx.Exec(ctx, mg.SQL); err != nil {
			return &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
				"the backup (schema version %d) could not be migrated to schema version %d: migration %04d_%s failed: %v",
				l.a.manifest.SchemaVersion, dbVersion, mg.Version, mg.Name, err)}
		}
	}
	migrated, err := repo.ListBackupTables(ctx, l.tx, scratch)
	if err != nil {
		return err
	}
	if err := repo.SetSearchPath(ctx, l.tx, previousPath); err != nil {
		return err
	}
	tables, err := repo.ListBackupTables(ctx, l.tx, "")
	if err != nil {
		return err
	}
	have := map[string]repo.BackupTable{}
	for _, t := range migrated {
		have[t.Name] = t
	}
	for _, t := range tables {
		mt, ok := have[t.Name]
		if !ok || !sameColumns(mt.Columns, t.Columns) {
			return &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
				"after migrating the backup forward, table %s does not match this database's", t.Name)}
		}
	}
	if deferred, err = repo.DeferConstraints(ctx, l.tx, "", tables, l.large()); err != nil {
		return err
	}
	state, err := repo.PrepareRestore(ctx, l.tx, tables)
	if err != nil {
		return err
	}
	triggers, err = repo.DisableUserTriggers(ctx, l.tx, "", tables)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := repo.CopyAcross(ctx, l.tx, scratch, t); err != nil {
			return err
		}
		if l.afterTable != nil {
			if err := l.afterTable(t.Name); err != nil {
				return err
			}
		}
	}
	if err := deferred.Restore(ctx, l.tx, tables); err != nil {
		return err
	}
	if err := repo.EnableTriggers(ctx, l.tx, triggers); err != nil {
		return err
	}
	if err := repo.FinishRestore(ctx, l.tx, state, tables); err != nil {
		return err
	}
	return repo.DropSchema(ctx, l.tx, scratch)
}

// deferRows is the row count from which a table's indexes and foreign
// keys are dropped while it loads and built again afterwards (see
// repo.DeferConstraints); below it, keeping them costs less.
const deferRows = 2000

// large names the tables the backup has at least l.deferRows rows of.
func (l *loader) large() map[string]bool {
	out := map[string]bool{}
	for _, t := range l.a.manifest.Tables {
		if t.Rows >= l.deferRows {
			out[t.Name] = true
		}
	}
	return out
}

// matchTables refuses a backup whose tables or columns differ from those
// of the schema it is loaded into.
func (l *loader) matchTables(tables []repo.BackupTable, where string) error {
	byName := map[string]Table{}
	for _, t := range l.a.manifest.Tables {
		byName[t.Name] = t
	}
	for _, t := range tables {
		mt, ok := byName[t.Name]
		if !ok {
			return &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
				"the backup has no table %s, which %s has (schema version %d)", t.Name, where, l.a.manifest.SchemaVersion)}
		}
		if !sameColumns(mt.Columns, t.Columns) {
			return &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
				"the columns of table %s in the backup differ from those of %s", t.Name, where)}
		}
		delete(byName, t.Name)
	}
	for name := range byName {
		return &Refusal{Code: "backup_incompatible", Message: fmt.Sprintf(
			"the backup has a table %s that %s does not have", name, where)}
	}
	return nil
}

// loadTable streams one table's entry into schema ("" for the current
// one) with COPY, checking the entry's checksum again (the file could have
// changed since pass 1) and its row count. freeze is for tables emptied by
// TRUNCATE or created in this transaction.
func (l *loader) loadTable(schema, table string, freeze bool) error {
	var mt Table
	for _, t := range l.a.manifest.Tables {
		if t.Name == table {
			mt = t
		}
	}
	var rows int64
	err := l.a.stream(mt.Entry, func(r io.Reader) error {
		var err error
		rows, err = repo.CopyTableIn(l.ctx, l.tx, schema, table, mt.Columns, freeze, r)
		return err
	})
	if err != nil {
		return err
	}
	if rows != mt.Rows {
		return refuse("table %s loaded %d rows but the manifest says %d", table, rows, mt.Rows)
	}
	l.rows += rows
	l.progress.add(l.a.expected[mt.Entry].Size)
	if l.afterTable != nil {
		return l.afterTable(table)
	}
	return nil
}

// phaseTimer returns a function that logs, at debug level, how long each
// phase of a restore took since the previous one ended (the files and the
// tables run side by side, so their phases interleave).
func phaseTimer(logger *slog.Logger, name string) func(string) {
	var mu sync.Mutex
	last := time.Now()
	return func(phase string) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		logger.Debug("restore phase", "backup", name, "phase", phase, "seconds", now.Sub(last).Seconds())
		last = now
	}
}

func sameColumns(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// progressPump hands progress figures to a callback on its own goroutine,
// keeping only the latest, so the caller never waits for it. (The job
// records progress in app_job; during the restore transaction a write
// there could wait on the transaction's own locks.)
type progressPump struct {
	fn     func(float64)
	mu     sync.Mutex
	latest float64
	has    bool
	wake   chan struct{}
	done   chan struct{}
}

func newProgressPump(fn func(float64)) *progressPump {
	p := &progressPump{fn: fn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for range p.wake {
			p.mu.Lock()
			v, has := p.latest, p.has
			p.has = false
			p.mu.Unlock()
			if has && p.fn != nil {
				p.fn(v)
			}
		}
	}()
	return p
}

func (p *progressPump) set(v float64) {
	p.mu.Lock()
	p.latest, p.has = v, true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// close stops the pump after it has delivered the latest figure.
func (p *progressPump) close() {
	p.mu.Lock()
	pending := p.has
	p.mu.Unlock()
	if pending {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
	close(p.wake)
	<-p.done
}
