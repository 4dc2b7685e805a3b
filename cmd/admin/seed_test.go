package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"larder/repo"
	"larder/repo/repotest"
)

func TestSeed(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	var out bytes.Buffer
	if err := seed(ctx, db, seedOptions{recipes: 250, users: 4, seed: 7, chunk: 60}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "recipes: 250/250") || !strings.Contains(out.String(), "users: 4") ||
		strings.Count(out.String(), "recipes: ") != 5 {
		t.Fatalf("progress:\n%s", out.String())
	}
	var stats struct {
		recipes, owners, public, shared, private, sectioned, withTags, categorized, emptySearch int
		badShares, sharesOfShared, tags, terms                                                  int
	}
	err := db.QueryRow(ctx, `SELECT count(*), count(DISTINCT owner_id),
		count(*) FILTER (WHERE visibility = 'PUBLIC'), count(*) FILTER (WHERE visibility = 'SHARED'),
		count(*) FILTER (WHERE visibility = 'PRIVATE'),
		count(*) FILTER (WHERE EXISTS (SELECT 1 FROM ingredient_section s WHERE s.recipe_id = r.id AND s.name <> '')),
		count(*) FILTER (WHERE EXISTS (SELECT 1 FROM recipe_tag t WHERE t.recipe_id = r.id)),
		count(*) FILTER (WHERE cardinality(categories) > 0),
		count(*) FILTER (WHERE search_vector = ''::tsvector OR search_text = ''),
		(SELECT count(*) FROM recipe_share s JOIN recipe x ON x.id = s.recipe_id WHERE x.visibility <> 'SHARED' OR s.user_id = x.owner_id),
		(SELECT count(DISTINCT recipe_id) FROM recipe_share),
		(SELECT count(*) FROM tag), (SELECT count(*) FROM search_term)
		FROM recipe r`).Scan(&stats.recipes, &stats.owners, &stats.public, &stats.shared, &stats.private,
		&stats.sectioned, &stats.withTags, &stats.categorized, &stats.emptySearch,
		&stats.badShares, &stats.sharesOfShared, &stats.tags, &stats.terms)
	if err != nil {
		t.Fatal(err)
	}
	if stats.recipes != 250 || stats.owners != 4 || stats.public == 0 || stats.shared == 0 || stats.private == 0 ||
		stats.sectioned == 0 || stats.sectioned == 250 || stats.withTags == 0 || stats.categorized != 250 ||
		stats.emptySearch != 0 || stats.badShares != 0 || stats.sharesOfShared == 0 || stats.tags != len(tagNames) || stats.terms < 100 {
		t.Fatalf("seeded %+v", stats)
	}
	// Every recipe reads back whole, and search finds seeded recipes.
	rows, _ := db.Query(ctx, "SELECT id FROM recipe LIMIT 20")
	for rows.Next() {
		var id [16]byte
		_ = rows.Scan(&id)
		rec, err := repo.GetRecipe(ctx, db, id, repo.Viewer{Admin: true})
		if err != nil || len(rec.IngredientSections) == 0 || len(rec.InstructionSections) == 0 || rec.Title == "" {
			t.Fatalf("recipe %x: %+v %v", id, rec, err)
		}
	}
	q, err := repo.SearchQuery(ctx, db, "chiken")
	if err != nil || q == nil {
		t.Fatalf("search: %v", err)
	}
	page, err := repo.ListRecipes(ctx, db, repo.Viewer{}, repo.RecipeFilter{Search: q}, 10, nil)
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("search over seeded recipes: %d %v", len(page.Items), err)
	}
	if n, err := repo.CountRecipes(ctx, db, repo.Viewer{}, repo.RecipeFilter{Search: q}); err != nil || n < int64(len(page.Items)) {
		t.Fatalf("search count: %d %v", n, err)
	}

	// Seeding again adds recipes and reuses the users and tags.
	out.Reset()
	if err := seed(ctx, db, seedOptions{recipes: 10, users: 4, seed: 8}, &out); err != nil {
		t.Fatal(err)
	}
	var recipes, users, tags int
	if err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipe), (SELECT count(*) FROM app_user), (SELECT count(*) FROM tag)`).
		Scan(&recipes, &users, &tags); err != nil || recipes != 260 || users != 4 || tags != len(tagNames) {
		t.Fatalf("second seed: %d recipes, %d users, %d tags (%v)", recipes, users, tags, err)
	}
}

func TestSeedArguments(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--recipes", "0"}, {"--recipes", "x"}, {"--recipes", "5", "--users", "1"}} {
		if err := runSeed(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
