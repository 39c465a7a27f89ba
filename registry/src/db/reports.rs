//! Moderation actions people take: hiding skills, reports and appeals, rescans. The SQL of
//! [`ReportStore`] and its implementation for this backend. Compiled once per backend.

use async_trait::async_trait;

use super::{Db, ThisStore, audit::insert_event, begin_write};
use crate::db::audit_store::NewAuditEvent;
use crate::db::report_store::{
    CaseEffect, CaseOpened, CaseRow, NewCase, ReportStore, RescanResult,
};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;
type Connection = <Db as sqlx::Database>::Connection;

/// Columns of [`CaseRow`].
const CASE_SELECT: &str = "SELECT c.id, c.kind, c.skill_id, s.slug AS skill_slug, \
    s.display_name AS skill_display_name, c.user_id, u.handle AS user_handle, c.version, \
    c.text, c.status, c.created_at, m.handle AS resolved_by_handle, c.resolved_at, c.note \
    FROM moderation_cases c JOIN skills s ON s.id = c.skill_id \
    JOIN users u ON u.id = c.user_id LEFT JOIN users m ON m.id = c.resolved_by";

/// Sets or clears `hidden_at` when it is not in that state yet; true when it changed.
async fn hide(
    connection: &mut Connection,
    skill_id: i64,
    hidden: bool,
    reason: Option<&str>,
    now: i64,
) -> Result<bool, DbError> {
    let sql = if hidden {
        "UPDATE skills SET hidden_at = $1, updated_at = $1, hidden_reason = $3 \
         WHERE id = $2 AND hidden_at IS NULL"
    } else {
        "UPDATE skills SET hidden_at = NULL, updated_at = $1, hidden_reason = NULL \
         WHERE id = $2 AND hidden_at IS NOT NULL"
    };
    let mut query = sqlx::query(sql).bind(now).bind(skill_id);
    if hidden {
        query = query.bind(reason);
    }
    let done = query.execute(&mut *connection).await?;
    Ok(done.rows_affected() == 1)
}

/// Hides or unhides a skill.
pub async fn set_skill_hidden(
    pool: &Pool,
    skill_id: i64,
    hidden: bool,
    reason: Option<&str>,
    now: i64,
    audit: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    if !hide(&mut tx, skill_id, hidden, reason, now).await? {
        return Ok(false);
    }
    insert_event(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(true)
}

/// Opens a case unless the caller has one open.
pub async fn open_case(pool: &Pool, new: &NewCase) -> Result<CaseOpened, DbError> {
    let mut tx = begin_write(pool).await?;
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO moderation_cases (kind, skill_id, user_id, version, text, status, created_at) \
         VALUES ($1, $2, $3, $4, $5, 'open', $6) \
         ON CONFLICT (kind, skill_id, user_id) WHERE status = 'open' DO NOTHING RETURNING id",
    )
    .bind(&new.kind)
    .bind(new.skill_id)
    .bind(new.user_id)
    .bind(&new.version)
    .bind(&new.text)
    .bind(new.now)
    .fetch_optional(&mut *tx)
    .await?;
    let (id, created) = match inserted {
        Some(id) => {
            let mut audit = new.audit.clone();
            audit.to_json = Some(serde_json::json!({ "case": id, "status": "open" }).to_string());
            insert_event(&mut tx, &audit).await?;
            (id, true)
        }
        None => {
            let id: i64 = sqlx::query_scalar(
                "SELECT id FROM moderation_cases WHERE kind = $1 AND skill_id = $2 \
                 AND user_id = $3 AND status = 'open'",
            )
            .bind(&new.kind)
            .bind(new.skill_id)
            .bind(new.user_id)
            .fetch_one(&mut *tx)
            .await?;
            (id, false)
        }
    };
    let open_count: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM moderation_cases WHERE kind = $1 AND skill_id = $2 AND status = 'open'",
    )
    .bind(&new.kind)
    .bind(new.skill_id)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(CaseOpened {
        id,
        created,
        open_count,
    })
}

/// One case.
pub async fn find_case(pool: &Pool, case_id: i64) -> Result<Option<CaseRow>, DbError> {
    let sql = format!("{CASE_SELECT} WHERE c.id = $1");
    Ok(sqlx::query_as::<_, CaseRow>(sqlx::AssertSqlSafe(sql))
        .bind(case_id)
        .fetch_optional(pool)
        .await?)
}

