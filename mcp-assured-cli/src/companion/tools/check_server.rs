//! `check_server`: the built-in protocol checks on a connection.

use mcp_assured::{
    checks::{CHECKS, CheckOptions, names_a_check},
    model::Tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, now},
    errors::ErrorType,
};

on_connection!(Args);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Which connection to check; the default one when omitted.
    connection: Option<String>,
    /// Arguments to call tools with, by tool name, to check that their structuredContent
    /// validates against their outputSchema (tools without arguments here are not called
    /// for that check).
    #[serde(default)]
    tool_arguments: Map<String, Value>,
    /// Checks to report as skipped whatever they find (known faults of the SDK the server
    /// is built on): names such as "errors.unknown_tool", or prefixes ending in "*" such as
    /// "http.*". Each still runs, and its entry says what it found.
    #[serde(default)]
    skip: Vec<String>,
    /// Fail the checks that find a SHOULD of the specification broken, which otherwise warn
    /// (each entry's `clause` names the sentence and its keyword). Default false.
    #[serde(default)]
    strict: bool,
}

pub(crate) fn definition() -> Tool {
    define::<Args>(
        "check_server",
        "Runs mcp-assured's built-in protocol checks on the connected server and reports each \
         as passed, failed (a MUST of the specification broken, with exactly what is wrong), \
         warned (a SHOULD broken) or skipped (with why), each with the clause it tests \
         (keyword, section, sentence, link): initialize, ping, capability consistency \
         (logging, completions, tools, resources, prompts), pagination, tool names, input and \
         output schemas, error codes for unknown tools (-32602), resources (-32002, or -32602 \
         on 2026-07-28) and methods (-32601), structured output against the output schema \
         (for tools given in tool_arguments), and that invalid arguments are refused. It \
         calls the server's tools with deliberately invalid arguments. Checks named in skip \
         are reported as skipped, with what they found; strict fails warnings too.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<Args>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    if let Some(unknown) = args.skip.iter().find(|pattern| !names_a_check(pattern)) {
        return call
            .answer()
            .connection(&connection)
            .error(
                ErrorType::InvalidArguments,
                format!("skip names no check: {unknown:?}"),
                json!({"skip": unknown, "checks": CHECKS.as_slice()}),
            )
            .counted(&connection);
    }
    let options = args.tool_arguments.into_iter().fold(
        CheckOptions::default().strict(args.strict),
        |options, (tool, arguments)| options.tool_arguments(tool, arguments),
    );
    let options = args
        .skip
        .into_iter()
        .fold(options, |options, pattern| options.skip(pattern));
    let started_at = now();
    let report = connection.client.check_with(&options).await;
    call.answer()
        .connection(&connection)
        .field("checks", json!(report.entries()))
        .field("summary", json!(report.summary()))
        .field("report", report.to_string())
        .meta("started_at", iso(started_at))
        .meta("completed_at", iso(now()))
        .counted(&connection)
}
