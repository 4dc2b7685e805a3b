package handlers

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/importer/fetch"
	"larder/jobs"
	"larder/repo"
)

// recipeImportRoutes registers POST /api/recipes/import and
// /api/recipes/import/archive.
func (s *Server) recipeImportRoutes(api fiber.Router) {
	api.Post("/recipes/import", s.requireAuth, s.importRecipe)
	api.Post("/recipes/import/archive", s.requireAuth, s.importArchive)
}

// importBody is the JSON of POST /api/recipes/import.
type importBody struct {
	URL string `json:"url"`
	// HTML is the page as the user's browser saw it, for sites that
	// refuse servers; nil fetches URL.
	HTML *string `json:"html"`
}

// importRecipe answers POST /api/recipes/import {url} or {url, html} with
// 202 and a recipe_import job, whose result is {recipeId} of a new PRIVATE
// recipe of the caller. The address is checked here for what can be known
// without a connection (http or https, no literal private address); the
// job's fetcher checks every address it connects to, redirects included.
// A pasted page (at most jobs.ImportPasteMaxBytes once decoded, else 413;
// the app's body limit bounds the JSON around it) is stored in
// import_page in the transaction that enqueues the job, not in the job's
// args; the job deletes it when done.
func (s *Server) importRecipe(c *fiber.Ctx) error {
	var body importBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	if body.HTML != nil && len(*body.HTML) > jobs.ImportPasteMaxBytes {
		return errImportTooLarge()
	}
	body.URL = strings.TrimSpace(body.URL)
	fe := fieldErrors{}
	switch {
	case body.URL == "":
		fe.add("url", "is required")
	case len(body.URL) > 2048:
		fe.add("url", "must be at most 2048 characters")
	default:
		if err := fetch.CheckURL(body.URL, s.Config.ImportAllowPrivate); err != nil {
			msg := "is not an address we can fetch"
			if f := fetch.AsError(err); f != nil {
				msg = f.Message
			}
			fe.add("url", "%s", msg)
		}
	}
	if body.HTML != nil && strings.TrimSpace(*body.HTML) == "" {
		fe.add("html", "is empty: paste the page's HTML, or leave html out to fetch the address")
	}
	if err := fe.err(); err != nil {
		return err
	}

	ctx, me := c.UserContext(), caller(c)
	args := jobs.ImportRecipeArgs{UserID: me.ID, URL: body.URL}
	if body.HTML != nil {
		id := uuid.New()
		args.PageID = &id
	}
	var jobID uuid.UUID
	err := pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		var err error
		if jobID, err = s.Queue.Enqueue(ctx, tx, &me.ID, args); err != nil {
			return err
		}
		if args.PageID == nil {
			return nil
		}
		return repo.CreateImportPage(ctx, tx, *args.PageID, jobID, []byte(*body.HTML))
	})
	if err != nil {
		return err
	}
	return s.accepted(c, jobID)
}

func errImportTooLarge() error {
	return newError(fiber.StatusRequestEntityTooLarge, "payload_too_large",
		"the pasted page is larger than %d MB", jobs.ImportPasteMaxBytes>>20)
}
