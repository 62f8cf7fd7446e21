//! What servers answer, as values: the results of MCP requests (each naming the tool, prompt
//! or resource it answers, and keeping the JSON it arrived as), the notifications a server
//! sends, and the REST surface's envelopes. The client and the REST client make them;
//! assertions and snapshots read them. They are re-exported at the crate root and in
//! [`rest`](crate::rest).

pub(crate) mod listed;
pub(crate) mod mcp;
pub(crate) mod notification;
#[cfg(feature = "http")]
pub(crate) mod rest;
#[cfg(feature = "http")]
pub(crate) mod rest_stream;
pub(crate) mod sent;
pub(crate) mod task;
#[cfg(feature = "http")]
pub(crate) mod tool_metadata;
#[cfg(feature = "http")]
pub(crate) mod tool_policy;
pub(crate) mod wire;
