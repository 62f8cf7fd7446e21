//! [`Transport`]: the ways a suite reaches a server, named once for [`connect`](crate::connect)
//! and [`server`](crate::server).

/// How a test reaches the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// An rmcp server running in the test's process.
    InProcess,
    /// The server as a child process on stdin/stdout.
    Stdio,
    /// Streamable HTTP (`/mcp`).
    StreamableHttp,
    /// The older HTTP+SSE transport (`/sse`).
    Sse,
}
