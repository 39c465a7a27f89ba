-- Moderator hiding of a skill: when set, the skill is served to nobody but its owner and
-- staff (see skills::visibility). Unix milliseconds, like every timestamp.
ALTER TABLE skills ADD COLUMN hidden_at INTEGER;
