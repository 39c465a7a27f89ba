//! A code plugin too big for the 18 MB multipart publish, published with the real
//! `clawhub` CLI (0.23.3): above that size the CLI stages the `npm pack` tarball first
//! (`POST /api/cli/upload-url`, the raw bytes to the returned URL without a token) and then
//! publishes with `clawpack=<storageId>` and `clawpackUploadTicket` instead of the file.
//! The published tarball must be the CLI's byte for byte: `clawhub package download`
//! verifies it against the artifact's digests, and `npm install` installs the same files.

use std::fs;

use e2e::support::clients::{Clawhub, Npm};
use e2e::support::files::{assert_same_files, path_arg, show};
use e2e::support::fixtures::code_plugin;
use e2e::support::registry::Registry;

/// Bytes that do not compress (xorshift), so the packed tarball stays over 18 MB.
fn noise(len: usize) -> Vec<u8> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut bytes = Vec::with_capacity(len + 8);
    while bytes.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        bytes.extend_from_slice(&seed.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

#[test]
fn clawhub_stages_a_tarball_over_the_multipart_limit() {
    let work = tempfile::tempdir().expect("temp dir");
    let database = format!(
        "sqlite://{}?mode=rwc",
        work.path().join("registry.db").display()
    );
    let registry = Registry::start(&database).expect("registry starts");
    let cli = Clawhub::new(
        &registry.base,
        &work.path().join("home"),
        &work.path().join("alice.json"),
    );
    let login = cli.run(&["login", "--token", &registry.token, "--no-input"]);
    assert!(login.contains("Logged in as @alice"), "{login}");

    let plugin = code_plugin(work.path(), "big-plugin", "1.0.0");
    fs::create_dir_all(plugin.join("assets")).expect("assets dir");
    fs::write(plugin.join("assets/model.bin"), noise(19 * 1024 * 1024)).expect("big file");
    let first = registry.exchange_count();
    let out = cli.run(&[
        "package",
        "publish",
        path_arg(&plugin),
        "--family",
        "code-plugin",
        "--source-repo",
        "alice/big-plugin",
        "--source-commit",
        "0123456789abcdef0123456789abcdef01234567",
    ]);
    assert!(out.contains("Published big-plugin@1.0.0"), "{out}");
    let exchanges = registry.exchanges_since(first);
    let heads: Vec<&str> = exchanges
        .iter()
        .filter_map(|exchange| exchange.lines().next())
        .collect();
    let position = |needle: &str| {
        heads
            .iter()
            .position(|head| head.starts_with(needle))
            .unwrap_or_else(|| panic!("no `{needle}` exchange in\n{}", heads.join("\n")))
    };
    let ticket = position("POST /api/cli/upload-url [bearer] -> 200");
    let upload = position("POST /api/cli/upload/");
    let publish = position("POST /api/v1/packages [bearer] -> 200");
    assert!(ticket < upload && upload < publish, "{}", heads.join("\n"));
    assert!(
        heads[upload].ends_with("-> 200 OK") && !heads[upload].contains("[bearer]"),
        "the CLI uploads with the ticket alone: {}",
        heads[upload]
    );

    let artifact = registry.json("/api/v1/packages/big-plugin/versions/1.0.0/artifact");
    let size = artifact["artifact"]["size"].as_u64().expect("size");
    assert!(size > 18 * 1024 * 1024, "{size} bytes");

    // clawhub downloads it and checks sha256, size, integrity and shasum itself.
    let downloaded = work.path().join("big-plugin.tgz");
    let out = cli.output(&[
        "package",
        "download",
        "big-plugin",
        "-o",
        path_arg(&downloaded),
    ]);
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        fs::metadata(&downloaded).expect("downloaded").len(),
        size,
        "{}",
        show(&out)
    );

    // npm installs the very files that were packed.
    let npm = Npm::new(work.path(), &registry.base);
    let project = npm.project("install-big");
    let output = npm.install(&project, "big-plugin");
    assert!(output.status.success(), "{}", show(&output));
    assert_same_files(&plugin, &project.join("node_modules/big-plugin"));
}
