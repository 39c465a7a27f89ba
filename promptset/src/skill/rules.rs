//! The registry's rules for a skill bundle, in one place: slugs, paths, text-only files,
//! sizes and counts, and the bundle fingerprint that `GET /api/v1/resolve` compares.
//!
//! The registry enforces these on publish (its `bundle` module calls this one, adding its
//! own reference-worded messages) and `promptset skill pack` checks them on the author's
//! machine before anything is uploaded, so the two agree by construction: 10 MB per file,
//! 50 MB per bundle, 1000 files, 500-character relative paths, UTF-8 text without NUL
//! bytes, `skill-card.md` reserved. The dependency runs registry → promptset, so the rules
//! live here.

use std::cmp::Ordering;
use std::sync::LazyLock;

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};
use sha2::{Digest, Sha256};

use crate::diagnostic::{Category, Rule};

/// The id of problems with SKILL.md or its frontmatter.
pub const FRONTMATTER: &str = "skill/frontmatter";
/// The id of files the registry would refuse (not text, too large, bad path, link).
pub const FILE: &str = "skill/file";
/// The id of a bundle over the registry's file-count or size limit.
pub const BUNDLE_LIMIT: &str = "skill/bundle-limit";
/// The id of a template under `templates/` that does not compile.
pub const TEMPLATE: &str = "skill/template";
/// The id of a schema file that differs from this build's schema (a warning).
pub const SCHEMA_DRIFT: &str = "skill/schema-drift";
/// The id of a skill without an example prompt set.
pub const EXAMPLES: &str = "skill/examples";
/// The id of a publish whose version already exists with other files.
pub const VERSION_PUBLISHED: &str = "skill/version-published";

const fn skill(id: &'static str, summary: &'static str, help: &'static str) -> Rule {
    Rule::error(id, Category::Skill, summary, help)
}

/// The rules `promptset skill pack` and `publish` check, in the crate's one rule type
/// (see `crate::diagnostic::rules`); example briefs and prompt sets inside a skill are
/// held to the document, integrity and lint rules besides.
pub const SKILL_RULES: &[Rule] = &[
    skill(
        FRONTMATTER,
        "SKILL.md is missing, or its frontmatter is missing, malformed or has an invalid field",
        "start from `promptset skill init`; the frontmatter needs `name` (a slug), `description`, a semantic `version` and `tags` as a list",
    ),
    skill(
        FILE,
        "a file the registry refuses: not UTF-8 text, over 10 MB, a link, a reserved or unsafe path, or a case-insensitive duplicate",
        "remove or rename the file, or keep it outside the skill folder",
    ),
    skill(
        BUNDLE_LIMIT,
        "the skill has more than 1000 files or more than 50 MB",
        "remove files the skill does not need",
    ),
    skill(
        TEMPLATE,
        "a template under `templates/` does not compile",
        "fix the template at the line given; `promptset generate --templates` loads the same files",
    ),
    Rule::warning(
        SCHEMA_DRIFT,
        Category::Skill,
        "`schema/promptset.schema.json` differs from this build's schema",
        "refresh it with `promptset schema > schema/promptset.schema.json`",
    ),
    skill(
        EXAMPLES,
        "the skill has no example prompt set under `examples/`",
        "add at least one prompt set as `examples/*.json`",
    ),
    skill(
        VERSION_PUBLISHED,
        "the version is already published with other files",
        "raise `version` in the frontmatter",
    ),
];

/// Largest file the registry accepts.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;
/// Largest bundle the registry accepts.
pub const MAX_BUNDLE_BYTES: u64 = 50 * 1024 * 1024;
/// Most files in one bundle.
pub const MAX_FILES: usize = 1000;
/// Longest relative path, in characters.
pub const MAX_PATH_CHARS: usize = 500;
/// Most tags one publish may set.
pub const MAX_TAGS: usize = 32;

/// Slugs the registry keeps for its own pages and brands.
pub const RESERVED_SLUGS: &[&str] = &[
    "about",
    "admin",
    "api",
    "auth",
    "cli",
    "dashboard",
    "docs",
    "explore",
    "help",
    "import",
    "login",
    "logout",
    "packages",
    "plugins",
    "publish",
    "search",
    "settings",
    "skills",
    "stars",
    "u",
    "upload",
    "users",
    "openclaw",
    "clawhub",
    "clawd",
    "clawdbot",
    "onlycrabs",
    "soulhub",
    "me",
    "self",
    "system",
    "root",
    "owner",
    "staff",
    "team",
    "mod",
    "moderator",
    "new",
    "edit",
    "delete",
    "create",
    "update",
    "remove",
    "public",
    "private",
    "internal",
    "null",
    "undefined",
    "true",
    "false",
];

/// Words a slug may not start or end with (`<word>-…`, `…-<word>`).
pub const PROTECTED_AFFIXES: &[&str] = &[
    "openclaw",
    "clawhub",
    "clawd",
    "clawdbot",
    "onlycrabs",
    "soulhub",
    "official",
    "verified",
    "staff",
    "admin",
    "moderator",
];

