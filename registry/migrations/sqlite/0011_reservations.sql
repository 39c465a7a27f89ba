-- Root slugs an administrator reserved for an owner: until `expires_at` only that owner may
-- publish (or rename a skill) under the slug. Re-reserving extends the period.
-- Package names are reserved differently: as private placeholder packages without releases.

CREATE TABLE slug_reservations (
    slug TEXT PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT,
    reserved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
