-- Two indexes of the first schema that no query reads any more: every
-- category test reads category_keys (migration 0003) and its index, and no
-- search matches titles by trigram (typos are matched on the search lexicon,
-- migration 0003). Each cost every recipe write an index update, and every
-- recipe query the planner's look at it.
DROP INDEX recipe_categories_idx;
DROP INDEX recipe_title_trgm_idx;
