package repo

import (
	"context"
	"errors"
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

// Provider returns "local" for a local account, else the name of the
// identity provider the account is linked to.
func (u User) Provider() string {
	if u.IDPName != nil {
		return *u.IDPName
	}
	return "local"
}

// GetUserByIdentity finds the user linked to subject at identity provider idpName.
func GetUserByIdentity(ctx context.Context, db DBTX, idpName, subject string) (User, error) {
	rows, _ := db.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE idp_name = $1 AND idp_subject = $2`, idpName, subject)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("get user by identity", err)
}

// LinkUserIdentity links an existing account to subject at idpName, because
// the provider vouched for the account's email address. The address is then
// verified. If it was not verified before, the account's password is
// dropped: whoever registered the address without proving it owned it must
// not keep a way into an account its real owner now uses.
func LinkUserIdentity(ctx context.Context, db DBTX, id uuid.UUID, idpName, subject string) (User, error) {
	rows, _ := db.Query(ctx, `UPDATE app_user SET idp_name = $2, idp_subject = $3,
			password_hash = CASE WHEN email_verified THEN password_hash END,
			email_verified = true, updated_at = now()
		WHERE id = $1 RETURNING `+userColumns, id, idpName, subject)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("link user identity", err)
}

// MarkEmailVerified marks the user's email address verified.
func MarkEmailVerified(ctx context.Context, db DBTX, id uuid.UUID) (User, error) {
	rows, _ := db.Query(ctx, `UPDATE app_user SET email_verified = true, updated_at = now() WHERE id = $1 RETURNING `+userColumns, id)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("mark email verified", err)
}

// SetUserPassword replaces the user's password hash. Resetting a password
// by email proves the address, so it is marked verified too. The caller
// revokes the user's sessions.
func SetUserPassword(ctx context.Context, db DBTX, id uuid.UUID, hash string) (User, error) {
	rows, _ := db.Query(ctx, `UPDATE app_user SET password_hash = $2, email_verified = true, updated_at = now()
		WHERE id = $1 RETURNING `+userColumns, id, hash)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("set user password", err)
}

// RevokeUserSessions ends every session of the user at once: access tokens
// die with the bumped session version, refresh tokens are deleted. It
// returns the user as it now is.
func RevokeUserSessions(ctx context.Context, db DBTX, id uuid.UUID) (User, error) {
	rows, _ := db.Query(ctx, `
		WITH gone AS (DELETE FROM refresh_token WHERE user_id = $1)
		UPDATE app_user SET session_version = session_version + 1, updated_at = now()
		WHERE id = $1 RETURNING `+userColumns, id)
	u, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
	return u, wrap("revoke user sessions", err)
}

// ErrLastAdmin is returned when a change would leave no ADMIN.
var ErrLastAdmin = errors.New("the last administrator cannot be demoted")

// SetUserRole changes a user's role. Demoting the last ADMIN is ErrLastAdmin.
// Role changes are serialized by an advisory lock, so two administrators
// demoting each other at the same moment cannot both succeed.
func SetUserRole(ctx context.Context, db DBTX, id uuid.UUID, role string) (User, error) {
	var u User
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, roleLockKey); err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE id = $1 FOR UPDATE`, id)
		cur, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
		if err != nil {
			return err
		}
		if cur.Role == RoleAdmin && role != RoleAdmin {
			var admins int
			if err := tx.QueryRow(ctx, `SELECT count(*) FROM app_user WHERE role = 'ADMIN'`).Scan(&admins); err != nil {
				return err
			}
			if admins <= 1 {
				return ErrLastAdmin
			}
		}
		rows, _ = tx.Query(ctx, `UPDATE app_user SET role = $2, updated_at = now() WHERE id = $1 RETURNING `+userColumns, id, role)
		u, err = pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
		return err
	})
	if errors.Is(err, ErrLastAdmin) {
		return User{}, err
	}
	return u, wrap("set user role", err)
}

// roleLockKey is the advisory lock taken while a role changes.
const roleLockKey int64 = 0x6c617264726f6c65 // "lardrole"

// UpsertAdmin makes the account with the email a verified ADMIN with the
// given password hash, creating it when missing (the create-admin command).
// An existing account keeps its name unless name is set, and its sessions
// are revoked because its password changed. created reports which happened.
func UpsertAdmin(ctx context.Context, db DBTX, email, name, hash string) (u User, created bool, err error) {
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		existing, err := GetUserByEmail(ctx, tx, email)
		if errors.Is(err, ErrNotFound) {
			created = true
			u, err = CreateUser(ctx, tx, CreateUserParams{Email: email, Name: name, Role: RoleAdmin, PasswordHash: &hash, EmailVerified: true})
			return err
		}
		if err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `
			WITH gone AS (DELETE FROM refresh_token WHERE user_id = $1)
			UPDATE app_user SET role = 'ADMIN', email_verified = true, password_hash = $2,
				name = CASE WHEN $3 = '' THEN name ELSE $3 END,
				session_version = session_version + 1, updated_at = now()
			WHERE id = $1 RETURNING `+userColumns, existing.ID, hash, name)
		u, err = pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[User])
		return err
	})
	return u, created, wrap("upsert admin", err)
}

// ListUsersParams selects a page of users, newest first.
type ListUsersParams struct {
	Limit int
	// After is the keyset position of the previous page's last user.
	After *UserCursor
	// Query matches email or name, ignoring case; "" matches everyone.
	Query string
	// Role filters by role; "" means any.
	Role string
}

// UserCursor is a position in the newest-first order of users.
type UserCursor struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// ListUsers returns a page of users and how many match in total.
func ListUsers(ctx context.Context, db DBTX, p ListUsersParams) ([]User, int, error) {
	where := `($1 = '' OR strpos(lower(email), lower($1)) > 0 OR strpos(lower(name), lower($1)) > 0) AND ($2 = '' OR role = $2)`
	var total int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM app_user WHERE `+where, p.Query, p.Role).Scan(&total); err != nil {
		return nil, 0, wrap("count users", err)
	}
	var afterAt *time.Time
	var afterID *uuid.UUID
	if p.After != nil {
		afterAt, afterID = &p.After.CreatedAt, &p.After.ID
	}
	rows, _ := db.Query(ctx, `SELECT `+userColumns+` FROM app_user WHERE `+where+`
		AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
		ORDER BY created_at DESC, id DESC LIMIT $5`, p.Query, p.Role, afterAt, afterID, p.Limit)
	users, err := pgx.CollectRows(rows, pgx.RowToStructByName[User])
	return users, total, wrap("list users", err)
}
