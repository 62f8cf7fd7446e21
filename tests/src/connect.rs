//! A client connected to a server over a chosen [`Transport`], and the macro that runs one
//! test function per transport: for the peers here ([`everything`], [`python`]), and for any
//! suite that connects its own server ([`Connected`] over the server it keeps alive).

use std::time::Duration;

#[allow(deprecated)] // sampling is SEP-2577-deprecated, and tested
use mcp_assured::model::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
use mcp_assured::{ClientBuilder, McpAssured, McpClient, fixture::ServerProcess};

use crate::{peers, server, transport::Transport};

/// A connected client and the server it talks to, which lives as long as this value (by
/// default an HTTP server process; stdio children belong to the client); derefs to the
/// client.
#[derive(Debug)]
pub struct Connected<S = ServerProcess> {
    /// The client.
    pub client: McpClient,
    /// What keeps the server running, if the client does not.
    pub server: Option<S>,
}

impl<S> std::ops::Deref for Connected<S> {
    type Target = McpClient;
    fn deref(&self) -> &McpClient {
        &self.client
    }
}

/// How long each request may take in these tests: generous, since peers run under load.
const TIMEOUT: Duration = Duration::from_secs(20);

/// server-everything over `transport`, with a client set up by `configure`.
///
/// # Panics
///
/// In process (server-everything runs only as a process), or if it cannot be installed,
/// started or connected to.
pub async fn everything(
    transport: Transport,
    configure: impl FnOnce(ClientBuilder) -> ClientBuilder,
) -> Connected {
    let stdio = || {
        McpAssured::client()
            .command(peers::node())
            .arg(peers::server_everything())
            .arg("stdio")
    };
    let server = match transport {
        Transport::InProcess | Transport::Stdio => None,
        http => Some(server::everything(http).await),
    };
    connect("server-everything", transport, stdio, server, configure).await
}

/// The Python SDK server over `transport`.
///
/// # Panics
///
/// In process, or if it cannot be installed, started or connected to.
pub async fn python(transport: Transport) -> Connected {
    let stdio = || {
        McpAssured::client()
            .command(peers::python())
            .arg(peers::python_server_script())
    };
    let server = match transport {
        Transport::InProcess | Transport::Stdio => None,
        http => Some(server::python(http).await),
    };
    // The SDK speaks 2026-07-28 too; this peer is its 2025-11-25 face (python_server_2026.py
    // is the other).
    connect("the Python server", transport, stdio, server, |builder| {
        builder.protocol_version("2025-11-25")
    })
    .await
}

/// Connects to `peer`: to `server` if it runs one over HTTP, else through the stdio client
/// `stdio` makes.
async fn connect(
    peer: &str,
    transport: Transport,
    stdio: impl FnOnce() -> ClientBuilder,
    server: Option<ServerProcess>,
    configure: impl FnOnce(ClientBuilder) -> ClientBuilder,
) -> Connected {
    assert!(
        transport != Transport::InProcess,
        "{peer} runs only as a process, not in the test's"
    );
    let builder = match &server {
        Some(server) => McpAssured::client().base_uri(server.url().expect("an HTTP server")),
        None => stdio(),
    };
    match configure(builder.timeout(TIMEOUT)).build().await {
        Ok(client) => Connected { client, server },
        Err(error) => panic!(
            "connecting to {peer} over {transport:?} failed: {error}\n{}",
            server.as_ref().map(server::output).unwrap_or_default()
        ),
    }
}

/// A sampling answer from `test-model` whose text is `reply(asked)`, `asked` being the text
/// the request asks about (the first text block of its first message, or "").
#[allow(deprecated)] // sampling is SEP-2577-deprecated, and tested
pub fn sampled(
    request: &CreateMessageRequestParams,
    reply: impl FnOnce(&str) -> String,
) -> CreateMessageResult {
    let asked = request
        .messages
        .first()
        .and_then(|message| message.content.first())
        .and_then(|content| content.as_text())
        .map(|text| text.text.as_str())
        .unwrap_or_default();
    CreateMessageResult::new(
        SamplingMessage::assistant_text(reply(asked)),
        "test-model".into(),
    )
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

/// One module per transport named (`in_process`, `stdio`, `streamable_http`, `sse`), each
/// with one `#[tokio::test]` per feature function (`async fn feature(transport: Transport)`),
/// so the report reads `sse::calls_echo`:
///
/// ```
/// use mcp_assured_tests::{Transport, connect, for_each_transport};
///
/// async fn calls_echo(transport: Transport) {
///     let client = connect::everything(transport, |builder| builder).await;
///     client.call_tool("echo", serde_json::json!({"message": "hi"})).await.unwrap();
/// }
///
/// // `stdio::calls_echo` and `sse::calls_echo`.
/// for_each_transport!(stdio, sse => calls_echo);
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! for_each_transport {
    ($($transport:ident),+ => $($feature:ident),* $(,)?) => {
        $crate::for_each_transport!(@each [$($transport)+] [$($feature)*]);
    };
    (@each [$($transport:ident)+] $features:tt) => {
        $( $crate::for_each_transport!(@module $transport $features); )+
    };
    (@module $transport:ident [$($feature:ident)*]) => {
        mod $transport {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $feature() {
                   super::$feature($crate::for_each_transport!(@variant $transport)).await
               } )*
        }
    };
    (@variant in_process) => { $crate::Transport::InProcess };
    (@variant stdio) => { $crate::Transport::Stdio };
    (@variant streamable_http) => { $crate::Transport::StreamableHttp };
    (@variant sse) => { $crate::Transport::Sse };
}
