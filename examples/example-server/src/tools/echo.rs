//! `echo`: the simplest round trip.

use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};
use serde::Deserialize;

use crate::ExampleServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to send back.
    message: String,
}

#[tool_router(router = echo_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(description = "Returns `message` unchanged, as text content.")]
    fn echo(&self, Parameters(EchoArgs { message }): Parameters<EchoArgs>) -> String {
        message
    }
}
