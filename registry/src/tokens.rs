//! API tokens: `clh_` + 43 base64url characters (32 random bytes). Only the SHA-256 of the
//! whole token string is stored, so a database leak does not leak usable tokens.

use anyhow::{Context as _, bail};
use base64::Engine as _;

use crate::db::{Role, Store};
use crate::storage::sha256_hex;

/// Prefix of every token.
pub const TOKEN_PREFIX: &str = "clh_";

/// Makes a new random token string.
pub fn generate_token() -> anyhow::Result<String> {
    let mut bytes = [0_u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|error| anyhow::anyhow!("no system randomness: {error}"))?;
    Ok(format!(
        "{TOKEN_PREFIX}{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    ))
}

/// A random opaque identifier (upload tickets): 24 random bytes, base64url.
pub fn random_id() -> anyhow::Result<String> {
    let mut bytes = [0_u8; 24];
    getrandom::fill(&mut bytes)
        .map_err(|error| anyhow::anyhow!("no system randomness: {error}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The stored form of a token: lowercase hex SHA-256 of the token string.
pub fn hash_token(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// Compares two byte strings in time that depends only on their lengths, never on where
/// they first differ.
pub fn constant_time_eq(left: &[u8], right: &[u8]) -> bool {
    if left.len() != right.len() {
        return false;
    }
    let difference = left
        .iter()
        .zip(right)
        .fold(0_u8, |difference, (a, b)| difference | (a ^ b));
    // `black_box` keeps the optimiser from turning the fold into an early-exit comparison.
    std::hint::black_box(difference) == 0
}

/// Checks a user handle: 1-39 characters, lowercase letters, digits, `-` and `_`.
pub fn validate_handle(handle: &str) -> anyhow::Result<()> {
    let valid = !handle.is_empty()
        && handle.len() <= 39
        && handle
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && handle.as_bytes()[0].is_ascii_alphanumeric();
    if !valid {
        bail!(
            "invalid handle `{handle}`: use 1-39 lowercase letters, digits, `-` or `_`, starting with a letter or digit"
        );
    }
    Ok(())
}

/// Creates the user if missing (setting `role`) and returns a new token for it.
pub async fn create_token(store: &dyn Store, handle: &str, role: Role) -> anyhow::Result<String> {
    create_token_with_role(store, handle, Some(role)).await
}

/// Like [`create_token`], but leaves the role of an existing user alone when `role` is `None`.
pub async fn create_token_with_role(
    store: &dyn Store,
    handle: &str,
    role: Option<Role>,
) -> anyhow::Result<String> {
    let handle = handle.trim().trim_start_matches('@').to_ascii_lowercase();
    validate_handle(&handle)?;
    let now = chrono::Utc::now().timestamp_millis();
    let user = store
        .ensure_user(&handle, role, now)
        .await
        .with_context(|| format!("failed to create the user `{handle}`"))?;
    let token = generate_token()?;
    store
        .insert_token(user.id, &hash_token(&token), now)
        .await
        .context("failed to store the token")?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_the_reference_shape() {
        let token = generate_token().expect("randomness");
        assert!(token.starts_with("clh_"));
        assert_eq!(token.len(), 4 + 43);
        assert_ne!(token, generate_token().expect("randomness"));
        assert_eq!(hash_token(&token).len(), 64);
    }

    #[test]
    fn constant_time_comparison_is_equality() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn handles_are_checked() {
        assert!(validate_handle("alice").is_ok());
        assert!(validate_handle("Alice").is_err());
        assert!(validate_handle("").is_err());
        assert!(validate_handle("-x").is_err());
    }
}
