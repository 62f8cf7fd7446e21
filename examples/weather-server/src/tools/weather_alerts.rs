//! `weather_alerts`: `GET {api}/alerts/{region}`.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ToolContext;
use super::support::{api_error, api_tool, parse_args, tool_error};
use crate::{api::WeatherApi, policy::ToolPolicy};

pub const NAME: &str = "weather_alerts";

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The region, e.g. `Greater London`.
    region: String,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Alerts {
    region: String,
    /// `{severity, title}` per active alert.
    alerts: Vec<Value>,
}

/// Who may call it and its limits: the protocol's defaults.
pub fn policy() -> ToolPolicy {
    ToolPolicy::requiring(&["weather:read", "alerts:read"])
}

/// The tool as `tools/list` shows it.
pub fn tool_definition() -> Tool {
    let tool = api_tool::<Args, Alerts>(
        NAME,
        "Weather alerts",
        "Active weather alerts for a region, from the weather API (GET /alerts/{region}). \
         One text line per alert.",
    );
    super::support::with_metadata(
        tool,
        super::support::metadata(
            "1.0.0",
            &["weather", "alerts"],
            serde_json::json!({"source": "weather API /alerts"}),
        ),
    )
}

/// Calls the API and writes one line per alert.
pub async fn handle_call(
    api: &WeatherApi,
    args: JsonObject,
    _context: &ToolContext,
) -> CallToolResult {
    let args: Args = match parse_args(NAME, args) {
        Ok(args) => args,
        Err(invalid) => return invalid,
    };
    let body = match api.get_json(&["alerts", &args.region], &[]).await {
        Ok(body) => body,
        Err(error) => return api_error(error),
    };
    let Some(alerts) = body.get("alerts").and_then(Value::as_array) else {
        return tool_error(format!("the weather API sent no `alerts` list: {body}"));
    };
    let lines: Vec<ContentBlock> = if alerts.is_empty() {
        vec![ContentBlock::text(format!(
            "No active alerts for {}.",
            args.region
        ))]
    } else {
        alerts
            .iter()
            .map(|alert| {
                let severity = alert["severity"].as_str().unwrap_or("alert").to_uppercase();
                let title = alert["title"].as_str().unwrap_or("(untitled)");
                ContentBlock::text(format!("{severity}: {title}"))
            })
            .collect()
    };
    let mut result = CallToolResult::success(lines);
    result.structured_content = serde_json::to_value(Alerts {
        region: args.region,
        alerts: alerts.clone(),
    })
    .ok();
    result
}
