//! Users and API tokens.
//!
//! Compiled once per backend (mounted by `sqlite.rs` and `postgres.rs`): `Db` is that
//! backend's `sqlx::Database`, so these are plain functions over a concrete pool.

use super::Db;
use crate::db::{Role, TokenRecord, User};
use crate::error::DbError;

type Pool = sqlx::Pool<Db>;

const USER_COLUMNS: &str = "SELECT id, handle, display_name, image, role FROM users";

/// Creates the user if missing (role `user` unless given); updates the role when given.
pub async fn ensure_user(
    pool: &Pool,
    handle: &str,
    role: Option<Role>,
    now: i64,
) -> Result<User, DbError> {
    let role_text = role.unwrap_or(Role::User).as_str();
    sqlx::query(
        "INSERT INTO users (handle, role, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (handle) DO NOTHING",
    )
    .bind(handle)
    .bind(role_text)
    .bind(now)
    .execute(pool)
    .await?;
    if let Some(role) = role {
        sqlx::query("UPDATE users SET role = $1 WHERE handle = $2")
            .bind(role.as_str())
            .bind(handle)
            .execute(pool)
            .await?;
    }
    find_user(pool, handle).await?.ok_or(DbError::NotFound)
}

/// A user by lowercase handle.
pub async fn find_user(pool: &Pool, handle: &str) -> Result<Option<User>, DbError> {
    Ok(sqlx::query_as::<_, User>(sqlx::AssertSqlSafe(format!(
        "{USER_COLUMNS} WHERE handle = $1"
    )))
    .bind(handle)
    .fetch_optional(pool)
    .await?)
}

/// Stores the hash of a new token.
pub async fn insert_token(
    pool: &Pool,
    user_id: i64,
    token_hash: &str,
    now: i64,
) -> Result<(), DbError> {
    sqlx::query("INSERT INTO api_tokens (user_id, token_hash, created_at) VALUES ($1, $2, $3)")
        .bind(user_id)
        .bind(token_hash)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(())
}

/// A token (revoked ones included) with its user.
pub async fn find_token(pool: &Pool, token_hash: &str) -> Result<Option<TokenRecord>, DbError> {
    Ok(sqlx::query_as::<_, TokenRecord>(
        "SELECT u.id, u.handle, u.display_name, u.image, u.role, t.revoked_at, t.token_hash \
         FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await?)
}

/// Revokes a live token; false when there is none with this hash.
pub async fn revoke_token(pool: &Pool, token_hash: &str, now: i64) -> Result<bool, DbError> {
    let done = sqlx::query(
        "UPDATE api_tokens SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(token_hash)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}
