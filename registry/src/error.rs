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
            other => Self::Other(anyhow::Error::new(other)),
        }
    }
}

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
    /// A database failure: logged, answered with a fixed 500 text.
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
        text_response(status, message)
    }
}

/// Result type of handlers.
pub type AppResult<T> = Result<T, AppError>;
