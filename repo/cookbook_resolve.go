package repo

import (
	"context"
	"strconv"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Resolving a cookbook: what GET /api/cookbooks/:id shows.
//
// A cookbook's included cookbooks are the ones it includes directly
// (cookbook_inclusion) and the cookbooks of the same owner whose cookbook
// tags match one of its autoFilterTags. Its recipes are the ones it holds
// directly, the recipes whose categories match one of its
// autoFilterCategories, the recipes whose tags match one of its
// autoFilterTags, and the recipes of every cookbook it includes, directly or
// automatically, recursively: each recipe once, and only those the viewer
// may read. All matching ignores case.
//
// Automatic inclusion can make cycles that no inclusion check can refuse
// (editing a tag or a filter is always allowed): the recursive queries use
// UNION, which drops a cookbook already reached, so they end on any graph.

// childrenOf is the SQL of the ids of the cookbooks that the cookbook with
// id parent (an SQL expression) includes: directly, or automatically through
// its autoFilterTags, among its owner's cookbooks other than itself.
func childrenOf(parent string) string {
	return `SELECT i.child_id AS id FROM cookbook_inclusion i WHERE i.parent_id = ` + parent + `
		UNION ALL
		SELECT ct.cookbook_id FROM cookbook p
		JOIN tag t ON lower(t.name) = ANY (lower_text_array(p.auto_filter_tags))
		JOIN cookbook_tag ct ON ct.tag_id = t.id
		JOIN cookbook c ON c.id = ct.cookbook_id AND c.owner_id = p.owner_id
		WHERE p.id = ` + parent + ` AND ct.cookbook_id <> p.id`
}

// cookbookRecipesCTE defines, for the cookbook $1, "book" (the cookbook and
// every cookbook it includes, recursively) and "hit" (the ids and sort keys
// of the recipes it resolves to that the viewer may read, each once, with
// their number). visible is the viewer's predicate over recipe r.
//
// The three sources are gathered into arrays, computed once each: the
// recipe ids held directly, the lower-cased categories to match, and the ids
// of the recipes carrying a matching tag. The recipe scan then ORs three
// indexable conditions (the primary key, the GIN index on the lower-cased
// categories, the primary key again), which PostgreSQL runs as one bitmap
// scan: a recipe reached by several paths is one heap row, read once, with
// no de-duplication step. The filter tags are gathered into an array of
// names first, so the planner looks them up by name and reads only their
// recipe_tag rows, instead of misjudging a join on the cookbooks' arrays
// and scanning recipe_tag whole.
func cookbookRecipesCTE(visible string) string {
	return `WITH RECURSIVE book(id) AS (
		SELECT $1::uuid
		UNION
		SELECT e.id FROM book b CROSS JOIN LATERAL (` + childrenOf("b.id") + `) e
	),
	hit AS (
		SELECT r.id, r.created_at, count(*) OVER () AS total
		FROM recipe r
		WHERE (r.id = ANY (ARRAY(SELECT cr.recipe_id FROM cookbook_recipe cr WHERE cr.cookbook_id IN (SELECT id FROM book)))
			OR r.category_keys && ARRAY(
				SELECT DISTINCT lower(x) FROM cookbook c CROSS JOIN LATERAL unnest(c.auto_filter_categories) AS x
				WHERE c.id IN (SELECT id FROM book))
			OR r.id = ANY (ARRAY(
				SELECT rt.recipe_id FROM tag t JOIN recipe_tag rt ON rt.tag_id = t.id
				WHERE lower(t.name) = ANY (ARRAY(
					SELECT lower(x) FROM cookbook c CROSS JOIN LATERAL unnest(c.auto_filter_tags) AS x
					WHERE c.id IN (SELECT id FROM book))))))
		AND ` + visible + `
	)`
}

// cookbookRecipeRow is a row of ListCookbookRecipes' query, in its order.
type cookbookRecipeRow struct {
	RecipeSummary
	Total  int64
	Direct bool
}

// CookbookRecipePage is one page of a cookbook's resolved recipes.
type CookbookRecipePage struct {
	RecipePage
	// Direct lists the recipes of the page that were added to this cookbook
	// itself (not through a filter or an included cookbook), in page order.
	Direct []uuid.UUID
}

// ListCookbookRecipes returns one page of the recipes cookbook id resolves
// to for viewer v (see the top of this file), newest first on (created_at,
// id), after the cursor, at most limit of them, with their total. It is one
// query: the recursion, the matching, the visibility, the count and the page.
// A cookbook that does not exist resolves to nothing.
func ListCookbookRecipes(ctx context.Context, db DBTX, id uuid.UUID, v Viewer, limit int, after *RecipeCursor) (CookbookRecipePage, error) {
	args := sqlArgs{id}
	cte := cookbookRecipesCTE(visibleTo(v, &args))
	countArgs := len(args)
	keyset := ""
	if after != nil {
		keyset = ` WHERE (h.created_at, h.id) < (` + args.add(after.CreatedAt) + `::timestamptz, ` + args.add(after.ID) + `::uuid)`
	}
	// The count is a window over every hit, taken before the keyset
	// condition and the limit apply, so each row of the page carries the
	// total; only the page's rows have their columns (and tags) read.
	sql := cte + `
	SELECT ` + summaryColumns + `, p.total,
		EXISTS (SELECT 1 FROM cookbook_recipe cr WHERE cr.cookbook_id = $1 AND cr.recipe_id = r.id) AS direct
	FROM (SELECT h.id, h.created_at, h.total FROM hit h` + keyset + `
	      ORDER BY h.created_at DESC, h.id DESC LIMIT ` + strconv.Itoa(limit+1) + `) p
	JOIN recipe r ON r.id = p.id
	ORDER BY r.created_at DESC, r.id DESC`
	rows, _ := db.Query(ctx, sql, args...)
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (cookbookRecipeRow, error) {
		var r cookbookRecipeRow
		err := row.Scan(append(r.scanTargets(), &r.Total, &r.Direct)...)
		return r, err
	})
	if err != nil {
		return CookbookRecipePage{}, wrap("list cookbook recipes", err)
	}
	page := CookbookRecipePage{RecipePage: RecipePage{Items: make([]RecipeSummary, 0, min(len(items), limit))}, Direct: []uuid.UUID{}}
	switch {
	case len(items) > 0:
		page.Total = items[0].Total
	case after != nil:
		// A page past the end (its recipes went away since the cursor was
		// made) has no row to carry the total: count apart.
		if err := db.QueryRow(ctx, cte+` SELECT count(*) FROM hit`, args[:countArgs]...).Scan(&page.Total); err != nil {
			return CookbookRecipePage{}, wrap("count cookbook recipes", err)
		}
	}
	if len(items) > limit {
		items = items[:limit]
		last := items[limit-1]
		page.Next = &RecipeCursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	for _, it := range items {
		page.Items = append(page.Items, it.RecipeSummary)
		if it.Direct {
			page.Direct = append(page.Direct, it.ID)
		}
	}
	return page, nil
}

// IncludedCookbook is a cookbook another one includes.
type IncludedCookbook struct {
	Cookbook
	// Direct is true for an inclusion made by hand (cookbook_inclusion),
	// false for one made by the includer's autoFilterTags only.
	Direct bool `db:"direct"`
}

// ListIncludedCookbooks returns the cookbooks id includes, directly or by
// its autoFilterTags (not their own includes), ordered by name without
// regard to case.
func ListIncludedCookbooks(ctx context.Context, db DBTX, id uuid.UUID) ([]IncludedCookbook, error) {
	rows, _ := db.Query(ctx, `SELECT `+cookbookColumns+`,
		EXISTS (SELECT 1 FROM cookbook_inclusion i WHERE i.parent_id = $1 AND i.child_id = c.id) AS direct
		FROM cookbook c
		WHERE c.id IN (`+childrenOf("$1::uuid")+`)
		ORDER BY lower(c.name), c.id`, id)
	items, err := pgx.CollectRows(rows, pgx.RowToStructByName[IncludedCookbook])
	if err != nil {
		return nil, wrap("list included cookbooks", err)
	}
	return items, nil
}
