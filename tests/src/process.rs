//! [`ServerProcess`]: an MCP server running as a child process on a loopback port.

use std::collections::VecDeque;
use std::fmt;
use std::net::{Ipv4Addr, TcpListener};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

use crate::peers;

/// How long the constructors wait for a server to accept connections.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of output kept for [`ServerProcess::output_tail`] and failure messages.
const OUTPUT_LINES: usize = 200;
/// Longer lines are cut to this many bytes in the buffer.
const OUTPUT_LINE_BYTES: usize = 2_000;

/// A server running as a child process, listening on `127.0.0.1:<port>`; killed on drop.
///
/// The child runs in its own process group with stdin closed and stdout/stderr captured into a
/// ring buffer ([`output_tail`](Self::output_tail)), which every failure message includes.
/// Dropping the `ServerProcess` kills the whole group with `SIGKILL` and reaps the child, so no
/// server and no zombie outlives its test; [`shutdown`](Self::shutdown) does the same and hands
/// back the output.
///
/// It needs a Tokio runtime (`#[tokio::test]`). The peers' constructors install their peer on
/// first use (see [`peers`](crate::peers)), pick a free port, start the server and wait until it
/// accepts TCP connections:
///
/// ```no_run
/// use mcp_assured_tests::ServerProcess;
///
/// # async fn example() {
/// let server = ServerProcess::everything_streamable_http().await;
/// let url = server.endpoint_url(); // "http://127.0.0.1:<port>/mcp"
/// // ... connect a client to `url`; the server stops when `server` is dropped.
/// # }
/// ```
///
/// Any other server: [`start`](Self::start) builds its command from the port it is given.
///
/// ```no_run
/// use mcp_assured_tests::{ServerProcess, peers};
/// use tokio::process::Command;
///
/// # async fn example() {
/// let server = ServerProcess::start("python server (sse)", "/sse", |port| {
///     let mut command = Command::new(peers::python());
///     command.arg(peers::python_server_script())
///         .args(["--transport", "sse", "--port", &port.to_string()]);
///     command
/// })
/// .await;
/// # }
/// ```
///
/// Or with a port of your own: [`spawn`](Self::spawn), then [`wait_for_port`](Self::wait_for_port).
#[must_use = "the server is killed as soon as the `ServerProcess` is dropped"]
pub struct ServerProcess {
    name: String,
    command_line: String,
    child: Child,
    /// The child's pid, which is also its process group id; `None` once it has been reaped.
    group: Option<Pid>,
    port: Option<u16>,
    endpoint_path: String,
    output: Arc<Mutex<OutputBuffer>>,
    readers: Vec<JoinHandle<()>>,
}

impl ServerProcess {
    /// server-everything in `streamableHttp` mode; its endpoint is `/mcp`.
    ///
    /// It writes a line to stdout for every request it receives (see
    /// [`output_tail`](Self::output_tail)). Panics if it cannot be installed or started.
    pub async fn everything_streamable_http() -> Self {
        Self::everything("streamableHttp", "/mcp").await
    }

    /// server-everything in the old HTTP+SSE mode: `GET /sse` opens the stream, whose `endpoint`
    /// event names `/message?sessionId=...` for the POSTs. [`endpoint_url`](Self::endpoint_url)
    /// is the `/sse` URL.
    ///
    /// Panics if it cannot be installed or started.
    pub async fn everything_sse() -> Self {
        Self::everything("sse", "/sse").await
    }

    /// The Python SDK peer (`tests/peers/python_server.py`) over streamable HTTP; endpoint `/mcp`.
    ///
    /// Panics if it cannot be installed or started.
    pub async fn python_streamable_http() -> Self {
        let python = blocking(peers::python).await;
        Self::start("python_server.py (streamable-http)", "/mcp", move |port| {
            let mut command = Command::new(&python);
            command.arg(peers::python_server_script()).args([
                "--transport",
                "streamable-http",
                "--port",
                &port.to_string(),
            ]);
            command
        })
        .await
    }

    async fn everything(mode: &'static str, endpoint_path: &str) -> Self {
        let script = blocking(peers::server_everything).await;
        Self::start(
            &format!("server-everything ({mode})"),
            endpoint_path,
            move |port| {
                let mut command = Command::new(peers::node());
                command.arg(&script).arg(mode).env("PORT", port.to_string());
                command
            },
        )
        .await
    }

