//! `complete`: the values a server suggests for an argument of a prompt or a variable of a
//! resource template.

use std::collections::BTreeMap;

use mcp_assured::model::{CompleteRequestParams, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    errors::{ErrorType, Operation, classify, details},
};

on_connection!(CompleteArgs);

/// What to complete.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "type")]
enum Reference {
    /// An argument of a prompt.
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    /// A variable of a resource template.
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ArgumentBeingTyped {
    /// The argument's (or template variable's) name.
    name: String,
    /// What was typed so far.
    value: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CompleteArgs {
    /// The prompt (`{"type": "ref/prompt", "name": ".."}`) or resource template
    /// (`{"type": "ref/resource", "uri": ".."}`) whose argument is being completed.
    #[serde(rename = "ref")]
    reference: Reference,
    /// The argument and its partial value.
    argument: ArgumentBeingTyped,
    /// Values already chosen for other arguments.
    #[serde(default)]
    context: BTreeMap<String, String>,
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
}

pub(crate) fn definition() -> Tool {
    define::<CompleteArgs>(
        "complete",
        "Asks the connected server to complete an argument of a prompt or a variable of a \
         resource template (completion/complete) and returns every suggested value, the \
         total and whether there are more.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<CompleteArgs>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let reference = match &args.reference {
        Reference::Prompt { name } => json!({"type": "ref/prompt", "name": name}),
        Reference::Resource { uri } => json!({"type": "ref/resource", "uri": uri}),
    };
    let mut request = json!({
        "ref": reference,
        "argument": {"name": args.argument.name, "value": args.argument.value},
    });
    if !args.context.is_empty() {
        request["context"] = json!({ "arguments": args.context });
    }
    let params: CompleteRequestParams = match serde_json::from_value(request.clone()) {
        Ok(params) => params,
        Err(error) => {
            return call.answer().error(
                ErrorType::InvalidArguments,
                format!("invalid arguments for `{}`: {error}", call.tool),
                json!({ "request": request }),
            );
        }
    };
    let answer = call.answer().connection(&connection);
    let answer = match connection.client.complete_with(params).await {
        Ok(result) => answer
            .field("request", request)
            .field("completion", json!(result)["completion"].clone()),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("completion/complete failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}
