package handlers

import (
	"context"
	"errors"
	"mime"
	"runtime"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"larder/filestore"
	"larder/imageproc"
	"larder/jobs"
	"larder/repo"
	"larder/storage"
)

// Image uploads, shared by every resource that has an image (recipes and
// cookbooks, repo.ImageOwner): read the multipart field, check by its bytes
// that it is an accepted image, store a fresh encoding under a new key,
// make the row name it and enqueue the job making its renditions, and
// delete the replaced files once the row change has committed.

// imageDecodeSlots bounds how many uploads are decoded at once: decoding
// holds the file and its pixels in memory (some 300 MB at the 40-megapixel
// limit), so a burst of uploads must queue rather than exhaust memory.
var imageDecodeSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// processImageUpload reads the multipart field and returns the image
// re-encoded for storage (auto-oriented, without metadata). The type is
// decided by the bytes, never by the file name or the part's Content-Type.
// Errors are API errors: 415 for a body that is not multipart or a file
// that is not a JPEG, PNG, GIF or WEBP image, 400 when the field is
// missing, 413 over MaxImageBytes (or too many pixels to decode).
func processImageUpload(c *fiber.Ctx, field string) (*imageproc.Encoded, error) {
	mt, _, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if mt != fiber.MIMEMultipartForm {
		return nil, newError(fiber.StatusUnsupportedMediaType, "unsupported_media_type",
			"send the image as multipart/form-data, in the field %q", field)
	}
	fh, err := c.FormFile(field)
	if err != nil {
		fe := fieldErrors{}
		fe.add(field, "is required: a JPEG, PNG, GIF or WEBP file")
		return nil, fe.err()
	}
	if fh.Size > MaxImageBytes {
		return nil, newError(fiber.StatusRequestEntityTooLarge, "payload_too_large", "the image is larger than 20 MB")
	}
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()

	ctx := c.UserContext()
	select {
	case imageDecodeSlots <- struct{}{}:
		defer func() { <-imageDecodeSlots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	enc, err := imageproc.Process(f, imageproc.Limits{MaxBytes: MaxImageBytes})
	switch {
	case errors.Is(err, imageproc.ErrTooLarge):
		// imageproc's messages are written for the uploader.
		return nil, newError(fiber.StatusRequestEntityTooLarge, "payload_too_large", "%s", err.Error())
	case errors.Is(err, imageproc.ErrUnsupportedType):
		return nil, newError(fiber.StatusUnsupportedMediaType, "unsupported_media_type", "%s", err.Error())
	case err != nil:
		return nil, err
	}
	return enc, nil
}

// uploadImage replaces the image of the owner's row id with the multipart
// field "image", stored in the folder prefix, by the routine that every
// image replacement goes through (jobs.ImageStore.Replace): the row names
// the new file in the transaction that enqueues its renditions job, the
// replaced files go once that has committed, and a failure leaves the
// previous image as it was. The row having been deleted meanwhile is
// repo.ErrNotFound.
func (s *Server) uploadImage(c *fiber.Ctx, owner repo.ImageOwner, id uuid.UUID, prefix string) error {
	enc, err := processImageUpload(c, "image")
	if err != nil {
		return err
	}
	_, err = s.images().Replace(c.UserContext(), jobs.NewImage{Owner: owner, ID: id, Prefix: prefix, Requester: &caller(c).ID}, enc)
	return err
}

// removeImage removes the image of the owner's row id, then its files.
// repo.ErrNotFound when the row is gone.
func (s *Server) removeImage(ctx context.Context, owner repo.ImageOwner, id uuid.UUID) error {
	return s.images().Remove(ctx, owner, id)
}

// images replaces and deletes images in the store of uploaded files.
func (s *Server) images() jobs.ImageStore {
	return jobs.ImageStore{DB: s.DB, Files: s.files(), Logger: s.Logger, Queue: s.Queue}
}

// files is the store of uploaded files: Deps.Files, else the
// configuration's (served at /uploads by serveUpload).
func (s *Server) files() filestore.Store {
	if s.Files != nil {
		return s.Files
	}
	if s.stores.Backups == nil { // a Server not made by New (tests)
		if st, err := storage.Open(s.Config, s.DB); err == nil {
			return st.Files
		}
	}
	return s.stores.Files
}

// deleteStoredFiles removes files that a committed change no longer names
// (filestore.DeleteOrphans).
func (s *Server) deleteStoredFiles(ctx context.Context, keys []string) {
	filestore.DeleteOrphans(ctx, s.files(), s.Logger, keys)
}

// deleteImageFiles removes every file of an image that a committed change
// replaced or deleted (nil: none): the image, its renditions, and those an
// image job may have written without recording them.
func (s *Server) deleteImageFiles(ctx context.Context, img *repo.StoredImage) {
	s.images().DeleteImage(ctx, img)
}
