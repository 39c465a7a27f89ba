-- Every committed change of a skill row is announced on the `registry_skill_changes`
-- channel with the skill's id, and a change of a user's handle, name or avatar (shown
-- beside their skills) with `*`. Each `registry serve` instance listens and drops the rows it keeps
-- in memory for search hits, so another instance's write (a hide, a delete, a counted
-- download) shows at once instead of when the kept row expires. NOTIFY is transactional:
-- nothing is announced for a rolled-back write, and repeats within one transaction are
-- folded into one.
CREATE FUNCTION registry_notify_skill_change() RETURNS trigger AS $$
BEGIN
    IF TG_TABLE_NAME = 'users' THEN
        PERFORM pg_notify('registry_skill_changes', '*');
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('registry_skill_changes', OLD.id::text);
    ELSE
        PERFORM pg_notify('registry_skill_changes', NEW.id::text);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER skills_notify_change AFTER INSERT OR UPDATE OR DELETE ON skills
    FOR EACH ROW EXECUTE FUNCTION registry_notify_skill_change();
-- Only the columns shown beside a skill: a role change concerns no kept row.
CREATE TRIGGER users_notify_change AFTER UPDATE OF handle, display_name, image ON users
    FOR EACH ROW EXECUTE FUNCTION registry_notify_skill_change();