    /// Picks a free loopback port, starts `make_command(port)`, and waits up to
    /// [`STARTUP_TIMEOUT`] until it accepts connections on `127.0.0.1:port`.
    ///
    /// `name` is for messages; `endpoint_path` (e.g. `"/mcp"`) makes
    /// [`endpoint_url`](Self::endpoint_url).
    ///
    /// # Panics
    ///
    /// If the command cannot be spawned, exits, or does not listen in time; the message has the
    /// command and its output.
    pub async fn start(
        name: &str,
        endpoint_path: &str,
        make_command: impl FnOnce(u16) -> Command,
    ) -> Self {
        let port = free_loopback_port();
        let mut server = Self::spawn(name, make_command(port));
        server.endpoint_path = endpoint_path.to_owned();
        server.wait_for_port(port, STARTUP_TIMEOUT).await;
        server
    }

    /// Spawns `command` in its own process group, stdin closed, stdout and stderr captured.
    ///
    /// Call [`wait_for_port`](Self::wait_for_port) before using the server.
    ///
    /// # Panics
    ///
    /// If the command cannot be spawned, or outside a Tokio runtime.
    pub fn spawn(name: &str, mut command: Command) -> Self {
        let command_line = display_command(&command);
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("Could not spawn {name}: {e}\ncommand: {command_line}"));
        let group = child
            .id()
            .and_then(|pid| i32::try_from(pid).ok())
            .map(Pid::from_raw);
        let output = Arc::new(Mutex::new(OutputBuffer::default()));
        let mut readers = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            readers.push(tokio::spawn(capture(stdout, "stdout", output.clone())));
        }
        if let Some(stderr) = child.stderr.take() {
            readers.push(tokio::spawn(capture(stderr, "stderr", output.clone())));
        }
        Self {
            name: name.to_owned(),
            command_line,
            child,
            group,
            port: None,
            endpoint_path: "/".to_owned(),
            output,
            readers,
        }
    }

    /// Waits until something accepts TCP connections on `127.0.0.1:port`, then remembers `port`.
    ///
    /// # Panics
    ///
    /// If the process exits first, or nothing listens within `timeout`; the message has the
    /// command and its output.
    pub async fn wait_for_port(&mut self, port: u16, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(status) = self.exit_status() {
                let what =
                    format!("exited ({status}) before accepting connections on 127.0.0.1:{port}");
                panic!("{}", self.failure(&what).await);
            }
            if TcpStream::connect((Ipv4Addr::LOCALHOST, port))
                .await
                .is_ok()
            {
                // Someone else's server could hold a port picked by `free_loopback_port`:
                // only trust the connection if ours is still running.
                if let Some(status) = self.exit_status() {
                    let what = format!(
                        "exited ({status}) although something accepts connections on \
                         127.0.0.1:{port}; was the port taken?"
                    );
                    panic!("{}", self.failure(&what).await);
                }
                self.port = Some(port);
                return;
            }
            if tokio::time::Instant::now() >= deadline {
                let what =
                    format!("did not accept connections on 127.0.0.1:{port} within {timeout:?}");
                panic!("{}", self.failure(&what).await);
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// The port the server listens on.
    ///
    /// # Panics
    ///
    /// If [`wait_for_port`](Self::wait_for_port) has not succeeded yet.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or_else(|| {
            panic!(
                "{}: port() called before wait_for_port() succeeded",
                self.name
            )
        })
    }

    /// The server's process id (also its process group id), while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.group.map(|pid| pid.as_raw().unsigned_abs())
    }

    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port())
    }

    /// The URL of the MCP endpoint: [`base_url`](Self::base_url) followed by the endpoint path
    /// (`/mcp` for streamable HTTP, `/sse` for HTTP+SSE).
    pub fn endpoint_url(&self) -> String {
        format!("{}{}", self.base_url(), self.endpoint_path)
    }

    /// The last lines the process printed, stdout and stderr interleaved, each prefixed with
    /// `stdout| ` or `stderr| `.
    pub fn output_tail(&self) -> String {
        lock(&self.output).render()
    }

    /// Kills the process group, reaps the child, and returns all output kept
    /// ([`output_tail`](Self::output_tail)) once the pipes are drained.
    pub async fn shutdown(mut self) -> String {
        self.kill_group();
        let _ = self.child.wait().await;
        self.group = None;
        self.drain_readers().await;
        self.output_tail()
    }

    fn exit_status(&mut self) -> Option<ExitStatus> {
        let status = self.child.try_wait().ok().flatten();
        if status.is_some() {
            self.group = None;
        }
        status
    }

    /// Stops the process and describes the failure: what happened, the command, its output.
    async fn failure(&mut self, what: &str) -> String {
        self.kill_group();
        self.drain_readers().await;
        format!(
            "{} {what}.\ncommand: {}\n--- output (last {OUTPUT_LINES} lines) ---\n{}",
            self.name,
            self.command_line,
            self.output_tail()
        )
    }

    /// Waits (briefly) until the reader tasks have taken everything the process printed.
    async fn drain_readers(&mut self) {
        for reader in self.readers.drain(..) {
            let _ = tokio::time::timeout(Duration::from_secs(2), reader).await;
        }
    }

    fn kill_group(&mut self) {
        // Only while the child is unreaped: its pid, and so the group id, cannot be reused.
        if let Some(group) = self.group {
            let _ = killpg(group, Signal::SIGKILL);
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if self.group.is_none() {
            return;
        }
        self.kill_group();
        // SIGKILL takes effect at once; reap here so that no zombie outlives the test, even if
        // the runtime (which would otherwise reap it for `kill_on_drop`) is going away.
        for _ in 0..1_000 {
            match self.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Ok(Some(_)) | Err(_) => break,
            }
        }
        self.group = None;
    }
}

