package repo

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The SQL of backups and restores. A backup holds every application table;
// these are left out:
//   - River's own tables (river_*): queued work belongs to the running
//     installation, not to the data;
//   - schema_migration: the manifest records the schema version instead;
//   - app_job: its rows point at River job ids, which are not in the backup.
//     A restore keeps the current app_job rows (see PrepareRestore).
var backupExcluded = map[string]bool{"schema_migration": true, "app_job": true, "file_generation": true}

// excludedFromBackup reports whether a table of the application schema is
// left out of backups.
func excludedFromBackup(name string) bool {
	return backupExcluded[name] || strings.HasPrefix(name, "river_")
}

// BackupTable is one table a backup holds.
type BackupTable struct {
	Name string
	// Columns are the stored columns in table order; generated columns are
	// left out, since PostgreSQL computes them again on load.
	Columns []string
	// Partitioned tables are copied through a query: COPY refuses them by name.
	Partitioned bool
	// ReferencedFromOutside means a table that is not backed up has a
	// foreign key to this one (app_job → app_user). TRUNCATE would have to
	// cascade into that table, so a restore deletes these rows instead.
	ReferencedFromOutside bool
	// Bytes is the table's size on disk, used only to weigh progress.
	Bytes int64
}

// ListBackupTables returns the application tables of schema ("" for the
// current schema) ordered so that every table comes after the tables it
// references: the order a restore loads them in without deferring
// constraints (which would need a superuser or DEFERRABLE keys).
func ListBackupTables(ctx context.Context, db DBTX, schema string) ([]BackupTable, error) {
	rows, err := db.Query(ctx, `
		SELECT c.relname,
		       array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attgenerated = ''),
		       c.relkind = 'p',
		       pg_relation_size(c.oid)
		FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		WHERE n.nspname = coalesce(nullif($1, ''), current_schema())
		  AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relpersistence <> 't'
		GROUP BY c.oid, c.relname, c.relkind`, schema)
	if err != nil {
		return nil, wrap("list backup tables", err)
	}
	byName := map[string]*BackupTable{}
	var names []string
	for rows.Next() {
		var t BackupTable
		var cols []string
		if err := rows.Scan(&t.Name, &cols, &t.Partitioned, &t.Bytes); err != nil {
			rows.Close()
			return nil, wrap("list backup tables", err)
		}
		if excludedFromBackup(t.Name) {
			continue
		}
		t.Columns = cols
		byName[t.Name] = &t
		names = append(names, t.Name)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list backup tables", err)
	}

	// Foreign keys between tables of the schema; a partition's copy of its
	// parent's key (conparentid <> 0) adds nothing.
	rows, err = db.Query(ctx, `
		SELECT src.relname, dst.relname
		FROM pg_constraint con
		JOIN pg_class src ON src.oid = con.conrelid
		JOIN pg_class dst ON dst.oid = con.confrelid
		JOIN pg_namespace sn ON sn.oid = src.relnamespace
		JOIN pg_namespace dn ON dn.oid = dst.relnamespace
		WHERE con.contype = 'f' AND con.conparentid = 0
		  AND sn.nspname = coalesce(nullif($1, ''), current_schema())
		  AND dn.nspname = sn.nspname`, schema)
	if err != nil {
		return nil, wrap("list foreign keys", err)
	}
	deps := map[string][]string{} // table → tables it references
	for rows.Next() {
		var src, dst string
		if err := rows.Scan(&src, &dst); err != nil {
			rows.Close()
			return nil, wrap("list foreign keys", err)
		}
		_, srcIn := byName[src]
		dstT, dstIn := byName[dst]
		switch {
		case srcIn && dstIn && src != dst: // a self-reference is checked per statement, so any row order loads
			deps[src] = append(deps[src], dst)
		case !srcIn && dstIn:
			dstT.ReferencedFromOutside = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("list foreign keys", err)
	}
	order, err := dependencyOrder(names, deps)
	if err != nil {
		return nil, err
	}
	out := make([]BackupTable, len(order))
	for i, n := range order {
		out[i] = *byName[n]
	}
	return out, nil
}

// dependencyOrder sorts names so that each comes after those it depends
// on (Kahn's algorithm, alphabetical among equals so the order is stable).
func dependencyOrder(names []string, deps map[string][]string) ([]string, error) {
	sort.Strings(names)
	pending := map[string]int{}
	dependents := map[string][]string{}
	for _, n := range names {
		seen := map[string]bool{}
		for _, d := range deps[n] {
			if !seen[d] {
				seen[d] = true
				pending[n]++
				dependents[d] = append(dependents[d], n)
			}
		}
	}
	var ready, out []string
	for _, n := range names {
		if pending[n] == 0 {
			ready = append(ready, n)
		}
	}
	for len(ready) > 0 {
		n := ready[0]
		ready = ready[1:]
		out = append(out, n)
		for _, m := range dependents[n] {
			if pending[m]--; pending[m] == 0 {
				ready = append(ready, m)
				sort.Strings(ready)
			}
		}
	}
	if len(out) != len(names) {
		var cycle []string
		for _, n := range names {
			if pending[n] > 0 {
				cycle = append(cycle, n)
			}
		}
		return nil, fmt.Errorf("list backup tables: foreign keys form a cycle between %s; a restore could not load them in order", strings.Join(cycle, ", "))
	}
	return out, nil
}

// LockBackupTables takes ACCESS SHARE locks on tables inside tx. A backup
// takes them before its snapshot: TRUNCATE is not MVCC-safe, so a restore
// committing between the snapshot and the COPY of a table would make the
// backup read that table empty. With the locks held, a restore waits for
// the backup instead. (LOCK TABLE takes no snapshot of its own.)
func LockBackupTables(ctx context.Context, tx pgx.Tx, tables []BackupTable) error {
	if len(tables) == 0 {
		return nil
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = qualified("", t.Name)
	}
	_, err := tx.Exec(ctx, "LOCK TABLE "+strings.Join(names, ", ")+" IN ACCESS SHARE MODE")
	return wrap("lock tables", err)
}

// SetCopySettings pins, for the rest of tx, every setting the text COPY
// format depends on, so a dump reads back the same on any server whatever
// its defaults (a DMY DateStyle would swap days and months).
func SetCopySettings(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `
		SELECT set_config('datestyle', 'ISO, YMD', true),
		       set_config('intervalstyle', 'postgres', true),
		       set_config('timezone', 'UTC', true),
		       set_config('extra_float_digits', '3', true),
		       set_config('bytea_output', 'hex', true)`)
	return wrap("set copy settings", err)
}

