//! Property tests of every parser that reads hostile input: the multipart publish body,
//! the package tarball reader, the download ZIP writer, SKILL.md's frontmatter, and the
//! list cursors (decoded directly and through the HTTP API on both backends).
//!
//! The property is the same everywhere: no input makes the code panic, and every refusal
//! through HTTP is a 4xx with a plain-text reason, never a 5xx. Case counts are bounded so
//! the suite stays quick; `PROPTEST_CASES=N` raises (or lowers) every target at once.

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{Request, header};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use registry::app::AppState;
use registry::config::Config;
use registry::db::{ListSort, Role};
use registry::packages::tarball::{self, Limits, PackFile};
use registry::storage::MemoryStorage;
use tower::ServiceExt as _;

#[path = "support/postgres.rs"]
mod postgres;

/// Cases per target: `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn config(default_cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default_cases),
        // A failure is printed with its shrunk input; no regression files in the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------
// Pure parsers
// ---------------------------------------------------------------------------------------

/// A frontmatter-ish document: fences, YAML-looking lines and arbitrary text mixed.
fn skill_md() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("---".to_owned()),
        Just("description: hello".to_owned()),
        Just("metadata: {\"openclaw\": {\"requires\": {\"env\": [\"K\"]}}}".to_owned()),
        Just("metadata: \"{not json".to_owned()),
        Just("a: &x [1, *x]".to_owned()),
        Just("b: !!binary aGVsbG8=".to_owned()),
        Just("? complex\n: key".to_owned()),
        Just("- [ {".to_owned()),
        Just("\tindent: tab".to_owned()),
        Just("x: 1e999".to_owned()),
        Just("\u{feff}".to_owned()),
        "[ -~]{0,40}",
        any::<String>(),
    ];
    prop::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn frontmatter_never_panics(text in skill_md()) {
        let _ = registry::bundle::parse_skill_md("SKILL.md", &text);
        if let Ok(document) = registry::bundle::parse_skill_md("SKILL.md", &text) {
            let _ = registry::bundle::runtime_metadata(document.metadata.as_ref());
        }
    }

    #[test]
    fn bundle_paths_are_relative_and_clean_or_refused(path in any::<String>()) {
        if let Ok(clean) = registry::bundle::normalize_path(&path) {
            prop_assert!(!clean.starts_with('/'));
            prop_assert!(!clean.contains('\\'));
            prop_assert!(clean.split('/').all(|s| !s.is_empty() && s != "." && s != ".."));
        }
    }

    #[test]
    fn cursors_never_panic(text in any::<String>(), json in cursor_json()) {
        for sort in ALL_SORTS {
            let _ = registry::pagination::decode_skill_cursor(sort, Some(&text));
            let _ = registry::pagination::decode_skill_cursor(sort, Some(&json));
        }
        let _ = registry::pagination::decode_version_cursor(Some(&text));
        let _ = registry::pagination::decode_version_cursor(Some(&json));
    }

    #[test]
    fn tarball_reader_refuses_garbage_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        // Random bytes, and the same bytes behind a gzip magic so the inflater sees them.
        let _ = tarball::read(&bytes, &small_limits());
        let mut gzip = vec![0x1f, 0x8b];
        gzip.extend_from_slice(&bytes);
        let _ = tarball::read(&gzip, &small_limits());
    }

    #[test]
    fn tarball_reader_survives_damaged_packages(
        files in pack_files(),
        damage in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let built = tarball::build(&files).expect("build");
        // Damage the compressed bytes, and separately the inflated tar re-compressed, so
        // both the gzip layer and the tar headers get hostile input.
        let mut compressed = built.clone();
        for (index, byte) in &damage {
            let at = index.index(compressed.len());
            compressed[at] ^= byte | 1;
        }
        let _ = tarball::read(&compressed, &small_limits());
        let _ = tarball::read(&built[..cut.index(built.len() + 1)], &small_limits());
        let mut tar = inflate(&built);
        for (index, byte) in &damage {
            let at = index.index(tar.len());
            tar[at] ^= byte | 1;
        }
        let _ = tarball::read(&deflate(&tar), &small_limits());
        // Undamaged, the reader gives back exactly what was packed.
        let unpacked = tarball::read(&built, &Limits::default()).expect("a clean package reads");
        prop_assert_eq!(unpacked.files.len(), files.len());
    }

    #[test]
    fn download_zip_accepts_any_stored_paths(
        files in prop::collection::vec(("[a-zA-Z0-9._/ -]{1,40}", prop::collection::vec(any::<u8>(), 0..256)), 0..8)
    ) {
        let files: Vec<(String, axum::body::Bytes)> = files
            .into_iter()
            .map(|(path, bytes)| (path, axum::body::Bytes::from(bytes)))
            .collect();
        let meta = registry::archive::ArchiveMeta {
            owner_id: "1".into(),
            slug: "demo",
            version: "1.0.0",
            published_at: 0,
        };
        let _ = registry::archive::build_zip(&files, &meta);
    }
}