impl fmt::Debug for ServerProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerProcess")
            .field("name", &self.name)
            .field("command", &self.command_line)
            .field("pid", &self.group)
            .field("port", &self.port)
            .field("endpoint_path", &self.endpoint_path)
            .finish_non_exhaustive()
    }
}

/// A port on 127.0.0.1 that was free a moment ago: bind port 0, read the port, close.
///
/// Another process may take it before the server binds it; [`ServerProcess::wait_for_port`]
/// notices when that makes our server exit.
pub fn free_loopback_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|e| panic!("cannot bind a free port on 127.0.0.1: {e}"))
}

/// Runs a blocking installer off the async worker thread, keeping its panic message.
async fn blocking<T: Send + 'static>(f: fn() -> T) -> T {
    match tokio::task::spawn_blocking(f).await {
        Ok(value) => value,
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

async fn capture(
    stream: impl AsyncRead + Unpin,
    label: &'static str,
    output: Arc<Mutex<OutputBuffer>>,
) {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    // Bytes, not `lines()`: a server that prints invalid UTF-8 must not stop the capture (and
    // then block on a full pipe).
    while let Ok(read) = reader.read_until(b'\n', &mut line).await {
        if read == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&line);
        lock(&output).push(label, text.trim_end_matches(['\r', '\n']));
        line.clear();
    }
}

#[derive(Debug, Default)]
struct OutputBuffer {
    lines: VecDeque<String>,
    dropped: usize,
}

impl OutputBuffer {
    fn push(&mut self, label: &str, text: &str) {
        if self.lines.len() == OUTPUT_LINES {
            self.lines.pop_front();
            self.dropped += 1;
        }
        let mut end = text.len().min(OUTPUT_LINE_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let cut = if end < text.len() { " [...]" } else { "" };
        self.lines
            .push_back(format!("{label}| {}{cut}", &text[..end]));
    }

    fn render(&self) -> String {
        let mut out = String::new();
        if self.dropped > 0 {
            out.push_str(&format!("[{} earlier lines dropped]\n", self.dropped));
        }
        for line in &self.lines {
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

fn lock(output: &Mutex<OutputBuffer>) -> std::sync::MutexGuard<'_, OutputBuffer> {
    output.lock().unwrap_or_else(PoisonError::into_inner)
}

fn display_command(command: &Command) -> String {
    let command = command.as_std();
    let envs = command.get_envs().filter_map(|(key, value)| {
        value.map(|value| format!("{}={}", key.to_string_lossy(), value.to_string_lossy()))
    });
    let words = std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| part.to_string_lossy().into_owned());
    envs.chain(words).collect::<Vec<_>>().join(" ")
}
