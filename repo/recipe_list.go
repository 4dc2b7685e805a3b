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
// adding their arguments to args. hashed tests categories and tags through
// category_hashes and tag_hashes, which recipe_list_idx holds (migration
// 0011), so that a walk of that index reads no row for them; two keys may,
// however rarely, share a hash, so the rows such a walk finds are tested
// again with labels(args, false).
func (f RecipeFilter) filters(args *sqlArgs, hashed bool) []string {
	var where []string
	if f.OwnerID != nil {
		where = append(where, "r.owner_id = "+args.add(*f.OwnerID))
	}
	if f.Visibility != "" {
		where = append(where, "r.visibility = "+args.add(f.Visibility))
	}
	return append(where, f.labels(args, hashed)...)
}

// labels returns the category and tag conditions of f (see filters).
func (f RecipeFilter) labels(args *sqlArgs, hashed bool) []string {
	var where []string
	test := func(kind, label string) {
		if hashed {
			where = append(where, "r."+kind+"_hashes @> (SELECT label_hashes(ARRAY["+args.add(label)+"::text]))")
		} else {
			// category_keys and tag_keys (tag_keys mirrors recipe_tag,
			// migration 0010) answer from the row, or their GIN index.
			where = append(where, "r."+kind+"_keys @> ARRAY[lower("+args.add(label)+"::text)]")
		}
	}
	if f.Category != "" {
		test("category", f.Category)
	}
	if f.Tag != "" {
		test("tag", f.Tag)
	}
	return where
}

