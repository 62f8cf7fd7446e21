//! `current_weather`: `GET {api}/weather?city=..&units=..`.

use rmcp::model::{CallToolResult, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::support::{api_error, parse_args, structured, tool_error};
use crate::api::WeatherApi;

pub const NAME: &str = "current_weather";

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The city, e.g. `London`.
    city: String,
    /// `metric` (°C, the default) or `imperial` (°F).
    #[serde(default)]
    units: Units,
}

#[derive(Debug, Default, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    #[default]
    Metric,
    Imperial,
}

impl Units {
    fn as_str(self) -> &'static str {
        match self {
            Units::Metric => "metric",
            Units::Imperial => "imperial",
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
struct CurrentWeather {
    /// The city, as the API spells it.
    city: String,
    /// In the requested units.
    #[schemars(with = "f64")]
    temperature: Value,
    /// e.g. `cloudy`.
    conditions: String,
    units: Units,
}

/// The tool as `tools/list` shows it.
pub fn tool_definition() -> Tool {
    Tool::new(
        NAME,
        "Current weather for a city, from the weather API (GET /weather?city=..&units=..). \
         Returns {city, temperature, conditions, units}.",
        JsonObject::new(),
    )
    .with_title("Current weather")
    .with_input_schema::<Args>()
    .with_output_schema::<CurrentWeather>()
    .with_annotations(
        ToolAnnotations::with_title("Current weather")
            .read_only(true)
            .open_world(true),
    )
}

/// Calls the API and shapes its answer.
pub async fn handle_call(api: &WeatherApi, args: JsonObject) -> CallToolResult {
    let args: Args = match parse_args(NAME, args) {
        Ok(args) => args,
        Err(invalid) => return invalid,
    };
    let query = [
        ("city", args.city.clone()),
        ("units", args.units.as_str().to_owned()),
    ];
    let body = match api.get_json(&["weather"], &query).await {
        Ok(body) => body,
        Err(error) => return api_error(error),
    };
    let Some(temperature) = body.get("temperature").filter(|t| t.is_number()) else {
        return tool_error(format!(
            "the weather API sent no numeric `temperature`: {body}"
        ));
    };
    structured(&CurrentWeather {
        city: body["city"].as_str().unwrap_or(&args.city).to_owned(),
        temperature: temperature.clone(),
        conditions: body["conditions"].as_str().unwrap_or("unknown").to_owned(),
        units: args.units,
    })
}