func qualified(schema, table string) string {
	if schema == "" {
		return pgx.Identifier{table}.Sanitize()
	}
	return pgx.Identifier{schema, table}.Sanitize()
}

func columnList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = pgx.Identifier{c}.Sanitize()
	}
	return strings.Join(q, ", ")
}

// CopyTableOut streams table t of schema ("" for the current one) to w in
// COPY text format, through the connection of tx so it reads tx's
// snapshot, and returns the number of rows.
func CopyTableOut(ctx context.Context, tx pgx.Tx, schema string, t BackupTable, w io.Writer) (int64, error) {
	src := qualified(schema, t.Name) + " (" + columnList(t.Columns) + ")"
	if t.Partitioned {
		src = "(SELECT " + columnList(t.Columns) + " FROM " + qualified(schema, t.Name) + ")"
	}
	tag, err := tx.Conn().PgConn().CopyTo(ctx, w, "COPY "+src+" TO STDOUT")
	if err != nil {
		return 0, wrap("copy "+t.Name+" out", err)
	}
	return tag.RowsAffected(), nil
}

// CopyTableIn loads COPY text data from r into the columns of table in
// schema ("" for the current one), inside tx, and returns the rows loaded.
// freeze writes the rows already frozen, sparing the first reads and
// VACUUM a pass over them; PostgreSQL allows it only for a table created
// or truncated in the same transaction.
func CopyTableIn(ctx context.Context, tx pgx.Tx, schema, table string, columns []string, freeze bool, r io.Reader) (int64, error) {
	opts := ""
	if freeze {
		opts = " WITH (FREEZE)"
	}
	tag, err := tx.Conn().PgConn().CopyFrom(ctx, r,
		"COPY "+qualified(schema, table)+" ("+columnList(columns)+") FROM STDIN"+opts)
	if err != nil {
		return 0, wrap("copy "+table+" in", err)
	}
	return tag.RowsAffected(), nil
}

