package backup

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"testing"
	"time"

	"larder/migrations"
)

// testEntry is one entry of an archive a test writes. raw, when set, is
// written as the entry's compressed data with header as is (a header that
// lies about sizes); otherwise data is compressed with method.
type testEntry struct {
	name   string
	data   []byte
	method uint16
	mode   fs.FileMode // 0: a regular file
	header *zip.FileHeader
	raw    []byte
}

// readEntries loads every entry of the archive at p, the manifest apart.
func readEntries(t *testing.T, p string) ([]testEntry, Manifest) {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out []testEntry
	var m Manifest
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == ManifestName {
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			continue
		}
		out = append(out, testEntry{name: f.Name, data: data, method: f.Method})
	}
	return out, m
}

// writeArchive writes entries and, if m is not nil, the manifest to p. With
// fix, the manifest's entry list is rebuilt from entries (sizes and
// checksums right), so a test can break one thing at a time.
func writeArchive(t testing.TB, p string, entries []testEntry, m *Manifest, fix bool) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if m != nil && fix {
		m.Entries = nil
		m.Files = 0
		for _, e := range entries {
			sum := sha256.Sum256(e.data)
			m.Entries = append(m.Entries, Entry{Name: e.name, Size: int64(len(e.data)), SHA256: hex.EncodeToString(sum[:])})
			if len(e.name) > len(filesPrefix) && e.name[:len(filesPrefix)] == filesPrefix {
				m.Files++
			}
		}
	}
	for _, e := range entries {
		if e.header != nil {
			w, err := zw.CreateRaw(e.header)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(e.raw); err != nil {
				t.Fatal(err)
			}
			continue
		}
		h := &zip.FileHeader{Name: e.name, Method: e.method, Modified: time.Now()}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if m != nil {
		raw, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(ManifestName)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(raw)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// handmade is a small valid archive built without a database.
func handmade() ([]testEntry, *Manifest) {
	entries := []testEntry{
		{name: "database/tag.copy", data: []byte("00000000-0000-4000-8000-0000000000f1\tSweet\n"), method: zip.Deflate},
		{name: "uploads/recipes/ab/cake.jpg", data: bytes.Repeat([]byte{0xff, 0xd8, 0x01, 0x02}, 1000), method: zip.Store},
		{name: "uploads/recipes/cd/brulee.webp", data: []byte("RIFF....WEBP"), method: zip.Store},
	}
	m := &Manifest{
		Format: manifestFormat, Application: application, ReleaseVersion: "2025.10.1",
		SchemaVersion: migrations.Latest(), CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), CopyFormat: copyText,
		Tables: []Table{{Name: "tag", Entry: "database/tag.copy", Columns: []string{"id", "name"}, Rows: 1}},
	}
	return entries, m
}

// deflated compresses data, for entries written raw.
func deflated(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func rawHeader(name string, comp []byte, uncompressed []byte, declaredSize uint64) *zip.FileHeader {
	return &zip.FileHeader{
		Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(uncompressed),
		CompressedSize64: uint64(len(comp)), UncompressedSize64: declaredSize, Modified: time.Now(),
	}
}
