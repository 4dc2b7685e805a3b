package repo

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// RecipeFilter narrows ListRecipes. Zero fields do not filter.
type RecipeFilter struct {
	// Search, from SearchQuery, keeps the recipes whose text matches and
	// orders them by relevance instead of newest first.
	Search     *TextQuery
	Category   string // one category, without regard to case
	Tag        string // one tag name, without regard to case
	Visibility string
	OwnerID    *uuid.UUID
	// Matches is how many recipes the list holds (its total), when known:
	// a search that few recipes match takes them from the text index at
	// once, rather than walking the newest recipes for them first.
	Matches int64
}

// Search relevance tiers: where a recipe matches every word of the search.
const (
	TierTitle        = 3 // all in the title
	TierIngredients  = 2 // in the title and ingredients together
	TierInstructions = 1 // only with the instructions too
)

// RecipeCursor is where a page ends: the sort key of its last recipe. Tier
// is set only for a search.
type RecipeCursor struct {
	Tier      int
	CreatedAt time.Time
	ID        uuid.UUID
}

// RecipePage is one page of ListRecipes.
type RecipePage struct {
	Items []RecipeSummary
	// Next is the cursor of the following page; nil on the last one.
	Next *RecipeCursor
	// Total counts every recipe that matches, on all pages. ListRecipes
	// leaves it 0; CountRecipes computes it.
	Total int64
}

// filters returns the conditions of f other than visibility and search,
// with their arguments.
func (f RecipeFilter) filters() ([]string, sqlArgs) {
	var args sqlArgs
	var where []string
	if f.OwnerID != nil {
		where = append(where, "r.owner_id = "+args.add(*f.OwnerID))
	}
	if f.Visibility != "" {
		where = append(where, "r.visibility = "+args.add(f.Visibility))
	}
	if f.Category != "" {
		where = append(where, "r.category_keys @> ARRAY[lower("+args.add(f.Category)+"::text)]")
	}
	if f.Tag != "" {
		// tag_keys mirrors recipe_tag (migration 0010), so the test needs
		// nothing but the row, or the list index.
		where = append(where, "r.tag_keys @> ARRAY[lower("+args.add(f.Tag)+"::text)]")
	}
	return slices.Clip(where), args
}

// CountRecipes counts the recipes v may read that match f: the total of
// ListRecipes. It is the sum of the disjoint parts below. Counting costs
// time in proportion to the matches (a bitmap of them, then a visit of each
// row), several times the page itself for a broad filter, so the handler
// may reuse recent counts: the PUBLIC part is the same for every viewer.
func CountRecipes(ctx context.Context, db DBTX, v Viewer, f RecipeFilter) (int64, error) {
	switch {
	case v.Admin:
		return CountAllRecipes(ctx, db, f)
	case v.UserID == nil:
		return CountPublicRecipes(ctx, db, f)
	}
	pub, err := CountPublicRecipes(ctx, db, f)
	if err != nil {
		return 0, err
	}
	own, err := CountPersonalRecipes(ctx, db, *v.UserID, f)
	return pub + own, err
}

// RecipeChangeChannel is the channel on which every commit that changes
// recipes, tags or shares is notified (the triggers of migration 0008), so
// that API instances drop the totals they keep.
const RecipeChangeChannel = "recipe_change"

// NotifyRecipeChange notifies RecipeChangeChannel when tx commits. Writers
// that switch the triggers off (a restore) call it themselves.
func NotifyRecipeChange(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "SELECT pg_notify($1, '')", RecipeChangeChannel)
	return wrap("notify recipe change", err)
}

// CountPublicRecipes counts the PUBLIC recipes that match f.
func CountPublicRecipes(ctx context.Context, db DBTX, f RecipeFilter) (int64, error) {
	return countWhere(ctx, db, f, false, func(*sqlArgs) string { return "r.visibility = 'PUBLIC'" })
}

