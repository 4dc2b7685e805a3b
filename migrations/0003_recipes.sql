-- Recipes: image renditions, search, and the layout that keeps lists and
-- searches fast at 100,000 recipes (measured with EXPLAIN ANALYZE on a
-- database filled by `admin seed`; see bench/README.md).

-- The smaller renditions the image job makes, by size name ("thumb",
-- "medium") → file-store key. Empty until the job has run, and emptied
-- whenever image_key changes.
ALTER TABLE recipe ADD COLUMN image_variants jsonb NOT NULL DEFAULT '{}';

-- The title's lexemes on their own, for the first tier of search results
-- (matches in the title). Small enough to stay in the row, so testing it
-- while walking the newest-first index costs no TOAST fetch; it has its own
-- GIN index for titles that are rare.
ALTER TABLE recipe ADD COLUMN title_vector tsvector
    GENERATED ALWAYS AS (to_tsvector('english'::regconfig, title)) STORED;
CREATE INDEX recipe_title_search_idx ON recipe USING gin (title_vector);

-- The categories lower-cased, for the category filter. Matching through the
-- expression index on lower_text_array(categories) rechecks every candidate
-- by calling that SQL function, 35 µs a call: 1.2 s of CPU to count the
-- 35,000 "Dinner" recipes of 100,000. Stored once per write, the recheck
-- is a plain array comparison.
ALTER TABLE recipe ADD COLUMN category_keys text[]
    GENERATED ALWAYS AS (lower_text_array(categories)) STORED;
CREATE INDEX recipe_category_keys_idx ON recipe USING gin (category_keys);

-- search_vector and search_text together are some 1.6 kB a recipe, four
-- times the rest of the row. Kept in the row they made the heap 173 MB at
-- 100,000 recipes, more than shared_buffers, and every count and list walk
-- paid for it. Out of line (uncompressed, so reading one back is a plain
-- fetch), the row is some 450 bytes. search_vector is matched through its
-- GIN index, which needs no recheck for a query without weights, so
-- counting matches never fetches it. The target is above the size of the
-- rest of the row: at 256 the toaster also compressed categories,
-- category_keys and title_vector in place, and every recheck of them paid
-- for a decompression (6.5 µs a row).
ALTER TABLE recipe
    ALTER COLUMN search_vector SET STORAGE EXTERNAL,
    ALTER COLUMN search_text SET STORAGE EXTERNAL,
    SET (toast_tuple_target = 512);

-- The users a recipe is shared with, copied from recipe_share by the
-- trigger below (recipe_share stays the record). "May this user read it"
-- is then a test of the row itself, and "the SHARED recipes shared with me
-- that match this search" a BitmapAnd of two GIN indexes; through
-- recipe_share it was a lookup of each of the user's shares and of its
-- recipe's search_vector, 117 ms for the 800 recipes shared with one
-- seeded user.
ALTER TABLE recipe ADD COLUMN shared_with uuid[] NOT NULL DEFAULT '{}';
CREATE INDEX recipe_shared_with_idx ON recipe USING gin (shared_with);

CREATE FUNCTION recipe_share_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE recipe SET shared_with = array_append(shared_with, NEW.user_id)
        WHERE id = NEW.recipe_id AND NOT (NEW.user_id = ANY (shared_with));
    ELSE
        UPDATE recipe SET shared_with = array_remove(shared_with, OLD.user_id) WHERE id = OLD.recipe_id;
    END IF;
    RETURN NULL;
END $$;
-- Row triggers also see the deletes that cascade from a deleted user.
CREATE TRIGGER recipe_share_sync AFTER INSERT OR DELETE ON recipe_share
    FOR EACH ROW EXECUTE FUNCTION recipe_share_sync();
UPDATE recipe r SET shared_with = s.users
FROM (SELECT recipe_id, array_agg(user_id ORDER BY user_id) AS users FROM recipe_share GROUP BY recipe_id) s
WHERE r.id = s.recipe_id;

-- No parallel query on the tables every list and count reads. The API
-- runs many short queries at once; a parallel plan only adds worker start-up
-- and a Gather to each: under 16 concurrent clients the share part of a
-- user's recipe count took 118 ms in parallel (a full scan of the share
-- primary key in two workers) against 1 ms through recipe_share_user_idx.
ALTER TABLE recipe SET (parallel_workers = 0);
ALTER TABLE recipe_share SET (parallel_workers = 0);
ALTER TABLE recipe_tag SET (parallel_workers = 0);

-- Trigram matching over whole recipe texts is too slow to serve typos and
-- fragments: at 10,000 recipes `'chiken' <% search_text` took 310 ms, as
-- common trigrams ("chi", "ken") make nearly every recipe a candidate to
-- recheck; and the index cost a third of every recipe write. The lexicon
-- below serves those lookups instead.
DROP INDEX recipe_search_trgm_idx;

-- Every lexeme of every recipe's search_vector, so that a query word with a
-- typo ("chiken") or a fragment ("icken") can be turned into the lexemes it
-- most likely means by a trigram lookup over a few thousand short words,
-- instead of over every recipe's text. Words are only ever added (by the
-- statement that writes search_vector); a stale word merely expands a query
-- to a lexeme no recipe has any more.
CREATE TABLE search_term (
    term text PRIMARY KEY
);
CREATE INDEX search_term_trgm_idx ON search_term USING gin (term gin_trgm_ops);
