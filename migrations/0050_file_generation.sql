-- The generation of stored files the database names: uploaded files live
-- in the file store under "<generation>/<key>" ('' means at the top, as
-- before restores wrote generations). A restore writes the backup's files
-- under a new generation and switches this row in its own transaction, so
-- the files become visible exactly when the restored rows do. It is not
-- part of backups (repo.backupExcluded): it describes this installation's
-- store, not the data.
CREATE TABLE file_generation (
    only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    generation text NOT NULL DEFAULT '' CHECK (generation = '' OR generation ~ '^gen-[0-9a-f]{16}$')
);
INSERT INTO file_generation DEFAULT VALUES;
