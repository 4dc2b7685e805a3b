-- The whole schema of the specification. Identifiers are UUIDs; timestamps
-- are timestamptz. ON DELETE rules: everything a user owns goes with the
-- user; links go with either end; deleting a cookbook never deletes recipes
-- or child cookbooks.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- An immutable lower-casing of text arrays, so category and tag matching can
-- be case-insensitive and still use an index.
CREATE FUNCTION lower_text_array(text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(array_agg(lower(x) ORDER BY ord), '{}') FROM unnest($1) WITH ORDINALITY AS t(x, ord) $$;

CREATE TABLE app_user (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email            text NOT NULL CHECK (email <> ''),
    name             text NOT NULL DEFAULT '',
    role             text NOT NULL DEFAULT 'USER' CHECK (role IN ('USER', 'ADMIN')),
    -- NULL for accounts that only sign in through the identity provider.
    password_hash    text,
    email_verified   boolean NOT NULL DEFAULT false,
    -- The identity provider this account is linked to, and its subject.
    idp_name         text,
    idp_subject      text,
    -- Bumped to revoke every session at once (refresh-token reuse, restore,
    -- password reset). Access tokens carry the version they were issued with.
    session_version  integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK ((idp_name IS NULL) = (idp_subject IS NULL))
);
CREATE UNIQUE INDEX app_user_email_key ON app_user (lower(email));
CREATE UNIQUE INDEX app_user_idp_key ON app_user (idp_name, idp_subject) WHERE idp_name IS NOT NULL;

CREATE TABLE refresh_token (
    id           uuid PRIMARY KEY,            -- the token's jti
    user_id      uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    token_hash   bytea NOT NULL UNIQUE,       -- SHA-256 of the token; the token itself is never stored
    -- All tokens of one login share a family; reuse of a rotated token
    -- revokes the family's user entirely.
    family_id    uuid NOT NULL,
    expires_at   timestamptz NOT NULL,
    rotated_at   timestamptz,                 -- set when exchanged; kept to detect reuse
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_token_user_idx ON refresh_token (user_id);
CREATE INDEX refresh_token_expires_idx ON refresh_token (expires_at);

CREATE TABLE verification_token (
    token_hash   bytea PRIMARY KEY,           -- SHA-256 of the emailed token
    user_id      uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    purpose      text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_token_user_idx ON verification_token (user_id, purpose);

CREATE TABLE recipe (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id        uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    title           text NOT NULL CHECK (title <> ''),
    description     text NOT NULL DEFAULT '',
    servings        integer CHECK (servings > 0),
    prep_minutes    integer CHECK (prep_minutes >= 0),
    cook_minutes    integer CHECK (cook_minutes >= 0),
    total_minutes   integer CHECK (total_minutes >= 0),
    source_url      text,
    -- Key of the stored image in the file store; imageUrl is derived from it.
    image_key       text,
    visibility      text NOT NULL DEFAULT 'PRIVATE' CHECK (visibility IN ('PRIVATE', 'SHARED', 'PUBLIC')),
    categories      text[] NOT NULL DEFAULT '{}',
    -- Set when the owner edits the mapping by hand; automatic regeneration
    -- after an edit then keeps the hand-made links.
    mappings_edited boolean NOT NULL DEFAULT false,
    -- Full-text document over title, ingredients and instructions, written
    -- by the repository whenever the recipe's text changes.
    search_vector   tsvector NOT NULL DEFAULT ''::tsvector,
    search_text     text NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
-- Keyset pagination walks (created_at, id) newest first.
CREATE INDEX recipe_created_idx ON recipe (created_at DESC, id DESC);
CREATE INDEX recipe_owner_created_idx ON recipe (owner_id, created_at DESC, id DESC);
CREATE INDEX recipe_public_created_idx ON recipe (created_at DESC, id DESC) WHERE visibility = 'PUBLIC';
CREATE INDEX recipe_categories_idx ON recipe USING gin (lower_text_array(categories));
CREATE INDEX recipe_search_idx ON recipe USING gin (search_vector);
CREATE INDEX recipe_search_trgm_idx ON recipe USING gin (search_text gin_trgm_ops);
CREATE INDEX recipe_title_trgm_idx ON recipe USING gin (lower(title) gin_trgm_ops);

CREATE TABLE ingredient_section (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipe_id  uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    position   integer NOT NULL,
    name       text NOT NULL DEFAULT '',
    UNIQUE (recipe_id, position)
);

CREATE TABLE ingredient (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipe_id   uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    section_id  uuid NOT NULL REFERENCES ingredient_section (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    text        text NOT NULL CHECK (text <> ''),
    UNIQUE (section_id, position)
);
CREATE INDEX ingredient_recipe_idx ON ingredient (recipe_id);

CREATE TABLE instruction_section (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipe_id  uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    position   integer NOT NULL,
    name       text NOT NULL DEFAULT '',
    UNIQUE (recipe_id, position)
);

CREATE TABLE instruction_step (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipe_id   uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    section_id  uuid NOT NULL REFERENCES instruction_section (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    text        text NOT NULL CHECK (text <> ''),
    UNIQUE (section_id, position)
);
CREATE INDEX instruction_step_recipe_idx ON instruction_step (recipe_id);

CREATE TABLE tag (
    id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name  text NOT NULL CHECK (name <> '')
);
CREATE UNIQUE INDEX tag_name_key ON tag (lower(name));

CREATE TABLE recipe_tag (
    recipe_id  uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    tag_id     uuid NOT NULL REFERENCES tag (id) ON DELETE CASCADE,
    PRIMARY KEY (recipe_id, tag_id)
);
CREATE INDEX recipe_tag_tag_idx ON recipe_tag (tag_id, recipe_id);

CREATE TABLE recipe_share (
    recipe_id   uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (recipe_id, user_id)
);
CREATE INDEX recipe_share_user_idx ON recipe_share (user_id, recipe_id);

CREATE TABLE cookbook (
    id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id                uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
    name                    text NOT NULL CHECK (name <> ''),
    description             text NOT NULL DEFAULT '',
    image_key               text,
    auto_filter_categories  text[] NOT NULL DEFAULT '{}',
    auto_filter_tags        text[] NOT NULL DEFAULT '{}',
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cookbook_owner_idx ON cookbook (owner_id, created_at DESC, id DESC);

CREATE TABLE cookbook_recipe (
    cookbook_id  uuid NOT NULL REFERENCES cookbook (id) ON DELETE CASCADE,
    recipe_id    uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    added_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cookbook_id, recipe_id)
);
CREATE INDEX cookbook_recipe_recipe_idx ON cookbook_recipe (recipe_id);

CREATE TABLE cookbook_inclusion (
    parent_id  uuid NOT NULL REFERENCES cookbook (id) ON DELETE CASCADE,
    child_id   uuid NOT NULL REFERENCES cookbook (id) ON DELETE CASCADE,
    added_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (parent_id, child_id),
    CHECK (parent_id <> child_id)
);
CREATE INDEX cookbook_inclusion_child_idx ON cookbook_inclusion (child_id);

CREATE TABLE cookbook_tag (
    cookbook_id  uuid NOT NULL REFERENCES cookbook (id) ON DELETE CASCADE,
    tag_id       uuid NOT NULL REFERENCES tag (id) ON DELETE CASCADE,
    PRIMARY KEY (cookbook_id, tag_id)
);
CREATE INDEX cookbook_tag_tag_idx ON cookbook_tag (tag_id, cookbook_id);

CREATE TABLE ingredient_instruction_mapping (
    recipe_id      uuid NOT NULL REFERENCES recipe (id) ON DELETE CASCADE,
    ingredient_id  uuid NOT NULL REFERENCES ingredient (id) ON DELETE CASCADE,
    step_id        uuid NOT NULL REFERENCES instruction_step (id) ON DELETE CASCADE,
    PRIMARY KEY (ingredient_id, step_id)
);
CREATE INDEX mapping_recipe_idx ON ingredient_instruction_mapping (recipe_id);
CREATE INDEX mapping_step_idx ON ingredient_instruction_mapping (step_id);

-- app_job gives River jobs the public face of API.md: a UUID, an owner, a
-- progress figure the worker reports, and a result or an error a person can
-- read. River's own row (river_job) holds the state while it exists; this row
-- outlives River's pruning of finished jobs.
CREATE TABLE app_job (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    river_job_id   bigint NOT NULL UNIQUE,
    user_id        uuid REFERENCES app_user (id) ON DELETE CASCADE,
    kind           text NOT NULL,
    progress       real CHECK (progress BETWEEN 0 AND 1),
    result         jsonb,
    error_code     text,
    error_message  text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);
CREATE INDEX app_job_user_idx ON app_job (user_id, created_at DESC);
