//! Crash safety of the real `registry serve` process, on SQLite and on PostgreSQL.
//!
//! `kill -9` lands at many points of a publish: while the body is still arriving (uploads
//! are streamed slowly in chunks), while blobs are being written, around the commit, and
//! during the upload-ticket flow. After every restart the registry must come up, and at the
//! end every listed version must download completely with exactly the bytes published and
//! its fingerprint must resolve; no acknowledged publish may be missing. `registry gc` then
//! removes the blobs that killed publishes left behind without touching referenced ones.
//!
//! A database that goes away (a TCP proxy in front of PostgreSQL that this test cuts) must
//! give plain-text 503s within the pool's acquire timeout, not 500s or hangs, and the same
//! server process must answer normally again once the proxy lets connections through.
//!
//! Bounded: a fixed number of kill rounds per backend (about ten seconds each), timing
//! varied by a seeded generator so a failure can be replayed (`CRASH_SEED=N`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

#[path = "support/postgres.rs"]
mod postgres;

const BINARY: &str = env!("CARGO_BIN_EXE_registry");
const ROUNDS: u64 = 14;
const PUBLISHERS: u64 = 2;

/// A small deterministic generator (SplitMix64) for timings and contents.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }
}

fn seed() -> u64 {
    std::env::var("CRASH_SEED")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(0x5eed)
}

/// The files of `slug` at `version`: a SKILL.md and two text files of a size that depends
/// on the round, so uploads take from a few milliseconds to a few hundred.
fn bundle(slug: &str, round: u64) -> Vec<(String, Vec<u8>)> {
    let mut random = Random(round.wrapping_mul(7919) ^ slug.len() as u64 ^ seed());
    let mut text = |size: usize| -> Vec<u8> {
        let alphabet = b"abcdefghijklmnopqrstuvwxyz     \n";
        (0..size)
            .map(|_| alphabet[random.below(alphabet.len() as u64) as usize])
            .collect()
    };
    let large = 64 * 1024 + (round as usize % 5) * 400 * 1024;
    vec![
        (
            "SKILL.md".to_owned(),
            format!("---\ndescription: crash test {slug} round {round}\n---\n# {slug}\n")
                .into_bytes(),
        ),
        ("notes/data.txt".to_owned(), text(large)),
        ("README.md".to_owned(), text(4096 + round as usize)),
    ]
}

fn version_of(round: u64) -> String {
    format!("1.{round}.0")
}

fn round_of(version: &str) -> u64 {
    version
        .split('.')
        .nth(1)
        .and_then(|minor| minor.parse().ok())
        .expect("a version of this test")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port()
}

/// One `registry serve` process.
struct Server {
    child: Child,
    base: String,
    port: u16,
}

impl Server {
    fn start(database: &str, storage: &Path, log: &Path) -> Self {
        for _ in 0..3 {
            let port = free_port();
            let log_file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
                .expect("log file");
            let child = Command::new(BINARY)
                .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
                .arg("--database")
                .arg(database)
                .arg("--storage")
                .arg(storage)
                .args([
                    "--rate-limit-read",
                    "1000000/1000000",
                    "--rate-limit-write",
                    "1000000/1000000",
                    "--rate-limit-download",
                    "1000000/1000000",
                ])
                .env("RUST_LOG", "warn")
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log_file)
                .spawn()
                .expect("start registry serve");
            let mut server = Server {
                child,
                base: format!("http://127.0.0.1:{port}"),
                port,
            };
            if server.wait_ready(log) {
                return server;
            }
            server.kill();
        }
        panic!(
            "registry serve did not come up; log:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
    }

    /// True once the server answers; false when the process exited (port taken).
    fn wait_ready(&mut self, log: &Path) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                let text = std::fs::read_to_string(log).unwrap_or_default();
                assert!(
                    text.contains("failed to listen"),
                    "registry serve exited with {status} after a crash; log:\n{text}"
                );
                return false;
            }
            if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                let _ = stream.write_all(
                    b"GET /api/v1/skills?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                );
                let mut answer = String::new();
                let _ = stream.read_to_string(&mut answer);
                if answer.starts_with("HTTP/1.1 200") {
                    return true;
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("registry serve did not answer within 60 s");
    }

    /// SIGKILL: no shutdown hook, no flush, no drain.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

fn create_token(database: &str) -> String {
    token_for(database, "crasher")
}

fn multipart(slug: &str, version: &str, files: &[(String, Vec<u8>)]) -> (String, Vec<u8>) {
    let boundary = "crash-boundary-7d1f".to_owned();
    let payload = serde_json::json!({
        "slug": slug, "displayName": slug, "version": version, "changelog": "crash",
        "acceptLicenseTerms": true, "tags": ["latest"],
    });
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"payload\"\r\n\r\n{payload}\r\n"
        )
        .as_bytes(),
    );
    for (path, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"{path}\"\r\nContent-Type: text/plain\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, body)
}