// CountPersonalRecipes counts the recipes that match f which userID may read
// besides the PUBLIC ones: their own others, and the SHARED ones shared with
// them. Each part starts from its own index (the owner's, shared_with),
// where the OR of "may read" could only be answered by a scan of the whole
// table, and tests the filters in the row: a user's recipes are a few
// thousand at most, and ANDing them with the index of a broad category
// (35,000 "Dinner" recipes) cost three times as much.
func CountPersonalRecipes(ctx context.Context, db DBTX, userID uuid.UUID, f RecipeFilter) (int64, error) {
	own, err := countWhere(ctx, db, f, true, func(a *sqlArgs) string {
		return "r.owner_id = " + a.add(userID) + " AND r.visibility <> 'PUBLIC'"
	})
	if err != nil {
		return 0, err
	}
	shared, err := countWhere(ctx, db, f, true, func(a *sqlArgs) string {
		me := a.add(userID)
		return "r.shared_with @> ARRAY[" + me + "::uuid] AND r.visibility = 'SHARED' AND r.owner_id <> " + me
	})
	return own + shared, err
}

// CountAllRecipes counts every recipe that matches f, as an ADMIN reads them.
func CountAllRecipes(ctx context.Context, db DBTX, f RecipeFilter) (int64, error) {
	return countWhere(ctx, db, f, false, func(*sqlArgs) string { return "true" })
}

// Facets are the numbers of recipes per category and per tag (their
// lower-case keys, as category_keys and tag_keys hold them): the totals of
// every single-category and single-tag list at once. Lists filtered by one
// category or tag are what people open most; counting each, each time a
// recipe changes, was most of their cost (a visit of every matching row,
// 35,000 for "dinner"). One scan of the rows in a scope answers all of
// them.
type Facets struct {
	Categories map[string]int64
	Tags       map[string]int64
}

// CountPublicFacets counts the PUBLIC recipes per category and tag.
func CountPublicFacets(ctx context.Context, db DBTX) (Facets, error) {
	return countFacets(ctx, db, "r.visibility = 'PUBLIC'")
}

// CountAllFacets counts every recipe per category and tag, as an ADMIN
// reads them.
func CountAllFacets(ctx context.Context, db DBTX) (Facets, error) {
	return countFacets(ctx, db, "true")
}

// CountPersonalFacets counts, per category and tag, the recipes userID may
// read besides the PUBLIC ones (the parts of CountPersonalRecipes).
func CountPersonalFacets(ctx context.Context, db DBTX, userID uuid.UUID) (Facets, error) {
	return countFacets(ctx, db, `(r.owner_id = $1 AND r.visibility <> 'PUBLIC'
		OR r.shared_with @> ARRAY[$1::uuid] AND r.visibility = 'SHARED' AND r.owner_id <> $1)`, userID)
}

// countFacets counts the recipes matching scope per category and tag key;
// a recipe counts once per key, however often its categories repeat it.
func countFacets(ctx context.Context, db DBTX, scope string, args ...any) (Facets, error) {
	rows, _ := db.Query(ctx, `SELECT f.kind, f.key, count(*) FROM recipe r
		CROSS JOIN LATERAL (SELECT DISTINCT x.kind, x.key FROM (
			SELECT 'c' AS kind, unnest(r.category_keys) AS key
			UNION ALL SELECT 't', unnest(r.tag_keys)) x) f
		WHERE `+scope+` GROUP BY f.kind, f.key`, args...)
	out := Facets{Categories: map[string]int64{}, Tags: map[string]int64{}}
	var kind, key string
	var n int64
	_, err := pgx.ForEachRow(rows, []any{&kind, &key, &n}, func() error {
		if kind == "c" {
			out.Categories[key] = n
		} else {
			out.Tags[key] = n
		}
		return nil
	})
	return out, wrap("count facets", err)
}

