package backup

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/migrations"
	"larder/repo"
)

// RestoreOptions configure Restore.
type RestoreOptions struct {
	// BackupDir is where the backup is (BACKUP_PATH).
	BackupDir string
	// UploadDir is the upload directory to replace (UPLOAD_PATH). Its parent
	// must be writable: the new files are staged next to it and swapped in
	// with a rename.
	UploadDir string
	Limits    Limits
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
	Logger     *slog.Logger

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
//  1. It takes the restore lock (see repo.TryLockRestore) for its whole
//     run; the API answers writes with 503 while it is held.
//  2. The archive is verified completely (Verify's rules): its directory,
//     manifest, entry names, modes and bounds first, then the size and
//     SHA-256 of every table dump, streamed, before the database is
//     touched; then the files' while they are extracted into a staging
//     directory next to o.UploadDir.
//  3. One transaction, running while the files are extracted, empties the
//     application tables and loads the dumps in dependency order with COPY
//     (no superuser rights needed); a backup of an older schema is loaded
//     into a scratch schema built by the old migrations, migrated forward
//     there, and copied across. Every session issued before is ended
//     (repo.FinishRestore). It commits only once every file has passed its
//     check and is on disk; any problem, anywhere, rolls it back and
//     refuses the restore (a *Refusal when the archive is at fault) with
//     nothing changed.
//  4. Only after the commit is the staging directory renamed into place;
//     the lock is released, and the replaced files are removed in the
//     background.
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
	if _, err := Stat(o.BackupDir, name); err != nil {
		return res, err
	}
	res.Name = name

	conn, err := pool.Acquire(ctx)
	if err != nil {
		return res, fmt.Errorf("restore: acquire connection: %w", err)
	}
	released := false
	release := func() {
		if released {
			return
		}
		released = true
		// If the lock cannot be released cleanly, closing the session
		// releases it for sure.
		if uerr := repo.UnlockRestore(context.WithoutCancel(ctx), conn); uerr != nil {
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
		conn.Release()
	}
	defer release()
	locked, err := repo.TryLockRestore(ctx, conn)
	if err != nil {
		return res, err
	}
	if !locked {
		return res, ErrRestoreRunning
	}

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

	a, err := openArchive(filepath.Join(o.BackupDir, name), o.Limits, dbVersion)
	if err != nil {
		return res, err
	}
	defer a.Close()
	m := a.manifest
	res.SchemaVersion, res.MigratedTo, res.Files = m.SchemaVersion, dbVersion, m.Files

	uploadDir := filepath.Clean(o.UploadDir)
	parent, base := filepath.Dir(uploadDir), filepath.Base(uploadDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	// Directories a crashed restore left behind; holding the lock, no
	// other restore can be using them.
	for _, pattern := range []string{"." + base + ".restore-*", "." + base + ".old-*"} {
		stale, _ := filepath.Glob(filepath.Join(parent, pattern))
		for _, s := range stale {
			_ = os.RemoveAll(s)
		}
	}
	staging, err := os.MkdirTemp(parent, "."+base+".restore-")
	if err != nil {
		return res, fmt.Errorf("restore: create staging directory: %w", err)
	}
	// MkdirTemp makes it private; it becomes the upload directory, which
	// keeps the mode it had (0755 by default, so a front web server can
	// serve it, as the file store makes it).
	mode := os.FileMode(0o755)
	if fi, err := os.Stat(uploadDir); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(staging, mode); err != nil {
		_ = os.RemoveAll(staging)
		return res, fmt.Errorf("restore: %w", err)
	}
	swapped := false
	defer func() {
		if !swapped {
			_ = os.RemoveAll(staging)
		}
	}()

	var dbBytes int64
	for _, t := range m.Tables {
		dbBytes += a.expected[t.Entry].Size
	}
	// Every entry is read once to be verified, and the dumps once more to
	// be loaded.
	prog := newProgress(report.set, 0, 0.95, a.total+dbBytes)
	isDump := func(name string) bool { return strings.HasPrefix(name, tablePrefix) }
	isFile := func(name string) bool { return strings.HasPrefix(name, filesPrefix) }

	// 1. The table dumps are verified (size and SHA-256, streamed) before
	// the database is touched; the archive's structure, names and bounds
	// already were.
	err = a.readAll(isDump, nil, prog.add)
	if err != nil {
		return res, err
	}
	phase("verify dumps")

	// 2. The files are verified and extracted into the staging directory
	// while the transaction loads the tables: the one is disk and hashing
	// in this process, the other the database server's work, so they
	// overlap. Nothing is committed or swapped before both have succeeded:
	// a file that fails its check rolls the transaction back, and the
	// restore is refused with nothing changed.
	filesCtx, stopFiles := context.WithCancel(ctx)
	defer stopFiles()
	filesDone := make(chan error, 1)
	go func() {
		err := a.readAll(isFile, func(entry string, r io.Reader) error {
			if err := filesCtx.Err(); err != nil {
				return err
			}
			return extract(staging, strings.TrimPrefix(entry, filesPrefix), r)
		}, prog.add)
		phase("verify and extract files")
		if err == nil {
			// The files must be on disk before the database commits to them.
			err = syncTree(staging)
		}
		filesDone <- err
	}()

	tx, err := conn.Begin(ctx)
	if err != nil {
		stopFiles()
		<-filesDone
		return res, fmt.Errorf("restore: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after commit
	load := loader{ctx: ctx, a: a, tx: tx, progress: prog, afterTable: o.AfterTable, phase: phase, deferRows: o.deferRows}
	if load.deferRows <= 0 {
		load.deferRows = deferRows
	}
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
		return res, filesErr
	}
	if loadErr != nil {
		return res, loadErr
	}
	res.Tables, res.Rows = len(m.Tables), load.rows
	// The triggers that tell API instances of changed recipes were off.
	if err := repo.NotifyRecipeChange(ctx, tx); err != nil {
		return res, err
	}
	if err := tx.Commit(ctx); err != nil {
		return res, fmt.Errorf("restore: commit: %w", err)
	}
	phase("commit")

	// The database now matches the staged files: swap them in.
	old := filepath.Join(parent, "."+base+".old-"+randomHex())
	hadOld := true
	if err := os.Rename(uploadDir, old); errors.Is(err, fs.ErrNotExist) {
		hadOld = false
	} else if err != nil {
		logger.Error("restore: the database was restored but the upload directory could not be moved aside; the restored files are in the staging directory",
			"staging", staging, "error", err)
		swapped = true // keep the staging directory for the operator
		return res, fmt.Errorf("%w: move old files aside: %v", ErrFilesNotSwapped, err)
	}
	if err := os.Rename(staging, uploadDir); err != nil {
		if hadOld {
			_ = os.Rename(old, uploadDir)
		}
		logger.Error("restore: the database was restored but the restored files could not be moved into place",
			"staging", staging, "error", err)
		swapped = true
		return res, fmt.Errorf("%w: move restored files into place: %v", ErrFilesNotSwapped, err)
	}
	swapped = true
	if err := syncDir(parent); err != nil {
		logger.Warn("restore: sync upload directory parent", "error", err)
	}
	phase("swap files")
	// The restore is complete: writes may resume.
	release()
	report.set(1)
	if hadOld {
		// The replaced files are garbage now; unlinking a gigabyte of them
		// takes seconds, so it happens in the background. A directory left
		// by a process that stops meanwhile is removed by the next restore.
		cleanups.Add(1)
		go func() {
			defer cleanups.Done()
			if err := os.RemoveAll(old); err != nil {
				logger.Warn("restore: remove the replaced files", "path", old, "error", err)
			}
			phase("remove old files")
		}()
	}
	return res, nil
}

// ErrFilesNotSwapped means the database was restored but the restored
// files could not be renamed into place (the log says where they are).
// The renames happen in the upload directory's parent, where the staging
// directory was created, so this takes a change of permissions or a full
// disk between the two.
var ErrFilesNotSwapped = errors.New("the database was restored but the restored files could not be moved into place")

// cleanups tracks the background removals of replaced upload directories
// (tests wait for them).
var cleanups sync.WaitGroup

// extract writes one file of the archive under staging. The name has
// passed checkEntryName; the joined path is checked to stay under staging
// all the same, and files are created exclusively, never through a link.
func extract(staging, rel string, r io.Reader) error {
	target := filepath.Join(staging, filepath.FromSlash(rel))
	if !strings.HasPrefix(target, staging+string(filepath.Separator)) {
		return refuse("entry %s%s would be written outside the upload directory", filesPrefix, rel)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrExist) {
			return refuse("entry %s%s conflicts with another file of the archive", filesPrefix, rel)
		}
		return fmt.Errorf("restore: extract %s: %w", rel, err)
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.EISDIR) {
			return refuse("entry %s%s conflicts with another file of the archive", filesPrefix, rel)
		}
		return fmt.Errorf("restore: extract %s: %w", rel, err)
	}
	err = pipeCopy(f, r)
	if err == nil {
		err = f.Chmod(0o644) // as the file store writes them, whatever the umask
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("restore: extract %s: %w", rel, cerr)
	}
	return err
}

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