// RestoreState is what PrepareRestore saw before it emptied the tables.
type RestoreState struct {
	// MaxSessionVersion is the highest session version before the restore.
	MaxSessionVersion int
}

// PrepareRestore empties the application tables (in the current schema)
// inside tx, ready for loading.
//
// Tables referenced from outside the backup (app_user, by app_job) are
// emptied with DELETE, the others with one TRUNCATE without CASCADE, so a
// table this list does not name can never be emptied by accident. The
// current app_job rows are kept: those of users are set aside in a
// temporary table (the DELETE of app_user cascades to them) and put back by
// FinishRestore for the users the backup still has; system jobs, the
// running restore among them, are never touched, so the restore can report
// progress while tx holds its locks.
func PrepareRestore(ctx context.Context, tx pgx.Tx, tables []BackupTable) (RestoreState, error) {
	var st RestoreState
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(session_version), 0) FROM app_user`).Scan(&st.MaxSessionVersion); err != nil {
		return st, wrap("read session versions", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TEMPORARY TABLE restore_kept_job ON COMMIT DROP AS
		SELECT * FROM app_job WHERE user_id IS NOT NULL`); err != nil {
		return st, wrap("set aside jobs", err)
	}
	var truncate []string
	for _, t := range tables {
		if !t.ReferencedFromOutside {
			truncate = append(truncate, qualified("", t.Name))
		}
	}
	if len(truncate) > 0 {
		if _, err := tx.Exec(ctx, "TRUNCATE "+strings.Join(truncate, ", ")); err != nil {
			return st, wrap("truncate tables", err)
		}
	}
	for _, t := range slices.Backward(tables) {
		if t.ReferencedFromOutside {
			if _, err := tx.Exec(ctx, "DELETE FROM "+qualified("", t.Name)); err != nil {
				return st, wrap("empty "+t.Name, err)
			}
		}
	}
	return st, nil
}

// Trigger is a user trigger switched off during a restore.
type Trigger struct {
	Schema, Table, Name string
	// Enabled is pg_trigger.tgenabled: O (origin), A (always) or R (replica).
	Enabled string
}

// DisableUserTriggers switches off the enabled user triggers of tables in
// schema ("" for the current one) and returns them, so that loading a dump
// stores rows exactly as dumped (a trigger setting updated_at would not).
// Constraint triggers stay on: only a superuser may disable them, and the
// tables are loaded in dependency order so foreign keys hold anyway.
func DisableUserTriggers(ctx context.Context, tx pgx.Tx, schema string, tables []BackupTable) ([]Trigger, error) {
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.Name
	}
	rows, _ := tx.Query(ctx, `
		SELECT n.nspname, c.relname, t.tgname, t.tgenabled::text
		FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE NOT t.tgisinternal AND t.tgenabled <> 'D'
		  AND n.nspname = coalesce(nullif($1, ''), current_schema()) AND c.relname = ANY($2)
		ORDER BY c.relname, t.tgname`, schema, names)
	triggers, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Trigger, error) {
		var t Trigger
		err := r.Scan(&t.Schema, &t.Table, &t.Name, &t.Enabled)
		return t, err
	})
	if err != nil {
		return nil, wrap("list triggers", err)
	}
	for _, t := range triggers {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+qualified(t.Schema, t.Table)+" DISABLE TRIGGER "+pgx.Identifier{t.Name}.Sanitize()); err != nil {
			return nil, wrap("disable trigger "+t.Name, err)
		}
	}
	return triggers, nil
}

// EnableTriggers switches the triggers DisableUserTriggers returned back
// on, each in the mode it had.
func EnableTriggers(ctx context.Context, tx pgx.Tx, triggers []Trigger) error {
	for _, t := range triggers {
		mode := "ENABLE"
		switch t.Enabled {
		case "A":
			mode = "ENABLE ALWAYS"
		case "R":
			mode = "ENABLE REPLICA"
		}
		if _, err := tx.Exec(ctx, "ALTER TABLE "+qualified(t.Schema, t.Table)+" "+mode+" TRIGGER "+pgx.Identifier{t.Name}.Sanitize()); err != nil {
			return wrap("enable trigger "+t.Name, err)
		}
	}
	return nil
}

