//! `list_connections`: every open connection, and which one is the default.

use mcp_assured::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Call, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

pub(crate) fn definition() -> Tool {
    define::<NoArgs>(
        "list_connections",
        "Lists every open connection (several servers can be connected at once under names), \
         which one is the default, and each one's server and statistics.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    if let Err(answer) = call.parse::<NoArgs>() {
        return answer;
    }
    let (connections, default) = call.connections.all().await;
    let listed: Vec<Value> = connections
        .iter()
        .map(|connection| {
            let mut status = connection.status();
            status["connection"]["default"] =
                json!(default.as_deref() == Some(connection.name.as_str()));
            status["connection"]["statistics"] = status["statistics"].take();
            status["connection"].take()
        })
        .collect();
    call.answer()
        .field("connections", listed)
        .field("default_connection", json!(default))
        .meta("total_connections", connections.len())
        .meta("retrieved_at", iso(now()))
}
