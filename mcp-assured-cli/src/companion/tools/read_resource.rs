//! `read_resource`: every content item of a resource, text as is, binary as base64.

use base64::Engine;
use mcp_assured::model::{ResourceContents, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::{Operation, classify, details},
    state::{Connection, Stats},
};

on_connection!(ReadArgs);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadArgs {
    /// URI of the resource to read (as returned by list_resources)
    /// or filled in from a template of list_resource_templates.
    uri: String,
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
}

pub(crate) fn definition() -> Tool {
    define::<ReadArgs>(
        "read_resource",
        "Reads a specific resource from the currently connected MCP server.\n\
         Provide the resource URI as returned by list_resources.\n\
         \n\
         Or a URI filled in from a template of list_resource_templates. Returns every content \
         item: text as is, binary as base64 with its decoded size in bytes.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<ReadArgs>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    Stats::count(&connection.stats.resources_read);
    let answer = call.answer().connection(&connection);
    let answer = match connection.client.read_resource(&args.uri).await {
        Ok(result) => {
            let sent = result.json();
            let sent_contents = sent["contents"].as_array();
            let contents: Vec<Value> = result
                .contents
                .iter()
                .enumerate()
                .map(|(at, item)| content(item, sent_contents.and_then(|sent| sent.get(at))))
                .collect();
            let size: u64 = contents.iter().filter_map(|c| c["size"].as_u64()).sum();
            let first = contents.first().cloned().unwrap_or(Value::Null);
            answer
                .field(
                    "resource",
                    json!({
                        "uri": args.uri,
                        "mimeType": first["mimeType"],
                        "content": first.get("text").or_else(|| first.get("blob")).cloned(),
                        "contents": contents,
                        "_meta": sent.get("_meta").cloned(),
                    }),
                )
                .meta("retrieved_at", iso(now()))
                .meta("content_size", size)
        }
        Err(error) => {
            let listed = is_listed(&connection, &args.uri).await;
            answer.error(
                classify(
                    &error,
                    Operation::ReadResource {
                        resource_listed: listed,
                    },
                ),
                format!("reading {} failed: {error}", args.uri),
                details(&error),
            )
        }
    };
    answer.counted(&connection)
}

/// One content item as the server sent it (`sent`, else as rmcp encodes it): text as is, a
/// blob as base64 with its decoded size.
fn content(item: &ResourceContents, sent: Option<&Value>) -> Value {
    let mut json = sent.cloned().unwrap_or_else(|| json!(item));
    match item {
        ResourceContents::TextResourceContents { text, .. } => {
            json["size"] = json!(text.len());
            json["encoding"] = json!("utf-8");
        }
        ResourceContents::BlobResourceContents { blob, .. } => {
            let decoded = base64::engine::general_purpose::STANDARD.decode(blob);
            json["encoding"] = json!("base64");
            match decoded {
                Ok(bytes) => json["size"] = json!(bytes.len()),
                Err(error) => json["base64_error"] = json!(error.to_string()),
            }
        }
        // A kind of content newer than this build: shown as the server sent it.
        _ => {}
    }
    json
}

/// Whether the server lists the URI as a resource (templates are not expanded).
async fn is_listed(connection: &Connection, uri: &str) -> bool {
    connection
        .client
        .list_resources()
        .await
        .is_ok_and(|resources| resources.iter().any(|resource| resource.uri == uri))
}
