//! One story over the `Store` trait, run against SQLite and a real PostgreSQL: both
//! backends must behave identically.

use std::sync::Arc;

use registry::config::DatabaseUrl;
use registry::db::{
    FileRow, ListQuery, ListSort, NewUploadTicket, NewVersion, PublishOutcome, Role, SearchQuery,
    Seek, Store,
};

#[path = "support/postgres.rs"]
mod postgres;

fn version(
    slug: &str,
    user_id: i64,
    version: &str,
    tags: &[&str],
    tickets: &[&str],
    now: i64,
) -> NewVersion {
    NewVersion {
        slug: slug.to_owned(),
        user_id,
        display_name: format!("{slug} name"),
        summary: Some(format!("summary of {slug}")),
        version: version.to_owned(),
        changelog: String::new(),
        changelog_source: "user".into(),
        fingerprint: format!("fp-{slug}-{version}"),
        skill_md: format!("# {slug}\nbody words {version}"),
        metadata_json: None,
        scan_json: "{}".into(),
        verdict: "clean".into(),
        is_suspicious: false,
        is_malware_blocked: false,
        prompt_sets_json: None,
        prompt_sets_status: None,
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        files: vec![FileRow {
            path: "SKILL.md".into(),
            size: 3,
            sha256: "a".repeat(64),
            content_type: None,
        }],
        tickets: tickets.iter().map(|t| (*t).to_owned()).collect(),
        now,
    }
}

