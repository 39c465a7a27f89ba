//! The registry started in-process on `127.0.0.1:0`, on its own thread and runtime, with
//! a log of every HTTP exchange so a failing client step can show what went over the
//! wire.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::thread;

use anyhow::{Context as _, Result, bail};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::Response;
use registry::app::AppState;
use registry::config::Config;
use registry::db::Role;
use serde_json::Value;

/// Largest body kept verbatim in the exchange log.
const LOGGED_BODY_BYTES: usize = 2048;

/// A running registry with one user, `alice`, and her API token.
pub struct Registry {
    /// `http://127.0.0.1:PORT`, also the server's public URL.
    pub base: String,
    /// An API token of `alice`.
    pub token: String,
    /// The application state, for direct store access (tokens of other users).
    pub state: AppState,
    log: Arc<Mutex<Vec<String>>>,
    shutdown: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    thread: Mutex<Option<thread::JoinHandle<Result<()>>>>,
    runtime_handle: tokio::runtime::Handle,
    _storage: tempfile::TempDir,
}

impl Registry {
    /// Starts a registry on `database_url` with the test configuration.
    pub fn start(database_url: &str) -> Result<Self> {
        Self::start_with(database_url, |_| {})
    }

    /// Starts a registry on `database_url`, letting `configure` change the configuration
    /// (rate limits, say) before it starts.
    pub fn start_with(
        database_url: &str,
        configure: impl FnOnce(&mut Config) + Send + 'static,
    ) -> Result<Self> {
        let storage = tempfile::tempdir().context("failed to create the storage dir")?;
        let storage_dir = storage.path().to_owned();
        let database_url = database_url.to_owned();
        let log = Arc::new(Mutex::new(Vec::new()));
        let server_log = Arc::clone(&log);
        type Ready = (String, String, AppState, tokio::runtime::Handle);
        let (ready_sender, ready) = std::sync::mpsc::channel::<Result<Ready>>();
        let (shutdown_sender, shutdown) = tokio::sync::oneshot::channel::<()>();
        let thread = thread::spawn(move || -> Result<()> {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .context("failed to build the server runtime")?;
            let handle = runtime.handle().clone();
            runtime.block_on(async move {
                let started = async {
                    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                        .await
                        .context("failed to bind 127.0.0.1:0")?;
                    let base = format!("http://{}", listener.local_addr()?);
                    let mut config = Config::for_tests(&database_url, storage_dir)?;
                    config.public_url = Some(base.clone());
                    configure(&mut config);
                    let state = AppState::new(config).await?;
                    let token =
                        registry::tokens::create_token(state.store.as_ref(), "alice", Role::User)
                            .await?;
                    Ok::<_, anyhow::Error>((listener, state, base, token))
                };
                let (listener, state, base, token) = match started.await {
                    Ok(started) => started,
                    Err(error) => {
                        let message = format!("{error:#}");
                        let _ = ready_sender.send(Err(error));
                        bail!("registry failed to start: {message}");
                    }
                };
                registry::start_background_work(&state).await;
                let app = registry::router(state.clone())
                    .layer(middleware::from_fn_with_state(server_log, record_exchange));
                let _ = ready_sender.send(Ok((base, token, state, handle)));
                axum::serve(
                    listener,
                    app.into_make_service_with_connect_info::<SocketAddr>(),
                )
                .with_graceful_shutdown(async move {
                    let _ = shutdown.await;
                })
                .await
                .context("the registry server failed")
            })
        });
        let (base, token, state, runtime_handle) = ready
            .recv()
            .context("the registry thread ended before it was ready")??;
        Ok(Self {
            base,
            token,
            state,
            log,
            shutdown: Mutex::new(Some(shutdown_sender)),
            thread: Mutex::new(Some(thread)),
            runtime_handle,
            _storage: storage,
        })
    }

    /// Creates (if needed) a user and returns a new API token of theirs.
    pub fn token_for(&self, handle: &str) -> String {
        self.token_with_role(handle, Role::User)
    }

    /// A token of a user with `role`, made through the store as `registry token create`
    /// does.
    pub fn token_with_role(&self, handle: &str, role: Role) -> String {
        let store = Arc::clone(&self.state.store);
        let handle = handle.to_owned();
        self.runtime_handle
            .block_on(
                async move { registry::tokens::create_token(store.as_ref(), &handle, role).await },
            )
            .expect("token")
    }

    /// How many exchanges were logged so far.
    pub fn exchange_count(&self) -> usize {
        self.log.lock().map(|log| log.len()).unwrap_or_default()
    }

