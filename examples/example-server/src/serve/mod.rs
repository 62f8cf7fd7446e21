//! Serving [`ExampleServer`] over HTTP on a listener the caller bound,
//! so tests can run it in-process on `127.0.0.1:0`.
//!
//! Both functions serve until accepting fails or their future is dropped (e.g. its task
//! aborted), which also ends every MCP session they started.

mod auth;
mod dns_rebinding;
mod sse;
mod streamable_http;

pub use sse::{serve_sse, serve_sse_with, serve_sse_wrapped};
pub use streamable_http::serve_streamable_http;

use std::fmt;

use crate::ExampleServer;

/// How the HTTP transports are served.
#[derive(Clone)]
pub struct HttpOptions {
    /// If set, every request without `Authorization: Bearer <token>` gets `401 Unauthorized`.
    pub bearer_token: Option<String>,
    /// Whether a `401` carries `WWW-Authenticate: Bearer realm="mcp-assured-example"`.
    /// Without it, clients cannot tell that a bearer token is expected.
    pub challenge: bool,
    /// The URL of this server's protected resource metadata (RFC 9728), named in the
    /// challenge as `resource_metadata`, so that an OAuth client finds the authorization
    /// server that issues the token.
    pub resource_metadata: Option<String>,
    /// Page size of `tools/list` in every session; see [`ExampleServer::with_page_size`].
    pub page_size: Option<usize>,
}

impl Default for HttpOptions {
    /// No token, a challenge on 401 (if a token is ever set), one page of tools.
    fn default() -> Self {
        Self {
            bearer_token: None,
            challenge: true,
            resource_metadata: None,
            page_size: None,
        }
    }
}

impl fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpOptions")
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("challenge", &self.challenge)
            .field("resource_metadata", &self.resource_metadata)
            .field("page_size", &self.page_size)
            .finish()
    }
}

impl HttpOptions {
    /// The server whose sessions these options serve.
    fn server(&self) -> ExampleServer {
        let server = ExampleServer::new();
        match self.page_size {
            Some(page_size) => server.with_page_size(page_size),
            None => server,
        }
    }
}
