-- Pages pasted into POST /api/recipes/import {url, html}, waiting for their
-- import job.
--
-- A pasted page can be megabytes. In the job's args it would sit in
-- river_job for the whole retention period (a week after the job ends),
-- and River reads the args every time it fetches or lists the job. Here
-- it is stored once, compressed by TOAST, and the import job deletes it
-- when it is done (with the recipe it created, in the same transaction, or
-- when it fails for good). A job that ends some other way (cancelled from
-- River's UI) leaves its page until the job record itself is purged: the
-- row goes with its app_job, and so with the user who pasted it.
CREATE TABLE import_page (
    id          uuid PRIMARY KEY,
    job_id      uuid NOT NULL UNIQUE REFERENCES app_job (id) ON DELETE CASCADE,
    -- bytea, not text: a pasted page may hold a NUL, which text refuses.
    html        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
