//! `lint_server`: what a model sees of the connected server, linted (`mcp_assured::lint`).

use mcp_assured::{
    diff::Surface,
    lint::{Lint, Profile},
    model::Tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

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
    /// Which connection to lint; the default one when omitted.
    connection: Option<String>,
    /// Providers' strict modes whose findings fail instead of warning: "openai-strict"
    /// (OpenAI's strict function calling), "anthropic-strict" (Anthropic's strict tool use).
    #[serde(default)]
    profiles: Vec<String>,
    /// Fail on warnings too. Default false.
    #[serde(default)]
    strict: bool,
    /// Fail when the whole surface costs more tokens than this (OpenAI's o200k_base).
    max_surface_tokens: Option<usize>,
}

pub(crate) fn definition() -> Tool {
    define::<Args>(
        "lint_server",
        "Lints what a model sees of the connected server: every name, title, description and \
         schema string of its tools, prompts, resources and templates. Reports each finding \
         with its rule id, category, severity (fail, warn, info), subject, location (a JSON \
         pointer in the definition), message and fix: hidden Unicode, instructions to the \
         model against its user, parameters that ask for private data, secrets, what OpenAI's \
         and Anthropic's strict modes refuse (warnings unless named in profiles), MCP naming, \
         missing descriptions, and each tool's token cost (o200k_base). Calls no tool.",
        true,
    )
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let (args, connection) = match call.prepare::<Args>().await {
        Ok(prepared) => prepared,
        Err(answer) => return answer,
    };
    let mut lint = Lint::new().strict(args.strict);
    for name in &args.profiles {
        match name.parse::<Profile>() {
            Ok(profile) => lint = lint.profile(profile),
            Err(message) => {
                return call
                    .answer()
                    .connection(&connection)
                    .error(
                        ErrorType::InvalidArguments,
                        message,
                        json!({"profile": name, "profiles": ["openai-strict", "anthropic-strict"]}),
                    )
                    .counted(&connection);
            }
        }
    }
    if let Some(budget) = args.max_surface_tokens {
        lint = lint.max_surface_tokens(budget);
    }
    let started_at = now();
    let surface = match Surface::from_client(&connection.client).await {
        Ok(surface) => surface,
        Err(error) => {
            return call
                .answer()
                .connection(&connection)
                .error(
                    ErrorType::ExecutionError,
                    format!("could not list what the server offers: {error}"),
                    json!({}),
                )
                .counted(&connection);
        }
    };
    let report = lint.run(&surface);
    call.answer()
        .connection(&connection)
        .field("passed", json!(!report.failed()))
        .field("findings", json!(report.findings))
        .field("tokens", json!(report.tokens))
        .field("report", report.to_string())
        .meta("started_at", iso(started_at))
        .meta("completed_at", iso(now()))
        .counted(&connection)
}
