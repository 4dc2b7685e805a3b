package repo

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Roles of a user.
const (
	RoleUser  = "USER"
	RoleAdmin = "ADMIN"
)

// User is a row of app_user.
type User struct {
	ID             uuid.UUID `db:"id"`
	Email          string    `db:"email"`
	Name           string    `db:"name"`
	Role           string    `db:"role"`
	PasswordHash   *string   `db:"password_hash"`
	EmailVerified  bool      `db:"email_verified"`
	IDPName        *string   `db:"idp_name"`
	IDPSubject     *string   `db:"idp_subject"`
	SessionVersion int       `db:"session_version"`
	CreatedAt      time.Time `db:"created_at"`
	UpdatedAt      time.Time `db:"updated_at"`
}

const userColumns = `id, email, name, role, password_hash, email_verified, idp_name, idp_subject, session_version, created_at, updated_at`

// CreateUserParams are the fields of a new user.
type CreateUserParams struct {
	Email         string
	Name          string
	Role          string
	PasswordHash  *string
	EmailVerified bool
	IDPName       *string
	IDPSubject    *string
}

// CreateUser inserts a user; a taken email is ErrConflict.
func CreateUser(ctx context.Context, db DBTX, p CreateUserParams) (User, error) {
	if p.Role == "" {
		p.Role = RoleUser
	}
	rows, _ := db.Query(ctx, `INSERT INTO app_user (email, name, role, password_hash, email_verified, idp_name, idp_subject)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+userColumns,
		p.Email, p.Name, p.Role, p.PasswordHash, p.EmailVerified, p.IDPName, p.IDPSubject)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("create user", err)
}

// GetUser returns the user with the given id.
func GetUser(ctx context.Context, db DBTX, id uuid.UUID) (User, error) {
	rows, _ := db.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE id = $1`, id)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("get user "+id.String(), err)
}

// GetUserByEmail finds a user by email, ignoring case.
func GetUserByEmail(ctx context.Context, db DBTX, email string) (User, error) {
	rows, _ := db.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE lower(email) = lower($1)`, email)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("get user by email", err)
}

// GetSessionUser returns the user an access token names, only while the
// token's session version is still current: a bumped version (logout
// everywhere, token theft, restore) or a deleted user makes it ErrNotFound.
func GetSessionUser(ctx context.Context, db DBTX, id uuid.UUID, sessionVersion int) (User, error) {
	rows, _ := db.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE id = $1 AND session_version = $2`, id, sessionVersion)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("get session user", err)
}