const ALL_SORTS: [ListSort; 9] = [
    ListSort::Updated,
    ListSort::Recommended,
    ListSort::Created,
    ListSort::Downloads,
    ListSort::Stars,
    ListSort::InstallsCurrent,
    ListSort::InstallsAllTime,
    ListSort::Trending,
    ListSort::Name,
];

fn small_limits() -> Limits {
    Limits {
        max_tar_bytes: 1024 * 1024,
        max_unpacked_bytes: 512 * 1024,
        max_files: 64,
        max_ratio: registry::packages::tarball::DEFAULT_MAX_RATIO,
    }
}

fn pack_files() -> impl Strategy<Value = Vec<PackFile>> {
    prop::collection::btree_map(
        "[a-z]{1,8}(/[a-z]{1,8}){0,2}\\.(js|json|md)",
        prop::collection::vec(any::<u8>(), 0..512),
        1..6,
    )
    .prop_map(|files| {
        let mut out: Vec<PackFile> = Vec::new();
        for (path, bytes) in files {
            // A path may not be both a file and a directory; keep the first of a clash.
            let clashes = out.iter().any(|other| {
                path.starts_with(&format!("{}/", other.path))
                    || other.path.starts_with(&format!("{path}/"))
            });
            if !clashes {
                out.push(PackFile {
                    path,
                    bytes,
                    mode: 0o644,
                });
            }
        }
        out
    })
}

fn inflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("inflate");
    out
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("deflate");
    encoder.finish().expect("deflate")
}

/// Base64url JSON that looks like our cursors: right and wrong sort names, extreme
/// integers, wrong types, long and odd slugs.
fn cursor_json() -> impl Strategy<Value = String> {
    use base64::Engine as _;
    let sort = prop_oneof![
        Just("downloads".to_owned()),
        Just("updated".to_owned()),
        Just("name".to_owned()),
        Just("stars".to_owned()),
        "[a-z]{0,12}",
    ];
    let integer = prop_oneof![
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0_i64),
        Just(-1_i64),
        any::<i64>()
    ];
    let seek = prop_oneof![
        (
            prop::collection::vec(integer.clone(), 0..4),
            integer.clone()
        )
            .prop_map(|(values, id)| serde_json::json!({ "Keys": { "values": values, "id": id } })),
        any::<String>().prop_map(|slug| serde_json::json!({ "Slug": slug })),
        Just(serde_json::json!({ "Keys": { "values": [1.5, "x"], "id": null } })),
        Just(serde_json::json!({ "Slug": 7 })),
        Just(serde_json::json!([])),
    ];
    let version =
        (integer.clone(), integer).prop_map(|(c, i)| serde_json::json!({ "c": c, "i": i }));
    prop_oneof![
        (sort, seek).prop_map(|(s, k)| serde_json::json!({ "s": s, "k": k })),
        version,
    ]
    .prop_map(|value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(value.to_string()))
}

// ---------------------------------------------------------------------------------------
// Through the router: the multipart publish body and the cursors of the list endpoints
// ---------------------------------------------------------------------------------------

