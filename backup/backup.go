// Package backup writes, verifies and restores Larder's backups: ZIP
// archives holding a manifest, a COPY dump of every application table and
// the uploaded files.
//
// Layout of an archive:
//
//	database/<table>.copy   one per table, COPY text format, deflated
//	uploads/<path>          every uploaded file, stored (images are already compressed)
//	manifest.json           release and schema version, tables with their
//	                        columns and row counts, size and SHA-256 of every entry
//
// Archives are only ever read through Verify's rules: a manifest that lists
// every entry, sizes and checksums that match while the data streams,
// entry names that cannot leave their directory, and bounds on entry count,
// sizes and compression ratio so a ZIP bomb is refused before it costs
// anything.
package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"time"

	"larder/filestore"
)

// nameFormat is the only shape of a backup file name. Names are checked
// against it before any path is built from them.
var nameFormat = regexp.MustCompile(`^backup-\d{8}T\d{6}Z\.zip$`)

const nameTimeLayout = "20060102T150405Z"

// ValidName reports whether name is a backup file name,
// backup-YYYYMMDDTHHMMSSZ.zip, with a real date.
func ValidName(name string) bool {
	if !nameFormat.MatchString(name) {
		return false
	}
	_, err := time.Parse(nameTimeLayout, name[len("backup-"):len(name)-len(".zip")])
	return err == nil
}

// NameFor is the file name of a backup taken at t.
func NameFor(t time.Time) string {
	return "backup-" + t.UTC().Format(nameTimeLayout) + ".zip"
}

// timeOf returns the time a valid name records.
func timeOf(name string) time.Time {
	t, _ := time.Parse(nameTimeLayout, name[len("backup-"):len(name)-len(".zip")])
	return t.UTC()
}

// Info describes a stored backup.
type Info struct {
	Name      string    `json:"name"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"createdAt"`
}

var (
	// ErrNotFound means there is no backup of that name.
	ErrNotFound = errors.New("backup not found")
	// ErrInvalidName means the name is not backup-YYYYMMDDTHHMMSSZ.zip.
	ErrInvalidName = errors.New("invalid backup name: expected backup-YYYYMMDDTHHMMSSZ.zip")
	// ErrExists means a backup of that name is already there.
	ErrExists = errors.New("a backup of that name already exists")
	// ErrRestoreRunning means another restore holds the restore lock.
	ErrRestoreRunning = errors.New("another restore is running")
)

// Refusal is why an archive was refused: something a person can act on
// ("entry uploads/a.jpg: checksum does not match the manifest"). Nothing
// was changed when it is returned.
type Refusal struct {
	// Code is a stable snake_case reason: backup_invalid (the archive is
	// damaged or unsafe), backup_newer_schema, backup_incompatible.
	Code    string
	Message string
}

func (r *Refusal) Error() string { return r.Message }

func refuse(format string, args ...any) error {
	return &Refusal{Code: "backup_invalid", Message: fmt.Sprintf(format, args...)}
}

// TimeLimit is the longest that writing a backup, restoring one or
// adopting an uploaded one may take. Each of them is bounded by it (the
// jobs by their time limits, Adopt by a deadline), and the purge counts an
// unfinished write older than it (a store's leftover, a scratch file) as
// abandoned: no write still in progress can be that old. It is long enough
// to copy tens of gigabytes of photos to a slow disk or over a home uplink.
const TimeLimit = 6 * time.Hour

// Backups are kept in a filestore.Store of their own (BACKUP_PATH, or the
// "backups/" prefix of the bucket), under their names as keys.

// Stat returns the Info of backup name.
func Stat(ctx context.Context, store filestore.Store, name string) (Info, error) {
	if !ValidName(name) {
		return Info{}, ErrInvalidName
	}
	fi, err := store.Stat(ctx, name)
	if errors.Is(err, filestore.ErrNotFound) {
		return Info{}, ErrNotFound
	}
	if err != nil {
		return Info{}, fmt.Errorf("stat backup: %w", err)
	}
	return Info{Name: name, Size: fi.Size, CreatedAt: timeOf(name)}, nil
}

// Open opens backup name for reading; it streams from the store.
func Open(ctx context.Context, store filestore.Store, name string) (io.ReadCloser, Info, error) {
	info, err := Stat(ctx, store, name)
	if err != nil {
		return nil, Info{}, err
	}
	rc, err := store.Open(ctx, name)
	if errors.Is(err, filestore.ErrNotFound) {
		return nil, Info{}, ErrNotFound
	}
	if err != nil {
		return nil, Info{}, fmt.Errorf("open backup: %w", err)
	}
	return rc, info, nil
}

// List returns the backups, newest first. Anything else in the store (a
// file that is not a backup name) is not listed.
func List(ctx context.Context, store filestore.Store) ([]Info, error) {
	out := []Info{}
	err := store.Walk(ctx, func(key string, size int64) error {
		if ValidName(key) {
			out = append(out, Info{Name: key, Size: size, CreatedAt: timeOf(key)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	// Names sort by time; newest first.
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out, nil
}

// Delete removes backup name.
func Delete(ctx context.Context, store filestore.Store, name string) error {
	if _, err := Stat(ctx, store, name); err != nil {
		return err
	}
	if err := store.Delete(ctx, name); err != nil {
		return fmt.Errorf("delete backup: %w", err)
	}
	return nil
}

// freeName returns the first of NameFor(base), NameFor(base+1s), … (tries
// of them) that no backup has, so that a new backup never replaces one.
// Two backups finishing in the same second on two workers could still
// pick the same name; backups run on one queue, one at a time by default.
func freeName(ctx context.Context, store filestore.Store, base time.Time, tries int) (string, error) {
	for i := range tries {
		name := NameFor(base.Add(time.Duration(i) * time.Second))
		_, err := store.Stat(ctx, name)
		if errors.Is(err, filestore.ErrNotFound) {
			return name, nil
		}
		if err != nil {
			return "", fmt.Errorf("stat backup: %w", err)
		}
	}
	return "", ErrExists
}
