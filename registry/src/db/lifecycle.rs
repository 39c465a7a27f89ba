//! The skill lifecycle's SQL: soft delete and undelete, version withdrawal and restore,
//! rename with aliases, merge, hard delete, and [`RESOLVE_SLUG`], the one place a slug is
//! turned into a skill id (live slug first, then alias). Each write runs in one write
//! transaction together with its audit row.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use async_trait::async_trait;
use sqlx::Transaction;

use super::{BACKEND, Db, ThisStore, audit, begin_write, refresh_search};
use crate::db::Backend;
use crate::db::audit_store::NewAuditEvent;
use crate::db::lifecycle_store::{
    HardDeleted, LifecycleStore, Renamed, SkillDeletion, SkillLifecycle, Withdrawn,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;
type Tx = Transaction<'static, Db>;

/// The id of the skill a slug (`$1`) leads to: the skill with that live slug, else the
/// skill an alias of that slug names. Live slugs and aliases never coincide (a rename
/// drops the alias it takes over), so at most one of the two answers.
pub const RESOLVE_SLUG: &str = "COALESCE((SELECT id FROM skills WHERE slug = $1), \
     (SELECT skill_id FROM skill_aliases WHERE slug = $1))";

/// Rewrites a skill's `tags_json` from its tag rows and refreshes its search entry (after
/// a tag was dropped or the slug changed).
async fn retag(tx: &mut Tx, skill_id: i64, now: i64) -> Result<(), DbError> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT t.tag, v.version FROM skill_tags t JOIN skill_versions v ON v.id = t.version_id \
         WHERE t.skill_id = $1 ORDER BY t.tag",
    )
    .bind(skill_id)
    .fetch_all(&mut **tx)
    .await?;
    let map: serde_json::Map<String, serde_json::Value> = rows
        .iter()
        .map(|(tag, version)| (tag.clone(), serde_json::Value::String(version.clone())))
        .collect();
    sqlx::query("UPDATE skills SET tags_json = $1, updated_at = $2 WHERE id = $3")
        .bind(serde_json::Value::Object(map).to_string())
        .bind(now)
        .bind(skill_id)
        .execute(&mut **tx)
        .await?;
    let names: Vec<&str> = rows.iter().map(|(tag, _)| tag.as_str()).collect();
    refresh_search(tx, skill_id, &names.join(" ")).await
}

/// Writes the audit row when the change happened, and commits.
async fn record_if(mut tx: Tx, changed: bool, event: &NewAuditEvent) -> Result<bool, DbError> {
    if changed {
        audit::insert_event(&mut tx, event).await?;
    }
    tx.commit().await?;
    Ok(changed)
}

/// The lifecycle columns of a skill.
pub async fn skill_lifecycle(
    pool: &Pool,
    skill_id: i64,
) -> Result<Option<SkillLifecycle>, DbError> {
    Ok(sqlx::query_as::<_, SkillLifecycle>(
        "SELECT deleted_by, delete_kind, delete_reason, slug_reserved_until, canonical_skill_id, \
         hidden_reason FROM skills WHERE id = $1",
    )
    .bind(skill_id)
    .fetch_optional(pool)
    .await?)
}

