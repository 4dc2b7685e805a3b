package handlers

import (
	"bytes"
	"mime"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"

	"larder/filestore"
	"larder/jobs"
	"larder/repo"
)

// archiveImportPath is the one route, besides the backup upload, whose
// body may be larger than an image (see archiveRequestLimits).
const archiveImportPath = "/api/recipes/import/archive"

// archiveUploadReadTimeout is how long an export may take to arrive: 500 MB
// at about 150 kB/s.
const archiveUploadReadTimeout = time.Hour

// importArchive answers POST /api/recipes/import/archive (multipart: the
// export in the field "file", optionally "visibility") with 202 and a
// recipe_archive_import job. The HTTP server has already spooled the file
// to a temporary file (archiveRequestLimits); it is copied into the file
// store, from which the job reads it (so a worker on another machine can),
// and the job is enqueued. The format is not guessed here: the job detects
// it from the content and reports it in its progress.
func (s *Server) importArchive(c *fiber.Ctx) error {
	mt, _, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if mt != fiber.MIMEMultipartForm {
		return newError(fiber.StatusUnsupportedMediaType, "unsupported_media_type",
			"send the export as multipart/form-data, in the field \"file\"")
	}
	fh, err := c.FormFile("file")
	fe := fieldErrors{}
	switch {
	case err != nil:
		fe.add("file", "is required: the export file of another recipe app")
	case fh.Size > jobs.ArchiveMaxBytes:
		return newError(fiber.StatusRequestEntityTooLarge, "payload_too_large", "the file is larger than %d MB", jobs.ArchiveMaxBytes>>20)
	case fh.Size == 0:
		fe.add("file", "is empty")
	}
	visibility := strings.ToUpper(strings.TrimSpace(c.FormValue("visibility")))
	switch visibility {
	case "":
		visibility = repo.VisibilityPrivate
	case repo.VisibilityPrivate, repo.VisibilityShared, repo.VisibilityPublic:
	default:
		fe.add("visibility", "must be PRIVATE, SHARED or PUBLIC")
	}
	if err := fe.err(); err != nil {
		return err
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()

	ctx, me := c.UserContext(), caller(c)
	key := filestore.NewKey(jobs.ArchivePrefix, "bin")
	if err := s.files().Put(ctx, key, f); err != nil {
		return err
	}
	name := fh.Filename
	if len(name) > 255 {
		name = name[:255]
	}
	args := jobs.ImportArchiveArgs{UserID: me.ID, FileKey: key, FileName: strings.ToValidUTF8(name, "?"), Visibility: visibility}
	var jobID uuid.UUID
	err = pgx.BeginFunc(ctx, s.DB, func(tx pgx.Tx) error {
		id, err := s.Queue.Enqueue(ctx, tx, &me.ID, args)
		jobID = id
		return err
	})
	if err != nil {
		s.deleteStoredFiles(ctx, []string{key}) // no job will read it
		return err
	}
	return s.accepted(c, jobID)
}

// archiveRequestLimits lets POST /api/recipes/import/archive carry up to
// jobs.ArchiveMaxBytes (plus multipart framing) when the body is
// multipart/form-data of a declared length without Content-Encoding and
// the request has a validly signed, unexpired access token: the HTTP
// server then spools the file part to a temporary file in the scratch
// directory as it arrives (never more than 16 MB in memory), as for the
// backup upload.
// Anyone else gets the app's usual body limit. ok is false for other
// routes.
func (s *Server) archiveRequestLimits(h *fasthttp.RequestHeader) (cfg fasthttp.RequestConfig, ok bool) {
	path := h.RequestURI()
	if i := bytes.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if !h.IsPost() || !bytes.EqualFold(bytes.TrimSuffix(path, []byte("/")), []byte(archiveImportPath)) {
		return cfg, false
	}
	if h.ContentLength() <= 0 || len(h.MultipartFormBoundary()) == 0 || len(h.Peek(fiber.HeaderContentEncoding)) > 0 {
		return cfg, true
	}
	tok, found := strings.CutPrefix(string(h.Peek(fiber.HeaderAuthorization)), "Bearer ")
	if !found {
		return cfg, true
	}
	if _, err := s.Tokens.ParseAccess(strings.TrimSpace(tok)); err != nil {
		return cfg, true
	}
	return fasthttp.RequestConfig{MaxRequestBodySize: jobs.ArchiveMaxBytes + 1<<20, ReadTimeout: archiveUploadReadTimeout}, true
}

// allowArchiveUploads puts archiveRequestLimits in front of the server's
// other per-request limits.
func (s *Server) allowArchiveUploads(app *fiber.App) {
	next := app.Server().HeaderReceived
	app.Server().HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		if cfg, ok := s.archiveRequestLimits(h); ok {
			return cfg
		}
		if next != nil {
			return next(h)
		}
		return fasthttp.RequestConfig{}
	}
}
