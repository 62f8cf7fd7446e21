//! `slow` and `cancelled_count`: a call that honours `notifications/cancelled`, and a way for a
//! test to see that the cancellation arrived.

use std::{sync::atomic::Ordering, time::Duration};

use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use crate::ExampleServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct SlowArgs {
    /// How long to take, in milliseconds.
    millis: u64,
}

#[tool_router(router = slow_router, vis = "pub(super)")]
impl ExampleServer {
    // rmcp cancels the request's token when `notifications/cancelled` names it (and when the
    // session ends); the handler keeps running until it notices, and its answer is dropped.
    #[tool(
        description = "Sleeps `millis` ms, then answers `done after <millis> ms`. A cancelled \
                       call stops at once and is counted; see `cancelled_count`."
    )]
    async fn slow(
        &self,
        Parameters(SlowArgs { millis }): Parameters<SlowArgs>,
        cancellation: CancellationToken,
    ) -> String {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(millis)) => {
                format!("done after {millis} ms")
            }
            () = cancellation.cancelled() => {
                self.shared.cancelled_slow_calls.fetch_add(1, Ordering::AcqRel);
                "cancelled".to_owned()
            }
        }
    }

    #[tool(
        description = "How many `slow` calls were cancelled so far, as text (e.g. `1`). Counts \
                       across all sessions of this server."
    )]
    fn cancelled_count(&self) -> String {
        self.shared
            .cancelled_slow_calls
            .load(Ordering::Acquire)
            .to_string()
    }
}
