-- Prompt-set checks (issue 11): each version keeps the validation and lint result of the
-- prompt sets it contains (JSON, NULL when it has none); the skill keeps the status of its
-- latest version (`valid`, `invalid`, NULL) so listings can mark and filter on it.

ALTER TABLE skill_versions ADD COLUMN prompt_sets_json TEXT;
ALTER TABLE skills ADD COLUMN prompt_sets_status TEXT;
