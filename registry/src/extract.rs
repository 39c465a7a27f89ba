//! Extractors whose rejections use the plain-text error envelope.

use std::collections::HashMap;

use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::AppError;

fn body_error(status: StatusCode, text: String) -> AppError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::PayloadTooLarge("Request body is too large".into())
    } else {
        AppError::BadRequest(text)
    }
}

/// `axum::Json` with plain-text rejections.
#[derive(Debug, Clone)]
pub struct AppJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for AppJson<T> {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|value| value.trim().to_ascii_lowercase())
            .is_some_and(|value| value == "application/json" || value.ends_with("+json"));
        if !is_json {
            return Err(AppError::UnsupportedMediaType(
                "Expected request with `Content-Type: application/json`".into(),
            ));
        }
        let AppBytes(bytes) = AppBytes::from_request(request, state).await?;
        parse_json(&bytes).map(Self)
    }
}

/// Parses a JSON body; strings with NUL characters are refused because no stored text
/// may contain them (PostgreSQL cannot store them at all).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    if has_nul_escape(bytes) {
        return Err(AppError::bad_request(
            "Invalid JSON: strings must not contain NUL characters",
        ));
    }
    serde_json::from_slice(bytes)
        .map_err(|error| AppError::BadRequest(format!("Invalid JSON: {error}")))
}

/// A JSON body that may be empty (then the default); invalid JSON is a 400.
pub fn optional_body<T: DeserializeOwned + Default>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    parse_json(bytes)
}

/// The owner qualifier of a skill action: the body's `ownerHandle` wins over the query's.
pub fn owner_of(body: Option<&str>, params: &Params) -> Option<String> {
    body.map(|handle| handle.trim().trim_start_matches('@').to_ascii_lowercase())
        .filter(|handle| !handle.is_empty())
        .or_else(|| params.owner())
}

/// True when JSON text holds a `\u0000` escape: an odd run of backslashes before `u0000`
/// (an even run is an escaped backslash followed by literal text).
pub fn has_nul_escape(bytes: &[u8]) -> bool {
    memchr::memmem::find_iter(bytes, b"u0000").any(|position| {
        let backslashes = bytes[..position]
            .iter()
            .rev()
            .take_while(|byte| **byte == b'\\')
            .count();
        backslashes % 2 == 1
    })
}

/// The raw body bytes with plain-text rejections.
#[derive(Debug, Clone)]
pub struct AppBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for AppBytes {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        axum::body::Bytes::from_request(request, state)
            .await
            .map(Self)
            .map_err(|rejection: BytesRejection| {
                body_error(rejection.status(), rejection.body_text())
            })
    }
}

/// `axum::extract::Path` with plain-text rejections.
#[derive(Debug, Clone)]
pub struct AppPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for AppPath<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if parts.uri.path().to_ascii_lowercase().contains("%00") {
            return Err(AppError::bad_request(
                "Invalid path: NUL characters are not allowed",
            ));
        }
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Self(value))
            .map_err(|rejection: PathRejection| AppError::BadRequest(rejection.body_text()))
    }
}

/// Query parameters by name (first value wins); unknown names are simply never read.
#[derive(Debug, Clone, Default)]
pub struct Params(pub HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let pairs: Vec<(String, String)> = serde_urlencoded_pairs(query)
            .filter(|pairs| {
                !pairs
                    .iter()
                    .any(|(key, value)| key.contains('\0') || value.contains('\0'))
            })
            .ok_or_else(|| AppError::BadRequest("Invalid query string".into()))?;
        let mut map = HashMap::with_capacity(pairs.len());
        for (key, value) in pairs {
            map.entry(key).or_insert(value);
        }
        Ok(Self(map))
    }
}

fn serde_urlencoded_pairs(query: &str) -> Option<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    for part in query.split('&').filter(|part| !part.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        pairs.push((decode_component(key)?, decode_component(value)?));
    }
    Some(pairs)
}

fn decode_component(text: &str) -> Option<String> {
    let plus_decoded = text.replace('+', " ");
    percent_encoding::percent_decode_str(&plus_decoded)
        .decode_utf8()
        .ok()
        .map(|value| value.into_owned())
}

impl Params {
    /// A trimmed, non-empty parameter.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.0
            .get(name)
            .map(|value| value.trim())
            .filter(|value| !value.is_empty())
    }

    /// A boolean flag: `true`/`1` are true, `false`/`0`/empty false, anything else a 400.
    pub fn flag(&self, name: &str) -> Result<bool, AppError> {
        match self
            .0
            .get(name)
            .map(|value| value.trim().to_ascii_lowercase())
        {
            None => Ok(false),
            Some(value) => match value.as_str() {
                "true" | "1" => Ok(true),
                "false" | "0" | "" => Ok(false),
                _ => Err(AppError::BadRequest(format!(
                    "Invalid {name} query parameter"
                ))),
            },
        }
    }

    /// An integer clamped to `min..=max`, `default` when absent, a 400 when not a number.
    pub fn clamped(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, AppError> {
        match self.text(name) {
            None => Ok(default),
            Some(value) => value
                .parse::<i64>()
                .map(|number| number.clamp(min, max))
                .map_err(|_| AppError::BadRequest(format!("Invalid {name} query parameter"))),
        }
    }

    /// The owner qualifier (`ownerHandle`, alias `owner`), without `@`, lowercase.
    pub fn owner(&self) -> Option<String> {
        self.text("ownerHandle")
            .or_else(|| self.text("owner"))
            .map(|handle| handle.trim_start_matches('@').to_ascii_lowercase())
            .filter(|handle| !handle.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_escapes_are_found_but_escaped_backslashes_are_not() {
        assert!(has_nul_escape(br#"{"a": "x\u0000"}"#));
        assert!(has_nul_escape(br#"{"a": "\\\u0000"}"#));
        assert!(!has_nul_escape(br#"{"a": "\\u0000"}"#));
        assert!(!has_nul_escape(br#"{"a": "u0000"}"#));
    }

    #[test]
    fn query_pairs_decode() {
        let pairs = serde_urlencoded_pairs("q=a+b%20c&x&y=%2F").expect("valid");
        assert_eq!(pairs[0], ("q".into(), "a b c".into()));
        assert_eq!(pairs[1], ("x".into(), String::new()));
        assert_eq!(pairs[2], ("y".into(), "/".into()));
        assert!(serde_urlencoded_pairs("q=%ff").is_none());
    }
}
