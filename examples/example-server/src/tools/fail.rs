//! `fail`: a tool-level error (`isError: true`), as opposed to a JSON-RPC error.

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{CallToolResult, ContentBlock},
    tool, tool_router,
};
use serde::Deserialize;

use crate::ExampleServer;

const DEFAULT_MESSAGE: &str = "Connection refused: http://localhost:9999/weather";

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct FailArgs {
    /// The error text. Default: `Connection refused: http://localhost:9999/weather`.
    message: Option<String>,
}

#[tool_router(router = fail_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Always fails: returns a result with `isError: true` and `message` as text \
                       (default `Connection refused: http://localhost:9999/weather`)."
    )]
    fn fail(&self, Parameters(FailArgs { message }): Parameters<FailArgs>) -> CallToolResult {
        let message = message.unwrap_or_else(|| DEFAULT_MESSAGE.to_owned());
        CallToolResult::error(vec![ContentBlock::text(message)])
    }
}
