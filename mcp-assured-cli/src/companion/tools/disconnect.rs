//! `disconnect`: closes a connection, stopping a local server.

use mcp_assured::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::ErrorType,
};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DisconnectArgs {
    /// Which connection to close; the default one when omitted.
    connection: Option<String>,
}

pub(crate) fn definition() -> Tool {
    define::<DisconnectArgs>(
        "disconnect",
        "Disconnects from the currently active MCP server connection.\n\
         After disconnecting, you must connect to a server before using\n\
         other tools.\n\
         \n\
         With `connection`, closes that named connection instead. A local server started by \
         connect_to_server is stopped.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let args: DisconnectArgs = match call.parse() {
        Ok(args) => args,
        Err(answer) => return answer,
    };
    if let Err(answer) = call.connection(args.connection.as_deref()).await {
        return answer;
    }
    let Some(connection) = call.connections.remove(args.connection.as_deref()).await else {
        return call.answer().error(
            ErrorType::NotConnected,
            "the connection was closed meanwhile",
            json!({}),
        );
    };
    let _ = connection.client.clone().close().await;
    let mut previous = connection.status();
    previous["connection"]["disconnected_at"] = json!(iso(now()));
    call.answer()
        .field(
            "message",
            format!(
                "Disconnected from {} (connection `{}`).",
                connection.server_url, connection.name
            ),
        )
        .field("previous_connection", previous["connection"].clone())
        .field("statistics", previous["statistics"].clone())
}