// countWhere counts the recipes that match f and the condition scope adds.
// inRow moves the filters other than the search into count(*) FILTER, where
// the planner cannot choose an index for them: the rows scope selects are
// then read and tested one by one.
func countWhere(ctx context.Context, db DBTX, f RecipeFilter, inRow bool, scope func(*sqlArgs) string) (int64, error) {
	filters, args := f.filters()
	where := []string{scope(&args)}
	if f.Search != nil {
		// A query without weights is answered by the GIN index alone (no
		// recheck), so the count fetches no search_vector.
		where = append(where, "r.search_vector @@ "+args.add(f.Search.Any)+"::tsquery")
	}
	count := "count(*)"
	if inRow && len(filters) > 0 {
		count = "count(*) FILTER (WHERE " + strings.Join(filters, " AND ") + ")"
	} else {
		where = append(where, filters...)
	}
	var n int64
	if err := db.QueryRow(ctx, "SELECT "+count+" FROM recipe r WHERE "+strings.Join(where, " AND "), args...).Scan(&n); err != nil {
		return 0, wrap("count recipes", err)
	}
	return n, nil
}

// ListRecipes returns the recipes v may read that match f, after the
// cursor, at most limit of them (Total is left 0: see CountRecipes).
//
// Without a search the order is newest first, on (created_at, id). A search
// orders by relevance tier (title, then title with ingredients, then the
// instructions too: so a title match ranks above an ingredient match, and
// that above a match in the steps), newest first within a tier, on (tier,
// created_at, id). Scoring every match (ts_rank) would cost time in
// proportion to the matches, thousands for "chicken" at 100,000 recipes;
// each tier instead is a walk of the newest-first index (or of a GIN
// bitmap, for rare words) that stops when the page is full.
//
// Pagination is by keyset: a page starts strictly after the sort key of the
// previous page's last recipe, and a recipe's key depends only on its own
// row and the query. So recipes added between two requests never make a
// later page repeat or skip a recipe that was there before.
func ListRecipes(ctx context.Context, db DBTX, v Viewer, f RecipeFilter, limit int, after *RecipeCursor) (RecipePage, error) {
	filters, args := f.filters()
	var page RecipePage
	if f.Search == nil {
		items, err := listTier(ctx, db, append([]string{visibleTo(v, &args)}, filters...), "", 0, args, 0, limit+1, after)
		if err != nil {
			return page, err
		}
		page.Items, page.Next = cut(items, limit)
		return page, nil
	}

	// Each tier's query gets its own copy of the arguments, with only the
	// tsqueries it uses: pgx refuses arguments a statement does not use.
	tiers := []struct {
		tier     int
		weighted bool
		cond     func(anyQ, abQ string) string
	}{
		{TierTitle, false, func(anyQ, _ string) string { return "r.title_vector @@ " + anyQ }},
		{TierIngredients, true, func(anyQ, abQ string) string {
			return "r.search_vector @@ " + abQ + " AND NOT r.title_vector @@ " + anyQ
		}},
		{TierInstructions, true, func(anyQ, abQ string) string {
			return "r.search_vector @@ " + anyQ + " AND NOT r.search_vector @@ " + abQ
		}},
	}
	var all []tieredSummary
	for _, t := range tiers {
		if after != nil && t.tier > after.Tier {
			continue // pages before the cursor's tier are done
		}
		var from *RecipeCursor
		if after != nil && t.tier == after.Tier {
			from = after
		}
		a := slices.Clone(args)
		anyQ, abQ := a.add(f.Search.Any)+"::tsquery", ""
		if t.weighted {
			abQ = a.add(f.Search.TitleOrIngredients) + "::tsquery"
		}
		scope := append([]string{visibleTo(v, &a)}, filters...)
		items, err := listTier(ctx, db, scope, t.cond(anyQ, abQ), f.Matches, a, t.tier, limit+1-len(all), from)
		if err != nil {
			return page, err
		}
		all = append(all, items...)
		if len(all) > limit {
			break
		}
	}
	page.Items, page.Next = cut(all, limit)
	return page, nil
}

type tieredSummary struct {
	RecipeSummary
	tier int
}

