//! `get_connection_status`: a connection's server, transport, capabilities and statistics.

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
};

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "get_connection_status",
        "Returns detailed information about the current connection state,\n\
         including server info, connection time, and statistics.\n\
         \n\
         With `connection`, the state of that named connection. Also gives the server's URL \
         or command, its transport and its capabilities.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let args: ConnectionOnly = match call.parse() {
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
