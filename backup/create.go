package backup

import (
	"archive/zip"
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	kflate "github.com/klauspost/compress/flate"

	"larder"
	"larder/filestore"
	"larder/migrations"
	"larder/repo"
)

// CreateOptions configure Create.
type CreateOptions struct {
	// Backups is where the archive is stored (BACKUP_PATH or the bucket).
	Backups filestore.Store
	// Files holds the uploaded files: the current generation of them.
	Files filestore.Store
	// Scheduled marks the backup as made by the schedule, so Prune may remove it.
	Scheduled bool
	// Progress, if not nil, gets the fraction done (0..1) a few times a second.
	Progress func(float64)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// copyBufferSize is the size of the buffers data goes through; it bounds
// the memory a backup or restore uses, whatever the size of the data.
const copyBufferSize = 1 << 20

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, copyBufferSize); return &b }}

// Create writes a new backup into o.Backups and returns it, in four steps:
//
//  1. snapshot: the tables are read in one REPEATABLE READ, READ ONLY
//     transaction, so the dump is one consistent snapshot (takeSnapshot);
//  2. the uploaded files are listed once the snapshot is taken, so every
//     file a dumped row names is there, unless deleted since;
//  3. a free name is chosen (never replacing a backup);
//  4. the archive streams into the store as it is written (writeZip):
//     each table with COPY straight into its deflated ZIP entry, then the
//     files, stored (images are compressed already), then the manifest.
//     The store makes the object visible only once complete (a rename on
//     disk, a completed multipart upload in S3): a failure never leaves a
//     partial backup in the list. Memory stays at a few buffers whatever
//     the size.
func Create(ctx context.Context, pool *pgxpool.Pool, o CreateOptions) (Info, error) {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	snap, err := takeSnapshot(ctx, pool)
	if err != nil {
		return Info{}, err
	}
	defer snap.tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // read only; nothing to undo
	created := now().UTC().Truncate(time.Second)

	files, err := listUploads(ctx, o.Files)
	if err != nil {
		return Info{}, err
	}
	name, err := freeName(ctx, o.Backups, created, 60)
	if err != nil {
		return Info{}, err
	}

	var total int64
	for _, t := range snap.tables {
		total += t.Bytes
	}
	for _, f := range files {
		total += f.size
	}
	prog := newProgress(o.Progress, 0, 1, total)
	m := Manifest{
		Format: manifestFormat, Application: application, ReleaseVersion: larder.Version(),
		SchemaVersion: snap.schemaVersion, CreatedAt: created, Scheduled: o.Scheduled, CopyFormat: copyText,
		Tables: []Table{}, Entries: []Entry{},
	}

	pr, pw := io.Pipe()
	stored := make(chan error, 1)
	go func() {
		err := o.Backups.Put(ctx, name, pr)
		pr.CloseWithError(err) // unblocks the writer if the store gave up
		stored <- err
	}()
	werr := writeZip(ctx, pw, snap, o.Files, files, &m, prog)
	pw.CloseWithError(werr) // a failed write makes the Put fail: nothing is stored
	if serr := <-stored; werr == nil && serr != nil {
		werr = fmt.Errorf("store backup: %w", serr)
	}
	if werr != nil {
		return Info{}, werr
	}
	prog.done()
	return Stat(ctx, o.Backups, name)
}

// snapshot is the open read-only transaction a backup dumps.
type dbSnapshot struct {
	tx            pgx.Tx
	tables        []repo.BackupTable
	schemaVersion int
}

// takeSnapshot lists the tables, locks them (see repo.LockBackupTables)
// and takes the snapshot, then lists them again under it to be sure none
// came or went in between. The caller rolls snap.tx back.
func takeSnapshot(ctx context.Context, pool *pgxpool.Pool) (*dbSnapshot, error) {
	listed, err := repo.ListBackupTables(ctx, pool, "")
	if err != nil {
		return nil, err
	}
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("begin backup snapshot: %w", err)
	}
	fail := func(err error) (*dbSnapshot, error) {
		tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
		return nil, err
	}
	if err := repo.LockBackupTables(ctx, tx, listed); err != nil {
		return fail(err)
	}
	// The first statement that reads takes the snapshot.
	if err := repo.SetCopySettings(ctx, tx); err != nil {
		return fail(err)
	}
	version, err := migrations.Version(ctx, tx)
	if err != nil {
		return fail(err)
	}
	tables, err := repo.ListBackupTables(ctx, tx, "")
	if err != nil {
		return fail(err)
	}
	if !sameTables(listed, tables) {
		return fail(errors.New("backup: the schema changed while the backup started (a migration ran?); try again"))
	}
	return &dbSnapshot{tx: tx, tables: tables, schemaVersion: version}, nil
}

