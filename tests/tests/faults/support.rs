//! What every fault test needs: the fault server on each transport, deadlines, and proof that
//! no process was left behind.

use std::{
    path::{Path, PathBuf},
    sync::{
        OnceLock,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use mcp_assured::{
    ClientBuilder, Error, McpAssured, McpClient,
    fixture::{ServerCommand, ServerProcess},
};
use mcp_assured_tests::{
    eventually,
    faults::{Dropped, Fault, FaultServer},
    processes::{self, assert_reaped},
    server,
};

/// The `fault-server` binary of this package.
pub const FAULT_SERVER: &str = env!("CARGO_BIN_EXE_fault-server");

/// The request timeout of the fault tests: every error must arrive well within it.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A tag unique to this test process and call: names the server's pid file.
pub fn tag() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "faults-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Where the `fault-server` tagged `tag` writes its pid (`--pid-file`).
pub fn pid_file(tag: &str) -> PathBuf {
    pid_dir().join(format!("{tag}.pid"))
}

fn pid_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fault-server-pids");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// The arguments that make `fault-server` write its pid for [`assert_gone`].
pub fn pid_args(tag: &str) -> [String; 2] {
    ["--pid-file".to_owned(), pid_file(tag).display().to_string()]
}

/// The pid the `fault-server` tagged `tag` wrote.
fn pid_of(tag: &str) -> u32 {
    let pid = std::fs::read_to_string(pid_file(tag))
        .unwrap_or_else(|error| panic!("the server tagged {tag} wrote no pid file: {error}"));
    pid.trim().parse().unwrap()
}

/// Waits up to 3 s until the `fault-server` tagged `tag` is gone: the pid it wrote no longer
/// exists, so the process was killed *and* reaped (a zombie still answers `kill 0`).
pub async fn assert_gone(tag: &str) {
    let pid = pid_of(tag);
    wait_until(
        || !processes::exists(pid),
        || format!("the server tagged {tag} (pid {pid}) still exists (running or a zombie)"),
    )
    .await;
    std::fs::remove_file(pid_file(tag)).unwrap();
}

/// Waits up to 3 s until the `fault-server` tagged `tag` has exited, reaped or not (whoever
/// reaps it may not have yet).
pub async fn wait_exited(tag: &str) {
    let pid = pid_of(tag);
    wait_until(
        || processes::state(pid).is_none_or(|state| state == 'Z'),
        || format!("the server tagged {tag} (pid {pid}) is still running"),
    )
    .await;
}

/// Polls `done` for up to 3 s; fails with `what()` if it never holds.
async fn wait_until(mut done: impl FnMut() -> bool, what: impl FnOnce() -> String) {
    let held = eventually(Duration::from_secs(3), || std::future::ready(done())).await;
    assert!(held, "{}", what());
}

/// Waits up to 3 s until the in-process `server` and every clone of it are dropped: the
/// task serving it ended. (An in-process server has no process to leave behind.)
pub async fn assert_dropped(server: &Dropped) {
    wait_until(
        || server.is_dropped(),
        || "the in-process server outlived its client".to_owned(),
    )
    .await;
}

/// `error` says the server process died during `method`: over stdio (the client owns the
/// child) `ServerExited` with exit status `code` and `stderr` in the stderr tail; over HTTP a
/// transport error with no status, whose reason this returns.
#[track_caller]
pub fn assert_crashed<'e>(
    via: Via,
    error: &'e Error,
    method: &str,
    code: i32,
    stderr: &str,
) -> Option<&'e str> {
    match (via, error) {
        (
            Via::Stdio,
            Error::ServerExited {
                method: during,
                status,
                stderr_tail,
            },
        ) => {
            assert_eq!(during.as_deref(), Some(method), "{error:?}");
            assert_eq!(*status, format!("exit status: {code}"), "{error:?}");
            let tail = stderr_tail.as_deref().unwrap_or_default();
            assert!(tail.contains(stderr), "{error:?}");
            None
        }
        (
            Via::Http | Via::Sse,
            Error::Transport {
                method: during,
                status: None,
                reason,
            },
        ) => {
            assert_eq!(during.as_deref(), Some(method), "{error:?}");
            Some(reason)
        }
        (via, other) => panic!("{via:?}: unexpected {other:?}"),
    }
}

/// Fails unless less than `limit` passed since `started`.
#[track_caller]
pub fn assert_within(started: Instant, limit: Duration) {
    let took = started.elapsed();
    assert!(took < limit, "took {took:?}, more than {limit:?}");
}

/// A client for `fault-server --fault <fault>` over stdio, tagged with `tag`.
pub fn stdio(fault: Fault, tag: &str) -> ClientBuilder {
    // The faults are of the `initialize` handshake and 2025-11-25's sessions; the 2026-07-28
    // ones (revision_2026.rs) ask for that revision.
    McpAssured::client()
        .protocol_version("2025-11-25")
        .command(FAULT_SERVER)
        .args(["--fault", fault.name()])
        .args(pid_args(tag))
        .timeout(TIMEOUT)
}

