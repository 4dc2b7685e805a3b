package seed

import (
	"bytes"
	"context"
	"io"
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
	if err := Run(ctx, db, Options{Recipes: 250, Users: 4, Seed: 7, Chunk: 60}, &out); err != nil {
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
		stats.emptySearch != 0 || stats.badShares != 0 || stats.sharesOfShared == 0 || stats.tags != len(TagNames) || stats.terms < 100 {
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
	if err := Run(ctx, db, Options{Recipes: 10, Users: 4, Seed: 8}, &out); err != nil {
		t.Fatal(err)
	}
	var recipes, users, tags int
	if err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM recipe), (SELECT count(*) FROM app_user), (SELECT count(*) FROM tag)`).
		Scan(&recipes, &users, &tags); err != nil || recipes != 260 || users != 4 || tags != len(TagNames) {
		t.Fatalf("second seed: %d recipes, %d users, %d tags (%v)", recipes, users, tags, err)
	}
}

// TestSeedExtras checks what benchmarks of a whole installation ask for:
// images on the oldest recipes, a mapping for every ingredient line,
// cookbooks with recipes, inclusions and tags, and sessions.
func TestSeedExtras(t *testing.T) {
	t.Parallel()
	db := repotest.DB(t)
	ctx := context.Background()
	images := []string{"recipes/aa/one.jpg", "recipes/bb/two.jpg", "recipes/cc/three.jpg"}
	o := Options{Recipes: 40, Users: 3, Seed: 3, Images: images, Mappings: true, Cookbooks: 6, Sessions: true}
	if err := Run(ctx, db, o, io.Discard); err != nil {
		t.Fatal(err)
	}
	var withImage, distinctImages, oldestHaveImages, unmapped, mappedElsewhere int
	var books, bookOwners, bookRecipes, inclusions, bookTags, refresh, verify int
	err := db.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM recipe WHERE image_key IS NOT NULL),
		(SELECT count(DISTINCT image_key) FROM recipe WHERE image_key = ANY($1)),
		(SELECT count(*) FROM (SELECT image_key FROM recipe ORDER BY created_at, id LIMIT 3) o WHERE image_key IS NOT NULL),
		(SELECT count(*) FROM ingredient i WHERE NOT EXISTS (SELECT 1 FROM ingredient_instruction_mapping m WHERE m.ingredient_id = i.id)),
		(SELECT count(*) FROM ingredient_instruction_mapping m JOIN instruction_step s ON s.id = m.step_id WHERE s.recipe_id <> m.recipe_id),
		(SELECT count(*) FROM cookbook), (SELECT count(DISTINCT owner_id) FROM cookbook),
		(SELECT count(*) FROM cookbook_recipe), (SELECT count(*) FROM cookbook_inclusion), (SELECT count(*) FROM cookbook_tag),
		(SELECT count(*) FROM refresh_token), (SELECT count(*) FROM verification_token)`, images).
		Scan(&withImage, &distinctImages, &oldestHaveImages, &unmapped, &mappedElsewhere,
			&books, &bookOwners, &bookRecipes, &inclusions, &bookTags, &refresh, &verify)
	if err != nil {
		t.Fatal(err)
	}
	if withImage != 3 || distinctImages != 3 || oldestHaveImages != 3 || unmapped != 0 || mappedElsewhere != 0 ||
		books != 6 || bookOwners != 3 || bookRecipes != 40 || inclusions != 4 || bookTags != 6 || refresh != 3 || verify != 3 {
		t.Fatalf("images %d/%d/%d, unmapped %d, mapped elsewhere %d, cookbooks %d by %d owners with %d recipes, %d inclusions, %d tags, tokens %d/%d",
			withImage, distinctImages, oldestHaveImages, unmapped, mappedElsewhere, books, bookOwners, bookRecipes, inclusions, bookTags, refresh, verify)
	}
	if err := Run(ctx, db, Options{Recipes: 1, Users: 1}, io.Discard); err == nil {
		t.Fatal("one user: no error")
	}
}