// writeZip writes the whole ZIP to w: the table dumps (ending the
// snapshot after them), the files, the manifest m.
func writeZip(ctx context.Context, w io.Writer, snap *dbSnapshot, store filestore.Store, files []upload, m *Manifest, prog *progress) error {
	out := bufio.NewWriterSize(w, copyBufferSize)
	zw := zip.NewWriter(out)
	// Dumps are text: the fastest deflate level still shrinks them several
	// times, at a speed close to that of the disk.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return kflate.NewWriter(w, kflate.BestSpeed)
	})
	for _, t := range snap.tables {
		name := tablePrefix + t.Name + tableSuffix
		ew, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: m.CreatedAt})
		if err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		dw := newDigestWriter(ew)
		// COPY hands over one row per write; batching them spares the
		// compressor and the hash thousands of tiny calls.
		bw := bufio.NewWriterSize(dw, 256<<10)
		rows, err := repo.CopyTableOut(ctx, snap.tx, "", t, bw)
		if err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		m.Tables = append(m.Tables, Table{Name: t.Name, Entry: name, Columns: t.Columns, Rows: rows})
		m.Entries = append(m.Entries, dw.entry(name))
		prog.add(t.Bytes)
	}
	// The snapshot is no longer needed: end it before the long file copy.
	if err := snap.tx.Commit(ctx); err != nil {
		return fmt.Errorf("end backup snapshot: %w", err)
	}

	bufp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bufp)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		entry, ok, err := addUpload(ctx, zw, store, f, m.CreatedAt, *bufp)
		if err != nil {
			return err
		}
		if ok {
			m.Entries = append(m.Entries, entry)
			m.Files++
		}
		prog.add(f.size)
	}

	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	mw, err := zw.CreateHeader(&zip.FileHeader{Name: ManifestName, Method: zip.Deflate, Modified: m.CreatedAt})
	if err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if _, err := mw.Write(raw); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("finish backup archive: %w", err)
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write backup: %w", err)
	}
	return nil
}

func sameTables(a, b []repo.BackupTable) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// upload is a stored file: its file-store key and size.
type upload struct {
	key  string
	size int64
}

// listUploads returns the files of the upload directory, through the file
// store's own walk: regular files under valid keys only, so the store's
// temp files, links and anything it could not have written are skipped.
func listUploads(ctx context.Context, store filestore.Store) ([]upload, error) {
	var out []upload
	err := store.Walk(ctx, func(key string, size int64) error {
		out = append(out, upload{key: key, size: size})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list uploaded files: %w", err)
	}
	return out, nil
}

// addUpload stores one uploaded file in the archive. ok is false when the
// file went away since it was listed (its recipe was deleted meanwhile).
func addUpload(ctx context.Context, zw *zip.Writer, store filestore.Store, u upload, modified time.Time, buf []byte) (Entry, bool, error) {
	f, err := store.Open(ctx, u.key)
	if errors.Is(err, filestore.ErrNotFound) {
		return Entry{}, false, nil
	}
	if err != nil {
		return Entry{}, false, fmt.Errorf("read uploaded file: %w", err)
	}
	defer f.Close()
	name := filesPrefix + u.key
	ew, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: modified})
	if err != nil {
		return Entry{}, false, fmt.Errorf("write %s: %w", name, err)
	}
	dw := newDigestWriter(ew)
	if _, err := io.CopyBuffer(dw, onlyReader{f}, buf); err != nil {
		return Entry{}, false, fmt.Errorf("copy uploaded file %s: %w", u.key, err)
	}
	return dw.entry(name), true, nil
}

// onlyReader hides io.WriterTo, so io.CopyBuffer uses the given buffer
// instead of allocating its own.
type onlyReader struct{ io.Reader }

// digestWriter counts and hashes what passes through it.
type digestWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func newDigestWriter(w io.Writer) *digestWriter { return &digestWriter{w: w, h: sha256.New()} }

func (d *digestWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.h.Write(p[:n])
	d.n += int64(n)
	return n, err
}

func (d *digestWriter) entry(name string) Entry {
	return Entry{Name: name, Size: d.n, SHA256: hex.EncodeToString(d.h.Sum(nil))}
}

// progress turns bytes done into a fraction between from and to, reported
// at most every 250 ms.
// It is safe for concurrent use.
type progress struct {
	report   func(float64)
	from, to float64
	total    int64

	mu    sync.Mutex
	done_ int64
	last  time.Time
}

func newProgress(report func(float64), from, to float64, total int64) *progress {
	return &progress{report: report, from: from, to: to, total: total}
}

func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done_ += n
	if p.report == nil || time.Since(p.last) < 250*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.report(p.fraction())
}

func (p *progress) fraction() float64 {
	f := 1.0
	if p.total > 0 {
		f = min(float64(p.done_)/float64(p.total), 1)
	}
	return p.from + (p.to-p.from)*f
}

// done reports the end of the span.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.report != nil {
		p.done_ = p.total
		p.report(p.to)
	}
}
