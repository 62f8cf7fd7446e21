//! `get_connection_status` and `list_connections`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Call, ConnectionOnly, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
};

pub(crate) const STATUS: &str = "get_connection_status";
pub(crate) const LIST: &str = "list_connections";

pub(crate) fn status_definition() -> rmcp::model::Tool {
    define::<ConnectionOnly>(
        STATUS,
        "Returns detailed information about the current connection state (or that of the \
         named connection): the server's URL or command, transport, connection time, server \
         info and capabilities, and statistics of what was done through it.",
        true,
    )
}

pub(crate) async fn status(call: Call<'_>) -> Answer {
    let args: ConnectionOnly = match call.parse(STATUS) {
        Ok(args) => args,
        Err(answer) => return answer,
    };
    match call.connections.get(args.connection.as_deref()).await {
        Ok(connection) => {
            let status = connection.status();
            call.answer()
                .connection(&connection)
                .field("connected", true)
                .field("connection_details", status["connection"].clone())
                .field("statistics", status["statistics"].clone())
                .meta("checked_at", iso(now()))
        }
        // Not being connected is an answer here, not an error.
        Err(known) => call
            .answer()
            .field("connected", false)
            .field("connections", json!(known))
            .field(
                "message",
                match &args.connection {
                    Some(name) => format!("No connection named `{name}`."),
                    None => "Not connected. Call connect_to_server first.".to_owned(),
                },
            )
            .meta("checked_at", iso(now())),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

pub(crate) fn list_definition() -> rmcp::model::Tool {
    define::<NoArgs>(
        LIST,
        "Lists every open connection (several servers can be connected at once under names), \
         which one is the default, and each one's server and statistics.",
        true,
    )
}

pub(crate) async fn list(call: Call<'_>) -> Answer {
    if let Err(answer) = call.parse::<NoArgs>(LIST) {
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
