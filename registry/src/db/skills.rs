//! Skills and their versions, files and tags: publish, lookups, list pages.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`); the statements
//! are the same text on both (placeholders `$1…`, `ON CONFLICT`, row values in keyset
//! conditions). Full-text search differs and lives in the backend files.

use super::{Db, begin_write, refresh_search};
use crate::db::{
    FileRow, ListQuery, ListSort, NewVersion, PublishOutcome, Seek, SkillDetailRow, SkillRow,
    VersionRow,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Columns of [`SkillRow`]; `FROM` must be `skills s` followed by [`SKILL_JOINS`].
pub const SKILL_COLUMNS: &str = "s.id, s.slug, s.owner_id, u.handle AS owner_handle, \
    u.display_name AS owner_display_name, u.image AS owner_image, s.display_name, s.summary, \
    s.tags_json, s.downloads, s.stars, s.installs_current, s.installs_all_time, s.versions_count, \
    s.highlighted, s.is_suspicious, s.is_malware_blocked, s.moderation_version_id, \
    s.moderation_updated_at, s.soft_deleted_at, s.hidden_at, s.created_at, s.updated_at, s.latest_version_id, \
    lv.version AS latest_version, lv.created_at AS latest_created_at, \
    lv.changelog AS latest_changelog, lv.metadata_json AS latest_metadata_json, \
    s.prompt_sets_status";

/// Joins behind [`SKILL_COLUMNS`].
pub const SKILL_JOINS: &str =
    "JOIN users u ON u.id = s.owner_id LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id";

/// The SQL twin of `Visibility::is_listed` (`crate::skills::visibility`): the skills that
/// list and search pages may show. Keep the two in step.
pub const LISTED: &str = "s.soft_deleted_at IS NULL AND s.hidden_at IS NULL \
    AND NOT s.is_malware_blocked AND s.latest_version_id IS NOT NULL";

/// The `validPromptSetsOnly` filter: the latest version has prompt sets, all valid.
pub const VALID_PROMPT_SETS: &str = "s.prompt_sets_status = 'valid'";

const VERSION_COLUMNS: &str = "v.id, v.skill_id, v.version, v.changelog, v.changelog_source, \
    v.fingerprint, v.scan_json, v.verdict, v.published_by, v.created_at, v.soft_deleted_at, \
    v.prompt_sets_json";

/// Publishes a version in one transaction (skill row, version, files, tags, tickets, index).
pub async fn publish_version(pool: &Pool, new: &NewVersion) -> Result<PublishOutcome, DbError> {
    let mut tx = begin_write(pool).await?;
    // Publishes of one slug must serialise on every backend. SQLite's `BEGIN IMMEDIATE`
    // already does; on PostgreSQL (read committed) two first publishes would both see no
    // skill and one would fail on the unique slug, and two versions could both read the
    // old latest. So: create the row when missing (a racing creator makes this a no-op
    // once it commits), then take its row lock before reading anything the decision uses.
    sqlx::query(
        "INSERT INTO skills (slug, owner_id, display_name, summary, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (slug) DO NOTHING",
    )
    .bind(&new.slug)
    .bind(new.user_id)
    .bind(&new.display_name)
    .bind(&new.summary)
    .bind(new.now)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE skills SET updated_at = updated_at WHERE slug = $1")
        .bind(&new.slug)
        .execute(&mut *tx)
        .await?;
    let (skill_id, owner_id, current_latest): (i64, i64, Option<String>) = sqlx::query_as(
        "SELECT s.id, s.owner_id, lv.version FROM skills s \
         LEFT JOIN skill_versions lv ON lv.id = s.latest_version_id WHERE s.slug = $1",
    )
    .bind(&new.slug)
    .fetch_one(&mut *tx)
    .await?;
    if owner_id != new.user_id {
        return Ok(PublishOutcome::SlugTaken);
    }
    let taken: Option<(i64,)> =
        sqlx::query_as("SELECT id FROM skill_versions WHERE skill_id = $1 AND version = $2")
            .bind(skill_id)
            .bind(&new.version)
            .fetch_optional(&mut *tx)
            .await?;
    if taken.is_some() {
        return Ok(PublishOutcome::VersionExists);
    }
    for ticket in &new.tickets {
        let done = sqlx::query(
            "UPDATE upload_tickets SET used_at = $1 WHERE ticket = $2 AND user_id = $3 \
             AND used_at IS NULL AND uploaded_at IS NOT NULL AND expires_at > $1",
        )
        .bind(new.now)
        .bind(ticket)
        .bind(new.user_id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(PublishOutcome::TicketReused);
        }
    }
    let (version_id,): (i64,) = sqlx::query_as(
        "INSERT INTO skill_versions (skill_id, version, changelog, changelog_source, fingerprint, \
         summary, skill_md, metadata_json, scan_json, verdict, published_by, created_at, \
         prompt_sets_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id",
    )
    .bind(skill_id)
    .bind(&new.version)
    .bind(&new.changelog)
    .bind(&new.changelog_source)
    .bind(&new.fingerprint)
    .bind(&new.summary)
    .bind(&new.skill_md)
    .bind(&new.metadata_json)
    .bind(&new.scan_json)
    .bind(&new.verdict)
    .bind(new.user_id)
    .bind(new.now)
    .bind(&new.prompt_sets_json)
    .fetch_one(&mut *tx)
    .await?;
    for (position, file) in new.files.iter().enumerate() {
        sqlx::query(
            "INSERT INTO version_files (version_id, position, path, size, sha256, content_type) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(version_id)
        .bind(position as i64)
        .bind(&file.path)
        .bind(file.size)
        .bind(&file.sha256)
        .bind(&file.content_type)
        .execute(&mut *tx)
        .await?;
    }
    // The rule lives in the domain; it is applied here, inside the transaction, because
    // the current latest must be read under the same write lock that moves it.
    let latest = crate::skills::versions::becomes_latest(current_latest.as_deref(), &new.version);
    let mut tags: Vec<&str> = new
        .tags
        .iter()
        .map(String::as_str)
        .filter(|tag| *tag != "latest")
        .collect();
    if latest {
        tags.push("latest");
    }
    for tag in tags {
        sqlx::query(
            "INSERT INTO skill_tags (skill_id, tag, version_id) VALUES ($1, $2, $3) \
             ON CONFLICT (skill_id, tag) DO UPDATE SET version_id = excluded.version_id",
        )
        .bind(skill_id)
        .bind(tag)
        .bind(version_id)
        .execute(&mut *tx)
        .await?;
    }
    let tag_rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT t.tag, v.version FROM skill_tags t JOIN skill_versions v ON v.id = t.version_id \
         WHERE t.skill_id = $1 ORDER BY t.tag",
    )
    .bind(skill_id)
    .fetch_all(&mut *tx)
    .await?;
    let tag_map: serde_json::Map<String, serde_json::Value> = tag_rows
        .iter()
        .map(|(tag, version)| (tag.clone(), serde_json::Value::String(version.clone())))
        .collect();
    let tags_json = serde_json::Value::Object(tag_map).to_string();
    if latest {
        sqlx::query(
            "UPDATE skills SET latest_version_id = $1, display_name = $2, summary = $3, \
             tags_json = $4, versions_count = versions_count + 1, updated_at = $5, \
             prompt_sets_status = $7 WHERE id = $6",
        )
        .bind(version_id)
        .bind(&new.display_name)
        .bind(&new.summary)
        .bind(&tags_json)
        .bind(new.now)
        .bind(skill_id)
        .bind(&new.prompt_sets_status)
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE skills SET tags_json = $1, versions_count = versions_count + 1, \
             updated_at = $2 WHERE id = $3",
        )
        .bind(&tags_json)
        .bind(new.now)
        .bind(skill_id)
        .execute(&mut *tx)
        .await?;
    }
    if latest || new.is_malware_blocked {
        sqlx::query(
            "UPDATE skills SET is_suspicious = $1, is_malware_blocked = $2, \
             moderation_version_id = $3, moderation_updated_at = $4 WHERE id = $5",
        )
        .bind(new.is_suspicious)
        .bind(new.is_malware_blocked)
        .bind(version_id)
        .bind(new.now)
        .bind(skill_id)
        .execute(&mut *tx)
        .await?;
    }
    let tag_names: Vec<&str> = tag_rows.iter().map(|(tag, _)| tag.as_str()).collect();
    refresh_search(&mut tx, skill_id, &tag_names.join(" ")).await?;
    let event = crate::audit::AuditEvent::by_user_id(
        new.user_id,
        "skill.publish",
        crate::audit::TargetKind::Skill,
        Some(skill_id),
        new.slug.clone(),
        new.now,
    )
    .to(serde_json::json!({
        "version": new.version,
        "verdict": new.verdict,
        "latest": latest,
    }))
    .into_row();
    super::audit::insert_event(&mut tx, &event).await?;
    tx.commit().await?;
    Ok(PublishOutcome::Published {
        skill_id,
        version_id,
    })
}

