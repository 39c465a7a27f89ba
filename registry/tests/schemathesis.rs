//! schemathesis (PyPI) against the server's own `/api/v1/openapi.json`: a real `registry
//! serve` process on SQLite, every operation called with generated valid and invalid
//! input, bounded in examples and time. No answer may be a 5xx, and the server must still
//! serve afterwards.
//!
//! schemathesis is found as `$SCHEMATHESIS`, else in `target/schemathesis-venv` (where
//! `.ci/run` installs it), else on `PATH`. Without it the test fails and says how to
//! install it: a skipped fuzz run would look like a passed one.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_registry");

/// Examples per operation and phase: about a minute on two cores for every route.
const MAX_EXAMPLES: &str = "8";

fn schemathesis() -> PathBuf {
    if let Some(path) = std::env::var_os("SCHEMATHESIS") {
        return PathBuf::from(path);
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/schemathesis-venv/bin/schemathesis");
    if venv.exists() {
        return venv;
    }
    let on_path = Command::new("schemathesis")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        on_path,
        "schemathesis is not installed: run `bash .ci/run`, or \
         `python3 -m venv target/schemathesis-venv && target/schemathesis-venv/bin/pip install schemathesis`"
    );
    PathBuf::from("schemathesis")
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn schemathesis_finds_no_server_errors() {
    let tool = schemathesis();
    let dir = tempfile::tempdir().expect("temp dir");
    let database = format!("sqlite://{}", dir.path().join("registry.db").display());
    let token = {
        let output = Command::new(BINARY)
            .args([
                "token",
                "create",
                "--user",
                "fuzzer",
                "--database",
                &database,
            ])
            .output()
            .expect("registry token create");
        assert!(output.status.success(), "token create failed");
        String::from_utf8(output.stdout)
            .expect("token")
            .trim()
            .to_owned()
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("address")
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = Server(
        Command::new(BINARY)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .args(["--database", &database])
            .arg("--storage")
            .arg(dir.path().join("blobs"))
            .args([
                "--rate-limit-read",
                "1000000/1000000",
                "--rate-limit-write",
                "1000000/1000000",
                "--rate-limit-download",
                "1000000/1000000",
            ])
            .env("RUST_LOG", "error")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start registry serve"),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            server.0.try_wait().expect("status").is_none(),
            "the server exited"
        );
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    let output = Command::new(&tool)
        .arg("run")
        .arg(format!("{base}/api/v1/openapi.json"))
        .args(["--url", &base])
        .args(["--checks", "not_a_server_error"])
        .args(["--max-examples", MAX_EXAMPLES])
        .args(["--seed", "1", "--no-shrink", "--workers", "2"])
        .args(["--max-time", "100", "--request-timeout", "10"])
        .args(["--header", &format!("Authorization: Bearer {token}")])
        .args(["--no-color", "--warnings", "off"])
        .env("SCHEMATHESIS_HOOKS", "")
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|error| panic!("failed to run `{}`: {error}", tool.display()));
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "schemathesis failed:\n{report}");

    // Still healthy afterwards.
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .write_all(b"GET /api/v1/skills?limit=1 HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .expect("request");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200"),
        "the server is unhealthy after the run: {answer}"
    );
    assert!(
        server.0.try_wait().expect("status").is_none(),
        "the server exited"
    );
    eprintln!(
        "schemathesis: {}",
        report.lines().rev().take(3).collect::<Vec<_>>().join(" | ")
    );
}
