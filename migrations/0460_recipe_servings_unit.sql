-- What a recipe's servings count when they are not people: "cookies",
-- "loaves", "muffins" ("Makes 12 cookies"). Empty means people (servings),
-- so every existing recipe keeps its meaning. Servings stay an integer; the
-- unit is only the noun that goes with the number, at most 40 characters
-- as the API checks.
ALTER TABLE recipe ADD COLUMN servings_unit text NOT NULL DEFAULT ''
    CHECK (servings_unit = btrim(servings_unit) AND char_length(servings_unit) <= 40);