struct Server {
    runtime: tokio::runtime::Runtime,
    state: AppState,
    token: String,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start(postgres: bool) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let dir = tempfile::tempdir().expect("temp dir");
        let url = if postgres {
            postgres::fresh_database_url("fuzz").expect("a PostgreSQL server for the tests")
        } else {
            format!("sqlite://{}", dir.path().join("registry.db").display())
        };
        let (state, token) = runtime.block_on(async {
            let mut config = Config::for_tests(&url, dir.path().join("blobs")).expect("config");
            // Every case is a request; the limiter must not be what answers them.
            config.rate_limit_read.anonymous = 1_000_000;
            config.rate_limit_read.user = 1_000_000;
            config.rate_limit_write.anonymous = 1_000_000;
            config.rate_limit_write.user = 1_000_000;
            let store = registry::db::connect(&config.database_url, 4)
                .await
                .expect("database");
            let state = AppState::from_parts(config, store, Arc::new(MemoryStorage::default()));
            let token = registry::tokens::create_token(state.store.as_ref(), "fuzzer", Role::User)
                .await
                .expect("token");
            (state, token)
        });
        Self {
            runtime,
            state,
            token,
            _dir: dir,
        }
    }

    /// Sends one request through the whole router; returns status, content type and body.
    fn send(&self, request: Request<Body>) -> (u16, String, String) {
        self.runtime.block_on(async {
            let response = registry::router(self.state.clone())
                .oneshot(request)
                .await
                .expect("infallible");
            let status = response.status().as_u16();
            let content_type = response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|value| value.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let body = axum::body::to_bytes(response.into_body(), 16 * 1024 * 1024)
                .await
                .expect("body");
            (
                status,
                content_type,
                String::from_utf8_lossy(&body).into_owned(),
            )
        })
    }
}

fn sqlite_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(false))
}

fn postgres_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::start(true))
}

/// A 4xx must be plain text with a reason; anything 5xx fails the property.
fn check_answer(status: u16, content_type: &str, body: &str) -> Result<(), TestCaseError> {
    prop_assert!(status < 500, "server error {status}: {body}");
    if status >= 400 {
        prop_assert_eq!(content_type, "text/plain; charset=utf-8", "body: {}", body);
        prop_assert!(!body.trim().is_empty(), "empty {} reason", status);
    }
    Ok(())
}

/// One part of a generated multipart body.
#[derive(Debug, Clone)]
enum Piece {
    Part {
        name: Option<String>,
        filename: Option<String>,
        content_type: Option<String>,
        body: Vec<u8>,
    },
    Junk(Vec<u8>),
}

fn piece() -> impl Strategy<Value = Piece> {
    let name = prop::option::of(prop_oneof![
        Just("payload".to_owned()),
        Just("files".to_owned()),
        Just("file".to_owned()),
        Just("files[]".to_owned()),
        "[ -~]{0,12}",
    ]);
    let filename = prop::option::of(prop_oneof![
        Just("SKILL.md".to_owned()),
        Just("../../etc/passwd".to_owned()),
        Just("/abs/SKILL.md".to_owned()),
        Just("a\\b.md".to_owned()),
        Just("skill-card.md".to_owned()),
        Just("__MACOSX/x".to_owned()),
        Just("x".repeat(600)),
        "[ -~]{0,24}",
        any::<String>().prop_filter("header-safe", |s| !s.contains(['\r', '\n', '"'])),
    ]);
    let content_type = prop::option::of(prop_oneof![
        Just("text/markdown".to_owned()),
        Just("application/json".to_owned()),
        "[ -~]{0,20}",
    ]);
    let body = prop_oneof![
        Just(PAYLOAD.as_bytes().to_vec()),
        Just(b"---\ndescription: fuzz\n---\n# Fuzz\n".to_vec()),
        Just(b"{\"slug\": 1}".to_vec()),
        Just(b"{\"slug\":\"fz\\u0000\"}".to_vec()),
        prop::collection::vec(any::<u8>(), 0..300),
    ];
    prop_oneof![
        4 => (name, filename, content_type, body).prop_map(|(name, filename, content_type, body)| Piece::Part { name, filename, content_type, body }),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Piece::Junk),
    ]
}

const PAYLOAD: &str = r#"{"slug":"fuzz-skill","displayName":"Fuzz","version":"1.0.0","changelog":"x","acceptLicenseTerms":true,"tags":["latest"]}"#;

