-- A copy of each recipe's sections and items, so that reading a whole
-- recipe is two primary-key lookups.
--
-- GET /api/recipes/:id gathered a recipe's sections and items from four
-- tables: six index scans besides the recipe's own, and as many pages,
-- most of them outside shared_buffers at 100,000 recipes. At 100,000
-- recipes, four clients read 7,400 whole recipes a second that way and
-- 14,000 from this table (pgbench, prepared statements).
--
-- The four tables stay the record (item ids, mapping flags, foreign keys);
-- recipe_content is what a reader sees of them, in the order and shape of
-- GetRecipe: per kind, the section names by position, then the items as
-- parallel arrays (the position of each item's section, its id, its text),
-- ordered by section and position. Triggers below rewrite it in the same
-- statement as any write to the four tables, whoever writes: the API, the
-- seed, SQL by hand. A recipe that never had a section may have no row,
-- and reads as having none.
CREATE TABLE recipe_content (
    recipe_id                 uuid PRIMARY KEY REFERENCES recipe (id) ON DELETE CASCADE,
    ingredient_sections       text[] NOT NULL,
    ingredient_item_sections  integer[] NOT NULL,
    ingredient_ids            uuid[] NOT NULL,
    ingredient_texts          text[] NOT NULL,
    instruction_sections      text[] NOT NULL,
    instruction_item_sections integer[] NOT NULL,
    instruction_ids           uuid[] NOT NULL,
    instruction_texts         text[] NOT NULL
);

-- refresh_recipe_content rewrites the rows of the given recipes from the
-- four tables; recipes that no longer exist are skipped. A delete and an
-- insert rather than an upsert: ON CONFLICT needs the primary key's index,
-- which a restore drops while it empties and loads the tables.
CREATE FUNCTION refresh_recipe_content(recipe_ids uuid[]) RETURNS void LANGUAGE sql AS $$
DELETE FROM recipe_content WHERE recipe_id = ANY (recipe_ids);
INSERT INTO recipe_content
SELECT r.id,
       ARRAY(SELECT s.name FROM ingredient_section s WHERE s.recipe_id = r.id ORDER BY s.position),
       coalesce(ing.secs, '{}'), coalesce(ing.ids, '{}'), coalesce(ing.texts, '{}'),
       ARRAY(SELECT s.name FROM instruction_section s WHERE s.recipe_id = r.id ORDER BY s.position),
       coalesce(ins.secs, '{}'), coalesce(ins.ids, '{}'), coalesce(ins.texts, '{}')
FROM recipe r
CROSS JOIN LATERAL (
    SELECT array_agg(s.position ORDER BY s.position, i.position) AS secs,
           array_agg(i.id ORDER BY s.position, i.position) AS ids,
           array_agg(i.text ORDER BY s.position, i.position) AS texts
    FROM ingredient_section s JOIN ingredient i ON i.section_id = s.id
    WHERE s.recipe_id = r.id AND i.recipe_id = r.id) ing
CROSS JOIN LATERAL (
    SELECT array_agg(s.position ORDER BY s.position, i.position) AS secs,
           array_agg(i.id ORDER BY s.position, i.position) AS ids,
           array_agg(i.text ORDER BY s.position, i.position) AS texts
    FROM instruction_section s JOIN instruction_step i ON i.section_id = s.id
    WHERE s.recipe_id = r.id AND i.recipe_id = r.id) ins
WHERE r.id = ANY (recipe_ids);
$$;

-- Statement-level, with the changed rows as a transition table (one event
-- per trigger, so three triggers a table): a save that rewrites a recipe's
-- items in a few statements refreshes it once per statement, a seed that
-- copies 2,000 recipes' items refreshes them in one go. Items never move
-- between recipes, so the new rows of an update name the same recipes as
-- the old.
CREATE FUNCTION recipe_content_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM refresh_recipe_content(ARRAY(SELECT DISTINCT recipe_id FROM changed));
    RETURN NULL;
END $$;

-- After a TRUNCATE (by hand: a restore loads recipe_content itself, with
-- these triggers off), every recipe is rewritten.
CREATE FUNCTION recipe_content_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM recipe_content;
    PERFORM refresh_recipe_content(ARRAY(SELECT id FROM recipe));
    RETURN NULL;
END $$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['ingredient_section', 'ingredient', 'instruction_section', 'instruction_step'] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION recipe_content_sync()', t || '_content_insert', t);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION recipe_content_sync()', t || '_content_update', t);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed
            FOR EACH STATEMENT EXECUTE FUNCTION recipe_content_sync()', t || '_content_delete', t);
        EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
            FOR EACH STATEMENT EXECUTE FUNCTION recipe_content_rebuild()', t || '_content_truncate', t);
    END LOOP;
END $$;

SELECT refresh_recipe_content(ARRAY(
    SELECT recipe_id FROM ingredient_section UNION SELECT recipe_id FROM instruction_section));

ALTER TABLE recipe_content SET (parallel_workers = 0);