    /// The logged exchanges from number `first` on.
    pub fn exchanges_since(&self, first: usize) -> Vec<String> {
        self.log
            .lock()
            .map(|log| log.get(first..).unwrap_or_default().to_vec())
            .unwrap_or_default()
    }

    /// The status of every write request (anything but GET, HEAD and OPTIONS) so far,
    /// in the order they were answered.
    pub fn write_statuses(&self) -> Vec<u16> {
        self.log
            .lock()
            .map(|log| log.iter().filter_map(|line| write_status(line)).collect())
            .unwrap_or_default()
    }

    /// GETs `path` and returns its status and body (a one-shot HTTP/1.0 request, so the
    /// tests need no HTTP client of their own).
    pub fn get(&self, path: &str) -> (u16, String) {
        self.request(&format!("GET {path} HTTP/1.0\r\n"), "")
    }

    /// POSTs a JSON body with a bearer token and returns the status and body.
    pub fn post(&self, path: &str, token: &str, body: &str) -> (u16, String) {
        let head = format!(
            "POST {path} HTTP/1.0\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
        self.request(&head, body)
    }

    /// Sends `head` (request line and headers, each ending in CRLF) and `body` over one
    /// connection and reads the whole answer.
    fn request(&self, head: &str, body: &str) -> (u16, String) {
        use std::io::{Read as _, Write as _};
        let address = self.base.trim_start_matches("http://");
        let mut stream = std::net::TcpStream::connect(address).expect("connect");
        write!(stream, "{head}Host: {address}\r\n\r\n{body}").expect("request");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("response");
        let response = String::from_utf8_lossy(&response).into_owned();
        let (head, body) = response.split_once("\r\n\r\n").expect("HTTP response");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .expect("status line");
        (status, body.to_owned())
    }

    /// GETs a JSON document that must answer 200.
    pub fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}\n{body}");
        serde_json::from_str(&body).expect("JSON body")
    }

    /// Stops the server and waits for it; panics when it had failed.
    pub fn stop(&self) {
        if let Some(sender) = self.shutdown.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = sender.send(());
        }
        if let Some(handle) = self.thread.lock().ok().and_then(|mut slot| slot.take()) {
            match handle.join() {
                Ok(Ok(())) => {}
                Ok(Err(error)) => panic!("the registry stopped with an error: {error:#}"),
                Err(_) => panic!("the registry thread panicked"),
            }
        }
    }
}

impl Drop for Registry {
    fn drop(&mut self) {
        if let Some(sender) = self.shutdown.lock().ok().and_then(|mut slot| slot.take()) {
            let _ = sender.send(());
        }
    }
}

/// The status of a logged exchange that was a write request.
fn write_status(line: &str) -> Option<u16> {
    let head = line.lines().next()?;
    let (request, status) = head.rsplit_once(" -> ")?;
    let method = request.split_whitespace().next()?;
    if matches!(method, "GET" | "HEAD" | "OPTIONS") {
        return None;
    }
    status.split_whitespace().next()?.parse().ok()
}

/// Middleware that writes one line per request: method, URI, auth presence, status and
/// both bodies (abridged).
async fn record_exchange(
    State(log): State<Arc<Mutex<Vec<String>>>>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let authorized = request.headers().contains_key(header::AUTHORIZATION);
    let request_type = content_type(request.headers());
    let (parts, body) = request.into_parts();
    let request_bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let request_text = abridge(&request_type, &request_bytes);
    let response = next
        .run(Request::from_parts(parts, Body::from(request_bytes)))
        .await;
    let status = response.status();
    let response_type = content_type(response.headers());
    let (parts, body) = response.into_parts();
    let response_bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let mut line = format!(
        "{method} {uri}{} -> {status}",
        if authorized { " [bearer]" } else { "" }
    );
    if !request_text.is_empty() {
        let _ = write!(line, "\n    > {request_text}");
    }
    let _ = write!(line, "\n    < {}", abridge(&response_type, &response_bytes));
    if let Ok(mut log) = log.lock() {
        log.push(line);
    }
    Response::from_parts(parts, Body::from(response_bytes))
}

fn content_type(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_owned()
}

fn abridge(content_type: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return String::new();
    }
    let textual = content_type.starts_with("text/")
        || content_type.contains("json")
        || content_type.is_empty();
    match std::str::from_utf8(bytes) {
        Ok(text) if textual => {
            let mut text = text.replace('\n', "\\n");
            if text.len() > LOGGED_BODY_BYTES {
                let mut cut = LOGGED_BODY_BYTES;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push('…');
            }
            format!("[{content_type}] {text}")
        }
        _ => format!("[{content_type}] {} bytes", bytes.len()),
    }
}
