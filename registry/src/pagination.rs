//! Opaque keyset cursors: base64url JSON of the last row's sort keys and id.
//!
//! A cursor that does not decode, or that belongs to another sort, starts from the first
//! page (as the reference registry does); it never turns into an OFFSET.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::db::{ListSort, Seek, SkillRow, VersionRow};

#[derive(Debug, Serialize, Deserialize)]
struct SkillCursor {
    #[serde(rename = "s")]
    sort: String,
    #[serde(rename = "k")]
    seek: Seek,
}

#[derive(Debug, Serialize, Deserialize)]
struct VersionCursor {
    #[serde(rename = "c")]
    created_at: i64,
    #[serde(rename = "i")]
    id: i64,
}

fn encode<T: Serialize>(value: &T) -> Option<String> {
    let json = serde_json::to_vec(value).ok()?;
    Some(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json))
}

fn decode<T: for<'de> Deserialize<'de>>(cursor: &str) -> Option<T> {
    if cursor.len() > 1024 {
        return None;
    }
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor.trim())
        .ok()?;
    // Cursor values are bound into SQL; text with NUL characters cannot be stored or compared.
    if crate::extract::has_nul_escape(&bytes) {
        return None;
    }
    serde_json::from_slice(&bytes).ok()
}

/// The cursor after `row` in `sort`.
pub fn encode_skill_cursor(sort: ListSort, row: &SkillRow) -> Option<String> {
    let seek = match sort {
        ListSort::Trending => return None,
        ListSort::Name => Seek::Slug(row.slug.clone()),
        sort => Seek::Keys {
            values: sort.values(row),
            id: row.id,
        },
    };
    encode(&SkillCursor {
        sort: sort.key().to_owned(),
        seek,
    })
}

/// The position a cursor names, when it decodes and belongs to `sort`.
pub fn decode_skill_cursor(sort: ListSort, cursor: Option<&str>) -> Option<Seek> {
    let cursor: SkillCursor = decode(cursor?)?;
    if cursor.sort != sort.key() {
        return None;
    }
    match (&cursor.seek, sort) {
        (Seek::Slug(_), ListSort::Name) => Some(cursor.seek),
        (Seek::Keys { values, .. }, sort)
            if values.len() == sort.columns().len() && !values.is_empty() =>
        {
            Some(cursor.seek)
        }
        _ => None,
    }
}

/// The cursor after a version.
pub fn encode_version_cursor(row: &VersionRow) -> Option<String> {
    encode(&VersionCursor {
        created_at: row.created_at,
        id: row.id,
    })
}

/// The `(created_at, id)` a version cursor names.
pub fn decode_version_cursor(cursor: Option<&str>) -> Option<(i64, i64)> {
    let cursor: VersionCursor = decode(cursor?)?;
    Some((cursor.created_at, cursor.id))
}

#[derive(Debug, Serialize, Deserialize)]
struct AuditCursor {
    #[serde(rename = "a")]
    id: i64,
}

/// The cursor after an audit row (the log is ordered by id, newest first).
pub fn encode_audit_cursor(id: i64) -> Option<String> {
    encode(&AuditCursor { id })
}

/// The id an audit cursor names; `None` when it does not decode.
pub fn decode_audit_cursor(cursor: &str) -> Option<i64> {
    decode::<AuditCursor>(cursor).map(|cursor| cursor.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_cursors_start_over() {
        assert_eq!(decode_skill_cursor(ListSort::Downloads, Some("%%%")), None);
        assert_eq!(decode_skill_cursor(ListSort::Downloads, Some("e30")), None);
        assert_eq!(decode_version_cursor(Some("bm9wZQ")), None);
    }
}
