//! Counters: downloads (once per actor and day), installs, stars.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use std::collections::BTreeMap;

use super::{Db, begin_write};
use crate::db::DownloadEvent;
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Counts downloads once per skill, actor and UTC day, in one transaction: the event rows
/// are the dedupe key, and each skill's counter moves by the rows that were new. Events
/// of skills deleted meanwhile are dropped.
pub async fn record_downloads(pool: &Pool, events: &[DownloadEvent]) -> Result<Vec<i64>, DbError> {
    let mut tx = begin_write(pool).await?;
    let mut counted: BTreeMap<i64, i64> = BTreeMap::new();
    for event in events {
        let done = sqlx::query(
            "INSERT INTO download_events (skill_id, actor, day, created_at) \
             SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM skills WHERE id = $1) \
             ON CONFLICT DO NOTHING",
        )
        .bind(event.skill_id)
        .bind(&event.actor)
        .bind(event.day)
        .bind(event.at)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 1 {
            *counted.entry(event.skill_id).or_default() += 1;
        }
    }
    for (skill_id, count) in &counted {
        sqlx::query("UPDATE skills SET downloads = downloads + $1 WHERE id = $2")
            .bind(count)
            .bind(skill_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(counted.into_keys().collect())
}

/// Counts an install.
pub async fn record_install(
    pool: &Pool,
    skill_id: i64,
    user_id: Option<i64>,
    version: Option<&str>,
    now: i64,
) -> Result<(), DbError> {
    let mut tx = begin_write(pool).await?;
    sqlx::query(
        "INSERT INTO install_events (skill_id, user_id, version, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(skill_id)
    .bind(user_id)
    .bind(version)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "UPDATE skills SET installs_current = installs_current + 1, \
         installs_all_time = installs_all_time + 1 WHERE id = $1",
    )
    .bind(skill_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Stars (`true`) or unstars a skill; true when something changed.
pub async fn set_star(
    pool: &Pool,
    skill_id: i64,
    user_id: i64,
    starred: bool,
    now: i64,
) -> Result<bool, DbError> {
    let mut tx = begin_write(pool).await?;
    let changed = if starred {
        let done = sqlx::query(
            "INSERT INTO stars (skill_id, user_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(skill_id)
        .bind(user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 1 {
            sqlx::query("UPDATE skills SET stars = stars + 1 WHERE id = $1")
                .bind(skill_id)
                .execute(&mut *tx)
                .await?;
        }
        done.rows_affected() == 1
    } else {
        let done = sqlx::query("DELETE FROM stars WHERE skill_id = $1 AND user_id = $2")
            .bind(skill_id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 1 {
            sqlx::query("UPDATE skills SET stars = stars - 1 WHERE id = $1 AND stars > 0")
                .bind(skill_id)
                .execute(&mut *tx)
                .await?;
        }
        done.rows_affected() == 1
    };
    tx.commit().await?;
    Ok(changed)
}
