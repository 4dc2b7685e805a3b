package repo

import (
	"context"

	"github.com/google/uuid"
)

// CreateImportPage stores a page the user pasted for the import job jobID,
// in the transaction that enqueues that job.
func CreateImportPage(ctx context.Context, db DBTX, id, jobID uuid.UUID, html []byte) error {
	_, err := db.Exec(ctx, `INSERT INTO import_page (id, job_id, html) VALUES ($1, $2, $3)`, id, jobID, html)
	return wrap("create import page", err)
}

// GetImportPage returns a pasted page; ErrNotFound once it has been deleted.
func GetImportPage(ctx context.Context, db DBTX, id uuid.UUID) ([]byte, error) {
	var html []byte
	err := db.QueryRow(ctx, `SELECT html FROM import_page WHERE id = $1`, id).Scan(&html)
	return html, wrap("get import page "+id.String(), err)
}

// DeleteImportPage deletes a pasted page; deleting one already gone is no error.
func DeleteImportPage(ctx context.Context, db DBTX, id uuid.UUID) error {
	_, err := db.Exec(ctx, `DELETE FROM import_page WHERE id = $1`, id)
	return wrap("delete import page "+id.String(), err)
}
