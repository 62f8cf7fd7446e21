//! Servers over HTTP, started with mcp-assured's own fixture
//! ([`ServerProcess::start_http`]): the peers ([`everything`], [`python`]), and [`start`] for
//! any other.
//!
//! Each runs in its own process group on a free loopback port, its stdout and stderr
//! captured ([`ServerProcess::stdout_tail`], [`ServerProcess::stderr_tail`]); dropping the
//! last handle kills the group and reaps the server, and [`ServerProcess::stop`] does the
//! same and waits for the last output.

use std::time::Duration;

use mcp_assured::fixture::{ServerCommand, ServerProcess};

use crate::{
    peers,
    tls::{CertificateFiles, ServerCertificate},
    transport::Transport,
};

/// How long [`start`] waits for a server to listen.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Starts `command` with `{port}` a free loopback port (or `PORT` set to it, if the command
/// does not say `{port}`) and waits up to [`STARTUP_TIMEOUT`] until it listens. `path` is the
/// MCP endpoint's, for [`ServerProcess::url`].
///
/// # Panics
///
/// If the server cannot be spawned, exits, or does not listen in time; the message has the
/// command and what it printed.
pub async fn start(command: &ServerCommand, path: &str) -> ServerProcess {
    let command = command.clone().startup_timeout(STARTUP_TIMEOUT);
    ServerProcess::start_http(&command, path)
        .await
        .unwrap_or_else(|error| panic!("could not start `{command}`: {error}"))
}

/// server-everything over streamable HTTP (endpoint `/mcp`) or HTTP+SSE (`/sse`, whose
/// `endpoint` event names `/message?sessionId=...` for the POSTs), listening on `PORT`. It
/// writes a line to stdout for every request it receives.
///
/// # Panics
///
/// Over another transport, or if it cannot be installed or started.
pub async fn everything(transport: Transport) -> ServerProcess {
    let (mode, path) = http(transport, ["streamableHttp", "sse"]);
    let script = blocking(peers::server_everything).await;
    let command = ServerCommand::new(peers::node()).arg(script).arg(mode);
    start(&command, path).await
}

/// The Python SDK peer (`tests/peers/python_server.py`) over streamable HTTP (endpoint
/// `/mcp`) or HTTP+SSE (`/sse`).
///
/// # Panics
///
/// Over another transport, or if it cannot be installed or started.
pub async fn python(transport: Transport) -> ServerProcess {
    let (mode, path) = http(transport, ["streamable-http", "sse"]);
    let python = blocking(peers::python).await;
    let command = ServerCommand::new(python)
        .arg(peers::python_server_script())
        .args(["--transport", mode, "--port", "{port}"]);
    start(&command, path).await
}

/// The Python server with planted bugs over streamable HTTP, with `args` after its own
/// (`--correct`).
///
/// # Panics
///
/// If it cannot be installed or started.
pub async fn planted_bugs(args: &[&str]) -> ServerProcess {
    let python = blocking(peers::python).await;
    let command = ServerCommand::new(python)
        .arg(peers::planted_bugs_server_script())
        .args(["--transport", "streamable-http", "--port", "{port}"])
        .args(args);
    start(&command, "/mcp").await
}

/// The Python SDK peer over streamable HTTP answering each request with a plain JSON body
/// (the SDK's `json_response=True`) rather than an SSE stream.
///
/// # Panics
///
/// If it cannot be installed or started.
pub async fn python_json_bodies() -> ServerProcess {
    let (mode, path) = http(Transport::StreamableHttp, ["streamable-http", "sse"]);
    let python = blocking(peers::python).await;
    let command = ServerCommand::new(python)
        .arg(peers::python_server_script())
        .args(["--transport", mode, "--port", "{port}", "--json-response"]);
    start(&command, path).await
}

/// The Python SDK peer serving HTTPS itself (uvicorn's TLS) with `certificate`, over
/// streamable HTTP or HTTP+SSE. The certificate's files live as long as the server.
///
/// # Panics
///
/// Over another transport, or if it cannot be installed or started.
pub async fn python_https(transport: Transport, certificate: &ServerCertificate) -> PythonHttps {
    let (mode, path) = http(transport, ["streamable-http", "sse"]);
    let files = certificate.files();
    let python = blocking(peers::python).await;
    let command = ServerCommand::new(python)
        .arg(peers::python_server_script())
        .args(["--transport", mode, "--port", "{port}"])
        .arg("--certfile")
        .arg(files.certificate())
        .arg("--keyfile")
        .arg(files.key());
    let server = start(&command, path).await;
    PythonHttps {
        server,
        _files: files,
    }
}

/// The Python SDK peer over HTTPS, from [`python_https`].
#[derive(Debug)]
pub struct PythonHttps {
    pub server: ServerProcess,
    _files: CertificateFiles,
}

impl PythonHttps {
    /// `https://127.0.0.1:PORT/mcp` (or `/sse`).
    pub fn url(&self) -> String {
        let url = self.server.url().expect("an HTTP server");
        url.replacen("http://", "https://", 1)
    }
}

/// A peer's name for the HTTP `transport` (of its names for streamable HTTP and HTTP+SSE),
/// and the path of the MCP endpoint there.
fn http(
    transport: Transport,
    [streamable_http, sse]: [&'static str; 2],
) -> (&'static str, &'static str) {
    match transport {
        Transport::StreamableHttp => (streamable_http, "/mcp"),
        Transport::Sse => (sse, "/sse"),
        other => panic!("{other:?} is not an HTTP transport"),
    }
}

/// What `server` printed last, for a failure message.
pub fn output(server: &ServerProcess) -> String {
    let stdout = server.stdout_tail().unwrap_or_default();
    let stderr = server.stderr_tail().unwrap_or_default();
    format!("--- stdout (last lines) ---\n{stdout}\n--- stderr (last lines) ---\n{stderr}")
}

/// Runs a blocking installer off the async worker thread, keeping its panic message.
async fn blocking<T: Send + 'static>(f: fn() -> T) -> T {
    match tokio::task::spawn_blocking(f).await {
        Ok(value) => value,
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}