// CountRecipes counts the recipes v may read that match f: the total of
// ListRecipes. It is the sum of the counts of v's ReadParts. Counting costs
// time in proportion to the matches (a bitmap of them, then a visit of each
// row), several times the page itself for a broad filter, so the handler
// may reuse recent counts part by part: the PUBLIC part is the same for
// every viewer.
func CountRecipes(ctx context.Context, db DBTX, v Viewer, f RecipeFilter) (int64, error) {
	return v.SumParts(func(p ReadPart) (int64, error) { return CountPart(ctx, db, p, f) })
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

// CountPart counts the recipes of part p that match f, a count per grant
// of the rule (which never overlap). Each grant starts from its own index
// (a user's own recipes from the owner's, the shared ones from shared_with)
// where the OR of "may read" could only be answered by a scan of the whole
// table; a narrow grant's count tests the filters in the row: a user's
// recipes are a few thousand at most, and ANDing them with the index of a
// broad category (35,000 "Dinner" recipes) cost three times as much.
func CountPart(ctx context.Context, db DBTX, p ReadPart, f RecipeFilter) (int64, error) {
	var sum int64
	for _, g := range p.grants {
		n, err := countWhere(ctx, db, f, g.narrow, func(a *sqlArgs) string { return grantsSQL([]readGrant{g}, p.user, a) })
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
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

// CountPartFacets counts the recipes of part p per category and tag. One
// scan of the part (an OR of its grants' indexes) answers every key.
func CountPartFacets(ctx context.Context, db DBTX, p ReadPart) (Facets, error) {
	var args sqlArgs
	return countFacets(ctx, db, p.where(&args), args...)
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
	var args sqlArgs
	filters := f.filters(&args, false)
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
	var page RecipePage
	if f.Search == nil {
		items, err := listTier(ctx, db, v, f, listAll, limit+1, after)
		if err != nil {
			return page, err
		}
		page.Items, page.Next = cut(items, limit)
		return page, nil
	}
	var all []tieredSummary
	for _, t := range searchTiers {
		if after != nil && t.rank > after.Tier {
			continue // pages before the cursor's tier are done
		}
		var from *RecipeCursor
		if after != nil && t.rank == after.Tier {
			from = after
		}
		items, err := listTier(ctx, db, v, f, t, limit+1-len(all), from)
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

// listPart is what one listTier call lists: a whole list without search, or
// the recipes of one search relevance tier.
type listPart struct {
	rank int // the search relevance tier; 0 without search
	// match is the tier's test of a recipe's text, its tsqueries added to
	// args; nil without search.
	match func(q *TextQuery, args *sqlArgs) string
	// columns are those match reads.
	columns string
	// walkBudget bounds how many recipes a walk newest first examines for
	// matches before it takes them from the text index instead.
	walkBudget int
	// fewMatches is the list total at or under which all the matches are
	// taken from the text index and sorted, without a walk.
	fewMatches int64
}

var listAll = listPart{}

// titleFewMatches is the number of matches under which the title tier
// takes them from the title index without a walk (see searchTiers).
const titleFewMatches = 300

// searchTiers are the parts of a search, best first. The budgets were
// measured at 100,000 recipes: from the index, a walk costs about 0.5 µs a
// recipe examined; taking a match from the text index costs about 5 µs (a
// visit of its row), and the walk of a tier that reads search_vector as
// much, for that too is in the row. A title walk then pays where a
// recipe's words are at least a few hundred among the viewer's 40,000.
var searchTiers = []listPart{
	{rank: TierTitle, columns: "r.title_vector", walkBudget: 4000, fewMatches: titleFewMatches,
		match: func(q *TextQuery, a *sqlArgs) string { return "r.title_vector @@ " + tsqueryArg(a, q.Any) }},
	{rank: TierIngredients, columns: "r.title_vector, r.search_vector", walkBudget: 1000, fewMatches: 2000,
		match: func(q *TextQuery, a *sqlArgs) string {
			return "r.search_vector @@ " + tsqueryArg(a, q.TitleOrIngredients) + " AND NOT r.title_vector @@ " + tsqueryArg(a, q.Any)
		}},
	{rank: TierInstructions, columns: "r.search_vector", walkBudget: 1000, fewMatches: 2000,
		match: func(q *TextQuery, a *sqlArgs) string {
			anyQ := tsqueryArg(a, q.Any)
			return "r.search_vector @@ " + anyQ + " AND NOT r.search_vector @@ " + tsqueryArg(a, q.TitleOrIngredients)
		}},
}

// tsqueryArg adds a tsquery argument for a search tier's statements, behind
// a sub-select the planner cannot look into. Knowing the words changes
// nothing in the plans of listTier (a walk, or the text index), but it
// makes PostgreSQL plan each execution afresh: hidden, the custom and the
// generic plan cost the same, so after five executions a connection reuses
// the generic one, and a search spends about 0.3 ms less on planning (a
// quarter of a common word's walk).
func tsqueryArg(a *sqlArgs, tsquery string) string {
	return "(SELECT " + a.add(tsquery) + "::tsquery)"
}

// listTier returns up to n recipes of part p of the list of f for v, newest
// first, after the cursor's (created_at, id) when from is set.
//
// A list, or a search tier whose matches are common, is a walk newest
// first of recipe_list_idx, which holds every column the visibility test,
// the filters and the title tier read (migration 0011): it stops when the
// page is full, reading only the index, and then visits the page's rows.
// The planner cannot tell how far a walk for a text match must go: a tier
// whose matches are rare among the newest recipes walked every recipe, a
// second for "brownies" in the ingredients-only tier, though it found
// nothing. So the walk examines at most walkBudget recipes; if that does
// not fill the page, the matches are few, and all of them are taken from
// the text index and sorted. When the list's total (f.Matches), or for the
// title tier f.Search.FewInTitles, says the matches are few, they are taken
// so at once.
func listTier(ctx context.Context, db DBTX, v Viewer, f RecipeFilter, p listPart, n int, from *RecipeCursor) ([]tieredSummary, error) {
	const order = " ORDER BY r.created_at DESC, r.id DESC"
	limit := order + " LIMIT " + strconv.Itoa(n)
	afterCursor := func(a *sqlArgs) []string {
		if from == nil {
			return nil
		}
		return []string{"(r.created_at, r.id) < (" + a.add(from.CreatedAt) + "::timestamptz, " + a.add(from.ID) + "::uuid)"}
	}
	// rows reads the recipes that cond selects, in the order of the list.
	rows := func(cond string, args sqlArgs) ([]tieredSummary, error) {
		rs, _ := db.Query(ctx, "SELECT "+summaryColumns+" FROM recipe r WHERE "+cond+order, args...)
		items, err := pgx.CollectRows(rs, scanSummary)
		if err != nil {
			return nil, wrap("list recipes", err)
		}
		out := make([]tieredSummary, len(items))
		for i, it := range items {
			out[i] = tieredSummary{RecipeSummary: it, tier: p.rank}
		}
		return out, nil
	}
	walk := func() ([]tieredSummary, error) {
		var a sqlArgs
		scope := strings.Join(slices.Concat([]string{visibleTo(v, &a)}, f.filters(&a, true), afterCursor(&a)), " AND ")
		ids := "SELECT r.id FROM recipe r WHERE " + scope
		if p.match != nil {
			ids = "SELECT r.id FROM (SELECT r.id, r.created_at, " + p.columns + " FROM recipe r WHERE " + scope + order +
				" LIMIT " + strconv.Itoa(p.walkBudget) + ") r WHERE " + p.match(f.Search, &a)
		}
		return rows(strings.Join(append([]string{"r.id IN (" + ids + limit + ")"}, f.labels(&a, false)...), " AND "), a)
	}
	if p.match == nil {
		return walk()
	}
	// Every match, MATERIALIZED so that the planner takes them by the plan
	// that finds them all fastest (the text index), never the walk the
	// ORDER BY and LIMIT would invite. The viewer's test is outside: inside,
	// the planner ANDed the text index with a bitmap of every recipe the
	// viewer may read (40,000 entries) to keep a few hundred matches.
	everyMatch := func() ([]tieredSummary, error) {
		var a sqlArgs
		where := strings.Join(slices.Concat([]string{p.match(f.Search, &a)}, f.filters(&a, false), afterCursor(&a)), " AND ")
		ids := "WITH m AS MATERIALIZED (SELECT r.id, r.created_at, r.visibility, r.owner_id, r.shared_with FROM recipe r WHERE " +
			where + ") SELECT r.id FROM m r WHERE " + visibleTo(v, &a) + limit
		return rows("r.id IN ("+ids+")", a)
	}
	// The total counts matches anywhere in the text; for the title tier,
	// FewInTitles may know better: "lemon garlic" is in 3,935 recipes a
	// viewer may read, but in 66 titles, which a walk of 4,000 recipes
	// would look for in vain.
	if f.Matches > 0 && f.Matches <= p.fewMatches || p.rank == TierTitle && f.Search.FewInTitles {
		return everyMatch()
	}
	walked, err := walk()
	if err != nil || len(walked) == n {
		return walked, err
	}
	return everyMatch()
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