/// A skill with detail columns by canonical slug, whatever its visibility.
pub async fn find_skill(pool: &Pool, slug: &str) -> Result<Option<SkillDetailRow>, DbError> {
    let sql = format!(
        "SELECT {SKILL_COLUMNS}, lv.skill_md AS latest_skill_md, \
         mv.scan_json AS moderation_scan_json \
         FROM skills s {SKILL_JOINS} \
         LEFT JOIN skill_versions mv ON mv.id = s.moderation_version_id \
         WHERE s.id = {resolve}",
        // A live slug, else an alias left by a rename or merge (see `lifecycle.rs`).
        resolve = super::lifecycle::RESOLVE_SLUG,
    );
    Ok(
        sqlx::query_as::<_, SkillDetailRow>(sqlx::AssertSqlSafe(sql))
            .bind(slug)
            .fetch_optional(pool)
            .await?,
    )
}

/// Builds the SQL of a list page. Placeholders: `$1` limit, then the seek values, then
/// the prefix pattern, then the trending bound.
fn list_sql(query: &ListQuery) -> String {
    use std::fmt::Write as _;
    let mut conditions = vec![LISTED.to_owned()];
    let mut next = 2;
    if query.non_suspicious_only {
        conditions.push("NOT s.is_suspicious".to_owned());
    }
    if query.valid_prompt_sets_only {
        conditions.push(VALID_PROMPT_SETS.to_owned());
    }
    let mut from = format!("skills s {SKILL_JOINS}");
    let order = match query.sort {
        ListSort::Name => {
            if matches!(query.after, Some(Seek::Slug(_))) {
                conditions.push(format!("s.slug > ${next}"));
                next += 1;
            }
            if query.prefix.is_some() {
                conditions.push(format!("s.slug LIKE ${next}"));
            }
            "s.slug ASC".to_owned()
        }
        ListSort::Trending => {
            let _ = write!(
                from,
                " LEFT JOIN (SELECT skill_id, COUNT(*) AS recent FROM (\
                 SELECT skill_id FROM download_events WHERE created_at >= ${next} \
                 UNION ALL SELECT skill_id FROM install_events WHERE created_at >= ${next}) e \
                 GROUP BY skill_id) t ON t.skill_id = s.id"
            );
            "COALESCE(t.recent, 0) DESC, s.downloads DESC, s.id DESC".to_owned()
        }
        sort => {
            let columns = sort.columns();
            if let Some(Seek::Keys { values, .. }) = &query.after
                && values.len() == columns.len()
            {
                let mut left = String::from("(");
                let mut right = String::from("(");
                for column in columns {
                    let _ = write!(left, "{column}, ");
                    let _ = write!(right, "${next}, ");
                    next += 1;
                }
                let _ = write!(left, "s.id)");
                let _ = write!(right, "${next})");
                conditions.push(format!("{left} < {right}"));
            }
            let mut ordering: Vec<String> = columns.iter().map(|c| format!("{c} DESC")).collect();
            ordering.push("s.id DESC".to_owned());
            ordering.join(", ")
        }
    };
    format!(
        "SELECT {SKILL_COLUMNS} FROM {from} WHERE {} ORDER BY {order} LIMIT $1",
        conditions.join(" AND ")
    )
}

