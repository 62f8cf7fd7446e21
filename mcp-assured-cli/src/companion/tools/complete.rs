//! `ping`, `complete` and `set_logging_level`.

// Logging is deprecated by SEP-2577 (protocol 2026-07-28), but servers on 2025-11-25 and
// earlier use it, and the companion must test what servers do.
#![allow(deprecated)]

use std::{collections::BTreeMap, time::Instant};

use mcp_assured::model::{CompleteRequestParams, LoggingLevel, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, ConnectionOnly, define, on_connection};
use crate::companion::{
    answer::Answer,
    clock::{iso, millis_since, now},
    errors::{ErrorType, Operation, classify, details},
};

on_connection!(CompleteArgs, LevelArgs);

pub(crate) const PING: &str = "ping";
pub(crate) const COMPLETE: &str = "complete";
pub(crate) const SET_LOGGING_LEVEL: &str = "set_logging_level";

pub(crate) fn ping_definition() -> Tool {
    define::<ConnectionOnly>(
        PING,
        "Sends an MCP ping to the connected server and reports the round-trip time.",
        true,
    )
}

pub(crate) async fn ping(call: Call<'_>) -> Answer {
    let (_, connection) = match call.prepare::<ConnectionOnly>(PING).await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let sent_at = now();
    let started = Instant::now();
    let outcome = connection.client.ping().await;
    let answer = call.answer().connection(&connection);
    let answer = match outcome {
        Ok(()) => answer.field(
            "ping",
            json!({ "sent_at": iso(sent_at), "round_trip_ms": millis_since(started) }),
        ),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("ping failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}

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

pub(crate) fn complete_definition() -> Tool {
    define::<CompleteArgs>(
        COMPLETE,
        "Asks the connected server to complete an argument of a prompt or a variable of a \
         resource template (completion/complete) and returns every suggested value, the \
         total and whether there are more.",
        true,
    )
}

pub(crate) async fn complete(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<CompleteArgs>(COMPLETE).await {
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
                format!("invalid arguments for `{COMPLETE}`: {error}"),
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

/// The syslog levels of MCP logging.
#[derive(Debug, Clone, Copy, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Level {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LevelArgs {
    /// The lowest level of log messages the server should send.
    level: Level,
    /// Which connection to use; the default one when omitted.
    connection: Option<String>,
}

pub(crate) fn set_logging_level_definition() -> Tool {
    define::<LevelArgs>(
        SET_LOGGING_LEVEL,
        "Sets the lowest level of log messages the connected server should send \
         (logging/setLevel). Read the messages with get_notifications.",
        false,
    )
}

pub(crate) async fn set_logging_level(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<LevelArgs>(SET_LOGGING_LEVEL).await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let name = json!(args.level);
    let level: LoggingLevel = match serde_json::from_value(name.clone()) {
        Ok(level) => level,
        Err(error) => {
            return call.answer().error(
                ErrorType::InvalidArguments,
                format!("unknown level {name}: {error}"),
                json!({}),
            );
        }
    };
    let answer = call.answer().connection(&connection);
    let answer = match connection.client.set_logging_level(level).await {
        Ok(()) => answer.field("level", name).field(
            "message",
            "The server accepted the level; its log messages arrive as notifications.",
        ),
        Err(error) => answer.error(
            classify(&error, Operation::Other),
            format!("logging/setLevel failed: {error}"),
            details(&error),
        ),
    };
    answer.counted(&connection)
}
