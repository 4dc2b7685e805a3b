package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/valyala/fasthttp"

	"larder/backup"
	"larder/jobs"
)

// Backup routes (requireAdmin). A name is checked against
// backup-YYYYMMDDTHHMMSSZ.zip before any path is built from it; creating
// and restoring are jobs on the backup queue.
func (s *Server) backupRoutes(api fiber.Router) {
	api.Get("/backups", s.requireAdmin, s.listBackups)
	api.Post("/backups", s.requireAdmin, s.createBackup)
	api.Post("/backups/upload", s.requireAdmin, s.uploadBackup)
	api.Get("/backups/:name/download", s.requireAdmin, s.downloadBackup)
	api.Post("/backups/:name/restore", s.requireAdmin, s.restoreBackup)
	api.Delete("/backups/:name", s.requireAdmin, s.deleteBackup)
}

// backupPage is GET /api/backups.
type backupPage struct {
	Items      []backup.Info `json:"items"`
	NextCursor *string       `json:"nextCursor"`
	Total      int           `json:"total"`
}

// listBackups answers the backups newest first, a page at a time. The
// cursor is the last name of the previous page, encoded.
func (s *Server) listBackups(c *fiber.Ctx) error {
	fe := fieldErrors{}
	// The position is the last backup's name.
	var after string
	limit, hasCursor := listQuery(c, fe, &after)
	if hasCursor && !backup.ValidName(after) {
		badCursor(fe)
	}
	if err := fe.err(); err != nil {
		return err
	}
	all, err := backup.List(c.UserContext(), s.stores.Backups)
	if err != nil {
		return err
	}
	start := 0
	if hasCursor {
		for start < len(all) && all[start].Name >= after {
			start++
		}
	}
	end := min(start+limit, len(all))
	page := backupPage{Items: all[start:end], Total: len(all)}
	if end < len(all) {
		page.NextCursor = encodeCursor(all[end-1].Name)
	}
	return c.JSON(page)
}

// createBackup queues a backup; the job's result is {name}.
func (s *Server) createBackup(c *fiber.Ctx) error {
	var id uuid.UUID
	err := pgx.BeginFunc(c.UserContext(), s.DB, func(tx pgx.Tx) error {
		var err error
		id, err = s.Queue.Enqueue(c.UserContext(), tx, callerID(c), jobs.BackupCreateArgs{})
		return err
	})
	if err != nil {
		return err
	}
	return s.accepted(c, id)
}