/// A page of listed skills; up to `limit + 1` rows.
pub async fn list_skills(pool: &Pool, query: &ListQuery) -> Result<Vec<SkillRow>, DbError> {
    let sql = list_sql(query);
    let mut statement =
        sqlx::query_as::<_, SkillRow>(sqlx::AssertSqlSafe(sql)).bind(query.limit + 1);
    match (query.sort, &query.after) {
        (ListSort::Name, after) => {
            if let Some(Seek::Slug(slug)) = after {
                statement = statement.bind(slug.clone());
            }
            if let Some(prefix) = &query.prefix {
                // Prefixes are validated to `[a-z0-9-]` before they get here, so no
                // LIKE wildcard can be smuggled in.
                statement = statement.bind(format!("{prefix}%"));
            }
        }
        (ListSort::Trending, _) => {
            statement = statement.bind(query.trending_since);
        }
        (sort, Some(Seek::Keys { values, id })) if values.len() == sort.columns().len() => {
            for value in values {
                statement = statement.bind(*value);
            }
            statement = statement.bind(*id);
        }
        _ => {}
    }
    Ok(statement.fetch_all(pool).await?)
}

/// Live versions newest first, after `(created_at, id)`; up to `limit + 1` rows.
pub async fn list_versions(
    pool: &Pool,
    skill_id: i64,
    after: Option<(i64, i64)>,
    limit: i64,
) -> Result<Vec<VersionRow>, DbError> {
    let rows = match after {
        Some((created_at, id)) => {
            let sql = format!(
                "SELECT {VERSION_COLUMNS} FROM skill_versions v \
                 WHERE v.skill_id = $1 AND v.soft_deleted_at IS NULL \
                 AND (v.created_at, v.id) < ($2, $3) \
                 ORDER BY v.created_at DESC, v.id DESC LIMIT $4"
            );
            sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
                .bind(skill_id)
                .bind(created_at)
                .bind(id)
                .bind(limit + 1)
                .fetch_all(pool)
                .await?
        }
        None => {
            let sql = format!(
                "SELECT {VERSION_COLUMNS} FROM skill_versions v \
                 WHERE v.skill_id = $1 AND v.soft_deleted_at IS NULL \
                 ORDER BY v.created_at DESC, v.id DESC LIMIT $2"
            );
            sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
                .bind(skill_id)
                .bind(limit + 1)
                .fetch_all(pool)
                .await?
        }
    };
    Ok(rows)
}

