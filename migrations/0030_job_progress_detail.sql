-- What a running job reports besides its progress fraction, shown by
-- GET /api/jobs/:id as "detail": the archive import writes the format it
-- detected and how many of its recipes it has read ({"format", "done",
-- "total"}), so that a client can show "n of m" while it runs.
ALTER TABLE app_job ADD COLUMN progress_detail jsonb;
