-- Meal plans and shopping lists, shared with a household.
--
-- A household edits one plan: a plan belongs to its owner, who adds the
-- other members by email (meal_plan_member); every member reads and edits
-- its entries, only the owner renames or deletes it and manages members.
-- Every user may own several plans; the web client opens the one picked
-- last, the first plan shared with the user (the household's) otherwise.
-- Shopping lists are shared the same way.

CREATE TABLE meal_plan (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id   uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX meal_plan_owner_idx ON meal_plan (owner_id, created_at);

CREATE TABLE meal_plan_member (
    plan_id    uuid NOT NULL REFERENCES meal_plan (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (plan_id, user_id)
);
CREATE INDEX meal_plan_member_user_idx ON meal_plan_member (user_id);

-- An entry names a recipe or is a free-text note (title). recipe_id is set
-- to NULL when the recipe is deleted; has_recipe keeps that it was a recipe,
-- so the entry reads "recipe no longer available" rather than becoming an
-- empty note. Nothing of the recipe is copied here: a member who may no
-- longer read it learns nothing from the entry.
CREATE TABLE meal_plan_entry (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    plan_id    uuid NOT NULL REFERENCES meal_plan (id) ON DELETE CASCADE,
    day        date NOT NULL,
    meal       text NOT NULL CHECK (meal IN ('breakfast', 'lunch', 'dinner', 'snack')),
    position   integer NOT NULL DEFAULT 0,
    has_recipe boolean NOT NULL,
    recipe_id  uuid REFERENCES recipe (id) ON DELETE SET NULL,
    title      text NOT NULL DEFAULT '',
    servings   numeric(8, 2) CHECK (servings > 0),
    note       text NOT NULL DEFAULT '',
    created_by uuid REFERENCES app_user (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (has_recipe OR recipe_id IS NULL)
);
CREATE INDEX meal_plan_entry_day_idx ON meal_plan_entry (plan_id, day, meal, position);
CREATE INDEX meal_plan_entry_recipe_idx ON meal_plan_entry (recipe_id) WHERE recipe_id IS NOT NULL;

-- unit_system: how merged amounts are shown: metric, us, or as_written
-- (in the unit most of the amount was written in).
CREATE TABLE shopping_list (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id    uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    name        text NOT NULL,
    unit_system text NOT NULL DEFAULT 'as_written' CHECK (unit_system IN ('metric', 'us', 'as_written')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shopping_list_owner_idx ON shopping_list (owner_id, created_at);

CREATE TABLE shopping_list_member (
    list_id    uuid NOT NULL REFERENCES shopping_list (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (list_id, user_id)
);
CREATE INDEX shopping_list_member_user_idx ON shopping_list_member (user_id);

-- An item's amount (quantity, unit) is the sum of its sources, computed by
-- the shopping package and kept here for reading. changed_at is the client
-- time of the last change applied (last write wins); a deleted item keeps
-- its row with deleted_at set, so a change queued offline on another device
-- cannot bring it back.
CREATE TABLE shopping_item (
    id         uuid PRIMARY KEY,
    list_id    uuid NOT NULL REFERENCES shopping_list (id) ON DELETE CASCADE,
    text       text NOT NULL,
    food       text NOT NULL DEFAULT '',
    quantity   double precision,
    unit       text NOT NULL DEFAULT '',
    checked    boolean NOT NULL DEFAULT false,
    aisle      text NOT NULL,
    position   integer NOT NULL DEFAULT 0,
    changed_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shopping_item_list_idx ON shopping_item (list_id, position) WHERE deleted_at IS NULL;

-- Where an item's amount came from: a recipe line (recipe_id, servings) or
-- the user (recipe_id NULL, manual). quantity/unit as written, scaled.
CREATE TABLE shopping_item_source (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    item_id      uuid NOT NULL REFERENCES shopping_item (id) ON DELETE CASCADE,
    recipe_id    uuid REFERENCES recipe (id) ON DELETE SET NULL,
    recipe_title text NOT NULL DEFAULT '',
    servings     numeric(8, 2),
    line         text NOT NULL,
    quantity     double precision,
    unit         text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shopping_item_source_item_idx ON shopping_item_source (item_id);
CREATE INDEX shopping_item_source_recipe_idx ON shopping_item_source (recipe_id) WHERE recipe_id IS NOT NULL;

-- A user's aisle for a food, remembered from their corrections and used on
-- every list they add that food to.
CREATE TABLE shopping_aisle_correction (
    user_id    uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    food       text NOT NULL,
    aisle      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, food)
);

-- Live lists: every committed change to a list, its items, their sources
-- or its members notifies the channel shopping_list_change with the list's
-- id. Each API instance LISTENs and tells the browsers that have the list
-- open (server-sent events), whichever instance made the change. A
-- notification is sent only when its transaction commits, and the
-- identical ones of a transaction are folded into one.
CREATE FUNCTION notify_shopping_list_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    list uuid;
BEGIN
    IF TG_TABLE_NAME = 'shopping_list' THEN
        list := COALESCE(NEW.id, OLD.id);
    ELSIF TG_TABLE_NAME = 'shopping_item_source' THEN
        SELECT i.list_id INTO list FROM shopping_item i WHERE i.id = COALESCE(NEW.item_id, OLD.item_id);
    ELSE
        list := COALESCE(NEW.list_id, OLD.list_id);
    END IF;
    IF list IS NOT NULL THEN
        PERFORM pg_notify('shopping_list_change', list::text);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER shopping_list_change AFTER INSERT OR UPDATE OR DELETE ON shopping_list
    FOR EACH ROW EXECUTE FUNCTION notify_shopping_list_change();
CREATE TRIGGER shopping_list_change AFTER INSERT OR UPDATE OR DELETE ON shopping_list_member
    FOR EACH ROW EXECUTE FUNCTION notify_shopping_list_change();
CREATE TRIGGER shopping_list_change AFTER INSERT OR UPDATE OR DELETE ON shopping_item
    FOR EACH ROW EXECUTE FUNCTION notify_shopping_list_change();
CREATE TRIGGER shopping_list_change AFTER INSERT OR UPDATE OR DELETE ON shopping_item_source
    FOR EACH ROW EXECUTE FUNCTION notify_shopping_list_change();
