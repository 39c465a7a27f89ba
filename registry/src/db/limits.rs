//! Shared fixed-window rate-limit buckets (used with PostgreSQL, where several server
//! instances count together).
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`).

use super::Db;
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

/// Adds `amount` requests to a bucket and returns the new count.
pub async fn hit_rate_limit(
    pool: &Pool,
    bucket: &str,
    window_start: i64,
    amount: i64,
) -> Result<i64, DbError> {
    let (count,): (i64,) = sqlx::query_as(
        "INSERT INTO rate_limit_buckets (bucket, window_start, count) VALUES ($1, $2, $3) \
         ON CONFLICT (bucket, window_start) \
         DO UPDATE SET count = rate_limit_buckets.count + excluded.count RETURNING count",
    )
    .bind(bucket)
    .bind(window_start)
    .bind(amount)
    .fetch_one(pool)
    .await?;
    Ok(count)
}

/// Drops buckets of windows older than `window_start`.
pub async fn prune_rate_limits(pool: &Pool, window_start: i64) -> Result<(), DbError> {
    sqlx::query("DELETE FROM rate_limit_buckets WHERE window_start < $1")
        .bind(window_start)
        .execute(pool)
        .await?;
    Ok(())
}
