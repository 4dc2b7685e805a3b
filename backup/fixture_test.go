package backup

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"larder/filestore"
	"larder/repo"
)

// fillSQL puts rows in every table of the base schema, with the values a
// text dump gets wrong first: tabs, newlines, backslashes, quotes, NULLs,
// non-ASCII text, arrays, tsvectors, microsecond timestamps, bytea.
const fillSQL = `
INSERT INTO app_user (id, email, name, role, password_hash, email_verified, idp_name, idp_subject, session_version, created_at, updated_at) VALUES
 ('00000000-0000-4000-8000-000000000001', 'ada@example.test', E'Ada\tAdmin', 'ADMIN', '$2a$10$abcdefghijklmnopqrstuv', true, NULL, NULL, 3, '2024-01-02 03:04:05.123456+00', '2024-02-03 04:05:06+00'),
 ('00000000-0000-4000-8000-000000000002', 'bob@example.test', E'Bob \\ "Quote"\nNewline', 'USER', '$2a$10$zyxwvutsrqponmlkjihgfe', true, 'acme', 'sub-1', 0, '2024-03-04 05:06:07.5+00', now()),
 ('00000000-0000-4000-8000-000000000003', 'cleo@example.test', 'Cléo 🍰', 'USER', NULL, false, 'acme', 'sub-2', 7, now(), now());

INSERT INTO refresh_token (id, user_id, token_hash, family_id, expires_at, rotated_at) VALUES
 (gen_random_uuid(), '00000000-0000-4000-8000-000000000002', '\xdeadbeef00', gen_random_uuid(), now() + interval '7 days', NULL),
 (gen_random_uuid(), '00000000-0000-4000-8000-000000000003', '\x00ff10', gen_random_uuid(), now() + interval '7 days', now());

INSERT INTO verification_token (token_hash, user_id, purpose, expires_at, used_at) VALUES
 ('\x0102', '00000000-0000-4000-8000-000000000003', 'verify_email', now() + interval '1 day', NULL),
 ('\x0304', '00000000-0000-4000-8000-000000000002', 'reset_password', now() + interval '1 hour', NULL);

INSERT INTO recipe (id, owner_id, title, description, servings, servings_unit, prep_minutes, cook_minutes, total_minutes, source_url, image_key, visibility, categories, mappings_edited, search_vector, search_text, created_at, updated_at) VALUES
 ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000002', 'Chocolate cake', E'Rich,\tdark\nand \\moist\\', 8, '', 20, 35, 55, 'https://example.test/cake', 'recipes/ab/cake.jpg', 'PUBLIC', '{Dessert,"Main Course","with,comma"}', true, to_tsvector('english', 'chocolate cake flour'), 'chocolate cake flour', '2024-05-06 07:08:09.987654+00', now()),
 ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000002', 'Plain toast', '', NULL, '', NULL, NULL, NULL, NULL, NULL, 'PRIVATE', '{}', false, '', '', now(), now()),
 ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000003', 'Crème brûlée', 'Überraschung ☕', 4, 'ramekins', 15, 40, 55, NULL, 'recipes/cd/brulee.webp', 'SHARED', '{Dessert}', false, to_tsvector('simple', 'crème brûlée'), 'crème brûlée', now(), now());

INSERT INTO ingredient_section (id, recipe_id, position, name) VALUES
 ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', 0, ''),
 ('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-0000000000a1', 1, 'Frosting'),
 ('00000000-0000-4000-8000-0000000000b3', '00000000-0000-4000-8000-0000000000a3', 0, '');
INSERT INTO ingredient (id, recipe_id, section_id, position, text) VALUES
 ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000b1', 0, '200 g flour'),
 ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000b1', 1, E'1½ cups sugar\t(sifted)'),
 ('00000000-0000-4000-8000-0000000000c3', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000b2', 0, '100 g dark chocolate'),
 ('00000000-0000-4000-8000-0000000000c4', '00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-0000000000b3', 0, '4 egg yolks');
INSERT INTO instruction_section (id, recipe_id, position, name) VALUES
 ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000a1', 0, ''),
 ('00000000-0000-4000-8000-0000000000d2', '00000000-0000-4000-8000-0000000000a3', 0, 'Custard');
INSERT INTO instruction_step (id, recipe_id, section_id, position, text) VALUES
 ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000d1', 0, 'Mix the flour and sugar.'),
 ('00000000-0000-4000-8000-0000000000e2', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000d1', 1, E'Melt the chocolate;\nfrost the cake.'),
 ('00000000-0000-4000-8000-0000000000e3', '00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-0000000000d2', 0, 'Whisk the yolks.');

INSERT INTO tag (id, name) VALUES
 ('00000000-0000-4000-8000-0000000000f1', 'Sweet'),
 ('00000000-0000-4000-8000-0000000000f2', 'Quick & easy');
INSERT INTO recipe_tag (recipe_id, tag_id) VALUES
 ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000f1'),
 ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-0000000000f2'),
 ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-0000000000f1');
INSERT INTO recipe_share (recipe_id, user_id) VALUES
 ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000002');

INSERT INTO cookbook (id, owner_id, name, description, image_key, auto_filter_categories, auto_filter_tags) VALUES
 ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000002', 'Baking', 'All things oven', 'cookbooks/ef/baking.png', '{Dessert}', '{Sweet}'),
 ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-000000000002', 'Cakes', '', NULL, '{}', '{}'),
 ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-000000000003', 'Cléo''s', E'line1\nline2', NULL, '{}', '{"Quick & easy"}');
INSERT INTO cookbook_recipe (cookbook_id, recipe_id) VALUES
 ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-0000000000a1'),
 ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-0000000000a3');
INSERT INTO cookbook_inclusion (parent_id, child_id) VALUES
 ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102');
INSERT INTO cookbook_tag (cookbook_id, tag_id) VALUES
 ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-0000000000f1');
INSERT INTO ingredient_instruction_mapping (recipe_id, ingredient_id, step_id) VALUES
 ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000e1'),
 ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000e1'),
 ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000c3', '00000000-0000-4000-8000-0000000000e2'),
 ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-0000000000c4', '00000000-0000-4000-8000-0000000000e3');

INSERT INTO app_job (river_job_id, user_id, kind, progress, result) VALUES
 (900001, '00000000-0000-4000-8000-000000000002', 'recipe_import', 1, '{"recipeId": "00000000-0000-4000-8000-0000000000a1"}'),
 (900002, NULL, 'purge_expired', NULL, NULL);
`

