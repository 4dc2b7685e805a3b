package handlers

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"larder/importer/fetch"
	"larder/jobs"
	"larder/repo"
)

// uploadCookbookImage replaces the cookbook's image with the multipart
// field "image" (JPEG, PNG, GIF or WEBP by content, at most 20 MB; 413 and
// 415 otherwise) and answers the cookbook. As for a recipe, the cookbook
// names the new file in the transaction that enqueues the job making its
// renditions (imageVariants), and the old files are deleted after that.
func (s *Server) uploadCookbookImage(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	err = s.uploadImage(c, repo.CookbookImage, cb.ID, jobs.CookbookImagePrefix)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("cookbook") // deleted while the image was processed
	}
	if err != nil {
		return err
	}
	cb, err = repo.GetCookbook(c.UserContext(), s.DB, cb.ID)
	if err != nil {
		return err
	}
	return c.JSON(s.cookbookView(cb))
}

// deleteCookbookImage removes the cookbook's image and its files; imageUrl
// becomes null and imageVariants {}. 204, also when there was no image.
func (s *Server) deleteCookbookImage(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	err = s.removeImage(c.UserContext(), repo.CookbookImage, cb.ID)
	if errors.Is(err, repo.ErrNotFound) {
		return errNotFound("cookbook")
	}
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// downloadCookbookImage queues the download of the image at {url} as the
// cookbook's image and answers 202 with the job. The address is checked
// here for what can be known without a connection (http or https, no
// literal private address); the job's fetcher checks every address it
// connects to, redirects included.
func (s *Server) downloadCookbookImage(c *fiber.Ctx) error {
	cb, err := s.cookbookFor(c, "id")
	if err != nil {
		return err
	}
	var body struct {
		URL string `json:"url"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return err
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
	if err := fe.err(); err != nil {
		return err
	}
	ctx := c.UserContext()
	var jobID uuid.UUID
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		var err error
		jobID, err = s.Queue.Enqueue(ctx, tx, &caller(c).ID, jobs.DownloadCookbookImageArgs{CookbookID: cb.ID, UserID: caller(c).ID, URL: body.URL})
		return err
	})
	if err != nil {
		return err
	}
	return s.accepted(c, jobID)
}
