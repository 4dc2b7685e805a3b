-- Tell API instances when the recipes they may have counted change.
--
-- The API keeps recent list totals (handlers.CountCache): counting every
-- match of a broad filter costs a visit of thousands of rows, the page
-- itself a few dozen. An instance drops its totals on its own writes at
-- once, but recipes are also written by the workers (imports), by other
-- instances and by a restore. Each of those commits now sends a
-- notification on the channel recipe_change, which every API instance
-- LISTENs to (a notification is delivered only when, and only if, its
-- transaction commits, so no reader can learn of a change it cannot see
-- yet). Statement-level triggers: one notification per statement however
-- many rows it touched, and PostgreSQL folds the identical notifications
-- of a transaction into one.
CREATE FUNCTION notify_recipe_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('recipe_change', '');
    RETURN NULL;
END $$;

-- What a recipe list filters on or counts: the recipe row (visibility,
-- categories, search text, owner), its tags (tag names are matched through
-- tag), and its shares (shared_with, though kept by a trigger, is also
-- written on recipe_share).
CREATE TRIGGER recipe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recipe
    FOR EACH STATEMENT EXECUTE FUNCTION notify_recipe_change();
CREATE TRIGGER recipe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recipe_tag
    FOR EACH STATEMENT EXECUTE FUNCTION notify_recipe_change();
CREATE TRIGGER recipe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tag
    FOR EACH STATEMENT EXECUTE FUNCTION notify_recipe_change();
CREATE TRIGGER recipe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recipe_share
    FOR EACH STATEMENT EXECUTE FUNCTION notify_recipe_change();