/// `fault-server --transport http --fault <fault>` on a free loopback port, tagged `tag`.
pub async fn http_server(fault: Fault, tag: &str) -> ServerProcess {
    server_on("http", "/mcp", fault, tag).await
}

/// `fault-server --transport sse --fault <fault>` on a free loopback port, tagged `tag`.
pub async fn sse_server(fault: Fault, tag: &str) -> ServerProcess {
    server_on("sse", "/sse", fault, tag).await
}

/// `fault-server --transport <transport>` (`http` or `sse`) on a free loopback port.
async fn server_on(transport: &str, path: &str, fault: Fault, tag: &str) -> ServerProcess {
    let command = ServerCommand::new(FAULT_SERVER)
        .args(["--transport", transport, "--port", "{port}"])
        .args(["--fault", fault.name()])
        .args(pid_args(tag));
    server::start(&command, path).await
}

/// `fault-server --fault <fault>` over `via` (not in process), tagged `tag`: a client builder
/// for it (with [`TIMEOUT`]), and the HTTP server process, if any.
pub async fn fault_server(
    via: Via,
    fault: Fault,
    tag: &str,
) -> (ClientBuilder, Option<ServerProcess>) {
    let server = match via {
        Via::Stdio => return (stdio(fault, tag), None),
        Via::Http => http_server(fault, tag).await,
        Via::Sse => sse_server(fault, tag).await,
        Via::InProcess => panic!("an in-process server has no faults below its tools"),
    };
    let builder = McpAssured::client()
        .protocol_version("2025-11-25")
        .base_uri(server.url().expect("an HTTP server"))
        .timeout(TIMEOUT);
    (builder, Some(server))
}

/// How a test reaches the fault server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `FaultServer` in this process.
    InProcess,
    /// The `fault-server` binary over stdio.
    Stdio,
    /// The `fault-server` binary over streamable HTTP.
    Http,
    /// The `fault-server` binary over HTTP+SSE.
    Sse,
}

impl Via {
    /// `in_process`, `stdio`, `http` or `sse`: the names the `on!` macro uses.
    pub fn named(name: &str) -> Self {
        match name {
            "in_process" => Via::InProcess,
            "stdio" => Via::Stdio,
            "http" => Via::Http,
            "sse" => Via::Sse,
            other => panic!("no transport `{other}`"),
        }
    }
}

/// A connected client and whatever runs the server behind it.
pub struct Peer {
    pub client: McpClient,
    /// The `fault-server` process's tag; `None` in process.
    pub tag: Option<String>,
    pub http: Option<ServerProcess>,
    /// The in-process server.
    pub in_process: Option<Dropped>,
}

impl Peer {
    /// Connects to the fault server (behaving, except for what its tools are asked to do).
    pub async fn start(via: Via) -> Peer {
        Self::with(via, |server| server, Fault::None).await
    }

    /// Connects to the fault server with `fault`, after `configure` on the in-process server.
    pub async fn with(
        via: Via,
        configure: impl FnOnce(FaultServer) -> FaultServer,
        fault: Fault,
    ) -> Peer {
        if via == Via::InProcess {
            let server = configure(FaultServer::new());
            let in_process = Some(server.dropped());
            let client = McpAssured::client()
                .protocol_version("2025-11-25")
                .service(server)
                .timeout(TIMEOUT)
                .build()
                .await
                .unwrap();
            return Peer {
                client,
                tag: None,
                http: None,
                in_process,
            };
        }
        let tag = tag();
        let (builder, http) = fault_server(via, fault, &tag).await;
        Peer {
            client: builder.build().await.unwrap(),
            tag: Some(tag),
            http,
            in_process: None,
        }
    }

    /// Closes the client (an error is fine: the server may be dead) and proves that nothing
    /// was left behind: no process (a stdio child is reaped by `close` itself), no
    /// in-process server.
    pub async fn finish(self) {
        let pid = self.client.process_id();
        let _ = self.client.close().await;
        if let Some(pid) = pid {
            assert_reaped(pid);
        }
        if let Some(server) = self.http {
            server.stop().await;
        }
        if let Some(tag) = &self.tag {
            assert_gone(tag).await;
        }
        if let Some(server) = &self.in_process {
            assert_dropped(server).await;
        }
    }
}

/// One `#[tokio::test]` per transport named, each calling `$body(Via)`:
/// `on!(hang_times_out: in_process, stdio, http);` calls `hang_times_out(via)`.
macro_rules! on {
    ($body:ident: $($via:ident),+ $(,)?) => {
        mod $body {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $via() {
                    super::$body($crate::support::Via::named(stringify!($via))).await;
                }
            )+
        }
    };
}
pub(crate) use on;
