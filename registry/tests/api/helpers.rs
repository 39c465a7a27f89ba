//! The test server: a real registry on `127.0.0.1:0` over a fresh SQLite file or a fresh
//! PostgreSQL database, and a reqwest client.

use std::sync::Arc;

use registry::app::AppState;
use registry::config::Config;
use registry::db::Role;
use registry::storage::{MemoryStorage, sha256_hex};
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

#[path = "../support/postgres.rs"]
mod postgres;

/// The database a test runs on.
#[derive(Debug, Clone, Copy)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs an async test function once per backend: `both_backends!(name);` next to
/// `async fn name(backend: Backend)` makes `name::sqlite` and `name::postgres`.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::helpers::Backend::Sqlite).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name($crate::helpers::Backend::Postgres).await;
                }
            }
        )*
    };
}

/// A running registry.
pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub state: AppState,
    _dir: tempfile::TempDir,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, |_| {}).await
    }

    pub async fn spawn_with(backend: Backend, configure: impl FnOnce(&mut Config)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = match backend {
            Backend::Sqlite => format!("sqlite://{}", dir.path().join("registry.db").display()),
            Backend::Postgres => tokio::task::spawn_blocking(|| postgres::fresh_database_url("api"))
                .await
                .expect("join")
                .expect("a PostgreSQL server for the tests (initdb/pg_ctl on PATH or REGISTRY_TEST_POSTGRES_URL)"),
        };
        let mut config = Config::for_tests(&url, dir.path().join("blobs")).expect("config");
        configure(&mut config);
        let store = registry::db::connect(&config.database_url, 4)
            .await
            .expect("database");
        // The blob store a real deployment gets: the database's own on PostgreSQL, so
        // every API test there goes through it too.
        let storage: Arc<dyn registry::storage::Storage> = match backend {
            Backend::Sqlite => Arc::new(MemoryStorage::default()),
            Backend::Postgres => Arc::new(
                registry::db::pg_blobs::PgBlobStorage::connect(config.database_url.expose(), 2)
                    .await
                    .expect("blob storage"),
            ),
        };
        let state = AppState::from_parts(config, store, storage);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address");
        let (shutdown, receiver) = tokio::sync::oneshot::channel::<()>();
        let server_state = state.clone();
        tokio::spawn(async move {
            let _ = registry::serve(listener, server_state, async {
                let _ = receiver.await;
            })
            .await;
        });
        Self {
            base: format!("http://{address}"),
            // A server may close a connection after answering an error before reading the whole
            // body; a fresh connection per request keeps such closes from hitting the next test step.
            client: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .build()
                .expect("client"),
            state,
            _dir: dir,
            shutdown: Some(shutdown),
        }
    }

    /// Applies the download journal now, as the server does every second, so a test can
    /// read the counters at once.
    pub async fn flush_downloads(&self) {
        self.state
            .downloads
            .apply(self.state.store.as_ref())
            .await
            .expect("download journal applied");
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.client.get(self.url(path))
    }

    pub async fn token(&self, handle: &str) -> String {
        registry::tokens::create_token(self.state.store.as_ref(), handle, Role::User)
            .await
            .expect("token")
    }

    /// Publishes with the multipart form.
    pub async fn publish(
        &self,
        token: &str,
        slug: &str,
        version: &str,
        files: &[(&str, &[u8])],
    ) -> reqwest::Response {
        self.publish_payload(
            token,
            json!({
                "slug": slug,
                "displayName": title(slug),
                "version": version,
                "changelog": format!("release {version}"),
                "acceptLicenseTerms": true,
                "tags": ["latest"],
            }),
            files,
        )
        .await
    }

    pub async fn publish_payload(
        &self,
        token: &str,
        payload: Value,
        files: &[(&str, &[u8])],
    ) -> reqwest::Response {
        let mut form = Form::new().text("payload", payload.to_string());
        for (path, bytes) in files {
            form = form.part(
                "files",
                Part::bytes(bytes.to_vec()).file_name((*path).to_owned()),
            );
        }
        self.client
            .post(self.url("/api/v1/skills"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("request")
    }

    /// Publishes like CLI 0.23.3: upload-url + upload per file, then JSON.
    pub async fn publish_like_cli(
        &self,
        token: &str,
        slug: &str,
        version: &str,
        tags: &[&str],
        files: &[(&str, &[u8], &str)],
    ) -> reqwest::Response {
        let mut entries = Vec::new();
        for (path, bytes, content_type) in files {
            let sha = sha256_hex(bytes);
            let ticket: Value = self
                .client
                .post(self.url("/api/v1/skills/-/upload-url"))
                .bearer_auth(token)
                .json(&json!({ "path": path, "size": bytes.len(), "sha256": sha, "contentType": content_type }))
                .send()
                .await
                .expect("upload-url")
                .json()
                .await
                .expect("ticket json");
            let upload_url = ticket["uploadUrl"].as_str().expect("uploadUrl");
            let stored: Value = self
                .client
                .post(upload_url)
                .bearer_auth(token)
                .header("content-type", *content_type)
                .body(bytes.to_vec())
                .send()
                .await
                .expect("upload")
                .json()
                .await
                .expect("storage json");
            entries.push(json!({
                "path": path, "size": bytes.len(), "storageId": stored["storageId"], "sha256": sha,
                "contentType": content_type, "uploadTicket": ticket["uploadTicket"],
            }));
        }
        self.client
            .post(self.url("/api/v1/skills"))
            .bearer_auth(token)
            .json(&json!({
                "slug": slug, "displayName": title(slug), "ownerHandle": Value::Null, "version": version,
                "changelog": "Initial", "acceptLicenseTerms": true, "tags": tags, "files": entries,
            }))
            .send()
            .await
            .expect("publish")
    }
}

pub fn title(slug: &str) -> String {
    slug.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub const SKILL_MD: &[u8] = b"---\nname: demo\ndescription: Greets people politely\nmetadata: {\"openclaw\": {\"requires\": {\"env\": [\"DEMO_KEY\"]}}}\n---\n# Demo\n\nSay hello.\n";

/// Asserts a plain-text error and returns its body.
pub async fn text_error(response: reqwest::Response, status: u16) -> String {
    assert_eq!(response.status().as_u16(), status, "unexpected status");
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/plain; charset=utf-8")
    );
    response.text().await.expect("body")
}
