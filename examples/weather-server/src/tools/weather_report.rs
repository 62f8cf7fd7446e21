//! `weather_report`: the current weather of several cities, one `GET {api}/weather` each,
//! streamed: each city is reported as progress and written to the stream as soon as its
//! answer is in, and the result lists them all.

use rmcp::model::{CallToolResult, JsonObject, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    ToolContext,
    current_weather::{self, CurrentWeather, Units},
    support::{api_tool, parse_args, structured, tool_error},
};
use crate::{
    api::WeatherApi,
    policy::{Limits, OnConcurrencyLimit, ToolPolicy},
};

pub const NAME: &str = "weather_report";
const MAX_CITIES: usize = 10;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The cities, 1 to 10, e.g. `["London", "Oslo"]`.
    #[schemars(length(min = 1, max = 10))]
    cities: Vec<String>,
    /// `metric` (°C, the default) or `imperial` (°F).
    #[serde(default)]
    units: Units,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Report {
    /// One entry per city, in the order asked, as `current_weather` gives it.
    cities: Vec<CurrentWeather>,
}

/// Who may call it and its limits: a batch of API calls, so two at a time, the rest waiting
/// for a place rather than refused.
pub fn policy() -> ToolPolicy {
    ToolPolicy::requiring(&["weather:read"]).limits(Limits {
        max_concurrency: 2,
        on_concurrency_limit: OnConcurrencyLimit::Wait,
        ..Limits::default()
    })
}

/// The tool as `tools/list` shows it.
pub fn tool_definition() -> Tool {
    let tool = api_tool::<Args, Report>(
        NAME,
        "Weather report",
        "Current weather for 1 to 10 cities, one call to the weather API each \
         (GET /weather?city=..&units=..). Reports progress per city; over REST, with \
         `Accept: application/x-ndjson`, each city is streamed as it arrives.",
    );
    super::support::with_metadata(
        tool,
        super::support::metadata(
            "1.0.0",
            &["weather", "current", "batch", "streaming"],
            serde_json::json!({"source": "weather API /weather", "streaming": true}),
        ),
    )
}

/// Calls the API once per city, reporting each.
pub async fn handle_call(
    api: &WeatherApi,
    args: JsonObject,
    context: &ToolContext,
) -> CallToolResult {
    let args: Args = match parse_args(NAME, args) {
        Ok(args) => args,
        Err(invalid) => return invalid,
    };
    let total = args.cities.len();
    if !(1..=MAX_CITIES).contains(&total) {
        return tool_error(format!(
            "invalid arguments for `{NAME}`: 1 to {MAX_CITIES} cities, got {total}"
        ));
    }
    let mut cities = Vec::with_capacity(total);
    for (done, city) in args.cities.iter().enumerate() {
        let weather = match current_weather::fetch(api, city, args.units).await {
            Ok(weather) => weather,
            Err(error) => return tool_error(format!("{city}: {error}")),
        };
        context.write(serde_json::to_value(&weather).unwrap_or_default());
        context.report_progress(
            (done + 1) as f64,
            Some(total as f64),
            format!("{} of {total}: {city}", done + 1),
        );
        cities.push(weather);
    }
    structured(&Report { cities })
}
