//! `forecast`: `GET {api}/forecast?city=..&days=..`.

use rmcp::model::{CallToolResult, JsonObject, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ToolContext;
use super::support::{api_error, api_tool, parse_args, structured, tool_error};
use crate::{api::WeatherApi, policy::ToolPolicy};

pub const NAME: &str = "forecast";
const MAX_DAYS: u8 = 7;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The city, e.g. `London`.
    city: String,
    /// How many days ahead, 1 to 7.
    #[schemars(range(min = 1, max = 7))]
    days: u8,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Forecast {
    city: String,
    /// One entry per day: `{date, high, low, conditions}` as the API gives them.
    days: Vec<Value>,
}

/// Who may call it and its limits: the protocol's defaults.
pub fn policy() -> ToolPolicy {
    ToolPolicy::requiring(&["weather:read"])
}

/// The tool as `tools/list` shows it.
pub fn tool_definition() -> Tool {
    let tool = api_tool::<Args, Forecast>(
        NAME,
        "Forecast",
        "Daily forecast for a city, 1 to 7 days, from the weather API \
         (GET /forecast?city=..&days=..).",
    );
    // Version 2 replaced a forecast of a fixed 3 days.
    let mut metadata = super::support::metadata(
        "2.0.0",
        &["weather", "forecast", "daily"],
        serde_json::json!({"source": "weather API /forecast", "max_days": 7}),
    );
    metadata["deprecates"] = serde_json::json!("1.0.0");
    super::support::with_metadata(tool, metadata)
}

/// Calls the API and shapes its answer.
pub async fn handle_call(
    api: &WeatherApi,
    args: JsonObject,
    _context: &ToolContext,
) -> CallToolResult {
    let args: Args = match parse_args(NAME, args) {
        Ok(args) => args,
        Err(invalid) => return invalid,
    };
    if !(1..=MAX_DAYS).contains(&args.days) {
        return tool_error(format!(
            "invalid arguments for `{NAME}`: days must be 1 to {MAX_DAYS}, got {}",
            args.days
        ));
    }
    let query = [("city", args.city.clone()), ("days", args.days.to_string())];
    let body = match api.get_json(&["forecast"], &query).await {
        Ok(body) => body,
        Err(error) => return api_error(error),
    };
    let Some(days) = body.get("days").and_then(Value::as_array) else {
        return tool_error(format!("the weather API sent no `days` list: {body}"));
    };
    structured(&Forecast {
        city: body["city"].as_str().unwrap_or(&args.city).to_owned(),
        days: days.clone(),
    })
}