/// One version by its string, withdrawn ones included.
pub async fn find_version(
    pool: &Pool,
    skill_id: i64,
    version: &str,
) -> Result<Option<VersionRow>, DbError> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM skill_versions v WHERE v.skill_id = $1 AND v.version = $2"
    );
    Ok(sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
        .bind(skill_id)
        .bind(version)
        .fetch_optional(pool)
        .await?)
}

/// One version by id.
pub async fn find_version_by_id(
    pool: &Pool,
    version_id: i64,
) -> Result<Option<VersionRow>, DbError> {
    let sql = format!("SELECT {VERSION_COLUMNS} FROM skill_versions v WHERE v.id = $1");
    Ok(sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
        .bind(version_id)
        .fetch_optional(pool)
        .await?)
}

/// The version a tag points at.
pub async fn find_tagged_version(
    pool: &Pool,
    skill_id: i64,
    tag: &str,
) -> Result<Option<VersionRow>, DbError> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM skill_tags t JOIN skill_versions v ON v.id = t.version_id \
         WHERE t.skill_id = $1 AND t.tag = $2"
    );
    Ok(sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
        .bind(skill_id)
        .bind(tag)
        .fetch_optional(pool)
        .await?)
}

/// The newest live version with this bundle fingerprint.
pub async fn find_version_by_fingerprint(
    pool: &Pool,
    skill_id: i64,
    fingerprint: &str,
) -> Result<Option<VersionRow>, DbError> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM skill_versions v \
         WHERE v.skill_id = $1 AND v.fingerprint = $2 AND v.soft_deleted_at IS NULL \
         ORDER BY v.created_at DESC, v.id DESC LIMIT 1"
    );
    Ok(sqlx::query_as::<_, VersionRow>(sqlx::AssertSqlSafe(sql))
        .bind(skill_id)
        .bind(fingerprint)
        .fetch_optional(pool)
        .await?)
}

/// Files of a version in stored order.
pub async fn version_files(pool: &Pool, version_id: i64) -> Result<Vec<FileRow>, DbError> {
    Ok(sqlx::query_as::<_, FileRow>(
        "SELECT path, size, sha256, content_type FROM version_files \
         WHERE version_id = $1 ORDER BY position",
    )
    .bind(version_id)
    .fetch_all(pool)
    .await?)
}
