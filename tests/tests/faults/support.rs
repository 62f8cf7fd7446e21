//! What every fault test needs: the fault server on each transport, deadlines, and proof that
//! no process was left behind.

use std::{
    sync::atomic::{AtomicU32, Ordering},
    time::{Duration, Instant},
};

use mcp_assured::{ClientBuilder, McpAssured, McpClient};
use mcp_assured_tests::{
    ServerProcess,
    faults::{Fault, FaultServer},
};
use tokio::process::Command;

/// The `fault-server` binary of this package.
pub const FAULT_SERVER: &str = env!("CARGO_BIN_EXE_fault-server");

/// The request timeout of the fault tests: every error must arrive well within it.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A tag unique to this test process and call, for finding a child in `/proc`.
pub fn tag() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "faults-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Whether a process with `tag` among its arguments exists (zombies included: a zombie has
/// an empty command line in /proc, so it would not be found — see [`assert_reaped`]).
pub fn running(tag: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .any(|cmdline| {
            cmdline
                .split(|byte| *byte == 0)
                .any(|arg| arg == tag.as_bytes())
        })
}

/// Waits up to 3 s for the process tagged `tag` to be gone.
pub async fn assert_gone(tag: &str) {
    let deadline = Instant::now() + Duration::from_secs(3);
    while running(tag) {
        assert!(
            Instant::now() < deadline,
            "the server tagged {tag} is still running"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The process `pid` no longer exists: killed *and* reaped (a zombie still answers `kill 0`).
pub fn assert_reaped(pid: u32) {
    let pid = nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap());
    assert_eq!(
        nix::sys::signal::kill(pid, None),
        Err(nix::errno::Errno::ESRCH),
        "process {pid} still exists (running or a zombie)"
    );
}

/// Fails unless less than `limit` passed since `started`.
#[track_caller]
pub fn assert_within(started: Instant, limit: Duration) {
    let took = started.elapsed();
    assert!(took < limit, "took {took:?}, more than {limit:?}");
}

/// A client for `fault-server --fault <fault>` over stdio, tagged with `tag`.
pub fn stdio(fault: Fault, tag: &str) -> ClientBuilder {
    McpAssured::client()
        .command(FAULT_SERVER)
        .args(["--fault", fault.name(), "--tag", tag])
        .timeout(TIMEOUT)
}

/// `fault-server --transport http --fault <fault>` on a free loopback port, tagged `tag`.
pub async fn http_server(fault: Fault, tag: &str) -> ServerProcess {
    server_on("http", "/mcp", fault, tag).await
}

/// `fault-server --transport <transport>` (`http` or `sse`) on a free loopback port.
async fn server_on(transport: &str, path: &str, fault: Fault, tag: &str) -> ServerProcess {
    let tag = tag.to_owned();
    let transport = transport.to_owned();
    ServerProcess::start(
        &format!("fault-server ({transport}, {fault})"),
        path,
        move |port| {
            let mut command = Command::new(FAULT_SERVER);
            command.args(["--transport", &transport, "--port", &port.to_string()]);
            command.args(["--fault", fault.name(), "--tag", &tag]);
            command
        },
    )
    .await
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
    pub tag: String,
    pub http: Option<ServerProcess>,
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
        let tag = tag();
        let (client, http) = match via {
            Via::InProcess => (
                McpAssured::client()
                    .service(configure(FaultServer::new()))
                    .timeout(TIMEOUT)
                    .build()
                    .await
                    .unwrap(),
                None,
            ),
            Via::Stdio => (stdio(fault, &tag).build().await.unwrap(), None),
            Via::Http | Via::Sse => {
                let server = if via == Via::Sse {
                    server_on("sse", "/sse", fault, &tag).await
                } else {
                    http_server(fault, &tag).await
                };
                let client = McpAssured::client()
                    .base_uri(server.endpoint_url())
                    .timeout(TIMEOUT)
                    .build()
                    .await
                    .unwrap();
                (client, Some(server))
            }
        };
        Peer { client, tag, http }
    }

    /// Closes the client (an error is fine: the server may be dead) and proves that no
    /// process was left behind.
    pub async fn finish(self) {
        let pid = self.client.process_id();
        let _ = self.client.close().await;
        if let Some(pid) = pid {
            assert_reaped(pid);
        }
        if let Some(server) = self.http {
            server.shutdown().await;
        }
        assert_gone(&self.tag).await;
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
