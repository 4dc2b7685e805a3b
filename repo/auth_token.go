package repo

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// RefreshToken is a row of refresh_token: a stored refresh token, known
// only by its hash.
type RefreshToken struct {
	ID        uuid.UUID  `db:"id"`
	UserID    uuid.UUID  `db:"user_id"`
	TokenHash []byte     `db:"token_hash"`
	FamilyID  uuid.UUID  `db:"family_id"`
	ExpiresAt time.Time  `db:"expires_at"`
	RotatedAt *time.Time `db:"rotated_at"`
	CreatedAt time.Time  `db:"created_at"`
	// SuccessorSealed is the pair the token was exchanged for, sealed
	// under a key only the token's holder can derive (token.SealSuccessor).
	SuccessorSealed []byte `db:"successor_sealed"`
}

const refreshTokenColumns = `id, user_id, token_hash, family_id, expires_at, rotated_at, created_at, successor_sealed`

// CreateRefreshTokenParams are the fields of a newly issued refresh token.
type CreateRefreshTokenParams struct {
	ID        uuid.UUID // the token's jti
	UserID    uuid.UUID
	TokenHash []byte
	FamilyID  uuid.UUID
	ExpiresAt time.Time
}

// CreateRefreshToken stores a refresh token.
func CreateRefreshToken(ctx context.Context, db DBTX, p CreateRefreshTokenParams) error {
	_, err := db.Exec(ctx, `INSERT INTO refresh_token (id, user_id, token_hash, family_id, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		p.ID, p.UserID, p.TokenHash, p.FamilyID, p.ExpiresAt)
	return wrap("create refresh token", err)
}

// RotateRefreshToken marks the token with this hash, live and unexpired
// at now, as exchanged at now and returns it. It is one statement, so of
// two requests racing with the same token exactly one wins. ErrNotFound
// means the token is unknown, expired or already rotated; GetRefreshToken
// tells which.
func RotateRefreshToken(ctx context.Context, db DBTX, hash []byte, now time.Time) (RefreshToken, error) {
	rows, _ := db.Query(ctx, `UPDATE refresh_token SET rotated_at = $2
		WHERE token_hash = $1 AND rotated_at IS NULL AND expires_at > $2 RETURNING `+refreshTokenColumns, hash, now)
	t, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[RefreshToken])
	return t, wrap("rotate refresh token", err)
}

// SetRefreshSuccessor keeps the sealed pair a rotated token was exchanged for.
func SetRefreshSuccessor(ctx context.Context, db DBTX, id uuid.UUID, sealed []byte) error {
	tag, err := db.Exec(ctx, `UPDATE refresh_token SET successor_sealed = $2 WHERE id = $1`, id, sealed)
	if err == nil && tag.RowsAffected() == 0 {
		err = ErrNotFound
	}
	return wrap("set refresh successor", err)
}

// GetRefreshToken returns the stored token with this hash, rotated or not.
func GetRefreshToken(ctx context.Context, db DBTX, hash []byte) (RefreshToken, error) {
	rows, _ := db.Query(ctx, `SELECT `+refreshTokenColumns+` FROM refresh_token WHERE token_hash = $1`, hash)
	t, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[RefreshToken])
	return t, wrap("get refresh token", err)
}

// DeleteRefreshFamily ends the session the token with this hash belongs to:
// it deletes the token and every token rotated into or out of it. It
// reports how many rows went; an unknown token deletes nothing.
func DeleteRefreshFamily(ctx context.Context, db DBTX, hash []byte) (int64, error) {
	tag, err := db.Exec(ctx, `DELETE FROM refresh_token
		WHERE family_id = (SELECT family_id FROM refresh_token WHERE token_hash = $1)`, hash)
	return tag.RowsAffected(), wrap("delete refresh family", err)
}

// Purposes of a verification token.
const (
	PurposeVerifyEmail   = "verify_email"
	PurposeResetPassword = "reset_password"
)

// CreateVerificationTokenParams are the fields of an emailed token.
type CreateVerificationTokenParams struct {
	TokenHash []byte
	UserID    uuid.UUID
	Purpose   string
	ExpiresAt time.Time
}

// CreateVerificationToken stores an emailed token and drops the user's
// earlier unused tokens of the same purpose: only the newest email's link
// works, so an old message found in a mailbox later is useless.
func CreateVerificationToken(ctx context.Context, db DBTX, p CreateVerificationTokenParams) error {
	_, err := db.Exec(ctx, `
		WITH gone AS (DELETE FROM verification_token WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL)
		INSERT INTO verification_token (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)`,
		p.TokenHash, p.UserID, p.Purpose, p.ExpiresAt)
	return wrap("create verification token", err)
}

// UseVerificationToken consumes the unexpired, unused token with this hash
// and purpose, returning its user. It is one statement, so a token works
// exactly once even under concurrent use; anything else is ErrNotFound.
func UseVerificationToken(ctx context.Context, db DBTX, hash []byte, purpose string) (uuid.UUID, error) {
	var userID uuid.UUID
	err := db.QueryRow(ctx, `UPDATE verification_token SET used_at = now()
		WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
		hash, purpose).Scan(&userID)
	return userID, wrap("use verification token", err)
}

// DeleteVerificationTokens drops the user's unused tokens of a purpose
// (after a password reset, the other reset links must stop working).
func DeleteVerificationTokens(ctx context.Context, db DBTX, userID uuid.UUID, purpose string) error {
	_, err := db.Exec(ctx, `DELETE FROM verification_token WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, userID, purpose)
	return wrap("delete verification tokens", err)
}

// DeleteVerificationToken drops one token (the token of an email that could
// not be sent).
func DeleteVerificationToken(ctx context.Context, db DBTX, hash []byte) error {
	_, err := db.Exec(ctx, `DELETE FROM verification_token WHERE token_hash = $1`, hash)
	return wrap("delete verification token", err)
}