/// Why a new slug is refused; each caller words it for its own audience.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlugProblem {
    /// Empty.
    Empty,
    /// Fewer than 3 characters.
    TooShort,
    /// More than 96 characters (the count is given).
    TooLong(usize),
    /// Not lowercase letters, digits and single inner hyphens.
    Shape,
    /// One of [`RESERVED_SLUGS`].
    Reserved,
    /// Starts with `<affix>-` or ends with `-<affix>` for a [`PROTECTED_AFFIXES`] word.
    Protected(&'static str),
}

/// True for lowercase alphanumerics with single inner hyphens.
pub fn is_slug_shape(slug: &str) -> bool {
    let bytes = slug.as_bytes();
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes[0] != b'-'
        && bytes[bytes.len() - 1] != b'-'
        && !slug.contains("--")
}

/// What is wrong with `slug` as a new slug, checked in the registry's order.
pub fn slug_problem(slug: &str) -> Option<SlugProblem> {
    let length = slug.chars().count();
    if length == 0 {
        return Some(SlugProblem::Empty);
    }
    if length < 3 {
        return Some(SlugProblem::TooShort);
    }
    if length > 96 {
        return Some(SlugProblem::TooLong(length));
    }
    if !is_slug_shape(slug) {
        return Some(SlugProblem::Shape);
    }
    if RESERVED_SLUGS.contains(&slug) {
        return Some(SlugProblem::Reserved);
    }
    PROTECTED_AFFIXES
        .iter()
        .find(|affix| {
            slug.starts_with(&format!("{affix}-")) || slug.ends_with(&format!("-{affix}"))
        })
        .map(|affix| SlugProblem::Protected(affix))
}

/// Checks a skill name as the registry checks a new slug; the error is a sentence.
pub fn check_slug(slug: &str) -> Result<(), String> {
    match slug_problem(slug) {
        None => Ok(()),
        Some(SlugProblem::Empty | SlugProblem::TooShort) => Err(format!(
            "`{slug}` is too short: a name needs 3 to 96 characters"
        )),
        Some(SlugProblem::TooLong(length)) => Err(format!(
            "the name is {length} characters long; at most 96 are allowed"
        )),
        Some(SlugProblem::Shape) => Err(format!(
            "`{slug}` is not a valid name: use lowercase letters, digits and single hyphens, starting and ending with a letter or digit"
        )),
        Some(SlugProblem::Reserved) => Err(format!("`{slug}` is reserved by the registry")),
        Some(SlugProblem::Protected(affix)) => Err(format!(
            "`{slug}` uses the protected `{affix}` namespace: it may not start with `{affix}-` or end with `-{affix}`"
        )),
    }
}

/// Why the registry refuses or drops a path on publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathProblem {
    /// The path escapes the bundle or is malformed.
    Invalid,
    /// macOS metadata that is silently dropped.
    Junk,
    /// `skill-card.md`, which the registry generates.
    SkillCard,
}

/// Normalises a bundle path as the registry does on publish: `/`-separated, relative, no
/// `.`/`..`/empty segments, no backslashes, NULs or control characters, no drive letter,
/// at most [`MAX_PATH_CHARS`].
pub fn normalize_path(path: &str) -> Result<String, PathProblem> {
    if path.is_empty()
        || path.chars().count() > MAX_PATH_CHARS
        || path.starts_with('/')
        || path.contains('\\')
        || path.chars().any(char::is_control)
        || (path.len() >= 2 && path.as_bytes()[1] == b':')
    {
        return Err(PathProblem::Invalid);
    }
    let segments: Vec<&str> = path.split('/').collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return Err(PathProblem::Invalid);
    }
    let last = segments[segments.len() - 1];
    if segments[0] == "__MACOSX" || last == ".DS_Store" || last.starts_with("._") {
        return Err(PathProblem::Junk);
    }
    if path.eq_ignore_ascii_case("skill-card.md") {
        return Err(PathProblem::SkillCard);
    }
    Ok(path.to_owned())
}

/// Why the registry would not take a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathVerdict {
    /// Published as is.
    Publish,
    /// Left out silently by every client (dotfiles, macOS metadata).
    Skip,
    /// Refused; the string says why.
    Refuse(String),
}

/// Decides what happens to a relative, `/`-separated path found in the skill folder.
pub fn judge_path(path: &str) -> PathVerdict {
    let segments: Vec<&str> = path.split('/').collect();
    // Dotfiles and dot-folders stay local, as the `clawhub` CLI leaves them out;
    // `__MACOSX/` is archive debris the registry drops.
    if segments.iter().any(|segment| segment.starts_with('.')) || segments[0] == "__MACOSX" {
        return PathVerdict::Skip;
    }
    if path.chars().count() > MAX_PATH_CHARS {
        return PathVerdict::Refuse(format!(
            "the path is longer than {MAX_PATH_CHARS} characters"
        ));
    }
    if path.contains('\\') {
        return PathVerdict::Refuse("the file name contains a backslash".into());
    }
    if path.contains('"') {
        // A multipart upload names the file in a quoted header parameter.
        return PathVerdict::Refuse("the file name contains a double quote".into());
    }
    if path.chars().any(char::is_control) {
        return PathVerdict::Refuse("the file name contains a control character".into());
    }
    if segments.iter().any(|segment| segment.is_empty()) {
        return PathVerdict::Refuse("the path has an empty segment".into());
    }
    match normalize_path(path) {
        Ok(_) => PathVerdict::Publish,
        Err(PathProblem::Junk) => PathVerdict::Skip,
        Err(PathProblem::SkillCard) => PathVerdict::Refuse(
            "`skill-card.md` is generated by the registry and cannot be published".into(),
        ),
        Err(PathProblem::Invalid) => {
            PathVerdict::Refuse("the path is not a plain relative path inside the skill".into())
        }
    }
}

