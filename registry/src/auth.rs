//! Bearer-token authentication: the credential of every request, and extractors for
//! handlers that need a user.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};

use crate::db::{Store, User};
use crate::error::{AppError, DbError};
use crate::tokens::{constant_time_eq, hash_token};

/// 401 text for a request without a usable `Authorization: Bearer` header.
pub const MISSING_TOKEN: &str =
    "Unauthorized: API token is missing. Run `clawhub login` to authenticate.";
/// 401 text for a token the registry does not know.
pub const INVALID_TOKEN: &str =
    "Unauthorized: API token is invalid or revoked. Run `clawhub login` again.";
/// 401 text for a token that was revoked.
pub const REVOKED_TOKEN: &str =
    "Unauthorized: API token has been revoked. Run `clawhub login` again to create a new one.";

/// What a request's `Authorization` header amounts to.
#[derive(Debug, Clone)]
pub enum Credential {
    /// No header, or not a Bearer token.
    Missing,
    /// A token nobody issued.
    Invalid,
    /// A token that was revoked.
    Revoked,
    /// A live token of this user.
    Valid(Arc<User>),
}

impl Credential {
    /// Resolves the header against the store.
    pub async fn resolve(headers: &HeaderMap, store: &dyn Store) -> Result<Self, DbError> {
        let Some(token) = bearer_token(headers) else {
            return Ok(Self::Missing);
        };
        let hash = hash_token(token);
        match store.find_token(&hash).await? {
            None => Ok(Self::Invalid),
            // The index lookup compares hashes, which leaks nothing an attacker can steer
            // (they would need SHA-256 preimages); the second, constant-time comparison
            // keeps that true whatever a database's collation or index does.
            Some(record) if !constant_time_eq(record.token_hash.as_bytes(), hash.as_bytes()) => {
                Ok(Self::Invalid)
            }
            Some(record) if record.revoked_at.is_some() => Ok(Self::Revoked),
            Some(record) => Ok(Self::Valid(Arc::new(record.user))),
        }
    }

    /// The user, when the token is valid.
    pub fn user(&self) -> Option<&Arc<User>> {
        match self {
            Self::Valid(user) => Some(user),
            _ => None,
        }
    }
}

/// The token of an `Authorization: Bearer …` header (scheme case-insensitive).
pub fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// A handler argument that requires a valid token.
#[derive(Debug, Clone)]
pub struct RequireUser(pub Arc<User>);

impl<S: Send + Sync> FromRequestParts<S> for RequireUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        match parts.extensions.get::<Credential>() {
            Some(Credential::Valid(user)) => Ok(Self(user.clone())),
            Some(Credential::Invalid) => Err(AppError::Unauthorized(INVALID_TOKEN.into())),
            Some(Credential::Revoked) => Err(AppError::Unauthorized(REVOKED_TOKEN.into())),
            Some(Credential::Missing) | None => Err(AppError::Unauthorized(MISSING_TOKEN.into())),
        }
    }
}

/// A handler argument with the caller when the token is valid; anonymous otherwise.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<Arc<User>>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(
            parts
                .extensions
                .get::<Credential>()
                .and_then(Credential::user)
                .cloned(),
        ))
    }
}

/// The client address the rate limiter used (forwarded headers only when trusted).
#[derive(Debug, Clone, Copy, Default)]
pub struct ClientIp(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn bearer_scheme_is_case_insensitive() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("  bearer  clh_x "),
        );
        assert_eq!(bearer_token(&headers), Some("clh_x"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer_token(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(bearer_token(&headers), None);
    }
}