// FinishRestore runs after every table is loaded, still inside tx:
//   - the app_job rows PrepareRestore set aside come back for the users
//     that exist after the restore;
//   - every session issued before the restore ends: all refresh tokens go,
//     and every user's session version becomes one more than the highest
//     version before or after the load, so no access token issued before
//     can match (setting rather than adding keeps the numbers small however
//     many restores there are);
//   - password-reset tokens go too: one already used after the backup was
//     taken would otherwise work again;
//   - sequences owned by the loaded tables restart above their loaded values.
func FinishRestore(ctx context.Context, tx pgx.Tx, st RestoreState, tables []BackupTable) error {
	if _, err := tx.Exec(ctx, `INSERT INTO app_job SELECT k.* FROM restore_kept_job k
		WHERE EXISTS (SELECT 1 FROM app_user u WHERE u.id = k.user_id)`); err != nil {
		return wrap("put back jobs", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM refresh_token`); err != nil {
		return wrap("end sessions", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM verification_token WHERE purpose = 'reset_password'`); err != nil {
		return wrap("drop reset tokens", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE app_user SET session_version =
		greatest($1::integer, (SELECT coalesce(max(session_version), 0) FROM app_user)) + 1`, st.MaxSessionVersion); err != nil {
		return wrap("end sessions", err)
	}
	return resetSequences(ctx, tx, tables)
}

// resetSequences moves each sequence owned by a column of tables (serial
// and identity columns) past the largest loaded value, so the next insert
// does not collide with a restored row.
func resetSequences(ctx context.Context, tx pgx.Tx, tables []BackupTable) error {
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.Name
	}
	rows, _ := tx.Query(ctx, `
		SELECT s.oid::regclass::text, t.relname, a.attname
		FROM pg_depend d
		JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
		JOIN pg_class t ON t.oid = d.refobjid
		JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
		WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_class'::regclass
		  AND d.deptype IN ('a', 'i')
		  AND t.relnamespace = current_schema()::regnamespace AND t.relname = ANY($1)`, names)
	type owned struct{ seq, table, column string }
	seqs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (owned, error) {
		var o owned
		err := r.Scan(&o.seq, &o.table, &o.column)
		return o, err
	})
	if err != nil {
		return wrap("list sequences", err)
	}
	for _, o := range seqs {
		// setval(seq, max, true) makes the next value max+increment; an
		// empty table restarts the sequence at its start value.
		_, err := tx.Exec(ctx, `SELECT CASE WHEN m IS NULL THEN setval($1::regclass, seqstart, false)
			ELSE setval($1::regclass, m, true) END
			FROM (SELECT max(`+pgx.Identifier{o.column}.Sanitize()+`)::bigint AS m FROM `+qualified("", o.table)+`) x,
			     pg_sequence WHERE seqrelid = $1::regclass`, o.seq)
		if err != nil {
			return wrap("reset sequence "+o.seq, err)
		}
	}
	return nil
}

// CreateScratchSchema creates an empty schema inside tx for loading a
// backup of an older schema version, and puts it first on the search path
// (before the current schema, so extensions and River's tables resolve) for
// the rest of tx. It returns the search path to restore afterwards.
func CreateScratchSchema(ctx context.Context, tx pgx.Tx, name string) (previousPath string, err error) {
	var current string
	if err := tx.QueryRow(ctx, `SELECT current_setting('search_path'), current_schema()`).Scan(&previousPath, &current); err != nil {
		return "", wrap("read search path", err)
	}
	if _, err := tx.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", wrap("create scratch schema", err)
	}
	path := pgx.Identifier{name}.Sanitize() + ", " + pgx.Identifier{current}.Sanitize()
	if _, err := tx.Exec(ctx, `SELECT set_config('search_path', $1, true)`, path); err != nil {
		return "", wrap("set search path", err)
	}
	return previousPath, nil
}

// SetSearchPath sets the search path for the rest of tx.
func SetSearchPath(ctx context.Context, tx pgx.Tx, path string) error {
	_, err := tx.Exec(ctx, `SELECT set_config('search_path', $1, true)`, path)
	return wrap("set search path", err)
}

// CopyAcross moves every row of table from schema from into the same table
// of the current schema, filling its columns, and returns the row count.
// OVERRIDING SYSTEM VALUE keeps restored identity values.
func CopyAcross(ctx context.Context, tx pgx.Tx, from string, t BackupTable) (int64, error) {
	cols := columnList(t.Columns)
	tag, err := tx.Exec(ctx, "INSERT INTO "+qualified("", t.Name)+" ("+cols+") OVERRIDING SYSTEM VALUE SELECT "+cols+" FROM "+qualified(from, t.Name))
	if err != nil {
		return 0, wrap("copy "+t.Name+" across", err)
	}
	return tag.RowsAffected(), nil
}

// DropSchema drops a scratch schema and everything in it.
func DropSchema(ctx context.Context, tx pgx.Tx, name string) error {
	_, err := tx.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{name}.Sanitize()+" CASCADE")
	return wrap("drop scratch schema", err)
}

// The advisory lock a restore holds on its own session for its whole run.
// The API reads it to answer writes with 503. PostgreSQL releases a session
// lock when the session ends, so a crashed restore cannot leave the service
// read-only. (Two int4 keys: "lard", "rstr".)
const (
	restoreLockClass  = 0x6c617264
	restoreLockObject = 0x72737472
)

// TryLockRestore takes the restore lock on conn's session, false if another
// session holds it. conn must be a dedicated connection, not a pool.
//
// The session first learns to notice a vanished client (watchClient): a
// session ends, and its lock and transaction with it, only once PostgreSQL
// sees that its client is gone, which by default is when the statement
// running has finished (an index rebuild of a large table takes minutes),
// or hours after the client's machine went away.
func TryLockRestore(ctx context.Context, conn DBTX) (bool, error) {
	watchClient(ctx, conn)
	var ok bool
	err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, restoreLockClass, restoreLockObject).Scan(&ok)
	return ok, wrap("take restore lock", err)
}

// UnlockRestore releases the restore lock held by conn's session, and
// gives the session its usual settings back.
func UnlockRestore(ctx context.Context, conn DBTX) error {
	_, err := conn.Exec(ctx, `SELECT pg_advisory_unlock($1, $2)`, restoreLockClass, restoreLockObject)
	if err == nil {
		_, err = conn.Exec(ctx, `RESET client_connection_check_interval; RESET tcp_keepalives_idle;
			RESET tcp_keepalives_interval; RESET tcp_keepalives_count`)
	}
	return wrap("release restore lock", err)
}

// watchClient makes conn's session check every few seconds, even in the
// middle of a statement, that its client is still there (a killed process
// closed its socket), and probe a silent client's machine after 30 s of
// quiet (3 probes 10 s apart). Each is best effort: a server without the
// setting (before PostgreSQL 14, or on a system without the kernel support)
// keeps its defaults and the lock still ends with the session.
func watchClient(ctx context.Context, conn DBTX) {
	for _, setting := range []string{
		`SET client_connection_check_interval = '2s'`,
		`SET tcp_keepalives_idle = 30`, `SET tcp_keepalives_interval = 10`, `SET tcp_keepalives_count = 3`,
	} {
		_, _ = conn.Exec(ctx, setting)
	}
}

// RestoreInProgress reports whether some session of this database holds the
// restore lock. It reads pg_locks, which needs no privilege and takes no lock.
func RestoreInProgress(ctx context.Context, db DBTX) (bool, error) {
	var held bool
	err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE `+restoreLockGranted+`)`).Scan(&held)
	return held, wrap("check restore lock", err)
}

// Deferred is what a restore drops before loading the tables and creates
// again afterwards, as pg_restore does: foreign keys between the tables
// (checked row by row while loading, each check locking the referenced
// row, they dominate the load; added afterwards, each is validated by one
// join), and primary keys, unique constraints and indexes (built once,
// sorted, rather than grown row by row). All of it happens inside the
// restore transaction: a failure rolls the schema back with the data, and
// a fingerprint of every index and constraint, taken before and compared
// after, proves the schema is put back exactly.
type Deferred struct {
	schema      string
	fingerprint string
	foreignKeys []deferredObject
	keys        []deferredObject
	indexes     []deferredObject
}

type deferredObject struct {
	table, name, def string
	comment          *string
}

// DeferConstraints drops the foreign keys between tables, and the keys and
// indexes of the emptied tables, in schema ("" for the current one) inside
// tx, and returns what to create again. Tables referenced from outside the
// backup keep their keys and indexes, and the foreign keys that point at
// them stay: dropping any of those would lock the table against readers
// (dropping a foreign key locks the table it references), and app_user,
// emptied with DELETE rather than TRUNCATE, must stay readable while the
// restore runs: the API authenticates every request against it.
//
// Only tables in large are touched (with their foreign keys): for a table
// of a few hundred rows, dropping and creating again costs more than it
// saves.
func DeferConstraints(ctx context.Context, tx pgx.Tx, schema string, tables []BackupTable, large map[string]bool) (*Deferred, error) {
	names := make([]string, 0, len(tables))
	var emptied, indexed []string
	for _, t := range tables {
		names = append(names, t.Name)
		if !t.ReferencedFromOutside && !t.Partitioned {
			emptied = append(emptied, t.Name)
			if large[t.Name] {
				indexed = append(indexed, t.Name)
			}
		}
	}
	var referencing []string
	for _, t := range tables {
		if large[t.Name] {
			referencing = append(referencing, t.Name)
		}
	}
	// A foreign key goes when its table is large (its checks are the cost)
	// or when it points at a table whose keys go (a key cannot be dropped
	// while a foreign key depends on it); either way only towards an
	// emptied table.
	d := &Deferred{schema: schema}
	var err error
	if d.fingerprint, err = schemaFingerprint(ctx, tx, schema, names); err != nil {
		return nil, err
	}
	// Set maintenance_work_mem for the index builds and the checks to come.
	if _, err := tx.Exec(ctx, `SELECT set_config('maintenance_work_mem', '128MB', true)`); err != nil {
		return nil, wrap("set maintenance_work_mem", err)
	}
	rows, _ := tx.Query(ctx, `
		SELECT con.conrelid::regclass::text, con.conname, pg_get_constraintdef(con.oid), obj_description(con.oid, 'pg_constraint')
		FROM pg_constraint con
		JOIN pg_class src ON src.oid = con.conrelid
		JOIN pg_class dst ON dst.oid = con.confrelid
		WHERE con.contype = 'f' AND con.conparentid = 0
		  AND src.relnamespace = coalesce(nullif($1, ''), current_schema())::regnamespace
		  AND dst.relnamespace = src.relnamespace
		  AND src.relname = ANY($2) AND dst.relname = ANY($3)
		  AND (src.relname = ANY($4) OR dst.relname = ANY($5))
		ORDER BY 1, 2`, schema, names, emptied, referencing, indexed)
	d.foreignKeys, err = pgx.CollectRows(rows, scanDeferred)
	if err != nil {
		return nil, wrap("list foreign keys", err)
	}
	rows, _ = tx.Query(ctx, `
		SELECT t.oid::regclass::text, ic.oid::regclass::text, pg_get_indexdef(i.indexrelid), obj_description(i.indexrelid, 'pg_class')
		FROM pg_index i
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_class ic ON ic.oid = i.indexrelid
		WHERE t.relnamespace = coalesce(nullif($1, ''), current_schema())::regnamespace
		  AND t.relname = ANY($2) AND t.relkind = 'r'
		  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
		ORDER BY 1, 2`, schema, indexed)
	d.indexes, err = pgx.CollectRows(rows, scanDeferred)
	if err != nil {
		return nil, wrap("list indexes", err)
	}
	// Primary keys and unique constraints whose index bears their name and
	// no comment, so that adding the constraint again recreates the very
	// same index. From PostgreSQL 18 a primary key also owns NOT NULL
	// constraints; those servers keep their keys.
	rows, _ = tx.Query(ctx, `
		SELECT con.conrelid::regclass::text, con.conname, pg_get_constraintdef(con.oid), obj_description(con.oid, 'pg_constraint')
		FROM pg_constraint con
		JOIN pg_class t ON t.oid = con.conrelid
		JOIN pg_class ic ON ic.oid = con.conindid
		WHERE con.contype IN ('p', 'u') AND NOT con.condeferrable AND con.conparentid = 0
		  AND ic.relname = con.conname AND obj_description(ic.oid, 'pg_class') IS NULL
		  AND t.relnamespace = coalesce(nullif($1, ''), current_schema())::regnamespace
		  AND t.relname = ANY($2) AND t.relkind = 'r'
		  AND current_setting('server_version_num')::int < 180000
		ORDER BY 1, 2`, schema, indexed)
	d.keys, err = pgx.CollectRows(rows, scanDeferred)
	if err != nil {
		return nil, wrap("list keys", err)
	}
	for _, fk := range d.foreignKeys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+fk.table+" DROP CONSTRAINT "+pgx.Identifier{fk.name}.Sanitize()); err != nil {
			return nil, wrap("drop foreign key "+fk.name, err)
		}
	}
	for _, k := range d.keys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+k.table+" DROP CONSTRAINT "+pgx.Identifier{k.name}.Sanitize()); err != nil {
			return nil, wrap("drop key "+k.name, err)
		}
	}
	for _, ix := range d.indexes {
		if _, err := tx.Exec(ctx, "DROP INDEX "+ix.name); err != nil {
			return nil, wrap("drop index "+ix.name, err)
		}
	}
	return d, nil
}

