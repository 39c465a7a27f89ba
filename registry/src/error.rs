//! The server's error type and the plain-text error envelope.
//!
//! Every error the API answers is `text/plain; charset=utf-8` with `Cache-Control: no-store`,
//! using the exact messages of the reference registry where it gives them. Internal and
//! database failures are logged and answered with a fixed message so nothing internal leaks.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A failure of a store operation, independent of the database backend.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The row the operation needed does not exist.
    #[error("record not found")]
    NotFound,
    /// A uniqueness rule was violated.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database cannot be reached right now (connection refused, cut or timed out,
    /// server shutting down); the request may succeed when retried.
    #[error("database unavailable: {0:#}")]
    Unavailable(anyhow::Error),
    /// Anything else the database reported.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl From<sqlx::Error> for DbError {
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::RowNotFound => Self::NotFound,
            sqlx::Error::Database(database) if database.is_unique_violation() => {
                Self::Conflict(database.message().to_owned())
            }
            other if is_unavailable(&other) => Self::Unavailable(anyhow::Error::new(other)),
            other => Self::Other(anyhow::Error::new(other)),
        }
    }
}

/// True for failures that say the database is away rather than that the request or our
/// SQL is wrong: I/O on the connection, a pool that could not hand out a connection in
/// time, a connection dropped mid-protocol, and PostgreSQL's connection-exception
/// (`08…`), shutdown (`57P01`–`57P03`) and too-many-connections (`53300`) codes.
pub fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => database.code().is_some_and(|code| {
            code.starts_with("08") || matches!(code.as_ref(), "57P01" | "57P02" | "57P03" | "53300")
        }),
        _ => false,
    }
}

/// True when an internal error was caused by an unreachable database somewhere in its
/// chain (a store call wrapped in `anyhow` context by a domain function).
fn chain_is_unavailable(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<DbError>(),
            Some(DbError::Unavailable(_))
        ) || cause
            .downcast_ref::<sqlx::Error>()
            .is_some_and(is_unavailable)
    })
}

/// 503 text while the database is away.
pub const DATABASE_UNAVAILABLE: &str =
    "Service Unavailable: the database is not reachable right now; try again shortly";

/// An error answered to an API client.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400 with the given message.
    #[error("{0}")]
    BadRequest(String),
    /// 401 with the given message (the reference's exact authentication texts).
    #[error("{0}")]
    Unauthorized(String),
    /// 403 with the given message.
    #[error("{0}")]
    Forbidden(String),
    /// 404 with the given message.
    #[error("{0}")]
    NotFound(String),
    /// 409 with the given message.
    #[error("{0}")]
    Conflict(String),
    /// 410 with the given message.
    #[error("{0}")]
    Gone(String),
    /// 413 with the given message.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415 with the given message.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 429; the rate-limit headers are added by the limiter layer.
    #[error("Rate limit exceeded")]
    TooManyRequests,
    /// 503 with the given message.
    #[error("{0}")]
    Unavailable(String),
    /// A bug or an I/O failure: logged, answered with a fixed 500 text.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
    /// A database failure: logged, answered with a fixed text: 503 while the database is
    /// unreachable, 409 for an unforeseen uniqueness conflict, 500 otherwise.
    #[error(transparent)]
    Db(#[from] DbError),
}

impl AppError {
    /// Shorthand for a 400 error.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    /// Shorthand for a 404 error.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(message.into())
    }

    /// The status code this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Gone(_) => StatusCode::GONE,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            // A uniqueness race the handler did not foresee still means "already exists".
            Self::Db(DbError::Conflict(_)) => StatusCode::CONFLICT,
            Self::Db(DbError::Unavailable(_)) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(error) if chain_is_unavailable(error) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) | Self::Db(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Builds a plain-text response, the envelope of every API error.
pub fn text_response(status: StatusCode, message: impl Into<String>) -> Response {
    let mut response = (status, message.into()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match self {
            Self::Db(DbError::Unavailable(error)) => {
                tracing::error!(error = format!("{error:#}"), "database unavailable");
                DATABASE_UNAVAILABLE.to_owned()
            }
            Self::Internal(error) if status == StatusCode::SERVICE_UNAVAILABLE => {
                tracing::error!(error = format!("{error:#}"), "database unavailable");
                DATABASE_UNAVAILABLE.to_owned()
            }
            Self::Db(DbError::Conflict(error)) => {
                tracing::warn!(error = %error, "unexpected uniqueness conflict");
                "Conflict: the record already exists".to_owned()
            }
            Self::Internal(error) => {
                tracing::error!(error = format!("{error:#}"), "internal error");
                "Internal Server Error".to_owned()
            }
            Self::Db(error) => {
                tracing::error!(error = format!("{error:#}"), "database error");
                "Internal Server Error".to_owned()
            }
            other => other.to_string(),
        };
        let mut response = text_response(status, message);
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// Result type of handlers.
pub type AppResult<T> = Result<T, AppError>;
