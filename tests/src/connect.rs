//! A client connected to a fresh third-party peer over a chosen transport, and the macro that
//! runs one test function per transport.

use std::time::Duration;

use mcp_assured::{ClientBuilder, McpAssured, McpClient};
use tokio::process::Command;

use crate::{ServerProcess, peers};

/// How a test reaches the peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// The peer as a child process on stdin/stdout.
    Stdio,
    /// Streamable HTTP (`/mcp`).
    StreamableHttp,
    /// The older HTTP+SSE transport (`/sse`).
    Sse,
}

/// A connected client and the HTTP server process it talks to, which lives as long as this
/// value; derefs to the client.
#[derive(Debug)]
pub struct Connected {
    /// The client.
    pub client: McpClient,
    /// The server process for the HTTP transports (stdio children belong to the client).
    pub server: Option<ServerProcess>,
}

impl std::ops::Deref for Connected {
    type Target = McpClient;
    fn deref(&self) -> &McpClient {
        &self.client
    }
}

/// How long each request may take in these tests: generous, since peers run under load.
const TIMEOUT: Duration = Duration::from_secs(20);

/// server-everything over `transport`, with a client set up by `configure`.
pub async fn everything(
    transport: Transport,
    configure: impl FnOnce(ClientBuilder) -> ClientBuilder,
) -> Connected {
    let (builder, server) = match transport {
        Transport::Stdio => (
            McpAssured::client()
                .command(peers::node())
                .arg(peers::server_everything())
                .arg("stdio"),
            None,
        ),
        Transport::StreamableHttp => {
            let server = ServerProcess::everything_streamable_http().await;
            (
                McpAssured::client().base_uri(server.endpoint_url()),
                Some(server),
            )
        }
        Transport::Sse => {
            let server = ServerProcess::everything_sse().await;
            (
                McpAssured::client().base_uri(server.endpoint_url()),
                Some(server),
            )
        }
    };
    finish(
        "server-everything",
        transport,
        configure(builder.timeout(TIMEOUT)),
        server,
    )
    .await
}

/// The Python SDK server over `transport`.
pub async fn python(transport: Transport) -> Connected {
    let (builder, server) = match transport {
        Transport::Stdio => (
            McpAssured::client()
                .command(peers::python())
                .arg(peers::python_server_script()),
            None,
        ),
        Transport::StreamableHttp => {
            let server = ServerProcess::python_streamable_http().await;
            (
                McpAssured::client().base_uri(server.endpoint_url()),
                Some(server),
            )
        }
        Transport::Sse => {
            let server = ServerProcess::start("python server (sse)", "/sse", |port| {
                let mut command = Command::new(peers::python());
                command.arg(peers::python_server_script()).args([
                    "--transport",
                    "sse",
                    "--port",
                    &port.to_string(),
                ]);
                command
            })
            .await;
            (
                McpAssured::client().base_uri(server.endpoint_url()),
                Some(server),
            )
        }
    };
    finish(
        "the Python server",
        transport,
        builder.timeout(TIMEOUT),
        server,
    )
    .await
}

async fn finish(
    peer: &str,
    transport: Transport,
    builder: ClientBuilder,
    server: Option<ServerProcess>,
) -> Connected {
    match builder.build().await {
        Ok(client) => Connected { client, server },
        Err(error) => panic!(
            "connecting to {peer} over {transport:?} failed: {error}\n{}",
            server.as_ref().map(|s| s.output_tail()).unwrap_or_default()
        ),
    }
}

/// server-everything's tool names, once it has registered the tools it adds when a session
/// is initialized (at least `expected` of them). Their `tools/list_changed` can be lost over
/// streamable HTTP: the server sends it before the client's GET stream is open and keeps it
/// only for replay, so this polls the list instead of waiting for the notification.
pub async fn everything_tool_names(client: &McpClient, expected: usize) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let names: Vec<String> = client
            .list_tools()
            .await
            .unwrap_or_else(|e| panic!("tools/list failed: {e}"))
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        if names.len() >= expected {
            return names;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "server-everything listed {} tools, never {expected}: {names:?}",
            names.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Generates `mod stdio`, `mod streamable_http` and `mod sse`, each with one
/// `#[tokio::test]` per feature function (`async fn feature(transport: Transport)`), so the
/// report reads `sse::calls_echo`.
#[macro_export]
macro_rules! for_each_transport {
    ($($feature:ident),* $(,)?) => {
        mod stdio {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $feature() { super::$feature($crate::Transport::Stdio).await } )*
        }
        mod streamable_http {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $feature() { super::$feature($crate::Transport::StreamableHttp).await } )*
        }
        mod sse {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $feature() { super::$feature($crate::Transport::Sse).await } )*
        }
    };
}