func scanDeferred(r pgx.CollectableRow) (deferredObject, error) {
	var o deferredObject
	err := r.Scan(&o.table, &o.name, &o.def, &o.comment)
	return o, err
}

// Restore creates again what DeferConstraints dropped, validating every
// foreign key against the loaded rows, and checks that the schema is
// exactly as it was before.
func (d *Deferred) Restore(ctx context.Context, tx pgx.Tx, tables []BackupTable) error {
	for _, k := range d.keys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+k.table+" ADD CONSTRAINT "+pgx.Identifier{k.name}.Sanitize()+" "+k.def); err != nil {
			return wrap("add key "+k.name, err)
		}
		if k.comment != nil {
			if _, err := tx.Exec(ctx, "COMMENT ON CONSTRAINT "+pgx.Identifier{k.name}.Sanitize()+" ON "+k.table+" IS "+quoteLiteral(*k.comment)); err != nil {
				return wrap("comment on constraint "+k.name, err)
			}
		}
	}
	for _, ix := range d.indexes {
		if _, err := tx.Exec(ctx, ix.def); err != nil {
			return wrap("create index "+ix.name, err)
		}
		if ix.comment != nil {
			if _, err := tx.Exec(ctx, "COMMENT ON INDEX "+ix.name+" IS "+quoteLiteral(*ix.comment)); err != nil {
				return wrap("comment on index "+ix.name, err)
			}
		}
	}
	for _, fk := range d.foreignKeys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+fk.table+" ADD CONSTRAINT "+pgx.Identifier{fk.name}.Sanitize()+" "+fk.def); err != nil {
			return wrap("add foreign key "+fk.name, err)
		}
		if fk.comment != nil {
			if _, err := tx.Exec(ctx, "COMMENT ON CONSTRAINT "+pgx.Identifier{fk.name}.Sanitize()+" ON "+fk.table+" IS "+quoteLiteral(*fk.comment)); err != nil {
				return wrap("comment on constraint "+fk.name, err)
			}
		}
	}
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.Name
	}
	after, err := schemaFingerprint(ctx, tx, d.schema, names)
	if err != nil {
		return err
	}
	if after != d.fingerprint {
		return fmt.Errorf("restore: the indexes and constraints after loading differ from those before; nothing was changed")
	}
	return nil
}

// schemaFingerprint describes every index and constraint of tables, with
// their comments, so a restore can prove it put the schema back exactly.
func schemaFingerprint(ctx context.Context, tx pgx.Tx, schema string, tables []string) (string, error) {
	var fp string
	err := tx.QueryRow(ctx, `
		SELECT coalesce(string_agg(x, E'\n' ORDER BY x), '') FROM (
			SELECT 'index ' || ic.relname || ' ' || pg_get_indexdef(i.indexrelid) || ' ' || coalesce(obj_description(i.indexrelid, 'pg_class'), '') AS x
			FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
			WHERE t.relnamespace = coalesce(nullif($1, ''), current_schema())::regnamespace AND t.relname = ANY($2)
			UNION ALL
			SELECT 'constraint ' || t.relname || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) || ' ' || c.convalidated || ' ' ||
			       coalesce(obj_description(c.oid, 'pg_constraint'), '')
			FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
			WHERE t.relnamespace = coalesce(nullif($1, ''), current_schema())::regnamespace AND t.relname = ANY($2)
		) s`, schema, tables).Scan(&fp)
	return fp, wrap("describe indexes and constraints", err)
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
