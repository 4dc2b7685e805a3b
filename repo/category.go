package repo

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// ListCategories returns the categories of the recipes v may read, with how
// many of those recipes carry each, ordered by name without regard to case:
// the category menu of the recipe list. Categories live on the recipe row
// (recipe.categories), so two spellings of one name are one category, named
// by the alphabetically first spelling. prefix and after work as in
// ListTags; a category no readable recipe carries is not listed.
func ListCategories(ctx context.Context, db DBTX, v Viewer, prefix string, limit int, after string) (items []TagCount, next *string, total int64, err error) {
	var args sqlArgs
	where := []string{visibleTo(v, &args)}
	if prefix != "" {
		where = append(where, "lower(c.name) LIKE lower("+args.add(likeEscape(prefix))+") || '%'")
	}
	from := ` FROM recipe r CROSS JOIN LATERAL unnest(r.categories) AS c(name) WHERE `
	if err := db.QueryRow(ctx, "SELECT count(DISTINCT lower(c.name))"+from+strings.Join(where, " AND "), args...).Scan(&total); err != nil {
		return nil, nil, 0, wrap("count categories", err)
	}
	if after != "" {
		where = append(where, "lower(c.name) > "+args.add(after))
	}
	rows, _ := db.Query(ctx, "SELECT min(c.name) AS name, count(DISTINCT r.id) AS count, lower(c.name) AS sort_key"+from+
		strings.Join(where, " AND ")+" GROUP BY lower(c.name) ORDER BY lower(c.name) LIMIT "+strconv.Itoa(limit+1), args...)
	items, err = pgx.CollectRows(rows, pgx.RowToStructByName[TagCount])
	if err != nil {
		return nil, nil, 0, wrap("list categories", err)
	}
	if len(items) > limit {
		items = items[:limit]
		next = &items[limit-1].SortKey
	}
	return items, next, total, nil
}
