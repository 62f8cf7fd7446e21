//! `call_tool`: calls a tool and reports everything it answered, with timings, and any
//! schema violations of the arguments.

use std::time::{Duration, Instant};

use mcp_assured::{Error, model::Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, millis_since, now},
    errors::{ErrorType, Operation, classify, details},
    state::Stats,
};

on_connection!(Args);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Name of the tool to call (as returned by list_tools)
    name: String,
    /// Arguments to pass to the tool (must match tool's input schema)
    /// Optional: `{}` when left out.
    #[serde(default)]
    arguments: Map<String, Value>,
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
    /// Check the arguments against the tool's input schema first and refuse to call when
    /// they violate it (`invalid_arguments`). Otherwise (the default) the call is made and
    /// violations are reported as warnings next to the result.
    #[serde(default)]
    strict: bool,
    /// How long this call may take, in milliseconds (default: the connection's timeout).
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
}

pub(crate) fn definition() -> Tool {
    define::<Args>(
        "call_tool",
        "Calls a specific tool on the currently connected MCP server with\n\
         provided arguments. Returns verbose execution details including\n\
         the result, execution time, and metadata.\n\
         \n\
         Use this to test that tools work correctly and return expected values.\n\
         \n\
         The result is complete: every content block, structuredContent, isError and _meta. \
         Arguments are checked against the tool's input schema: violations are reported as \
         warnings, or refused before calling with `strict: true`. A result with isError is \
         reported as `execution_error`, with the result included.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<Args>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let answer = run(&call, &connection, args).await;
    answer.counted(&connection)
}

async fn run(
    call: &Call<'_>,
    connection: &crate::companion::state::Connection,
    mut args: Args,
) -> Answer {
    let answer = call.answer().connection(connection);
    let arguments = Value::Object(std::mem::take(&mut args.arguments));
    // From the tools the client holds: no `tools/list` on every call.
    let checked = connection
        .client
        .argument_violations(&args.name, &arguments)
        .await;
    // `unlisted`: the names the server does list, when this one is not among them.
    let (violations, unlisted): (Vec<Value>, _) = match checked {
        Ok(violations) => (
            violations
                .into_iter()
                .map(|v| json!({ "path": v.path, "message": v.message }))
                .collect(),
            None,
        ),
        Err(Error::NotFound { available, .. }) => (Vec::new(), Some(available)),
        Err(error) => {
            return answer.error(
                classify(&error, Operation::Other),
                format!("could not list the tools to check `{}`: {error}", args.name),
                details(&error),
            );
        }
    };
    let listed = unlisted.is_none();
    if args.strict && !violations.is_empty() {
        let input_schema = connection.client.listed_tool(&args.name).await.ok();
        return answer.error(
            ErrorType::InvalidArguments,
            format!(
                "the arguments violate the input schema of `{}` ({} problem{}); not called",
                args.name,
                violations.len(),
                if violations.len() == 1 { "" } else { "s" }
            ),
            json!({
                "violations": violations,
                "arguments": arguments,
                "input_schema": input_schema.map(|tool: Tool| json!(tool.input_schema)),
            }),
        );
    }
    let client = match args.timeout_ms {
        Some(ms) => connection
            .client
            .with_timeout(Duration::from_millis(ms.max(1))),
        None => connection.client.clone(),
    };
    Stats::count(&connection.stats.tools_called);
    let started_at = now();
    let started = Instant::now();
    let outcome = client.call_tool(&args.name, arguments.clone()).await;
    let duration_ms = millis_since(started);
    let completed_at = now();
    let execution = |success: bool| {
        json!({
            "started_at": iso(started_at),
            "completed_at": iso(completed_at),
            "duration_ms": duration_ms,
            "success": success,
        })
    };
    let violated = !violations.is_empty();
    let answer = if violated {
        answer.field("warnings", json!({ "argument_violations": violations }))
    } else {
        answer
    };
    match outcome {
        Ok(result) => {
            let failed = result.is_error == Some(true);
            let answer = answer.field(
                "tool_call",
                json!({
                    "tool_name": args.name,
                    "arguments": arguments,
                    "result": result.json(),
                    "execution": execution(!failed),
                }),
            );
            match (failed, listed) {
                (false, _) => answer,
                // The arguments break the schema and the tool failed: that is why.
                (true, true) if violated => answer.error(
                    ErrorType::InvalidArguments,
                    format!(
                        "tool `{}` rejected the arguments, which violate its input schema \
                         (see warnings.argument_violations)",
                        args.name
                    ),
                    json!({ "see": "tool_call.result holds the server's answer" }),
                ),
                // Some servers answer an unknown tool with a tool error rather than -32602.
                (true, false) => answer.error(
                    ErrorType::ToolNotFound,
                    format!(
                        "the server has no tool `{}` (it answered with a tool error)",
                        args.name
                    ),
                    json!({ "available_tools": unlisted }),
                ),
                (true, true) => answer.error(
                    ErrorType::ExecutionError,
                    format!(
                        "tool `{}` returned an error result (isError: true)",
                        args.name
                    ),
                    json!({ "see": "tool_call.result holds the complete result" }),
                ),
            }
        }
        Err(error) => {
            let kind = classify(
                &error,
                Operation::CallTool {
                    tool_listed: listed,
                },
            );
            let mut details = details(&error);
            if kind == ErrorType::ToolNotFound {
                details["available_tools"] = json!(unlisted.unwrap_or_default());
            }
            answer
                .field(
                    "tool_call",
                    json!({
                        "tool_name": args.name,
                        "arguments": arguments,
                        "execution": execution(false),
                    }),
                )
                .error(
                    kind,
                    format!("calling `{}` failed: {error}", args.name),
                    details,
                )
        }
    }
}
