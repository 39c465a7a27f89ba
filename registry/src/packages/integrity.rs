//! The digests of an artifact that clients check: SHA-256 (ClawHub's own header and
//! `artifact.sha256`), npm's Subresource-Integrity string (`sha512-<base64>`) and npm's
//! legacy `shasum` (hex SHA-1).

use base64::Engine as _;
use sha1::Sha1;
use sha2::{Digest as _, Sha256, Sha512};

/// Every digest of one artifact, computed in one pass over its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digests {
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// `sha512-` followed by the standard base64 of the SHA-512, as npm's `dist.integrity`.
    pub integrity: String,
    /// Lowercase hex SHA-1, as npm's `dist.shasum`.
    pub shasum: String,
}

/// Computes the digests of `bytes`.
pub fn digests(bytes: &[u8]) -> Digests {
    let mut sha256 = Sha256::new();
    let mut sha512 = Sha512::new();
    let mut sha1 = Sha1::new();
    // One pass in 64 KiB chunks keeps the three hashers' state warm in cache.
    for chunk in bytes.chunks(64 * 1024) {
        sha256.update(chunk);
        sha512.update(chunk);
        sha1.update(chunk);
    }
    Digests {
        sha256: hex(&sha256.finalize()),
        integrity: format!(
            "sha512-{}",
            base64::engine::general_purpose::STANDARD.encode(sha512.finalize())
        ),
        shasum: hex(&sha1.finalize()),
    }
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_known_values() {
        // Reference values from `printf abc | sha256sum / sha1sum` and
        // `openssl dgst -sha512 -binary | base64`.
        let digests = digests(b"abc");
        assert_eq!(
            digests.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(digests.shasum, "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(
            digests.integrity,
            "sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw=="
        );
    }

    #[test]
    fn chunking_does_not_change_the_digest() {
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(digests(&bytes).sha256, sha256_hex(&bytes));
    }
}
