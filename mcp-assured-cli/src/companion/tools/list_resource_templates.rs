//! `list_resource_templates`: every resource template the server lists.

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define, listing};
use crate::companion::answer::Answer;

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "list_resource_templates",
        "Retrieves all resource templates (URI templates such as file:///{path}) from the \
         connected MCP server, with complete metadata.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let failed = call.tool;
    listing(call, failed, |connection| async move {
        let templates = connection.client.list_resource_templates().await?;
        Ok(("resource_templates", json!(templates), templates.len()))
    })
    .await
}
