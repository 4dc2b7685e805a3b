-- The PostgreSQL session (backend pid) that holds the restore lock for a
-- restore job's attempt, recorded by that session once it has the lock.
-- A restore records its result in its own transaction and gives the lock
-- up only after its outcome is recorded; so a job whose session no longer
-- holds the lock and that has no outcome lost its worker before finishing,
-- and changed nothing. GET /api/jobs/{id} then says so at once, instead of
-- "running" until River's rescuer ends the job hours later.
ALTER TABLE app_job ADD COLUMN restore_lock_pid integer;
