-- The pair a refresh token was exchanged for, sealed under a key derived
-- from that token (token.SealSuccessor): a second presentation of the
-- token within the grace period (two tabs refreshing at once) gets the
-- same pair instead of being taken for a reuse.
ALTER TABLE refresh_token ADD COLUMN successor_sealed bytea;
