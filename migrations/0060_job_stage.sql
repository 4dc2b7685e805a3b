-- What a running job is doing now, in a word a client can name to a person
-- (an import: fetching, browser, reading, saving, retrying). Progress says
-- how far; the stage says what is being waited for, so an import that
-- retries a slow site does not sit at "waiting to start".
ALTER TABLE app_job ADD COLUMN stage text;