async fn contract(store: Arc<dyn Store>) {
    let alice = store.ensure_user("alice", None, 1).await.expect("user");
    assert_eq!(alice.role(), Role::User);
    let again = store
        .ensure_user("alice", Some(Role::Admin), 2)
        .await
        .expect("user");
    assert_eq!((again.id, again.role()), (alice.id, Role::Admin));
    let bob = store.ensure_user("bob", None, 3).await.expect("user");
    assert!(store.find_user("carol").await.expect("find").is_none());

    store
        .insert_token(alice.id, "hash-1", 4)
        .await
        .expect("token");
    let record = store
        .find_token("hash-1")
        .await
        .expect("find")
        .expect("token");
    assert_eq!(record.user.handle, "alice");
    assert!(record.revoked_at.is_none());
    assert!(store.revoke_token("hash-1", 5).await.expect("revoke"));
    assert!(!store.revoke_token("hash-1", 6).await.expect("revoke"));
    assert!(
        store
            .find_token("hash-1")
            .await
            .expect("find")
            .expect("token")
            .revoked_at
            .is_some()
    );
    assert!(store.find_token("nope").await.expect("find").is_none());

    let ticket = NewUploadTicket {
        ticket: "t1".into(),
        user_id: alice.id,
        path: "SKILL.md".into(),
        size: 3,
        sha256: "a".repeat(64),
        content_type: Some("text/markdown".into()),
        created_at: 10,
        expires_at: i64::MAX / 2,
    };
    store.insert_upload_ticket(&ticket).await.expect("ticket");
    assert!(
        store
            .mark_ticket_uploaded("t1", "blob", 11)
            .await
            .expect("mark")
    );
    assert!(
        !store
            .mark_ticket_uploaded("t1", "blob", 12)
            .await
            .expect("mark")
    );
    let stored = store
        .find_upload_ticket("t1")
        .await
        .expect("find")
        .expect("ticket");
    assert_eq!(stored.storage_id.as_deref(), Some("blob"));

    let first = store
        .publish_version(&version(
            "demo-skill",
            alice.id,
            "1.0.0",
            &["latest", "stable"],
            &["t1"],
            100,
        ))
        .await
        .expect("publish");
    let PublishOutcome::Published {
        skill_id,
        version_id,
    } = first
    else {
        panic!("not published: {first:?}")
    };
    assert_eq!(
        store
            .publish_version(&version("demo-skill", alice.id, "1.0.0", &[], &[], 101))
            .await
            .expect("publish"),
        PublishOutcome::VersionExists
    );
    assert_eq!(
        store
            .publish_version(&version("demo-skill", bob.id, "2.0.0", &[], &[], 102))
            .await
            .expect("publish"),
        PublishOutcome::SlugTaken
    );
    assert_eq!(
        store
            .publish_version(&version("demo-skill", alice.id, "1.1.0", &[], &["t1"], 103))
            .await
            .expect("publish"),
        PublishOutcome::TicketReused
    );
    assert!(
        store
            .find_version(skill_id, "1.1.0")
            .await
            .expect("find")
            .is_none(),
        "a refused publish stores nothing"
    );
    store
        .publish_version(&version(
            "demo-skill",
            alice.id,
            "0.5.0",
            &["old"],
            &[],
            104,
        ))
        .await
        .expect("publish");
    let detail = store
        .find_skill("demo-skill")
        .await
        .expect("find")
        .expect("skill");
    assert_eq!(detail.skill.latest_version.as_deref(), Some("1.0.0"));
    assert_eq!(detail.skill.latest_version_id, Some(version_id));
    assert_eq!(detail.skill.versions_count, 2);
    let tags: serde_json::Value = serde_json::from_str(&detail.skill.tags_json).expect("json");
    assert_eq!(
        tags,
        serde_json::json!({"latest": "1.0.0", "old": "0.5.0", "stable": "1.0.0"})
    );
    assert_eq!(
        store
            .find_tagged_version(skill_id, "old")
            .await
            .expect("tag")
            .expect("v")
            .version,
        "0.5.0"
    );
    assert_eq!(
        store
            .find_version_by_fingerprint(skill_id, "fp-demo-skill-1.0.0")
            .await
            .expect("fp")
            .expect("v")
            .id,
        version_id
    );
    assert_eq!(
        store.version_files(version_id).await.expect("files").len(),
        1
    );
    let versions = store
        .list_versions(skill_id, None, 1)
        .await
        .expect("versions");
    assert_eq!(versions.len(), 2, "one page plus one look-ahead row");
    let rest = store
        .list_versions(skill_id, Some((versions[0].created_at, versions[0].id)), 1)
        .await
        .expect("versions");
    assert_eq!(rest[0].version, "1.0.0");

    for (index, slug) in ["other-one", "other-two"].iter().enumerate() {
        store
            .publish_version(&version(
                slug,
                bob.id,
                "1.0.0",
                &[],
                &[],
                200 + index as i64,
            ))
            .await
            .expect("publish");
    }
    let download = |at| registry::db::DownloadEvent {
        skill_id,
        actor: "ip:1".into(),
        day: 7,
        at,
    };
    assert_eq!(
        store
            .record_downloads(&[download(300)])
            .await
            .expect("download"),
        [skill_id]
    );
    // The same actor and day again, and a replay of the whole batch: nothing counted.
    assert_eq!(
        store
            .record_downloads(&[download(301), download(300)])
            .await
            .expect("download"),
        Vec::<i64>::new()
    );
    assert!(
        store
            .set_star(skill_id, bob.id, true, 302)
            .await
            .expect("star")
    );
    assert!(
        !store
            .set_star(skill_id, bob.id, true, 303)
            .await
            .expect("star")
    );
    store
        .record_install(skill_id, Some(bob.id), Some("1.0.0"), 304)
        .await
        .expect("install");

    let query = |sort, after| ListQuery {
        sort,
        after,
        limit: 2,
        non_suspicious_only: false,
        valid_prompt_sets_only: false,
        prefix: None,
        trending_since: 0,
    };
    let page = store
        .list_skills(&query(ListSort::Downloads, None))
        .await
        .expect("list");
    assert_eq!(page.len(), 3);
    assert_eq!(page[0].slug, "demo-skill");
    assert_eq!(
        (page[0].downloads, page[0].stars, page[0].installs_all_time),
        (1, 1, 1)
    );
    let after = Seek::Keys {
        values: ListSort::Downloads.values(&page[1]),
        id: page[1].id,
    };
    let next = store
        .list_skills(&query(ListSort::Downloads, Some(after)))
        .await
        .expect("list");
    assert_eq!(next.len(), 1);
    let names = store
        .list_skills(&ListQuery {
            prefix: Some("other".into()),
            ..query(ListSort::Name, None)
        })
        .await
        .expect("list");
    assert_eq!(
        names.iter().map(|r| r.slug.as_str()).collect::<Vec<_>>(),
        ["other-one", "other-two"]
    );
    let trending = store
        .list_skills(&query(ListSort::Trending, None))
        .await
        .expect("list");
    assert_eq!(trending[0].slug, "demo-skill");

    let hits = store
        .search_skills(&SearchQuery {
            terms: vec!["demo".into()],
            limit: 10,
            highlighted_only: false,
            non_suspicious_only: false,
            valid_prompt_sets_only: false,
        })
        .await
        .expect("search");
    assert_eq!(hits.len(), 1);
    assert!(hits[0].text_rank > 0.0);
    let body = store
        .search_skills(&SearchQuery {
            terms: vec!["words".into()],
            limit: 10,
            highlighted_only: false,
            non_suspicious_only: false,
            valid_prompt_sets_only: false,
        })
        .await
        .expect("search");
    assert_eq!(body.len(), 3);

    let hit = |amount| store.hit_rate_limit("ip:x:read", 60, amount);
    assert_eq!(hit(1).await.expect("hit"), 1);
    assert_eq!(hit(1).await.expect("hit"), 2);
    assert_eq!(hit(30).await.expect("lease"), 32);
    store.prune_rate_limits(120).await.expect("prune");
    assert_eq!(hit(1).await.expect("hit"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_store_keeps_the_contract() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url: DatabaseUrl = format!(
        "sqlite://{}",
        dir.path().join("nested/dir/registry.db").display()
    )
    .parse()
    .expect("url");
    contract(registry::db::connect(&url, 2).await.expect("sqlite")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_store_keeps_the_contract() {
    let url = tokio::task::spawn_blocking(|| postgres::fresh_database_url("contract"))
        .await
        .expect("join")
        .expect("a PostgreSQL server for the tests");
    let url: DatabaseUrl = url.parse().expect("url");
    contract(registry::db::connect(&url, 2).await.expect("postgres")).await;
}

/// The blob stores answer a whole read and a streamed read with the same bytes, and a
/// missing blob as `None`: the file store, and PostgreSQL's chunked one across several
/// chunks (the artifact download streams blobs above the in-memory cache's entry size).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blob_stores_stream_what_they_store() {
    use futures_util::StreamExt as _;
    use registry::storage::Storage;

    let url = tokio::task::spawn_blocking(|| postgres::fresh_database_url("blobs"))
        .await
        .expect("join")
        .expect("a PostgreSQL server for the tests");
    let parsed: DatabaseUrl = url.parse().expect("url");
    // Migrations create the blob tables.
    registry::db::connect(&parsed, 2).await.expect("postgres");
    let dir = tempfile::tempdir().expect("temp dir");
    let stores: Vec<(&str, Box<dyn Storage>)> = vec![
        (
            "postgres",
            Box::new(
                registry::db::pg_blobs::PgBlobStorage::connect(&url, 2)
                    .await
                    .expect("pg blobs"),
            ),
        ),
        (
            "files",
            Box::new(registry::storage::FsStorage::open(dir.path()).expect("fs")),
        ),
    ];
    // 3.5 MiB of varied bytes: four chunks in PostgreSQL, the last one partial.
    let bytes: Vec<u8> = (0..3_670_016u32)
        .map(|index| (index.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for (name, store) in stores {
        let address = store
            .put(axum::body::Bytes::from(bytes.clone()))
            .await
            .expect("put");
        let whole = store.get(&address).await.expect("get").expect("stored");
        assert_eq!(whole.as_ref(), bytes.as_slice(), "{name}: whole read");
        let (size, mut stream) = store
            .get_stream(&address)
            .await
            .expect("stream")
            .expect("stored");
        assert_eq!(size, bytes.len() as u64, "{name}");
        let mut streamed = Vec::new();
        let mut pieces = 0;
        while let Some(piece) = stream.next().await {
            streamed.extend_from_slice(&piece.expect("piece"));
            pieces += 1;
        }
        assert_eq!(streamed, bytes, "{name}: streamed read");
        if name == "postgres" {
            assert_eq!(pieces, 4, "one piece per 1 MiB chunk");
        }
        assert!(
            store
                .get_stream(&"0".repeat(64))
                .await
                .expect("stream")
                .is_none(),
            "{name}: missing blob"
        );
    }
}
