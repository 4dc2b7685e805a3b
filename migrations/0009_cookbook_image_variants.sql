-- Cookbook images get the smaller renditions recipe images have: the
-- image_process job makes them for either kind of row. By size name
-- ("thumb", "medium") → file-store key; empty until the job has run, and
-- emptied whenever image_key changes. Images stored before this migration
-- get renditions when they are next replaced.
ALTER TABLE cookbook ADD COLUMN image_variants jsonb NOT NULL DEFAULT '{}';
