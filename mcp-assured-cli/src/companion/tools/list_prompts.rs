//! `list_prompts`: every prompt the server lists, with its arguments.

use mcp_assured::model::Tool;
use serde_json::json;

use super::{Call, ConnectionOnly, define, listing};
use crate::companion::answer::Answer;

pub(crate) fn definition() -> Tool {
    define::<ConnectionOnly>(
        "list_prompts",
        "Retrieves all prompts from the currently connected MCP server\n\
         with complete schemas. Returns prompt names, descriptions, and\n\
         argument schemas.\n\
         \n\
         Every page is read, and each prompt's title is included.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    listing(call, "prompts/list", |connection| async move {
        let prompts = connection.client.list_prompts().await?;
        Ok(("prompts", json!(prompts), prompts.len()))
    })
    .await
}
