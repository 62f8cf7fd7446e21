//! Starts the example server over each transport and connects a client to it. (What other
//! packages' tests share too, such as [`Transport`], is in `mcp-assured-tests`.)

#![allow(dead_code, deprecated)] // each test file uses part of this; sampling & roots are SEP-2577-deprecated

use std::time::Duration;

use mcp_assured::{
    McpAssured,
    model::{ElicitResult, ElicitationAction, Root},
};
use mcp_assured_examples::{
    ExampleServer, HttpOptions,
    serve::{serve_sse, serve_streamable_http},
};
pub use mcp_assured_tests::Transport;
use mcp_assured_tests::connect::sampled;
use tokio::{net::TcpListener, task::JoinHandle};

/// The example server binary, built by cargo for these tests.
pub const EXAMPLE_SERVER: &str = env!("CARGO_BIN_EXE_example-server");

/// An HTTP server running on a task of the test's runtime; stopped on drop.
#[derive(Debug)]
pub struct HttpServer {
    pub base_url: String,
    task: JoinHandle<std::io::Result<()>>,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl HttpServer {
    pub async fn streamable_http(options: HttpOptions) -> Self {
        Self::start(options, false).await
    }

    pub async fn sse(options: HttpOptions) -> Self {
        Self::start(options, true).await
    }

    async fn start(options: HttpOptions, sse: bool) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let base_url = format!("http://{}", listener.local_addr().expect("local address"));
        let task = if sse {
            tokio::spawn(serve_sse(listener, options))
        } else {
            tokio::spawn(serve_streamable_http(listener, options))
        };
        HttpServer { base_url, task }
    }

    /// The URL a client is given: streamable HTTP gets the bare base (the client adds
    /// `/mcp`), SSE the `/sse` endpoint.
    pub fn client_url(&self, transport: Transport) -> String {
        match transport {
            Transport::Sse => format!("{}/sse", self.base_url),
            _ => self.base_url.clone(),
        }
    }
}

/// A connected client and the in-process HTTP server it talks to, if any; derefs to the
/// client.
pub type Connected = mcp_assured_tests::Connected<HttpServer>;

/// The answers the suite's clients give to sampling, elicitation and roots requests.
pub fn with_answers(builder: mcp_assured::ClientBuilder) -> mcp_assured::ClientBuilder {
    builder
        .timeout(Duration::from_secs(10))
        .on_sampling(|request| sampled(request, |asked| format!("sampled: {asked}")))
        .on_elicitation(|_| {
            ElicitResult::new(ElicitationAction::Accept)
                .with_content(serde_json::json!({"name": "Ada"}))
        })
        .roots([Root::new("file:///workspace").with_name("workspace")])
}

/// Starts the example server (page size 1000: one page) and connects over `transport`.
pub async fn connect(transport: Transport) -> Connected {
    connect_with(transport, None).await
}

pub async fn connect_with(transport: Transport, page_size: Option<usize>) -> Connected {
    connect_configured(transport, page_size, with_answers).await
}

/// Starts the example server and connects over `transport` with a client set up by
/// `configure` (which gets a bare builder).
pub async fn connect_configured(
    transport: Transport,
    page_size: Option<usize>,
    configure: impl FnOnce(mcp_assured::ClientBuilder) -> mcp_assured::ClientBuilder,
) -> Connected {
    // The suite tests what 2025-11-25 has (`ping`, logging, server requests); the revisions'
    // differences are tested in `mcp_test.rs` and `checks.rs`.
    let builder = configure(McpAssured::client().protocol_version("2025-11-25"));
    let (builder, server) = match transport {
        Transport::InProcess => {
            let server = match page_size {
                Some(n) => ExampleServer::new().with_page_size(n),
                None => ExampleServer::new(),
            };
            (builder.service(server), None)
        }
        Transport::Stdio => {
            let mut builder = builder.command(EXAMPLE_SERVER);
            if let Some(n) = page_size {
                builder = builder.arg("--page-size").arg(n.to_string());
            }
            (builder, None)
        }
        Transport::StreamableHttp | Transport::Sse => {
            let options = HttpOptions {
                page_size,
                ..HttpOptions::default()
            };
            let server = if transport == Transport::Sse {
                HttpServer::sse(options).await
            } else {
                HttpServer::streamable_http(options).await
            };
            (builder.base_uri(server.client_url(transport)), Some(server))
        }
    };
    let client = builder
        .build()
        .await
        .unwrap_or_else(|e| panic!("connecting over {transport:?} failed: {e}"));
    Connected { client, server }
}
