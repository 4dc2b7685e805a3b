package repo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// TagCount is a tag with the number of recipes carrying it that the viewer may read.
type TagCount struct {
	Name  string `db:"name"`
	Count int64  `db:"count"`
	// SortKey is the name as PostgreSQL lower-cases it: the order of the
	// list and its cursor.
	SortKey string `db:"sort_key"`
}

// ListTags returns the tags of the recipes v may read, with how many of
// those recipes carry each, ordered by name without regard to case. prefix
// keeps only tags starting with it (for completion); after is the
// lower-cased name the previous page ended with. A tag no readable recipe
// carries is not listed, so tag names of private recipes never leak.
func ListTags(ctx context.Context, db DBTX, v Viewer, prefix string, limit int, after string) (items []TagCount, next *string, total int64, err error) {
	var args sqlArgs
	where := []string{visibleTo(v, &args)}
	if prefix != "" {
		where = append(where, "lower(t.name) LIKE lower("+args.add(likeEscape(prefix))+") || '%'")
	}
	from := ` FROM tag t JOIN recipe_tag rt ON rt.tag_id = t.id JOIN recipe r ON r.id = rt.recipe_id WHERE `
	if err := db.QueryRow(ctx, "SELECT count(DISTINCT t.id)"+from+strings.Join(where, " AND "), args...).Scan(&total); err != nil {
		return nil, nil, 0, wrap("count tags", err)
	}
	if after != "" {
		where = append(where, "lower(t.name) > "+args.add(after))
	}
	rows, _ := db.Query(ctx, "SELECT t.name, count(*) AS count, lower(t.name) AS sort_key"+from+strings.Join(where, " AND ")+
		" GROUP BY t.id ORDER BY lower(t.name) LIMIT "+strconv.Itoa(limit+1), args...)
	items, err = pgx.CollectRows(rows, pgx.RowToStructByName[TagCount])
	if err != nil {
		return nil, nil, 0, wrap("list tags", err)
	}
	if len(items) > limit {
		items = items[:limit]
		next = &items[limit-1].SortKey
	}
	return items, next, total, nil
}

// likeEscape escapes the wildcards of LIKE in s.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// tagLinks names the table that links one kind of row to its tags, and
// that table's column of the row's id. setTags builds its SQL from them, so
// only the constants below may exist.
type tagLinks struct{ table, idColumn string }

var (
	recipeTags   = tagLinks{table: "recipe_tag", idColumn: "recipe_id"}
	cookbookTags = tagLinks{table: "cookbook_tag", idColumn: "cookbook_id"}
)

// setTags makes the tags of the row id equal to names, creating tags on
// first use. The tag table is shared by recipes and cookbooks: names are
// unique without regard to case, and a tag keeps the spelling it was first
// used with.
func setTags(ctx context.Context, tx pgx.Tx, links tagLinks, id uuid.UUID, names []string) error {
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	if err := createTags(ctx, tx, names); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM `+links.table+` l USING tag t
		WHERE l.`+links.idColumn+` = $1 AND t.id = l.tag_id AND NOT (lower(t.name) = ANY($2))`, id, lower); err != nil {
		return fmt.Errorf("remove %s: %w", links.table, err)
	}
	if len(names) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO `+links.table+` (`+links.idColumn+`, tag_id)
			SELECT $1, t.id FROM tag t WHERE lower(t.name) = ANY($2) ON CONFLICT DO NOTHING`, id, lower); err != nil {
			return fmt.Errorf("add %s: %w", links.table, err)
		}
	}
	return nil
}

// createTags creates the tags with these names that do not exist yet. A
// tag keeps the spelling it was first used with; names match without
// regard to case. This is the one statement that creates tags.
func createTags(ctx context.Context, db DBTX, names []string) error {
	if len(names) == 0 {
		return nil
	}
	// Sorted, so two transactions creating the same new tags lock them in
	// the same order and cannot deadlock.
	_, err := db.Exec(ctx, `INSERT INTO tag (name) SELECT n FROM unnest($1::text[]) AS n ORDER BY lower(n)
		ON CONFLICT (lower(name)) DO NOTHING`, names)
	return wrap("create tags", err)
}

// EnsureTags creates the tags with these names that do not exist yet and
// returns the ids of all of them, in the order of names.
func EnsureTags(ctx context.Context, db DBTX, names []string) ([]uuid.UUID, error) {
	if err := createTags(ctx, db, names); err != nil {
		return nil, err
	}
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	rows, _ := db.Query(ctx, `SELECT t.id FROM unnest($1::text[]) WITH ORDINALITY AS v(n, ord)
		JOIN tag t ON lower(t.name) = v.n ORDER BY v.ord`, lower)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	return ids, wrap("read tags", err)
}
