-- A skill's detail shows its latest version (number, changelog, metadata, SKILL.md) and
-- the scan of the version its moderation was computed on. Each `registry serve` instance
-- keeps skill details in memory while it hears the `registry_skill_changes` channel
-- (`0100_skill_change_notices.sql`), so a committed change of a version row is announced
-- with its skill's id too: a version deleted, restored or rescanned on one instance is
-- shown by every other at once. Publishing also updates the skill row, which announces
-- it; the repeat is folded into one notice per transaction.
CREATE FUNCTION registry_notify_version_change() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('registry_skill_changes', OLD.skill_id::text);
    ELSE
        PERFORM pg_notify('registry_skill_changes', NEW.skill_id::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER skill_versions_notify_change AFTER INSERT OR UPDATE OR DELETE ON skill_versions
    FOR EACH ROW EXECUTE FUNCTION registry_notify_version_change();
