package filestore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// Local is a Store in a directory of the local file system. Directories are
// created as needed; files are written 0644 and directories 0755 whatever
// the umask, so that a front web server may serve Root directly.
//
// Every call opens Root afresh through os.Root, which refuses any path that
// resolves outside it, symlinks included: key validation is the first
// guard, the kernel-checked root the second. Opening per call also means
// that a restore may replace the directory at Root (rename a new one into
// place) and the next call uses the new one, with nothing to reopen.
type Local struct {
	Root string // the directory; created by the first Put
}

var _ Store = Local{}

// tmpPrefix starts the names of files being written. ValidateKey refuses
// segments starting with a dot, so a temporary file can never be opened,
// replaced or listed as a key.
const tmpPrefix = ".tmp-"

func (l Local) openRoot(create bool) (*os.Root, error) {
	if l.Root == "" {
		return nil, errors.New("filestore: Local.Root is empty")
	}
	if create {
		if err := os.MkdirAll(l.Root, 0o755); err != nil {
			return nil, fmt.Errorf("create upload directory: %w", err)
		}
	}
	return os.OpenRoot(l.Root)
}

// notExist reports whether err means nothing is at a path. ENOTDIR counts:
// "a/b.jpg/c" names nothing when a/b.jpg is a file.
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// Put writes r to a temporary file next to the key's place, flushes it to
// disk and renames it into place, so a crash or an error leaves either the
// old file or the new one, never a mix.
func (l Local) Put(ctx context.Context, key string, r io.Reader) (err error) {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	root, err := l.openRoot(true)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	defer root.Close()

	dir := path.Dir(key)
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	tmp := path.Join(dir, tmpPrefix+randomHex(8))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			root.Remove(tmp)
		}
	}()

	if _, err = io.Copy(f, ctxReader{ctx, r}); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err = f.Chmod(0o644); err != nil { // OpenFile's mode is masked by the umask
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	closed = true
	if err = f.Close(); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	if err = root.Rename(tmp, key); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	// The rename is durable once the directory is flushed.
	if d, err := root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Open returns the file under key. The returned value is an *os.File, so a
// handler may use it as an io.ReadSeeker (ranges) and Stat it for the size
// and modification time.
func (l Local) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	root, err := l.openRoot(false)
	if notExist(err) {
		return nil, fmt.Errorf("open %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	defer root.Close() // the file stays open without it

	f, err := root.Open(key)
	if notExist(err) {
		return nil, fmt.Errorf("open %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", key, ErrNotFound)
	}
	return f, nil
}

// Delete removes the file under key; a missing file is not an error. Empty
// shard directories are left in place: removing one could race with a Put
// that has just created it.
func (l Local) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	root, err := l.openRoot(false)
	if notExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	defer root.Close()

	st, err := root.Lstat(key)
	if notExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	if st.IsDir() {
		return fmt.Errorf("delete %s: %w: a directory, not a file", key, ErrInvalidKey)
	}
	if err := root.Remove(key); err != nil && !notExist(err) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// Walk calls fn for every regular file whose path is a valid key. It skips
// temporary files, symlinks and anything else this package would not have
// written, and files that disappear while it runs.
func (l Local) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	root, err := l.openRoot(false)
	if notExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("walk uploads: %w", err)
	}
	defer root.Close()

	return walkKeyDirs(ctx, root, "walk uploads", func(p string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || ValidateKey(p) != nil {
			return nil
		}
		info, err := d.Info()
		if notExist(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("walk uploads: %w", err)
		}
		return fn(p, info.Size())
	})
}

// walkKeyDirs calls fn for every entry other than a directory in the
// directories of root that can hold keys: Put writes nowhere else, so
// nothing below any other could be a key or a temporary file of Put.
// Entries that disappear meanwhile are skipped; op names the caller's
// operation in errors.
func walkKeyDirs(ctx context.Context, root *os.Root, op string, fn func(p string, d fs.DirEntry) error) error {
	return fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if notExist(err) {
				return nil
			}
			return fmt.Errorf("%s: %w", op, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			if ValidateKey(p) != nil {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d)
	})
}

// ctxReader ends a copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Stat describes the regular file under key.
func (l Local) Stat(ctx context.Context, key string) (Info, error) {
	rc, err := l.Open(ctx, key)
	if err != nil {
		return Info{}, err
	}
	defer rc.Close()
	st, err := rc.(*os.File).Stat()
	if err != nil {
		return Info{}, fmt.Errorf("stat %s: %w", key, err)
	}
	return Info{Size: st.Size(), Modified: st.ModTime()}, nil
}

// Check reports whether Root can be created (or is there) and listed.
func (l Local) Check(ctx context.Context) error {
	root, err := l.openRoot(true)
	if err != nil {
		return err
	}
	return root.Close()
}
