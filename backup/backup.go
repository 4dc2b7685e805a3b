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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
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

// Info describes a backup in the backup directory.
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

// Path returns the path of backup name in dir, after checking the name.
func Path(dir, name string) (string, error) {
	if !ValidName(name) {
		return "", ErrInvalidName
	}
	return filepath.Join(dir, name), nil
}

// Stat returns the Info of backup name in dir.
func Stat(dir, name string) (Info, error) {
	p, err := Path(dir, name)
	if err != nil {
		return Info{}, err
	}
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
		return Info{}, ErrNotFound
	}
	if err != nil {
		return Info{}, fmt.Errorf("stat backup: %w", err)
	}
	return Info{Name: name, Size: fi.Size(), CreatedAt: timeOf(name)}, nil
}

// Open opens backup name in dir for reading.
func Open(dir, name string) (*os.File, Info, error) {
	info, err := Stat(dir, name)
	if err != nil {
		return nil, Info{}, err
	}
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Info{}, ErrNotFound
	}
	if err != nil {
		return nil, Info{}, fmt.Errorf("open backup: %w", err)
	}
	return f, info, nil
}

// List returns the backups in dir, newest first. Files being written (temp
// names) and anything else that is not a backup name are not listed. A
// missing directory is an empty list.
func List(dir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Info{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	out := []Info{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !ValidName(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, Info{Name: e.Name(), Size: fi.Size(), CreatedAt: timeOf(e.Name())})
	}
	// Names sort by time; newest first.
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out, nil
}

// Delete removes backup name from dir.
func Delete(dir, name string) error {
	if _, err := Stat(dir, name); err != nil {
		return err
	}
	err := os.Remove(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("delete backup: %w", err)
	}
	return syncDir(dir)
}

// Temp files in the backup directory start with this prefix; List never
// shows them, and ones left by a crash are removed after a day.
const tempPrefix = ".tmp-"

// removeStaleTemps deletes temp files older than a day: what a crashed
// create or upload left behind. Younger ones may belong to a running job.
func removeStaleTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > 24*time.Hour {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// syncDir makes a rename, link or removal in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}

// publish gives the complete, synced temp file tmp its final name in dir
// without ever replacing an existing backup: a hard link fails if the name
// is taken. When base is taken (two backups in one second), the next
// seconds are tried. It returns the name used.
func publish(dir, tmp string, base time.Time, tries int) (string, error) {
	for i := 0; i < tries; i++ {
		name := NameFor(base.Add(time.Duration(i) * time.Second))
		final := filepath.Join(dir, name)
		err := os.Link(tmp, final)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// A file system without hard links: fall back to rename after
			// checking the name is free (racy only against another writer
			// in the same second).
			if _, serr := os.Lstat(final); serr == nil {
				continue
			}
			if rerr := os.Rename(tmp, final); rerr != nil {
				return "", fmt.Errorf("publish backup: %w", rerr)
			}
			return name, syncDir(dir)
		}
		if err := os.Remove(tmp); err != nil {
			return "", fmt.Errorf("publish backup: %w", err)
		}
		return name, syncDir(dir)
	}
	return "", ErrExists
}