// baseTables are the tables of the base schema the fixture fills. Tables
// added by later migrations are round-tripped too, but only these are
// required to hold rows.
var baseTables = []string{
	"app_user", "refresh_token", "verification_token", "recipe", "ingredient_section", "ingredient",
	"instruction_section", "instruction_step", "tag", "recipe_tag", "recipe_share", "cookbook",
	"cookbook_recipe", "cookbook_inclusion", "cookbook_tag", "ingredient_instruction_mapping",
}

const (
	userBob  = "00000000-0000-4000-8000-000000000002"
	userCleo = "00000000-0000-4000-8000-000000000003"
)

func fill(t *testing.T, db *pgxpool.Pool) {
	t.Helper()
	if _, err := db.Exec(context.Background(), fillSQL); err != nil {
		t.Fatal(err)
	}
	tables, err := repo.ListBackupTables(context.Background(), db, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		var n int
		if err := db.QueryRow(context.Background(), "SELECT count(*) FROM "+tb.Name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			if slices.Contains(baseTables, tb.Name) {
				t.Errorf("the fixture leaves %s empty", tb.Name)
			} else {
				t.Logf("table %s (added after the base schema) holds no rows in the fixture", tb.Name)
			}
		}
	}
}

// snapshot returns every backed-up table's rows as sorted JSON text, with
// what a restore changes on purpose left out: session versions (bumped),
// refresh tokens and password-reset tokens (deleted). Those are checked on
// their own.
func snapshot(t *testing.T, db *pgxpool.Pool) map[string][]string {
	t.Helper()
	ctx := context.Background()
	tables, err := repo.ListBackupTables(ctx, db, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, tb := range tables {
		q := "SELECT (to_jsonb(x) - 'session_version')::text FROM " + tb.Name + " x"
		switch tb.Name {
		case "refresh_token":
			continue
		case "verification_token":
			q += " WHERE purpose <> 'reset_password'"
		}
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, s)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(vals)
		out[tb.Name] = vals
	}
	return out
}

// exactSnapshot is snapshot with nothing left out, for checking that a
// refused or failed restore changed nothing at all.
func exactSnapshot(t *testing.T, db *pgxpool.Pool) map[string][]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	for _, name := range append(slices.Clone(baseTables), "app_job") {
		rows, err := db.Query(ctx, "SELECT to_jsonb(x)::text FROM "+name+" x")
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, s)
		}
		slices.Sort(vals)
		out[name] = vals
	}
	return out
}

