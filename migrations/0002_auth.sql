-- Logout ends a whole session: every refresh token of one sign-in, found by
-- its family.
CREATE INDEX refresh_token_family_idx ON refresh_token (family_id);
