//! The schema migrations of both backends, embedded in the binary.
//!
//! Listed by hand instead of through `sqlx::migrate!`: that macro needs sqlx's `macros`
//! feature, which builds a second copy of sqlx, both drivers and SQLite's C sources for the
//! host, about three CPU-minutes of every clean build. The test below fails when a file in
//! `migrations/` is missing from these lists (or listed without existing), so a new
//! migration cannot be forgotten. Files are named `NNNN_description.sql`, as sqlx expects,
//! and the checksums are sqlx's own, so databases migrated by the macro stay valid.

use std::borrow::Cow;

use sqlx::SqlSafeStr as _;
use sqlx::migrate::{Migration, MigrationType, Migrator};

/// `(file name, SQL)` of each migration of one backend.
type Files = &'static [(&'static str, &'static str)];

/// Both backends keep one file per migration under the same name (`migrations/sqlite/` and
/// `migrations/postgres/`), so the names are listed once and each backend's SQL is embedded.
macro_rules! migrations {
    ($($file:literal),* $(,)?) => {
        /// Migrations of the SQLite schema, in order.
        pub const SQLITE: Files = &[$((
            $file,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite/", $file)),
        )),*];
        /// Migrations of the PostgreSQL schema, in order.
        pub const POSTGRES: Files = &[$((
            $file,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/postgres/", $file)),
        )),*];
    };
}

migrations!(
    "0001_initial.sql",
    "0002_skill_hidden.sql",
    "0003_audit.sql",
    "0004_skill_lifecycle.sql",
    "0010_transfers.sql",
    "0011_reservations.sql",
    "0012_moderation_cases.sql",
    "0020_packages.sql",
    "0030_prompt_sets.sql",
    "0050_package_uploads.sql",
    "0070_blobs.sql",
    "0080_skill_hidden_reason.sql",
    "0090_package_release_withdrawn.sql",
    "0100_skill_change_notices.sql",
    "0110_version_change_notices.sql",
);

/// The migrator of one backend's files.
pub fn migrator(files: Files) -> anyhow::Result<Migrator> {
    let migrations = files
        .iter()
        .map(|&(name, sql)| {
            let (version, description) = parse_name(name)?;
            Ok(Migration::new(
                version,
                Cow::Owned(description),
                MigrationType::Simple,
                sql.into_sql_str(),
                sql.starts_with("-- no-transaction"),
            ))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Migrator::with_migrations(migrations))
}

/// `0004_skill_lifecycle.sql` → `(4, "skill lifecycle")`, as sqlx names them.
fn parse_name(name: &str) -> anyhow::Result<(i64, String)> {
    let parsed = name
        .strip_suffix(".sql")
        .and_then(|stem| stem.split_once('_'))
        .and_then(|(version, description)| {
            Some((version.parse().ok()?, description.replace('_', " ")))
        });
    parsed.ok_or_else(|| anyhow::anyhow!("migration `{name}` is not named NNNN_description.sql"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_in(backend: &str) -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(backend);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("migrations folder")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| name.ends_with(".sql"))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn every_migration_file_is_listed_in_order() {
        for (backend, files) in [("sqlite", SQLITE), ("postgres", POSTGRES)] {
            let listed: Vec<String> = files.iter().map(|(name, _)| name.to_string()).collect();
            assert_eq!(
                listed,
                files_in(backend),
                "registry/src/db/migrations.rs must list every file of migrations/{backend}/"
            );
            let migrator = migrator(files).expect("names parse");
            let versions: Vec<i64> = migrator.iter().map(|m| m.version).collect();
            let mut sorted = versions.clone();
            sorted.dedup();
            assert_eq!(versions, sorted, "versions are unique");
        }
    }

    #[test]
    fn names_parse_as_sqlx_parses_them() {
        assert_eq!(
            parse_name("0004_skill_lifecycle.sql").unwrap(),
            (4, "skill lifecycle".to_owned())
        );
        assert!(parse_name("skill.sql").is_err());
        assert!(parse_name("0004_skill.txt").is_err());
    }
}
