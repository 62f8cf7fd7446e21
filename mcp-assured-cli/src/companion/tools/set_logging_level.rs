//! `set_logging_level`: the lowest level of log messages the server should send.

// Logging is deprecated by SEP-2577 (protocol 2026-07-28), but servers on 2025-11-25 and
// earlier use it, and the companion must test what servers do.
#![allow(deprecated)]

use mcp_assured::model::{LoggingLevel, Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, define, on_connection};
use crate::companion::{
    answer::Answer,
    errors::{ErrorType, Operation, classify, details},
};

on_connection!(LevelArgs);

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

pub(crate) fn definition() -> Tool {
    define::<LevelArgs>(
        "set_logging_level",
        "Sets the lowest level of log messages the connected server should send \
         (logging/setLevel). Read the messages with get_notifications.",
        false,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<LevelArgs>().await {
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
