//! `ping`: an MCP ping and its round-trip time.

use std::time::Instant;

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, millis_since, now},
    errors::{Operation, classify, details},
};

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "ping",
        "Sends an MCP ping to the connected server and reports the round-trip time.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (_, connection) = match call.prepare::<ConnectionOnly>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let sent_at = now();
    let started = Instant::now();
    let outcome = connection.client.ping().await;
    let answer = call.answer().connection(&connection);
    let answer = match outcome {
        Ok(()) => answer.field(
            "ping",
            json!({ "sent_at": iso(sent_at), "round_trip_ms": millis_since(started) }),
        ),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("ping failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}