/// Whether `path` is the root SKILL.md (the registry also takes `skill.md` and `skills.md`).
pub fn is_skill_md(path: &str) -> bool {
    matches!(path, "SKILL.md" | "skill.md" | "skills.md")
}

/// Whether bytes are what the registry calls text: UTF-8 without NUL bytes.
pub fn is_text(bytes: &[u8]) -> bool {
    memchr::memchr(0, bytes).is_none() && std::str::from_utf8(bytes).is_ok()
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    text
}

static COLLATOR: LazyLock<Option<CollatorBorrowed<'static>>> =
    LazyLock::new(|| Collator::try_new(Default::default(), CollatorOptions::default()).ok());

/// Orders paths as JavaScript's `localeCompare` does (ICU root collation, tertiary
/// strength), which is the order the registry and the `clawhub` CLI fingerprint in; byte
/// order would give a different fingerprint and every publish would look new.
pub fn locale_compare(left: &str, right: &str) -> Ordering {
    match COLLATOR.as_ref() {
        Some(collator) => collator.compare(left, right).then_with(|| left.cmp(right)),
        None => left.cmp(right),
    }
}

/// The bundle fingerprint: SHA-256 of the `path:sha256` lines of every file, sorted by
/// [`locale_compare`] and joined with `\n`, without `skill-card.md`.
pub fn fingerprint<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut entries: Vec<(&str, &str)> = files
        .into_iter()
        .filter(|(path, sha)| {
            !path.is_empty() && !sha.is_empty() && !path.eq_ignore_ascii_case("skill-card.md")
        })
        .collect();
    entries.sort_by(|a, b| locale_compare(a.0, b.0));
    let text = entries
        .iter()
        .map(|(path, sha)| format!("{path}:{sha}"))
        .collect::<Vec<_>>()
        .join("\n");
    sha256_hex(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_matches_the_clawhub_test_vector() {
        let files = [
            (
                "SKILL.md",
                "a8e8200d901c04bdc796d5a3ca33c31ad8af71f374133e440230218a0b9f8196",
            ),
            (
                "scripts/run.sh",
                "5dbad7dd0b9b122dcd9956884390f4aac4738caba8ff53498a7ab6718b176c30",
            ),
        ];
        assert_eq!(
            fingerprint(files),
            "190f48069d9311740d5d310171134a26d4bd3576ee02beb2c9376395f9813737"
        );
    }

    #[test]
    fn collation_matches_locale_compare() {
        let mut paths = vec![
            "Ab",
            "aB",
            "ab",
            "a/b",
            "a.b",
            "a-b",
            "a_b",
            "9",
            "10",
            "_meta.json",
        ];
        paths.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            paths,
            [
                "_meta.json",
                "10",
                "9",
                "a_b",
                "a-b",
                "a.b",
                "a/b",
                "ab",
                "aB",
                "Ab"
            ]
        );
    }

    #[test]
    fn paths_sort_like_locale_compare() {
        let mut paths = vec!["SKILL.md", "schema/a.json", "README.md", "readme.md", "_x"];
        paths.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            paths,
            ["_x", "readme.md", "README.md", "schema/a.json", "SKILL.md"]
        );
    }

    #[test]
    fn slugs_follow_the_registry() {
        assert!(check_slug("geo-prompts").is_ok());
        assert!(check_slug("ab").is_err());
        assert!(check_slug("Geo").is_err());
        assert!(check_slug("a--b").is_err());
        assert!(check_slug("admin").is_err());
        assert!(check_slug("clawhub-prompts").is_err());
    }

    #[test]
    fn paths_are_judged() {
        assert_eq!(judge_path("examples/set.json"), PathVerdict::Publish);
        assert_eq!(judge_path(".git/config"), PathVerdict::Skip);
        assert_eq!(judge_path("dir/.DS_Store"), PathVerdict::Skip);
        assert_eq!(judge_path("__MACOSX/x"), PathVerdict::Skip);
        assert!(matches!(judge_path("a\\b"), PathVerdict::Refuse(_)));
        assert!(matches!(
            judge_path("Skill-Card.md"),
            PathVerdict::Refuse(_)
        ));
        assert!(matches!(
            judge_path(&"a".repeat(MAX_PATH_CHARS + 1)),
            PathVerdict::Refuse(_)
        ));
    }

    #[test]
    fn text_means_utf8_without_nul() {
        assert!(is_text(b"hello\n"));
        assert!(!is_text(b"a\0b"));
        assert!(!is_text(&[0xff, 0xfe]));
    }
}
