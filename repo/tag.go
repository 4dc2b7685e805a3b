package repo

import (
	"context"
	"strconv"
	"strings"

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