fn multipart_body(pieces: &[Piece], boundary: &str, closed: bool) -> Vec<u8> {
    let mut body = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Junk(bytes) => body.extend_from_slice(bytes),
            Piece::Part {
                name,
                filename,
                content_type,
                body: content,
            } => {
                body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
                let mut disposition = "Content-Disposition: form-data".to_owned();
                if let Some(name) = name {
                    disposition.push_str(&format!("; name=\"{name}\""));
                }
                if let Some(filename) = filename {
                    disposition.push_str(&format!("; filename=\"{filename}\""));
                }
                body.extend_from_slice(disposition.as_bytes());
                body.extend_from_slice(b"\r\n");
                if let Some(content_type) = content_type {
                    body.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
                }
                body.extend_from_slice(b"\r\n");
                body.extend_from_slice(content);
                body.extend_from_slice(b"\r\n");
            }
        }
    }
    if closed {
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    }
    body
}

#[test]
fn multipart_publish_bodies_never_cause_server_errors() {
    let server = sqlite_server();
    let strategy = (
        prop::collection::vec(piece(), 0..6),
        prop_oneof![
            Just("fuzzboundary".to_owned()),
            "[a-zA-Z0-9'()+_,./:=?-]{1,70}"
        ],
        any::<bool>(),
        any::<bool>(),
        any::<prop::sample::Index>(),
    );
    TestRunner::new(config(96))
        .run(&strategy, |(pieces, boundary, closed, truncate, cut)| {
            let mut body = multipart_body(&pieces, &boundary, closed);
            if truncate {
                body.truncate(cut.index(body.len() + 1));
            }
            let request = Request::post("/api/v1/skills")
                .header(header::AUTHORIZATION, format!("Bearer {}", server.token))
                .header(
                    header::CONTENT_TYPE,
                    format!("multipart/form-data; boundary={boundary}"),
                )
                .body(Body::from(body))
                .expect("request");
            let (status, content_type, text) = server.send(request);
            check_answer(status, &content_type, &text)
        })
        .expect("every multipart body gets a 2xx or a plain-text 4xx");
}

fn run_cursor_property(server: &Server, default_cases: u32) {
    // A few listed skills so a cursor has rows on both sides of it.
    for (index, slug) in ["fuzz-alpha", "fuzz-beta", "fuzz-gamma"].iter().enumerate() {
        let payload = PAYLOAD
            .replace("fuzz-skill", slug)
            .replace("1.0.0", &format!("1.0.{index}"));
        let body = multipart_body(
            &[
                Piece::Part {
                    name: Some("payload".into()),
                    filename: None,
                    content_type: None,
                    body: payload.into_bytes(),
                },
                Piece::Part {
                    name: Some("files".into()),
                    filename: Some("SKILL.md".into()),
                    content_type: Some("text/markdown".into()),
                    body: b"# Fuzz\n".to_vec(),
                },
            ],
            "b",
            true,
        );
        let request = Request::post("/api/v1/skills")
            .header(header::AUTHORIZATION, format!("Bearer {}", server.token))
            .header(header::CONTENT_TYPE, "multipart/form-data; boundary=b")
            .body(Body::from(body))
            .expect("request");
        let (status, _, text) = server.send(request);
        assert!(
            status == 200 || status == 409 || status == 400,
            "seed publish: {status} {text}"
        );
    }
    let strategy = (
        prop_oneof![cursor_json(), any::<String>()],
        prop::sample::select(vec![
            "/api/v1/skills?sort=downloads&cursor=",
            "/api/v1/skills?sort=updated&cursor=",
            "/api/v1/skills?sort=name&cursor=",
            "/api/v1/skills?sort=stars&cursor=",
            "/api/v1/skills?sort=installs&cursor=",
            "/api/v1/skills/fuzz-alpha/versions?cursor=",
            "/api/v1/packages?cursor=",
        ]),
    );
    TestRunner::new(config(default_cases))
        .run(&strategy, |(cursor, path)| {
            let encoded: String =
                percent_encoding::utf8_percent_encode(&cursor, percent_encoding::NON_ALPHANUMERIC)
                    .collect();
            let request = Request::get(format!("{path}{encoded}"))
                .body(Body::empty())
                .expect("request");
            let (status, content_type, text) = server.send(request);
            check_answer(status, &content_type, &text)
        })
        .expect("every cursor gets a page or a plain-text 4xx");
}

#[test]
fn forged_cursors_never_cause_server_errors_sqlite() {
    run_cursor_property(sqlite_server(), 96);
}

#[test]
fn forged_cursors_never_cause_server_errors_postgres() {
    run_cursor_property(postgres_server(), 64);
}
