-- The reason a moderator gave for hiding a skill, kept on the skill so its owner can be
-- told why (`403 Skill is hidden by moderation (<reason>).`) without reading the audit
-- log. Cleared when the hide is lifted.
ALTER TABLE skills ADD COLUMN hidden_reason TEXT;
