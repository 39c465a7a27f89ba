//! Two real `registry serve` processes on one PostgreSQL database, each with its own
//! storage directory, must serve one registry: a publish on one downloads byte for byte
//! from the other at once (the blobs are in the database), a cursor issued by one pages on
//! the other, a client alternating instances cannot double its rate limit (the buckets are
//! in the database), and a token revoked while both have just accepted it is refused by
//! both from the next request on.

use std::io::Read as _;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "support/postgres.rs"]
mod postgres;

const BINARY: &str = env!("CARGO_BIN_EXE_registry");

/// One `registry serve` process, killed on drop.
struct Instance {
    child: Child,
    base: String,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Instance {
    async fn start(database: &str, storage: &Path) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("address")
            .port();
        let child = Command::new(BINARY)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--database")
            .arg(database)
            .arg("--storage")
            .arg(storage)
            // Anonymous reads: 20 a minute per IP, shared by both instances.
            .args(["--rate-limit-read", "20/100000"])
            // As behind the load balancer of docs/deploy.md: the client IP is the forwarded one.
            .arg("--trust-forwarded-ips")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start registry serve");
        let mut instance = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            // A bare connection: waiting must spend none of the anonymous read budget.
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return instance;
            }
            if let Ok(Some(status)) = instance.child.try_wait() {
                let mut log = String::new();
                if let Some(mut stderr) = instance.child.stderr.take() {
                    let _ = stderr.read_to_string(&mut log);
                }
                panic!("registry serve exited with {status}: {log}");
            }
            assert!(Instant::now() < deadline, "registry serve did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

fn create_token(database: &str, handle: &str) -> String {
    create_token_with(database, handle, &[])
}

fn create_token_with(database: &str, handle: &str, extra: &[&str]) -> String {
    let output = Command::new(BINARY)
        .args(["token", "create", "--user", handle, "--database", database])
        .args(extra)
        .output()
        .expect("registry token create");
    assert!(
        output.status.success(),
        "token create failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("utf-8 token")
        .trim()
        .to_owned()
}

async fn publish(
    client: &reqwest::Client,
    instance: &Instance,
    token: &str,
    slug: &str,
    files: &[(&str, Vec<u8>)],
) {
    let payload = serde_json::json!({
        "slug": slug, "displayName": slug, "version": "1.0.0", "changelog": "first",
        "acceptLicenseTerms": true, "tags": ["latest"],
    });
    let mut form = reqwest::multipart::Form::new().text("payload", payload.to_string());
    for (path, bytes) in files {
        form = form.part(
            "files",
            reqwest::multipart::Part::bytes(bytes.clone()).file_name((*path).to_owned()),
        );
    }
    let response = client
        .post(instance.url("/api/v1/skills"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("publish");
    let status = response.status();
    assert_eq!(
        status,
        200,
        "publish {slug}: {}",
        response.text().await.unwrap_or_default()
    );
}

async fn json(response: reqwest::Response) -> Value {
    let status = response.status();
    let text = response.text().await.expect("body");
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgres_serve_one_registry() {
    let database = tokio::task::spawn_blocking(|| postgres::fresh_database_url("instances"))
        .await
        .expect("join")
        .expect("a PostgreSQL server for the tests");
    let dir = tempfile::tempdir().expect("temp dir");
    let first = Instance::start(&database, &dir.path().join("first")).await;
    let second = Instance::start(&database, &dir.path().join("second")).await;
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");

    // Rate limits: 40 anonymous reads alternating instances get the one budget of 20. They
    // come from their own forwarded address, so the later requests of this test (from
    // 127.0.0.1, some with a revoked token and so anonymous) are not refused for them.
    let mut allowed = 0;
    for index in 0..40 {
        let instance = if index % 2 == 0 { &first } else { &second };
        let response = client
            .get(instance.url("/api/v1/skills?limit=1"))
            .header("x-forwarded-for", "198.51.100.7")
            .send()
            .await
            .expect("read");
        match response.status().as_u16() {
            200 => allowed += 1,
            429 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(allowed, 20, "alternating instances doubled the read limit");

    let token = create_token(&database, "alice");
    // A publish on one downloads, byte for byte, from the other within a second.
    let big: Vec<u8> = (0..3 * 1024 * 1024u32)
        .map(|index| b"abcdefghij \n"[(index % 12) as usize])
        .collect();
    let files = vec![
        (
            "SKILL.md",
            b"---\ndescription: shared across instances\n---\n# Shared\n".to_vec(),
        ),
        ("notes/big.txt", big),
    ];
    publish(&client, &first, &token, "shared-skill", &files).await;
    let published = Instant::now();
    let zip = loop {
        let response = client
            .get(second.url("/api/v1/download?slug=shared-skill"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("download");
        if response.status() == 200 {
            break response.bytes().await.expect("zip");
        }
        assert!(
            published.elapsed() < Duration::from_secs(1),
            "not downloadable from the other instance within a second: {}",
            response.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).expect("a zip");
    for (path, bytes) in &files {
        let mut entry = archive.by_name(path).expect("file in the archive");
        let mut content = Vec::new();
        entry.read_to_end(&mut content).expect("read");
        assert_eq!(&content, bytes, "{path} differs on the other instance");
    }
    for index in 0..3 {
        let skill = format!("more-skill-{index}");
        let files = vec![(
            "SKILL.md",
            format!("---\ndescription: skill {index}\n---\n# {skill}\n").into_bytes(),
        )];
        publish(&client, &second, &token, &skill, &files).await;
    }

    // A cursor issued by one instance pages on the other, with no repeats or gaps.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        let instance = if page % 2 == 0 { &first } else { &second };
        let mut url = instance.url("/api/v1/skills?limit=1&sort=name");
        if let Some(cursor) = &cursor {
            url.push_str(&format!("&cursor={cursor}"));
        }
        let body = json(
            client
                .get(url)
                .bearer_auth(&token)
                .send()
                .await
                .expect("list"),
        )
        .await;
        for item in body["items"].as_array().expect("items") {
            seen.push(item["slug"].as_str().expect("slug").to_owned());
        }
        match body["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
        assert!(page < 10, "paging does not end");
    }
    let mut expected = vec![
        "more-skill-0",
        "more-skill-1",
        "more-skill-2",
        "shared-skill",
    ];
    let mut sorted = seen.clone();
    sorted.sort();
    expected.sort_unstable();
    assert_eq!(sorted, expected, "pages across instances: {seen:?}");

    // A skill hidden through one instance leaves the other's search at once: the rows
    // behind its hits are kept for up to a second, and dropped when PostgreSQL announces
    // the change (migration 0100). Every query differs, so no answer is reused.
    let search = |instance: &Instance, query: String| {
        let url = instance.url(&format!("/api/v1/search?q={query}"));
        let request = client.get(url);
        async move {
            let body = json(request.send().await.expect("search")).await;
            body["results"]
                .as_array()
                .expect("results")
                .iter()
                .any(|hit| hit["slug"] == "shared-skill")
        }
    };
    let moderator = create_token_with(&database, "mod", &["--role", "moderator"]);
    assert!(
        search(&first, "shared".into()).await,
        "found before the hide"
    );
    // The first instance keeps the skill's detail in memory (read twice: the second is
    // served from memory) until the change is announced (migration 0100).
    let detail = |instance: &Instance| {
        client
            .get(instance.url("/api/v1/skills/shared-skill"))
            .bearer_auth(&token)
            .send()
    };
    for _ in 0..2 {
        assert_eq!(detail(&first).await.expect("detail").status(), 200);
    }
    let hidden = client
        .post(second.url("/api/v1/skills/shared-skill/hide"))
        .bearer_auth(&moderator)
        .json(&serde_json::json!({"reason": "review"}))
        .send()
        .await
        .expect("hide");
    assert_eq!(hidden.status(), 200);
    let hidden_at = Instant::now();
    for attempt in 0.. {
        if !search(&first, format!("shared%20n{attempt}")).await {
            break;
        }
        assert!(
            hidden_at.elapsed() < Duration::from_millis(400),
            "a hidden skill still in the other instance's search after {:?}",
            hidden_at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    while detail(&first).await.expect("detail").status() == 200 {
        assert!(
            hidden_at.elapsed() < Duration::from_millis(400),
            "a hidden skill's detail still served by the other instance after {:?}",
            hidden_at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // Revocation: both instances accept the token, it is revoked, both refuse it next.
    for instance in [&first, &second] {
        let response = client
            .get(instance.url("/api/v1/whoami"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("whoami");
        assert_eq!(response.status(), 200);
    }
    let store = registry::db::connect(&database.parse().expect("url"), 2)
        .await
        .expect("database");
    let revoked = store
        .revoke_token(
            &registry::tokens::hash_token(&token),
            chrono::Utc::now().timestamp_millis(),
        )
        .await
        .expect("revoke");
    assert!(revoked, "the token was live");
    for instance in [&first, &second] {
        let response = client
            .get(instance.url("/api/v1/whoami"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("whoami");
        assert_eq!(
            response.status(),
            401,
            "a revoked token was accepted by {}",
            instance.base
        );
    }
}
