-- Ingredient-to-step mappings: which items the owner has reviewed.
--
-- When the owner saves the mapping by hand (PUT /api/recipes/:id/mappings),
-- every ingredient and step the recipe has at that moment is marked
-- reviewed, and recipe.mappings_edited is set. From then on the automatic
-- generation after an edit keeps the owner's decision (link or no link) for
-- every pair of reviewed items, and generates links only for pairs with an
-- item added since (mapping_reviewed still false: new rows get the default,
-- and an edit that sends an item back keeps its row and so its flag).
-- Regeneration on request clears both flags.
--
-- A flag on the item, rather than a timestamp compared with the time of the
-- hand edit, cannot be fooled by transactions that commit out of the order
-- in which they started; and it goes away with the item, as its links do.
ALTER TABLE ingredient ADD COLUMN mapping_reviewed boolean NOT NULL DEFAULT false;
ALTER TABLE instruction_step ADD COLUMN mapping_reviewed boolean NOT NULL DEFAULT false;