// searchWalkBudget bounds how many recipes a search tier examines newest
// first before it looks its matches up in the text index instead.
const searchWalkBudget = 1000

// searchFewMatches is the number of matches under which a search tier
// takes them all from the text index and sorts them without walking:
// measured at 100,000 recipes, reading and sorting a couple of thousand
// costs about what a walk costs to pass over as many that do not match.
const searchFewMatches = 2000

// listTier returns up to n recipes matching the conditions scope and match
// (match may be empty), newest first, after the cursor's (created_at, id)
// when from is set, labelled with tier.
//
// Without a match, the newest-first walk stops when the page is full. A
// match is a test of the recipe's text (search_vector, title_vector), where
// the planner cannot tell how far the walk must go: a search tier whose
// matches are rare among the newest recipes walked every recipe, a second
// for "brownies" in the ingredients-only tier, though it found nothing. So
// the walk examines at most searchWalkBudget recipes; if that does not fill
// the page, the matches are few (under n in that many), and all of them are
// taken from the text index and sorted. When the list's total says the
// matches are few, they are taken so at once.
func listTier(ctx context.Context, db DBTX, scope []string, match string, matches int64, args sqlArgs, tier, n int, from *RecipeCursor) ([]tieredSummary, error) {
	args, scope = slices.Clone(args), slices.Clip(scope)
	if from != nil {
		scope = append(scope, "(r.created_at, r.id) < ("+args.add(from.CreatedAt)+"::timestamptz, "+args.add(from.ID)+"::uuid)")
	}
	where := strings.Join(scope, " AND ")
	limit := " ORDER BY r.created_at DESC, r.id DESC LIMIT " + strconv.Itoa(n)
	// The page's ids first, then their rows: a walk without a match then
	// reads only recipe_list_idx, which holds every column the visibility
	// test and the filters read (migration 0010), and visits n rows, not
	// every row it passes over.
	page := func(ids string) ([]tieredSummary, error) {
		rows, _ := db.Query(ctx, "SELECT "+summaryColumns+" FROM recipe r WHERE r.id IN ("+ids+
			") ORDER BY r.created_at DESC, r.id DESC", args...)
		items, err := pgx.CollectRows(rows, scanSummary)
		if err != nil {
			return nil, wrap("list recipes", err)
		}
		out := make([]tieredSummary, len(items))
		for i, it := range items {
			out[i] = tieredSummary{RecipeSummary: it, tier: tier}
		}
		return out, nil
	}
	if match == "" {
		return page("SELECT r.id FROM recipe r WHERE " + where + limit)
	}
	// MATERIALIZED: every match, by whichever plan finds them all fastest
	// (the text index), never the walk the ORDER BY and LIMIT would invite.
	allMatches := "WITH m AS MATERIALIZED (SELECT r.id, r.created_at FROM recipe r WHERE " + where + " AND " + match +
		") SELECT r.id FROM m r" + limit
	if matches > 0 && matches <= searchFewMatches {
		return page(allMatches)
	}
	walked, err := page("SELECT r.id FROM (SELECT r.id, r.created_at, r.title_vector, r.search_vector FROM recipe r WHERE " +
		where + " ORDER BY r.created_at DESC, r.id DESC LIMIT " + strconv.Itoa(searchWalkBudget) + ") r WHERE " + match + limit)
	if err != nil || len(walked) == n {
		return walked, err
	}
	return page(allMatches)
}

// cut keeps the first limit items and makes the cursor after the last one
// when more follow.
func cut(items []tieredSummary, limit int) ([]RecipeSummary, *RecipeCursor) {
	var next *RecipeCursor
	if len(items) > limit {
		items = items[:limit]
		last := items[limit-1]
		next = &RecipeCursor{Tier: last.tier, CreatedAt: last.CreatedAt, ID: last.ID}
	}
	out := make([]RecipeSummary, len(items))
	for i, it := range items {
		out[i] = it.RecipeSummary
	}
	return out, next
}
