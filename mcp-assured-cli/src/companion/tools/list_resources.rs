//! `list_resources`: every resource the server lists, with complete metadata.

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define, listing};
use crate::companion::answer::Answer;

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "list_resources",
        "Retrieves all resources from the currently connected MCP server\n\
         with complete metadata. Returns URIs, descriptions, MIME types,\n\
         and other resource information.\n\
         \n\
         Every page is read. Resource templates are listed by list_resource_templates.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let failed = call.tool;
    listing(call, failed, |connection| async move {
        let resources = connection.client.list_resources().await?;
        Ok(("resources", json!(resources), resources.len()))
    })
    .await
}
