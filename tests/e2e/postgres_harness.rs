//! Self-test of the throwaway PostgreSQL harness shared with the registry's tests.

use crate::postgres;

#[test]
fn fresh_databases_are_separate_and_usable() {
    let server = postgres::shared().expect("PostgreSQL harness starts");
    let first = server.fresh_database("harness first");
    let second = server.fresh_database("harness first");
    assert_ne!(first, second, "each call creates a new database");
    assert!(first.starts_with("postgres://"), "{first}");

    server
        .psql(
            &first,
            "CREATE TABLE skills (slug TEXT PRIMARY KEY); INSERT INTO skills VALUES ('demo')",
        )
        .expect("write to the first database");
    assert_eq!(
        server
            .psql(&first, "SELECT count(*) FROM skills")
            .expect("read back"),
        "1"
    );
    // the second database does not see the first one's table
    let missing = server.psql(&second, "SELECT count(*) FROM skills");
    assert!(missing.is_err(), "{missing:?}");

    // the throwaway server runs with the settings the harness asked for
    if server.port().is_some() {
        assert_eq!(
            server.psql(&first, "SHOW fsync").expect("show fsync"),
            "off"
        );
        let version = server
            .psql(&first, "SHOW server_version_num")
            .expect("version");
        assert!(
            version.parse::<u32>().expect("numeric version") >= 120_000,
            "{version}"
        );
    }
}

#[test]
fn shared_server_is_started_once() {
    let first = postgres::shared().expect("PostgreSQL harness starts");
    let second = postgres::shared().expect("PostgreSQL harness starts");
    assert!(std::ptr::eq(first, second));
    assert_eq!(first.url(), second.url());
}