/// A page of cases, newest first.
pub async fn list_cases(
    pool: &Pool,
    kind: &str,
    status: Option<&str>,
    before_id: Option<i64>,
    limit: i64,
) -> Result<Vec<CaseRow>, DbError> {
    // Absent filters bind NULL, so one statement serves every combination.
    let sql = format!(
        "{CASE_SELECT} WHERE c.kind = $1 AND ($2 IS NULL OR c.status = $2) \
         AND ($3 IS NULL OR c.id < $3) ORDER BY c.id DESC LIMIT $4"
    );
    Ok(sqlx::query_as::<_, CaseRow>(sqlx::AssertSqlSafe(sql))
        .bind(kind)
        .bind(status)
        .bind(before_id)
        .bind(limit + 1)
        .fetch_all(pool)
        .await?)
}

/// Closes an open case and applies its effect.
#[expect(
    clippy::too_many_arguments,
    reason = "mirrors the trait method; each value is a column"
)]
pub async fn close_case(
    pool: &Pool,
    case_id: i64,
    status: &str,
    moderator_id: i64,
    note: Option<&str>,
    effect: CaseEffect,
    now: i64,
    audit: &NewAuditEvent,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let skill_id: Option<i64> = sqlx::query_scalar(
        "UPDATE moderation_cases SET status = $1, resolved_by = $2, resolved_at = $3, note = $4 \
         WHERE id = $5 AND status = 'open' RETURNING skill_id",
    )
    .bind(status)
    .bind(moderator_id)
    .bind(now)
    .bind(note)
    .bind(case_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(skill_id) = skill_id else {
        return Ok(false);
    };
    match effect {
        CaseEffect::None => {}
        CaseEffect::HideSkill => {
            hide(&mut tx, skill_id, true, note, now).await?;
        }
        CaseEffect::UnhideSkill => {
            hide(&mut tx, skill_id, false, None, now).await?;
        }
    }
    insert_event(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(true)
}

/// Stores a rescan's verdict.
pub async fn store_rescan(
    pool: &Pool,
    result: &RescanResult,
    audit: &NewAuditEvent,
) -> Result<(), DbError> {
    let mut tx = begin_write(pool).await?;
    sqlx::query("UPDATE skill_versions SET scan_json = $1, verdict = $2 WHERE id = $3")
        .bind(&result.scan_json)
        .bind(&result.verdict)
        .bind(result.version_id)
        .execute(&mut *tx)
        .await?;
    if result.sets_skill_flags {
        sqlx::query(
            // `updated_at` moves too, as for a hide: the search index re-reads rows by it,
            // so a skill a rescan blocks (or clears) leaves (or rejoins) it at once.
            "UPDATE skills SET is_suspicious = $1, is_malware_blocked = $2, \
             moderation_version_id = $3, moderation_updated_at = $4, updated_at = $4 \
             WHERE id = $5",
        )
        .bind(result.is_suspicious)
        .bind(result.is_malware_blocked)
        .bind(result.version_id)
        .bind(result.now)
        .bind(result.skill_id)
        .execute(&mut *tx)
        .await?;
    }
    insert_event(&mut tx, audit).await?;
    tx.commit().await?;
    Ok(())
}

#[async_trait]
impl ReportStore for ThisStore {
    async fn set_skill_hidden(
        &self,
        skill_id: i64,
        hidden: bool,
        reason: Option<&str>,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        set_skill_hidden(&self.0, skill_id, hidden, reason, now, audit).await
    }
    async fn open_case(&self, new: &NewCase) -> Result<CaseOpened, DbError> {
        open_case(&self.0, new).await
    }
    async fn find_case(&self, case_id: i64) -> Result<Option<CaseRow>, DbError> {
        find_case(&self.0, case_id).await
    }
    async fn list_cases(
        &self,
        kind: &str,
        status: Option<&str>,
        before_id: Option<i64>,
        limit: i64,
    ) -> Result<Vec<CaseRow>, DbError> {
        list_cases(&self.0, kind, status, before_id, limit).await
    }
    async fn close_case(
        &self,
        case_id: i64,
        status: &str,
        moderator_id: i64,
        note: Option<&str>,
        effect: CaseEffect,
        now: i64,
        audit: &NewAuditEvent,
    ) -> Result<bool, DbError> {
        close_case(
            &self.0,
            case_id,
            status,
            moderator_id,
            note,
            effect,
            now,
            audit,
        )
        .await
    }
    async fn store_rescan(
        &self,
        result: &RescanResult,
        audit: &NewAuditEvent,
    ) -> Result<(), DbError> {
        store_rescan(&self.0, result, audit).await
    }
}
