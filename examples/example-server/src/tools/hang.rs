//! `hang`: a call that never answers, for client timeouts.

use rmcp::{tool, tool_router};
use tokio_util::sync::CancellationToken;

use crate::ExampleServer;

#[tool_router(router = hang_router, vis = "pub(super)")]
impl ExampleServer {
    // Waiting for cancellation rather than forever lets the task end with the request; rmcp
    // never sends the answer of a cancelled request.
    #[tool(description = "Never answers. Ends only when the call is cancelled.")]
    async fn hang(&self, cancellation: CancellationToken) -> String {
        cancellation.cancelled().await;
        "cancelled".to_owned()
    }
}
