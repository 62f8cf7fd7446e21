//! `list_tools`: every tool exactly as the server advertised it.

use mcp_assured::model::Tool;
use serde_json::Value;

use super::{Call, ConnectionOnly, define};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::{Operation, classify, details},
};

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "list_tools",
        "Retrieves all tools from the currently connected MCP server with\n\
         complete schemas. Returns full input schemas, descriptions, and\n\
         metadata to enable verification and prevent hallucination.\n\
         \n\
         This tool provides verbose output showing exactly what the server\n\
         advertised, not a summary.\n\
         \n\
         Every page is read; each tool comes with its title, output schema, annotations and \
         _meta too.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (_, connection) = match call.prepare::<ConnectionOnly>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let answer = call.answer().connection(&connection);
    let answer = match connection.client.list_tools().await {
        Ok(tools) => {
            let info = connection.client.server_info();
            answer
                .field(
                    "tools",
                    tools
                        .wire()
                        .iter()
                        .cloned()
                        .map(advertised)
                        .collect::<Vec<_>>(),
                )
                .meta("total_tools", tools.len())
                .meta("server_name", info.name.clone())
                .meta("server_version", info.version.clone())
                .meta("retrieved_at", iso(now()))
        }
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("tools/list failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}

/// The tool as advertised (as the server sent it), with the spec's snake_case names for the
/// schemas.
pub(crate) fn advertised(mut json: Value) -> Value {
    if let Some(object) = json.as_object_mut() {
        for (from, to) in [
            ("inputSchema", "input_schema"),
            ("outputSchema", "output_schema"),
        ] {
            if let Some(value) = object.remove(from) {
                object.insert(to.to_owned(), value);
            }
        }
    }
    json
}