// backupName returns the :name parameter once it is a valid backup name;
// nothing else about the request is looked at before.
func backupName(c *fiber.Ctx) (string, error) {
	name := c.Params("name")
	if !backup.ValidName(name) {
		return "", errInvalid("%q is not a backup name; names look like backup-20250102T030405Z.zip", truncate(name, 80))
	}
	return name, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// backupErr maps the backup package's errors to API errors.
func backupErr(err error) error {
	var refusal *backup.Refusal
	switch {
	case errors.Is(err, backup.ErrInvalidName):
		return errInvalid("names of backups look like backup-20250102T030405Z.zip")
	case errors.Is(err, backup.ErrNotFound):
		return errNotFound("backup")
	case errors.Is(err, backup.ErrExists):
		return errConflict("a backup with this archive's creation time is already there")
	case errors.As(err, &refusal):
		return errInvalid("the archive was refused: %s", refusal.Message)
	case errors.Is(err, context.DeadlineExceeded):
		// Only an upload's adoption has a deadline of its own (backup.Adopt).
		return newError(fiber.StatusServiceUnavailable, "unavailable",
			"storing the uploaded archive took longer than %s, and nothing was stored; try again when the backup store is faster to reach", backup.TimeLimit)
	}
	return err
}

// downloadBackup streams the archive; it is never read into memory.
func (s *Server) downloadBackup(c *fiber.Ctx) error {
	name, err := backupName(c)
	if err != nil {
		return err
	}
	f, info, err := backup.Open(c.UserContext(), s.stores.Backups, name)
	if err != nil {
		return backupErr(err)
	}
	c.Set(fiber.HeaderContentType, "application/zip")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	// It holds every password hash: no cache may keep a copy.
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.SendStream(f, int(info.Size)) // fasthttp closes f when done
}

// deleteBackup removes one backup.
func (s *Server) deleteBackup(c *fiber.Ctx) error {
	name, err := backupName(c)
	if err != nil {
		return err
	}
	if err := backup.Delete(c.UserContext(), s.stores.Backups, name); err != nil {
		return backupErr(err)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// restoreBackup queues the restore of a backup. The job has no owner: a
// restore ends every session, its own starter's included, and any admin
// may follow it (admins read every job); it also keeps the job's record
// out of the restored users' rows.
func (s *Server) restoreBackup(c *fiber.Ctx) error {
	name, err := backupName(c)
	if err != nil {
		return err
	}
	if _, err := backup.Stat(c.UserContext(), s.stores.Backups, name); err != nil {
		return backupErr(err)
	}
	var id uuid.UUID
	err = pgx.BeginFunc(c.UserContext(), s.DB, func(tx pgx.Tx) error {
		var err error
		id, err = s.Queue.Enqueue(c.UserContext(), tx, nil, jobs.BackupRestoreArgs{Name: name})
		return err
	})
	if err != nil {
		return err
	}
	return s.accepted(c, id)
}

// uploadBackup takes an archive from another server (multipart field
// "backup"). The HTTP server has already spooled the file to disk (see
// backupRequestLimits: only this route, only for an administrator's token,
// may send up to BACKUP_MAX_UPLOAD); it is moved into the backup directory
// under a temporary name, verified completely, and only then given its
// name, so a bad or partial archive never shows in the list.
//
// Verifying and storing it ends within backup.TimeLimit (backup.Adopt):
// the hourly purge aborts unfinished multipart uploads older than that,
// and removes scratch archives older than that (a killed API's), so none
// of either may belong to a request still running.
func (s *Server) uploadBackup(c *fiber.Ctx) error {
	if !strings.HasPrefix(strings.ToLower(c.Get(fiber.HeaderContentType)), fiber.MIMEMultipartForm) {
		return newError(fiber.StatusUnsupportedMediaType, "unsupported_media_type",
			"send the archive as multipart/form-data in the field \"backup\"")
	}
	fh, err := c.FormFile("backup")
	if err != nil {
		return errInvalid("send the archive as multipart/form-data in the field \"backup\"")
	}
	if fh.Size > s.Config.BackupMaxUpload {
		return newError(fiber.StatusRequestEntityTooLarge, "payload_too_large",
			"the archive is larger than BACKUP_MAX_UPLOAD (%d bytes)", s.Config.BackupMaxUpload)
	}
	tmp, err := backup.TempPath(s.stores.Scratch)
	if err != nil {
		return err
	}
	if err := c.SaveFile(fh, tmp); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	// A rename keeps the time the spooled file was last written; the
	// scratch file's age must count from now, when its adoption starts
	// (see backup.RemoveScratchLeftovers).
	now := time.Now()
	if err := os.Chtimes(tmp, now, now); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("upload backup: %w", err)
	}
	info, err := backup.Adopt(c.UserContext(), s.stores.Backups, tmp, backup.Limits{})
	if err != nil {
		return backupErr(err)
	}
	return c.Status(fiber.StatusCreated).JSON(info)
}

const (
	// backupUploadReadTimeout is how long an upload may take to arrive:
	// 10 GB at 1 MB/s.
	backupUploadReadTimeout = 3 * time.Hour
	// backupDownloadWriteTimeout is how long a download may take to leave.
	backupDownloadWriteTimeout = 3 * time.Hour
)

// backupRequestLimits is the HTTP server's per-request hook, run on the
// headers before the body is read. The app's body limit (one image) stays
// in force everywhere except POST /api/backups/upload, which may carry up
// to BACKUP_MAX_UPLOAD (plus multipart framing) — and only when:
//   - the body is multipart/form-data of a declared length, without
//     Content-Encoding: the server then spools the file part to a
//     temporary file instead of holding it in memory;
//   - the request carries the access token of a live session of a user
//     who is an administrator now (isAdminSession: the signature, the
//     session version and the role in the database, not the token's role
//     claim): nobody else, not even a signed-out or demoted administrator's
//     leftover token, can make the server read more than the usual limit.
//
// A larger body is refused with 413 from its Content-Length alone. The
// HTTP server writes the file part to a temporary file in os.TempDir(),
// which cmd/api makes the scratch directory DATA_DIR/tmp
// (boot.UseScratchAsTempDir), while it arrives, never holding more than
// 16 MB in memory; uploadBackup then renames it to a scratch archive
// beside it. DATA_DIR must therefore have room for the largest upload and
// be on disk, not a RAM-backed tmpfs.
//
// (Fiber's StreamRequestBody would hand the body to the handler unread,
// but it is one setting for the whole server: every other route would
// lose the body limit it relies on.)
//
// Downloads get a longer write timeout.
func (s *Server) backupRequestLimits(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	path := h.RequestURI()
	if i := bytes.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = bytes.TrimSuffix(path, []byte("/"))
	switch {
	case h.IsPost() && bytes.EqualFold(path, []byte("/api/backups/upload")):
		if h.ContentLength() <= 0 || len(h.MultipartFormBoundary()) == 0 || len(h.Peek(fiber.HeaderContentEncoding)) > 0 {
			return fasthttp.RequestConfig{}
		}
		tok, ok := strings.CutPrefix(string(h.Peek(fiber.HeaderAuthorization)), "Bearer ")
		if !ok {
			return fasthttp.RequestConfig{}
		}
		if !s.isAdminSession(strings.TrimSpace(tok)) {
			return fasthttp.RequestConfig{}
		}
		limit := s.Config.BackupMaxUpload + 1<<20 // multipart framing
		if limit > int64(maxInt) {
			limit = int64(maxInt)
		}
		return fasthttp.RequestConfig{MaxRequestBodySize: int(limit), ReadTimeout: backupUploadReadTimeout}
	case (h.IsGet() || h.IsHead()) && bytes.HasPrefix(path, []byte("/api/backups/")) && bytes.HasSuffix(path, []byte("/download")):
		return fasthttp.RequestConfig{WriteTimeout: backupDownloadWriteTimeout}
	}
	return fasthttp.RequestConfig{}
}

const maxInt = int(^uint(0) >> 1)

// allowBackupTransfers installs backupRequestLimits on the app's server.
func (s *Server) allowBackupTransfers(app *fiber.App) {
	app.Server().HeaderReceived = s.backupRequestLimits
}
