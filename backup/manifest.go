package backup

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// ManifestName is the archive entry holding the Manifest.
const ManifestName = "manifest.json"

// manifestFormat is the version of the archive layout this package writes
// and reads. A reader refuses any other.
const manifestFormat = 1

// Manifest describes an archive. It is written last, once every entry's
// checksum is known; readers find it through the ZIP directory.
type Manifest struct {
	Format         int       `json:"format"`
	Application    string    `json:"application"`
	ReleaseVersion string    `json:"releaseVersion"`
	SchemaVersion  int       `json:"schemaVersion"`
	CreatedAt      time.Time `json:"createdAt"`
	// Scheduled marks backups made by BACKUP_INTERVAL; only those are
	// pruned to BACKUP_KEEP.
	Scheduled bool `json:"scheduled"`
	// CopyFormat is the COPY format of the table entries ("text").
	CopyFormat string `json:"copyFormat"`
	// Tables in load order: every table after those it references.
	Tables []Table `json:"tables"`
	// Files is the number of uploaded files.
	Files int `json:"files"`
	// Entries lists every entry but the manifest itself.
	Entries []Entry `json:"entries"`
}

// Table is one dumped table.
type Table struct {
	Name    string   `json:"name"`
	Entry   string   `json:"entry"`
	Columns []string `json:"columns"`
	Rows    int64    `json:"rows"`
}

// Entry is one archive entry with its uncompressed size and SHA-256 (hex).
type Entry struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

const (
	application = "larder"
	copyText    = "text"
	tablePrefix = "database/"
	tableSuffix = ".copy"
	filesPrefix = "uploads/"
)

// identifier is the shape of table and column names an archive may carry;
// they end up in SQL (quoted as identifiers all the same).
var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// check validates the manifest on its own, before any entry is read.
func (m *Manifest) check(latestSchema int) error {
	if m.Format != manifestFormat {
		return refuse("the manifest has format %d; this release reads format %d", m.Format, manifestFormat)
	}
	if m.Application != application {
		return refuse("the archive is not a Larder backup")
	}
	if m.SchemaVersion < 1 {
		return refuse("the manifest has no schema version")
	}
	if m.SchemaVersion > latestSchema {
		return &Refusal{Code: "backup_newer_schema", Message: fmt.Sprintf(
			"the backup was made by a newer release (%s, schema version %d) than this one (schema version %d); upgrade Larder before restoring it",
			m.ReleaseVersion, m.SchemaVersion, latestSchema)}
	}
	if m.CopyFormat != copyText {
		return refuse("the manifest names an unknown dump format %q", m.CopyFormat)
	}
	if m.CreatedAt.IsZero() {
		return refuse("the manifest has no creation time")
	}
	entries := make(map[string]bool, len(m.Entries))
	files := 0
	for _, e := range m.Entries {
		if err := checkEntryName(e.Name); err != nil {
			return err
		}
		if e.Name == ManifestName {
			return refuse("the manifest lists itself")
		}
		if entries[e.Name] {
			return refuse("the manifest lists %s twice", e.Name)
		}
		entries[e.Name] = true
		if e.Size < 0 {
			return refuse("the manifest gives %s a negative size", e.Name)
		}
		if b, err := hex.DecodeString(e.SHA256); err != nil || len(b) != 32 {
			return refuse("the manifest gives %s no valid SHA-256", e.Name)
		}
		if strings.HasPrefix(e.Name, filesPrefix) {
			files++
		}
	}
	if files != m.Files {
		return refuse("the manifest counts %d files but lists %d", m.Files, files)
	}
	tables := map[string]bool{}
	tableEntries := 0
	for _, t := range m.Tables {
		if !identifier.MatchString(t.Name) {
			return refuse("the manifest names a table %q", t.Name)
		}
		if tables[t.Name] {
			return refuse("the manifest lists table %s twice", t.Name)
		}
		tables[t.Name] = true
		if t.Entry != tablePrefix+t.Name+tableSuffix || !entries[t.Entry] {
			return refuse("table %s has no entry %s%s%s in the manifest", t.Name, tablePrefix, t.Name, tableSuffix)
		}
		if len(t.Columns) == 0 {
			return refuse("table %s has no columns", t.Name)
		}
		cols := map[string]bool{}
		for _, c := range t.Columns {
			if !identifier.MatchString(c) || cols[c] {
				return refuse("table %s has a bad column list", t.Name)
			}
			cols[c] = true
		}
		if t.Rows < 0 {
			return refuse("table %s has a negative row count", t.Name)
		}
		tableEntries++
	}
	for name := range entries {
		if strings.HasPrefix(name, tablePrefix) {
			tableEntries--
		}
	}
	if tableEntries != 0 {
		return refuse("the manifest lists database entries that belong to no table")
	}
	return nil
}
