-- The skill lifecycle: who soft-deleted a skill and why (an owner may undo only their own
-- delete), how long an owner-deleted slug stays held for its owner, which skill a merged
-- duplicate folded into, who withdrew a version (an owner restores only their own
-- withdrawals), and the aliases old slugs keep after a rename or merge.

ALTER TABLE skills ADD COLUMN deleted_by INTEGER REFERENCES users (id) ON DELETE SET NULL;
-- `owner` (undeletable by the owner), `staff` (a moderator's or admin's hide), `merged`.
ALTER TABLE skills ADD COLUMN delete_kind TEXT;
ALTER TABLE skills ADD COLUMN delete_reason TEXT;
ALTER TABLE skills ADD COLUMN slug_reserved_until INTEGER;
ALTER TABLE skills ADD COLUMN canonical_skill_id INTEGER REFERENCES skills (id) ON DELETE SET NULL;

ALTER TABLE skill_versions ADD COLUMN withdrawn_by INTEGER REFERENCES users (id) ON DELETE SET NULL;

-- An old slug that still leads to a skill. Never equal to a live slug: a rename drops the
-- alias it takes over, and publishing under an alias publishes to the skill it names.
CREATE TABLE skill_aliases (
    slug TEXT PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);

CREATE INDEX skill_aliases_skill ON skill_aliases (skill_id);
