-- GET /uploads/<key> without a signature serves only images of public
-- recipes; this finds the recipe of a key without reading the table.
CREATE INDEX recipe_public_image_key_idx ON recipe (image_key) WHERE visibility = 'PUBLIC' AND image_key IS NOT NULL;
