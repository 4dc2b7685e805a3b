package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"larder/config"
	"larder/ingredient"
	"larder/repo"
)

// GenerateMappingsArgs (re)generates the ingredient-to-step mapping of a
// recipe from its current ingredients and steps. Creating or editing a
// recipe enqueues it in the same transaction as the write, so a committed
// recipe always has its mapping on the way. GenerateMappingsWorker runs it.
type GenerateMappingsArgs struct {
	RecipeID uuid.UUID `json:"recipeId"`
}

// Kind is the stable job kind.
func (GenerateMappingsArgs) Kind() string { return "mapping_generate" }

// InsertOpts puts the job on the mapping queue; matching is pure
// computation, so a failure is a bug or the database, worth a few retries.
func (GenerateMappingsArgs) InsertOpts() river.InsertOpts {
	return queueOpts(config.QueueMapping, 5)
}

// GenerateMappingsResult is what a finished GenerateMappingsArgs job reports.
type GenerateMappingsResult struct {
	RecipeID uuid.UUID `json:"recipeId"`
	// Links is how many links the recipe has now.
	Links int `json:"links"`
	// HandEdited is true when the owner's hand edits were kept: only links
	// of items added since were generated.
	HandEdited bool `json:"handEdited"`
	// RecipeDeleted is true when the recipe was deleted before the job ran;
	// there was nothing to do.
	RecipeDeleted bool `json:"recipeDeleted,omitempty"`
}

// GenerateMappingsWorker runs GenerateMappingsArgs.
//
// Without hand edits the mapping becomes the automatic one (package
// ingredient). With hand edits (the owner saved the mapping, see
// repo.SetMappings) the stored state of every pair of items that both
// existed then is kept as it is, link or no link, and only pairs with an
// item added since get the automatic result. The outcome depends only on
// the recipe's rows, so running the job twice, or two jobs for one recipe,
// gives the same mapping; a recipe deleted meanwhile completes the job.
type GenerateMappingsWorker struct {
	river.WorkerDefaults[GenerateMappingsArgs]
	deps *Deps
}

// Timeout bounds one attempt: matching one recipe's items takes
// milliseconds, the rest is a transaction on a few of its rows.
func (w *GenerateMappingsWorker) Timeout(*river.Job[GenerateMappingsArgs]) time.Duration {
	return w.deps.timeLimit(2 * time.Minute)
}

// Work regenerates the mapping of one recipe in one transaction.
func (w *GenerateMappingsWorker) Work(ctx context.Context, job *river.Job[GenerateMappingsArgs]) error {
	res, err := generateMappings(ctx, w.deps.DB, job.Args.RecipeID)
	return w.deps.recorder().finish(ctx, job.JobRow, res, err)
}

// generateMappings brings the mapping of a recipe up to date with its items,
// as GenerateMappingsWorker describes.
func generateMappings(ctx context.Context, db repo.DBTX, recipeID uuid.UUID) (GenerateMappingsResult, error) {
	res := GenerateMappingsResult{RecipeID: recipeID}
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		c, err := repo.LockMappingContent(ctx, tx, recipeID)
		if err != nil {
			return err
		}
		links := mergeLinks(c, autoLinks(c.Ingredients, c.Steps))
		res.Links, res.HandEdited = len(links), c.Edited
		return repo.ReplaceMappings(ctx, tx, recipeID, links)
	})
	if errors.Is(err, repo.ErrNotFound) {
		// Deleted after the job was enqueued: its links went with it.
		return GenerateMappingsResult{RecipeID: recipeID, RecipeDeleted: true}, nil
	}
	if err != nil {
		return GenerateMappingsResult{}, fmt.Errorf("generate mappings of recipe %s: %w", recipeID, err)
	}
	return res, nil
}

// autoLinks is the matcher's answer for the items (with their sections), as ids.
func autoLinks(ings, steps []repo.MappingItem) []repo.Link {
	r := ingredient.Recipe{Ingredients: make([]ingredient.Line, len(ings)), Steps: make([]ingredient.Line, len(steps))}
	for i, it := range ings {
		r.Ingredients[i] = ingredient.Line{Text: it.Text, Section: it.Section}
	}
	for i, it := range steps {
		r.Steps[i] = ingredient.Line{Text: it.Text, Section: it.Section}
	}
	pairs := ingredient.MatchRecipe(r)
	links := make([]repo.Link, len(pairs))
	for i, p := range pairs {
		links[i] = repo.Link{IngredientID: ings[p[0]].ID, StepID: steps[p[1]].ID}
	}
	return links
}

// mergeLinks decides the mapping: the automatic links alone when the owner
// has not edited it; otherwise the stored links between two reviewed items
// (the owner's decisions, including the links they removed, which are
// simply absent) plus the automatic links that involve an item added since.
// The result is in the order of auto and c.Links, which are both in recipe
// order, sorted by ingredient then step.
func mergeLinks(c repo.MappingContent, auto []repo.Link) []repo.Link {
	if !c.Edited {
		return auto
	}
	reviewed := make(map[uuid.UUID]bool, len(c.Ingredients)+len(c.Steps))
	pos := make(map[uuid.UUID]int, len(c.Ingredients)+len(c.Steps))
	for i, it := range c.Ingredients {
		reviewed[it.ID], pos[it.ID] = it.Reviewed, i
	}
	for i, it := range c.Steps {
		reviewed[it.ID], pos[it.ID] = it.Reviewed, i
	}
	var out []repo.Link
	for _, l := range c.Links {
		if reviewed[l.IngredientID] && reviewed[l.StepID] {
			out = append(out, l)
		}
	}
	for _, l := range auto {
		if !reviewed[l.IngredientID] || !reviewed[l.StepID] {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b repo.Link) int {
		if d := pos[a.IngredientID] - pos[b.IngredientID]; d != 0 {
			return d
		}
		return pos[a.StepID] - pos[b.StepID]
	})
	return out
}