/// Sends a publish over a raw connection, the body in chunks with pauses, so a kill can
/// land while it is still arriving. Returns the status, or `None` when the server died.
async fn slow_publish(
    port: u16,
    token: &str,
    slug: &str,
    version: &str,
    files: &[(String, Vec<u8>)],
    pause: Duration,
) -> Option<u16> {
    let (boundary, body) = multipart(slug, version, files);
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .ok()?;
    let head = format!(
        "POST /api/v1/skills HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.ok()?;
    for chunk in body.chunks(64 * 1024) {
        // A server may answer (a 503, a 401) before it has read the body, and close.
        if stream.write_all(chunk).await.is_err() {
            break;
        }
        tokio::time::sleep(pause).await;
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer);
    text.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// The CLI's flow: a ticket and an upload per file, then the JSON publish.
async fn ticket_publish(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    slug: &str,
    version: &str,
    files: &[(String, Vec<u8>)],
) -> Option<u16> {
    let mut entries = Vec::new();
    for (path, bytes) in files {
        let sha256 = registry::storage::sha256_hex(bytes);
        let ticket: Value = client
            .post(format!("{base}/api/v1/skills/-/upload-url"))
            .bearer_auth(token)
            .json(&serde_json::json!({ "path": path, "size": bytes.len(), "sha256": sha256, "contentType": "text/plain" }))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let stored: Value = client
            .post(ticket["uploadUrl"].as_str()?)
            .bearer_auth(token)
            .header("content-type", "text/plain")
            .body(bytes.clone())
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        entries.push(serde_json::json!({
            "path": path, "size": bytes.len(), "storageId": stored["storageId"], "sha256": sha256,
            "contentType": "text/plain", "uploadTicket": ticket["uploadTicket"],
        }));
    }
    let response = client
        .post(format!("{base}/api/v1/skills"))
        .bearer_auth(token)
        .json(&serde_json::json!({
            "slug": slug, "displayName": slug, "version": version, "changelog": "crash",
            "acceptLicenseTerms": true, "tags": ["latest"], "files": entries,
        }))
        .send()
        .await
        .ok()?;
    Some(response.status().as_u16())
}

fn slug_of(publisher: u64) -> String {
    format!("crash-skill-{publisher}")
}

/// Every blob in the file store: `ab/cd/abcd…`.
/// The blob addresses the registry holds: in the database on PostgreSQL (where the blobs
/// live), in the storage directory otherwise.
fn stored_blobs(database: &str, storage: &Path) -> BTreeSet<String> {
    if database.starts_with("postgres") {
        let listing = postgres::shared()
            .expect("the test PostgreSQL")
            .psql(database, "SELECT sha256 FROM blobs")
            .expect("list the database blobs");
        return listing
            .lines()
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect();
    }
    let mut blobs = BTreeSet::new();
    let list = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    for first in list(storage) {
        if first.file_name().is_some_and(|name| name == "tmp") {
            continue;
        }
        for second in list(&first) {
            for blob in list(&second) {
                if let Some(name) = blob.file_name().and_then(|name| name.to_str()) {
                    blobs.insert(name.to_owned());
                }
            }
        }
    }
    blobs
}

async fn get_json(client: &reqwest::Client, url: &str) -> Value {
    let response = client.get(url).send().await.expect("request");
    assert_eq!(response.status(), 200, "GET {url}");
    response.json().await.expect("json")
}

/// Checks every listed version against what was published; returns the listed versions.
async fn verify(
    client: &reqwest::Client,
    base: &str,
    acknowledged: &BTreeSet<(String, String)>,
) -> BTreeMap<String, Vec<String>> {
    let mut listed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for publisher in 0..PUBLISHERS {
        let slug = slug_of(publisher);
        let response = client
            .get(format!("{base}/api/v1/skills/{slug}/versions?limit=50"))
            .send()
            .await
            .expect("versions");
        if response.status() == 404 {
            continue;
        }
        assert_eq!(response.status(), 200);
        let page: Value = response.json().await.expect("json");
        assert!(
            page["nextCursor"].is_null(),
            "fewer than 50 versions per slug"
        );
        let versions: Vec<String> = page["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|item| item["version"].as_str().expect("version").to_owned())
            .collect();
        for version in &versions {
            let expected = bundle(&slug, round_of(version));
            let response = client
                .get(format!(
                    "{base}/api/v1/download?slug={slug}&version={version}"
                ))
                .send()
                .await
                .expect("download");
            assert_eq!(response.status(), 200, "{slug}@{version} downloads");
            let bytes = response.bytes().await.expect("zip");
            let mut archive =
                zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a whole zip");
            let mut names: HashSet<String> = HashSet::new();
            for index in 0..archive.len() {
                let mut entry = archive.by_index(index).expect("entry");
                let name = entry.name().expect("a UTF-8 entry name").into_owned();
                let mut content = Vec::new();
                entry.read_to_end(&mut content).expect("entry bytes");
                if name == "_meta.json" {
                    continue;
                }
                let want = expected
                    .iter()
                    .find(|(path, _)| *path == name)
                    .unwrap_or_else(|| panic!("{slug}@{version} has a stray file `{name}`"));
                assert!(want.1 == content, "{slug}@{version}: `{name}` differs");
                names.insert(name);
            }
            assert_eq!(names.len(), expected.len(), "{slug}@{version} is whole");
            let hashes: Vec<(String, String)> = expected
                .iter()
                .map(|(path, bytes)| (path.clone(), registry::storage::sha256_hex(bytes)))
                .collect();
            let fingerprint = registry::bundle::fingerprint(
                hashes
                    .iter()
                    .map(|(path, sha)| (path.as_str(), sha.as_str())),
            );
            let resolved = get_json(
                client,
                &format!("{base}/api/v1/resolve?slug={slug}&hash={fingerprint}"),
            )
            .await;
            assert_eq!(resolved["match"]["version"], version.as_str(), "{resolved}");
        }
        let highest = versions
            .iter()
            .max_by_key(|version| semver::Version::parse(version).expect("semver"))
            .expect("at least one version");
        let skill = get_json(client, &format!("{base}/api/v1/skills/{slug}")).await;
        assert_eq!(
            skill["latestVersion"]["version"],
            highest.as_str(),
            "{skill}"
        );
        listed.insert(slug, versions);
    }
    for (slug, version) in acknowledged {
        assert!(
            listed
                .get(slug)
                .is_some_and(|versions| versions.contains(version)),
            "{slug}@{version} was acknowledged with 200 but is missing after the crashes"
        );
    }
    listed
}

fn run_gc(database: &str, storage: &Path) -> String {
    let output = Command::new(BINARY)
        .args(["gc", "--database", database, "--min-age", "0"])
        .arg("--storage")
        .arg(storage)
        .output()
        .expect("registry gc");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "registry gc failed: {stderr}");
    stderr
}

async fn kill_during_publishes(database: String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let storage = dir.path().join("blobs");
    let log = dir.path().join("server.log");
    let token = create_token(&database);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client");
    let mut random = Random(seed());
    let mut acknowledged = BTreeSet::new();
    let mut multipart_blobs = BTreeSet::new();
    let mut ticket_blobs = BTreeSet::new();
    // Calibrate: how long a publish to a freshly started server takes here (debug or
    // release, busy or idle machine), so the kills spread over the whole of a publish
    // rather than its start. Every round starts a fresh server, as this does.
    let span = {
        let server = Server::start(&database, &storage, &log);
        let slug = slug_of(0);
        let round = ROUNDS + 4;
        let files = bundle(&slug, round);
        multipart_blobs.extend(
            files
                .iter()
                .map(|(_, bytes)| registry::storage::sha256_hex(bytes)),
        );
        let started = Instant::now();
        let status = slow_publish(
            server.port,
            &token,
            &slug,
            &version_of(round),
            &files,
            Duration::from_millis(1),
        )
        .await;
        assert_eq!(status, Some(200), "the calibration publish");
        acknowledged.insert((slug, version_of(round)));
        started.elapsed()
    };
    // Kills fall uniformly over twice a round's length: about half land inside it.
    let mut span_ms = u64::try_from(span.as_millis()).unwrap_or(u64::MAX).max(10) * 2;
    let calibration_versions = acknowledged.len();
    for round in 0..ROUNDS {
        let mut server = Server::start(&database, &storage, &log);
        let mut tasks = Vec::new();
        for publisher in 0..PUBLISHERS {
            let slug = slug_of(publisher);
            let version = version_of(round);
            let files = bundle(&slug, round);
            let hashes: Vec<String> = files
                .iter()
                .map(|(_, bytes)| registry::storage::sha256_hex(bytes))
                .collect();
            let use_tickets = random.below(4) == 0;
            if use_tickets {
                ticket_blobs.extend(hashes);
            } else {
                multipart_blobs.extend(hashes);
            }
            let pause = Duration::from_millis(random.below(4));
            let (token, client, base, port) = (
                token.clone(),
                client.clone(),
                server.base.clone(),
                server.port,
            );
            let round_start = Instant::now();
            tasks.push(tokio::spawn(async move {
                let status = if use_tickets {
                    ticket_publish(&client, &base, &token, &slug, &version, &files).await
                } else {
                    slow_publish(port, &token, &slug, &version, &files, pause).await
                };
                (slug, version, status, round_start.elapsed())
            }));
        }
        // Anywhere from before the first byte to after the commit.
        let kill_at = Duration::from_millis(random.below(span_ms));
        tokio::time::sleep(kill_at).await;
        server.kill();
        let mut all_done_before_kill = true;
        let mut slowest = Duration::ZERO;
        for task in tasks {
            let (slug, version, status, took) = task.await.expect("task");
            slowest = slowest.max(took);
            match status {
                Some(200) => {
                    acknowledged.insert((slug, version));
                    all_done_before_kill &= took < kill_at;
                }
                Some(status) => panic!("{slug}@{version} was refused with {status}"),
                None => all_done_before_kill = false,
            }
        }
        // A round that finished before its kill shows how long rounds really take (the
        // calibration alone can run long on a busy machine, or short): follow it, so the
        // kills keep landing inside publishes as often as after them.
        if all_done_before_kill {
            span_ms = u64::try_from(slowest.as_millis())
                .unwrap_or(u64::MAX)
                .max(10)
                * 2;
        }
    }
    // Orphans are likely by now (blobs written, commit never reached), but not certain:
    // plant one, and a stale temporary file, so the collector always has work to prove.
    let planted = registry::storage::sha256_hex(b"planted orphan");
    let planted_dir = storage.join(&planted[..2]).join(&planted[2..4]);
    std::fs::create_dir_all(&planted_dir).expect("blob dir");
    std::fs::write(planted_dir.join(&planted), b"planted orphan").expect("orphan");
    std::fs::create_dir_all(storage.join("tmp")).expect("tmp dir");
    std::fs::write(storage.join("tmp").join(".tmpPLANTED"), b"half a blob").expect("temporary");
    if database.starts_with("postgres") {
        postgres::shared()
            .expect("the test PostgreSQL")
            .psql(
                &database,
                &format!(
                    "INSERT INTO blobs (sha256, size, created_at) VALUES ('{planted}', 14, 0); \
                     INSERT INTO blob_chunks (sha256, seq, bytes) VALUES ('{planted}', 0, 'planted orphan'::bytea)"
                ),
            )
            .expect("plant a database orphan");
    }
    let report = run_gc(&database, &storage);
    let server = Server::start(&database, &storage, &log);
    let listed = verify(&client, &server.base, &acknowledged).await;
    let mut referenced = BTreeSet::new();
    for (slug, versions) in &listed {
        for version in versions {
            for (_, bytes) in bundle(slug, round_of(version)) {
                referenced.insert(registry::storage::sha256_hex(&bytes));
            }
        }
    }
    let blobs = stored_blobs(&database, &storage);
    assert!(
        !blobs.contains(&planted),
        "the planted orphan survived ({report})"
    );
    for sha in &referenced {
        assert!(blobs.contains(sha), "referenced blob {sha} was lost");
    }
    for sha in &blobs {
        // Uploads whose ticket may still be used are kept on purpose; nothing else may stay.
        assert!(
            referenced.contains(sha) || ticket_blobs.contains(sha),
            "orphaned blob {sha} survived `registry gc` ({report})"
        );
    }
    let temporaries = std::fs::read_dir(storage.join("tmp"))
        .map(|entries| entries.count())
        .unwrap_or(0);
    assert_eq!(temporaries, 0, "temporary files survived `registry gc`");
    let published: usize = listed.values().map(Vec::len).sum();
    eprintln!(
        "crash: publish takes {span:?}; {ROUNDS} kills, {} acknowledged, {published} versions listed, {} multipart blobs sent; gc: {}",
        acknowledged.len(),
        multipart_blobs.len(),
        report.trim()
    );
    let published_in_rounds = published - calibration_versions;
    assert!(
        published_in_rounds > 0,
        "no publish ever completed: the kill timings are off"
    );
    assert!(
        published_in_rounds < (ROUNDS * PUBLISHERS) as usize,
        "no kill ever interrupted a publish: the kill timings are off"
    );
}

/// A SQLite database in `dir`.
fn sqlite_database(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}", dir.path().join("registry.db").display())
}

/// A fresh database on the shared throwaway PostgreSQL server.
async fn postgres_database(name: &'static str) -> String {
    tokio::task::spawn_blocking(move || postgres::fresh_database_url(name))
        .await
        .expect("join")
        .expect("a PostgreSQL server for the tests")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_during_publishes_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    kill_during_publishes(sqlite_database(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_during_publishes_postgres() {
    kill_during_publishes(postgres_database("crash").await).await;
}

fn token_for(database: &str, handle: &str) -> String {
    let output = Command::new(BINARY)
        .args(["token", "create", "--user", handle, "--database", database])
        .output()
        .expect("registry token create");
    assert!(output.status.success(), "token create failed");
    String::from_utf8(output.stdout)
        .expect("utf-8 token")
        .trim()
        .to_owned()
}

/// Downloads are journaled on local disk and moved into the database in batches: a
/// `kill -9` right after the last download of each round (before the batch is applied,
/// most of the time) must lose no count, and the restarts that replay the journal must
/// double none. Every user downloads twice per round; each counts once.
async fn kill_after_downloads(database: String) {
    const ROUNDS: usize = 4;
    const USERS: usize = 6;
    let dir = tempfile::tempdir().expect("temp dir");
    let storage = dir.path().join("blobs");
    let log = dir.path().join("server.log");
    let publisher = create_token(&database);
    let tokens: Vec<String> = (0..ROUNDS * USERS)
        .map(|index| token_for(&database, &format!("reader-{index}")))
        .collect();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client");
    let mut server = Server::start(&database, &storage, &log);
    let files = vec![("SKILL.md".to_owned(), b"# Counted\n".to_vec())];
    let status = slow_publish(
        server.port,
        &publisher,
        "counted-skill",
        "1.0.0",
        &files,
        Duration::ZERO,
    )
    .await;
    assert_eq!(status, Some(200));
    for round in 0..ROUNDS {
        for token in &tokens[round * USERS..(round + 1) * USERS] {
            for _ in 0..2 {
                let response = client
                    .get(format!(
                        "{}/api/v1/download?slug=counted-skill",
                        server.base
                    ))
                    .bearer_auth(token)
                    .send()
                    .await
                    .expect("download");
                assert_eq!(response.status(), 200);
            }
        }
        server.kill();
        server = Server::start(&database, &storage, &log);
    }
    // The restart applied what the killed processes journaled, before serving.
    let expected = ROUNDS * USERS;
    let skill = get_json(
        &client,
        &format!("{}/api/v1/skills/counted-skill", server.base),
    )
    .await;
    assert_eq!(
        skill["skill"]["stats"]["downloads"], expected,
        "no count lost: {skill}"
    );
    // Replays (more kills and starts) count nothing twice.
    for _ in 0..2 {
        server.kill();
        server = Server::start(&database, &storage, &log);
    }
    let skill = get_json(
        &client,
        &format!("{}/api/v1/skills/counted-skill", server.base),
    )
    .await;
    assert_eq!(
        skill["skill"]["stats"]["downloads"], expected,
        "no count doubled: {skill}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_after_downloads_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    kill_after_downloads(sqlite_database(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_after_downloads_postgres() {
    kill_after_downloads(postgres_database("crashdl").await).await;
}

/// A TCP proxy that can refuse and cut every connection.
struct Proxy {
    port: u16,
    open: Arc<AtomicBool>,
    connections: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Proxy {
    async fn start(upstream: u16) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let open = Arc::new(AtomicBool::new(true));
        let connections = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (accept_open, accept_connections) = (open.clone(), connections.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !accept_open.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let task = tokio::spawn(async move {
                    if let Ok(mut server) =
                        tokio::net::TcpStream::connect(("127.0.0.1", upstream)).await
                    {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                accept_connections.lock().expect("lock").push(task);
            }
        });
        Self {
            port,
            open,
            connections,
        }
    }

    /// Closes every open connection and refuses new ones.
    fn cut(&self) {
        self.open.store(false, Ordering::SeqCst);
        for task in self.connections.lock().expect("lock").drain(..) {
            task.abort();
        }
    }

    fn restore(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_outage_gives_503_and_recovers_without_restart() {
    let url = tokio::task::spawn_blocking(|| postgres::fresh_database_url("outage"))
        .await
        .expect("join")
        .expect("a PostgreSQL server for the tests");
    // `postgres://user@127.0.0.1:PORT/db` → the same through the proxy.
    let (before, rest) = url.split_once("@127.0.0.1:").expect("a loopback URL");
    let (upstream, database) = rest.split_once('/').expect("a database name");
    let proxy = Proxy::start(upstream.parse().expect("port")).await;
    let proxied = format!("{before}@127.0.0.1:{}/{database}", proxy.port);
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("server.log");
    let token = create_token(&proxied);
    let server = Server::start(&proxied, &dir.path().join("blobs"), &log);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let base = server.base.clone();
    let files = bundle("outage-skill", 1);
    let status = slow_publish(
        server.port,
        &token,
        "outage-skill",
        "1.1.0",
        &files,
        Duration::ZERO,
    )
    .await;
    assert_eq!(status, Some(200));

    proxy.cut();
    // Reads, an authenticated read and a publish, all at once: each must end in a 503.
    let requests = [
        client.get(format!("{base}/api/v1/skills")),
        client.get(format!("{base}/api/v1/skills/outage-skill")),
        client
            .get(format!("{base}/api/v1/whoami"))
            .bearer_auth(&token),
    ];
    let started = Instant::now();
    let mut answers = Vec::new();
    for request in requests {
        answers.push(tokio::spawn(async move {
            let response = request.send().await.expect("an answer, not a hang");
            let status = response.status().as_u16();
            let content_type = response
                .headers()
                .get("content-type")
                .and_then(|value| value.to_str().ok())
                .unwrap_or("")
                .to_owned();
            (
                status,
                content_type,
                response.text().await.unwrap_or_default(),
            )
        }));
    }
    let publish = slow_publish(
        server.port,
        &token,
        "outage-skill",
        "1.2.0",
        &files,
        Duration::ZERO,
    )
    .await;
    for answer in answers {
        let (status, content_type, body) = answer.await.expect("task");
        assert_eq!(status, 503, "{body}");
        assert_eq!(content_type, "text/plain; charset=utf-8");
        assert!(
            body.contains("unavailable") || body.contains("not reachable"),
            "{body}"
        );
    }
    assert_eq!(publish, Some(503), "a publish during the outage is a 503");
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "503s took {:?}",
        started.elapsed()
    );

    proxy.restore();
    // The same process recovers: its pool reconnects on the next requests.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let response = client
            .get(format!("{base}/api/v1/skills/outage-skill"))
            .send()
            .await
            .expect("request");
        if response.status() == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no recovery after the database came back: {}",
            response.status()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let status = slow_publish(
        server.port,
        &token,
        "outage-skill",
        "1.3.0",
        &files,
        Duration::ZERO,
    )
    .await;
    assert_eq!(status, Some(200), "publishing works again");
    let versions = get_json(
        &client,
        &format!("{base}/api/v1/skills/outage-skill/versions"),
    )
    .await;
    let listed: Vec<&str> = versions["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["version"].as_str())
        .collect();
    assert_eq!(
        listed,
        ["1.3.0", "1.1.0"],
        "the publish during the outage left nothing"
    );
}