func diffSnapshots(t *testing.T, want, got map[string][]string) {
	t.Helper()
	for name, w := range want {
		g := got[name]
		if !slices.Equal(w, g) {
			t.Errorf("table %s differs:\nwant %d rows: %s\ngot  %d rows: %s", name, len(w), strings.Join(w, "\n     "), len(g), strings.Join(g, "\n     "))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("table %s appeared", name)
		}
	}
}

// writeUploads creates stored files under dir (file-store keys: nested
// directories, binary content, an empty file) and returns their tree.
func writeUploads(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string][]byte{
		"recipes/ab/cake.jpg":       imageBytes(t, ".jpg", 300<<10),
		"recipes/ab/cake_thumb.jpg": imageBytes(t, ".jpg", 20<<10),
		"recipes/cd/brulee.webp":    imageBytes(t, ".webp", 70<<10),
		"cookbooks/ef/baking.png":   imageBytes(t, ".png", 5<<10),
		"deep/a/b/c/nested.gif":     imageBytes(t, ".gif", 1234),
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tree(t, dir)
}

// writeStrays puts things in the upload directory that the file store did
// not write and a backup must leave out: its temp files, a link, and a
// name that is no file-store key.
func writeStrays(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ".tmp-0123"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "with space é.jpg"), []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "recipes", "link.jpg")); err != nil {
		t.Fatal(err)
	}
}

// imageHeads are the leading bytes of each stored image kind: restore
// checks files by them.
var imageHeads = map[string][]byte{
	".jpg":  {0xff, 0xd8, 0xff, 0xe0},
	".png":  []byte("\x89PNG\r\n\x1a\n"),
	".gif":  []byte("GIF89a"),
	".webp": []byte("RIFF\x00\x00\x00\x00WEBPVP8 "),
}

// imageBytes is n bytes that start as an image of the extension's kind.
func imageBytes(t *testing.T, ext string, n int) []byte {
	t.Helper()
	return append(append([]byte(nil), imageHeads[ext]...), randomBytes(t, n)...)
}

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// tree returns every regular file under dir with the SHA-256 of its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dir {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if !d.Type().IsRegular() {
			out[filepath.ToSlash(rel)] = "non-regular " + d.Type().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffTrees(t *testing.T, want, got map[string]string) {
	t.Helper()
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("file %s is missing", name)
		} else if g != w {
			t.Errorf("file %s has other content", name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("file %s should not be there", name)
		}
	}
}

// dirs is a test's upload and backup directories.
type dirs struct{ uploads, backups string }

func newDirs(t *testing.T) dirs {
	root := t.TempDir()
	return dirs{uploads: filepath.Join(root, "data", "uploads"), backups: filepath.Join(root, "data", "backups")}
}

func (d dirs) backupStore() filestore.Store { return filestore.Local{Root: d.backups} }

// files is the current generation of the uploaded files, as the service
// sees them.
func (d dirs) files(db *pgxpool.Pool) filestore.Generations {
	return filestore.Generations{Base: filestore.Local{Root: d.uploads},
		Current: func(ctx context.Context) (string, error) { return repo.FileGeneration(ctx, db) }}
}

// tree is every file the service sees, with the SHA-256 of its content.
func (d dirs) tree(t *testing.T, db *pgxpool.Pool) map[string]string {
	t.Helper()
	ctx := context.Background()
	store := d.files(db)
	out := map[string]string{}
	err := store.Walk(ctx, func(key string, _ int64) error {
		rc, err := store.Open(ctx, key)
		if err != nil {
			return err
		}
		defer rc.Close()
		h := sha256.New()
		if _, err := io.Copy(h, rc); err != nil {
			return err
		}
		out[key] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (d dirs) create(t *testing.T, db *pgxpool.Pool) Info {
	t.Helper()
	info, err := Create(context.Background(), db, CreateOptions{Backups: d.backupStore(), Files: d.files(db)})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// restoreOpts defers the indexes and keys of every table with a row, so
// the small fixture takes the path large installations take.
func (d dirs) restoreOpts(db *pgxpool.Pool) RestoreOptions {
	return RestoreOptions{Backups: d.backupStore(), Files: d.files(db), deferRows: 1}
}

// leftovers lists the files a restore may leave in the store besides the
// current generation (a failed restore's new generation, a successful
// one's replaced files); there must be none once it returns.
func (d dirs) leftovers(t *testing.T, db *pgxpool.Pool) []string {
	t.Helper()
	cleanups.Wait()
	current, err := repo.FileGeneration(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	err = filestore.Local{Root: d.uploads}.Walk(context.Background(), func(key string, _ int64) error {
		first, _, _ := strings.Cut(key, "/")
		if current == "" && filestore.IsGeneration(first) || current != "" && first != current {
			out = append(out, key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