/// Soft-deletes a skill; false when it was already deleted (nothing written).
pub async fn soft_delete_skill(
    pool: &Pool,
    deletion: &SkillDeletion,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let changed = sqlx::query(
        "UPDATE skills SET soft_deleted_at = $1, updated_at = $1, deleted_by = $2, \
         delete_kind = $3, delete_reason = $4, slug_reserved_until = $5 \
         WHERE id = $6 AND soft_deleted_at IS NULL",
    )
    .bind(deletion.now)
    .bind(deletion.actor_id)
    .bind(deletion.kind.as_str())
    .bind(&deletion.reason)
    .bind(deletion.slug_reserved_until)
    .bind(deletion.skill_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    record_if(tx, changed, event).await
}

/// Restores a soft-deleted or hidden skill; false when it was neither.
pub async fn undelete_skill(
    pool: &Pool,
    skill_id: i64,
    now: i64,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let changed = sqlx::query(
        "UPDATE skills SET soft_deleted_at = NULL, hidden_at = NULL, deleted_by = NULL, \
         delete_kind = NULL, delete_reason = NULL, slug_reserved_until = NULL, \
         canonical_skill_id = NULL, updated_at = $1 \
         WHERE id = $2 AND (soft_deleted_at IS NOT NULL OR hidden_at IS NOT NULL)",
    )
    .bind(now)
    .bind(skill_id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    record_if(tx, changed, event).await
}

/// Withdraws a version unless it is the latest; drops the tags pointing at it.
pub async fn withdraw_version(
    pool: &Pool,
    version_id: i64,
    actor_id: i64,
    now: i64,
    event: &NewAuditEvent,
) -> Result<Withdrawn, DbError> {
    let mut tx = begin_write(pool).await?;
    // Read under the write lock: a publish that just moved `latest` onto this version
    // must make the withdrawal fail, not leave `latest` on a withdrawn version.
    let (skill_id, latest_version_id, withdrawn_at): (i64, Option<i64>, Option<i64>) =
        sqlx::query_as(
            "SELECT s.id, s.latest_version_id, v.soft_deleted_at FROM skill_versions v \
             JOIN skills s ON s.id = v.skill_id WHERE v.id = $1",
        )
        .bind(version_id)
        .fetch_one(&mut *tx)
        .await?;
    if latest_version_id == Some(version_id) {
        return Ok(Withdrawn::IsLatest);
    }
    if withdrawn_at.is_some() {
        return Ok(Withdrawn::AlreadyWithdrawn);
    }
    sqlx::query("UPDATE skill_versions SET soft_deleted_at = $1, withdrawn_by = $2 WHERE id = $3")
        .bind(now)
        .bind(actor_id)
        .bind(version_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM skill_tags WHERE version_id = $1")
        .bind(version_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE skills SET versions_count = versions_count - 1 WHERE id = $1")
        .bind(skill_id)
        .execute(&mut *tx)
        .await?;
    retag(&mut tx, skill_id, now).await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(Withdrawn::Done)
}

/// Restores a withdrawn version; false when it was live.
pub async fn restore_version(
    pool: &Pool,
    version_id: i64,
    now: i64,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let skill_id: Option<i64> = sqlx::query_scalar(
        "UPDATE skill_versions SET soft_deleted_at = NULL, withdrawn_by = NULL \
         WHERE id = $1 AND soft_deleted_at IS NOT NULL RETURNING skill_id",
    )
    .bind(version_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(skill_id) = skill_id else {
        return Ok(false);
    };
    sqlx::query(
        "UPDATE skills SET versions_count = versions_count + 1, updated_at = $1 WHERE id = $2",
    )
    .bind(now)
    .bind(skill_id)
    .execute(&mut *tx)
    .await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(true)
}

/// Renames a skill; the old slug becomes an alias, an alias of the new slug that led to
/// this skill is dropped.
pub async fn rename_skill(
    pool: &Pool,
    skill_id: i64,
    new_slug: &str,
    now: i64,
    event: &NewAuditEvent,
) -> Result<Renamed, DbError> {
    let mut tx = begin_write(pool).await?;
    let holder: Option<i64> = sqlx::query_scalar("SELECT id FROM skills WHERE slug = $1")
        .bind(new_slug)
        .fetch_optional(&mut *tx)
        .await?;
    if holder.is_some_and(|holder| holder != skill_id) {
        return Ok(Renamed::SlugTaken);
    }
    let alias_of: Option<i64> =
        sqlx::query_scalar("SELECT skill_id FROM skill_aliases WHERE slug = $1")
            .bind(new_slug)
            .fetch_optional(&mut *tx)
            .await?;
    if alias_of.is_some_and(|alias_of| alias_of != skill_id) {
        return Ok(Renamed::AliasOfOther);
    }
    let old_slug: String = sqlx::query_scalar("SELECT slug FROM skills WHERE id = $1")
        .bind(skill_id)
        .fetch_one(&mut *tx)
        .await?;
    if old_slug == new_slug {
        return Ok(Renamed::Done);
    }
    sqlx::query("DELETE FROM skill_aliases WHERE slug = $1")
        .bind(new_slug)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE skills SET slug = $1, updated_at = $2 WHERE id = $3")
        .bind(new_slug)
        .bind(now)
        .bind(skill_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO skill_aliases (slug, skill_id, created_at) VALUES ($1, $2, $3)")
        .bind(&old_slug)
        .bind(skill_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    retag(&mut tx, skill_id, now).await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(Renamed::Done)
}

/// Folds `source` into `target` in one transaction.
pub async fn merge_skills(
    pool: &Pool,
    source_id: i64,
    target_id: i64,
    actor_id: i64,
    now: i64,
    event: &NewAuditEvent,
) -> Result<(), DbError> {
    let mut tx = begin_write(pool).await?;
    let source_slug: String = sqlx::query_scalar("SELECT slug FROM skills WHERE id = $1")
        .bind(source_id)
        .fetch_one(&mut *tx)
        .await?;
    // The source row keeps existing (staff can still restore it) under a slug no one can
    // publish or type by accident (a dot is not allowed in slugs), so its old slug is free
    // to become an alias of the target.
    sqlx::query(
        "UPDATE skills SET slug = $1, soft_deleted_at = COALESCE(soft_deleted_at, $2), \
         updated_at = $2, deleted_by = $3, delete_kind = 'merged', delete_reason = NULL, \
         slug_reserved_until = NULL, canonical_skill_id = $4, stars = 0 WHERE id = $5",
    )
    .bind(format!("{source_slug}.merged.{source_id}"))
    .bind(now)
    .bind(actor_id)
    .bind(target_id)
    .bind(source_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE skill_aliases SET skill_id = $1 WHERE skill_id = $2")
        .bind(target_id)
        .bind(source_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO skill_aliases (slug, skill_id, created_at) VALUES ($1, $2, $3)")
        .bind(&source_slug)
        .bind(target_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO stars (skill_id, user_id, created_at) \
         SELECT $1, user_id, created_at FROM stars WHERE skill_id = $2 \
         ON CONFLICT (skill_id, user_id) DO NOTHING",
    )
    .bind(target_id)
    .bind(source_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM stars WHERE skill_id = $1")
        .bind(source_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE skills SET stars = (SELECT COUNT(*) FROM stars WHERE skill_id = $1), \
         updated_at = $2 WHERE id = $1",
    )
    .bind(target_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    repoint_counters(&mut tx, source_id, target_id).await?;
    // A merged duplicate cannot change hands any more; its pending offer ends here.
    sqlx::query(
        "UPDATE skill_transfers SET status = 'cancelled', resolved_at = $1 \
         WHERE skill_id = $2 AND status = 'pending'",
    )
    .bind(now)
    .bind(source_id)
    .execute(&mut *tx)
    .await?;
    retag(&mut tx, source_id, now).await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(())
}

/// Moves the source's downloads and installs to the target of a merge, so old installs
/// and download history count for the skill they now resolve to. Downloads are counted
/// once per actor and day: an actor-day counted on both skills is counted once on the
/// target (the source's counter may hold days whose events were pruned, so the counter
/// moves less only the overlap, not the number of moved events).
async fn repoint_counters(tx: &mut Tx, source_id: i64, target_id: i64) -> Result<(), DbError> {
    let source_events: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM download_events WHERE skill_id = $1")
            .bind(source_id)
            .fetch_one(&mut **tx)
            .await?;
    let moved = sqlx::query(
        "INSERT INTO download_events (skill_id, actor, day, created_at) \
         SELECT $1, actor, day, created_at FROM download_events WHERE skill_id = $2 \
         ON CONFLICT DO NOTHING",
    )
    .bind(target_id)
    .bind(source_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    let overlap = source_events - i64::try_from(moved).unwrap_or(source_events);
    sqlx::query("DELETE FROM download_events WHERE skill_id = $1")
        .bind(source_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE install_events SET skill_id = $1 WHERE skill_id = $2")
        .bind(target_id)
        .bind(source_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE skills SET \
         downloads = downloads + (SELECT downloads FROM skills WHERE id = $2) - $3, \
         installs_current = installs_current + (SELECT installs_current FROM skills WHERE id = $2), \
         installs_all_time = installs_all_time + (SELECT installs_all_time FROM skills WHERE id = $2) \
         WHERE id = $1",
    )
    .bind(target_id)
    .bind(source_id)
    .bind(overlap)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE skills SET downloads = 0, installs_current = 0, installs_all_time = 0 WHERE id = $1",
    )
    .bind(source_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Frees the slug of an owner-deleted skill whose hold ended; false when nothing matched.
pub async fn release_held_slug(
    pool: &Pool,
    skill_id: i64,
    slug: &str,
    now: i64,
    event: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    // The row keeps existing (its owner may still undelete it, staff may restore it) under
    // a slug no one can publish or type by accident (a dot is not allowed in slugs), as a
    // merged source does.
    let changed = sqlx::query(
        "UPDATE skills SET slug = $1, slug_reserved_until = NULL, updated_at = $2 \
         WHERE id = $3 AND slug = $4 AND soft_deleted_at IS NOT NULL \
         AND delete_kind = 'owner' AND slug_reserved_until IS NOT NULL \
         AND slug_reserved_until <= $2",
    )
    .bind(format!("{slug}.released.{skill_id}"))
    .bind(now)
    .bind(skill_id)
    .bind(slug)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if changed {
        retag(&mut tx, skill_id, now).await?;
    }
    record_if(tx, changed, event).await
}

/// Removes a skill and everything hanging off it; reports what went.
pub async fn hard_delete_skill(
    pool: &Pool,
    skill_id: i64,
    event: &NewAuditEvent,
) -> Result<HardDeleted, DbError> {
    let mut tx = begin_write(pool).await?;
    let (versions, files): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM skill_versions WHERE skill_id = $1), \
         (SELECT COUNT(*) FROM version_files f JOIN skill_versions v ON v.id = f.version_id \
          WHERE v.skill_id = $1)",
    )
    .bind(skill_id)
    .fetch_one(&mut *tx)
    .await?;
    let unreferenced_blobs: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT f.sha256) FROM version_files f \
         JOIN skill_versions v ON v.id = f.version_id WHERE v.skill_id = $1 \
         AND NOT EXISTS (SELECT 1 FROM version_files o JOIN skill_versions ov \
             ON ov.id = o.version_id WHERE o.sha256 = f.sha256 AND ov.skill_id <> $1) \
         AND NOT EXISTS (SELECT 1 FROM package_releases r WHERE r.artifact_sha256 = f.sha256)",
    )
    .bind(skill_id)
    .fetch_one(&mut *tx)
    .await?;
    if BACKEND == Backend::Sqlite {
        // The FTS5 table is not tied to `skills` by a foreign key.
        sqlx::query("DELETE FROM skills_search WHERE rowid = $1")
            .bind(skill_id)
            .execute(&mut *tx)
            .await?;
    }
    // Versions, files, tags, stars, download and install events, aliases, transfers and
    // moderation cases go with the skill (ON DELETE CASCADE).
    sqlx::query("DELETE FROM skills WHERE id = $1")
        .bind(skill_id)
        .execute(&mut *tx)
        .await?;
    audit::insert_event(&mut tx, event).await?;
    tx.commit().await?;
    Ok(HardDeleted {
        versions,
        files,
        unreferenced_blobs,
    })
}

/// The old slugs that lead to a skill, oldest first.
pub async fn skill_aliases(pool: &Pool, skill_id: i64) -> Result<Vec<String>, DbError> {
    Ok(sqlx::query_scalar(
        "SELECT slug FROM skill_aliases WHERE skill_id = $1 ORDER BY created_at, slug",
    )
    .bind(skill_id)
    .fetch_all(pool)
    .await?)
}

/// Who withdrew a version.
pub async fn version_withdrawn_by(pool: &Pool, version_id: i64) -> Result<Option<i64>, DbError> {
    Ok(sqlx::query_scalar::<_, Option<i64>>(
        "SELECT withdrawn_by FROM skill_versions WHERE id = $1",
    )
    .bind(version_id)
    .fetch_optional(pool)
    .await?
    .flatten())
}

#[async_trait]
impl LifecycleStore for ThisStore {
    async fn skill_lifecycle(&self, skill_id: i64) -> Result<Option<SkillLifecycle>, DbError> {
        skill_lifecycle(&self.0, skill_id).await
    }
    async fn soft_delete_skill(
        &self,
        deletion: &SkillDeletion,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        soft_delete_skill(&self.0, deletion, audit).await
    }
    async fn undelete_skill(
        &self,
        skill_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        undelete_skill(&self.0, skill_id, now, audit).await
    }
    async fn withdraw_version(
        &self,
        version_id: i64,
        actor_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<Withdrawn, DbError> {
        withdraw_version(&self.0, version_id, actor_id, now, audit).await
    }
    async fn restore_version(
        &self,
        version_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        restore_version(&self.0, version_id, now, audit).await
    }
    async fn rename_skill(
        &self,
        skill_id: i64,
        new_slug: &str,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<Renamed, DbError> {
        rename_skill(&self.0, skill_id, new_slug, now, audit).await
    }
    async fn merge_skills(
        &self,
        source_id: i64,
        target_id: i64,
        actor_id: i64,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<(), DbError> {
        merge_skills(&self.0, source_id, target_id, actor_id, now, audit).await
    }
    async fn release_held_slug(
        &self,
        skill_id: i64,
        slug: &str,
        hold_ended_by: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        release_held_slug(&self.0, skill_id, slug, hold_ended_by, audit).await
    }
    async fn hard_delete_skill(
        &self,
        skill_id: i64,
        audit: &NewAuditEvent,
    ) -> Result<HardDeleted, DbError> {
        hard_delete_skill(&self.0, skill_id, audit).await
    }
    async fn skill_aliases(&self, skill_id: i64) -> Result<Vec<String>, DbError> {
        skill_aliases(&self.0, skill_id).await
    }
    async fn version_withdrawn_by(&self, version_id: i64) -> Result<Option<i64>, DbError> {
        version_withdrawn_by(&self.0, version_id).await
    }
}
