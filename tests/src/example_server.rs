//! The example server (`mcp-assured-examples`) as a target for other suites: in the test's
//! process over streamable HTTP ([`ExampleHttp`]), or its binary ([`example_server_binary`];
//! the example package's own tests use `CARGO_BIN_EXE_*`).

use std::path::PathBuf;

use mcp_assured::fixture::{BoxError, Fixture, FixtureContext};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};

/// The example server on a loopback port of the test's runtime, over streamable HTTP, as an
/// [`#[mcp_test]`](mcp_assured::mcp_test) fixture: `example: &ExampleHttp` is stopped after
/// the test, and `{example}` (the parameter's name) is its `/mcp` URL.
#[derive(Debug)]
pub struct ExampleHttp {
    /// `http://127.0.0.1:<port>/mcp`.
    pub url: String,
}

impl Fixture for ExampleHttp {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        let task = tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));
        ctx.defer(async move { task.abort() });
        Ok(Self { url })
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.url.clone())
    }
}

/// The `example-server` binary: [`workspace_binary`](crate::workspace_binary) of
/// `mcp-assured-examples`.
///
/// # Panics
///
/// If it cannot be built.
pub fn example_server_binary() -> PathBuf {
    crate::workspace_binary("mcp-assured-examples", "example-server")
}
