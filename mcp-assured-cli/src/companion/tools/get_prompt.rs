//! `get_prompt`: a prompt's description and every message, for the given arguments.

use mcp_assured::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::{Operation, classify, details},
    state::Stats,
};

on_connection!(GetArgs);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GetArgs {
    /// Name of the prompt to retrieve (as returned by list_prompts)
    name: String,
    /// Arguments for the prompt (must match prompt's argument schema)
    /// Numbers and booleans are sent as strings, as MCP prompt arguments are.
    #[serde(default)]
    arguments: Map<String, Value>,
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
}

pub(crate) fn definition() -> Tool {
    define::<GetArgs>(
        "get_prompt",
        "Gets a specific prompt from the currently connected MCP server.\n\
         Provide the prompt name and any required arguments.\n\
         \n\
         Returns the description the server gave (left out when it gave none) and every \
         message, with its role and complete content.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<GetArgs>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    Stats::count(&connection.stats.prompts_retrieved);
    let answer = call.answer().connection(&connection);
    let arguments = Value::Object(args.arguments);
    let answer = match connection
        .client
        .get_prompt(&args.name, arguments.clone())
        .await
    {
        Ok(result) => {
            let raw = json!(result);
            let mut prompt = json!({
                "name": args.name,
                "arguments": arguments,
                "messages": raw["messages"],
            });
            // The specification's `description` is a string: left out, not null, when the
            // server gives none; `_meta` likewise.
            for key in ["description", "_meta"] {
                if let Some(value) = raw.get(key).filter(|value| !value.is_null()) {
                    prompt[key] = value.clone();
                }
            }
            answer
                .field("prompt", prompt)
                .meta("retrieved_at", iso(now()))
        }
        Err(error) => {
            let listed = connection
                .client
                .list_prompts()
                .await
                .is_ok_and(|prompts| prompts.iter().any(|prompt| prompt.name == args.name));
            let mut details = details(&error);
            details["arguments"] = arguments;
            answer.error(
                classify(
                    &error,
                    Operation::GetPrompt {
                        prompt_listed: listed,
                    },
                ),
                format!("getting prompt `{}` failed: {error}", args.name),
                details,
            )
        }
    };
    answer.counted(&connection)
}
