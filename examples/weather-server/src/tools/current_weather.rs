//! `current_weather`: `GET {api}/weather?city=..&units=..`.

use rmcp::model::{CallToolResult, JsonObject, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    ToolContext,
    support::{api_tool, parse_args, structured, tool_error},
};
use crate::api::WeatherApi;
use crate::policy::ToolPolicy;

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
pub(crate) enum Units {
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
pub(crate) struct CurrentWeather {
    /// The city, as the API spells it.
    city: String,
    /// In the requested units.
    #[schemars(with = "f64")]
    temperature: Value,
    /// e.g. `cloudy`.
    conditions: String,
    units: Units,
    /// Relative humidity in %, when the API reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<f64>")]
    humidity: Option<Value>,
}

/// Who may call it and its limits: the protocol's defaults.
pub fn policy() -> ToolPolicy {
    ToolPolicy::requiring(&["weather:read"])
}

/// The tool as `tools/list` shows it.
pub fn tool_definition() -> Tool {
    let tool = api_tool::<Args, CurrentWeather>(
        NAME,
        "Current weather",
        "Current weather for a city, from the weather API (GET /weather?city=..&units=..). \
         Returns {city, temperature, conditions, units}, plus humidity when the API has it.",
    );
    super::support::with_metadata(
        tool,
        super::support::metadata(
            "1.2.0",
            &["weather", "current"],
            serde_json::json!({"source": "weather API /weather", "sla": "best effort"}),
        ),
    )
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
    match fetch(api, &args.city, args.units).await {
        Ok(weather) => structured(&weather),
        Err(error) => tool_error(error),
    }
}

/// The weather in `city` now, or what went wrong (for a tool error).
pub(crate) async fn fetch(
    api: &WeatherApi,
    city: &str,
    units: Units,
) -> Result<CurrentWeather, String> {
    let query = [
        ("city", city.to_owned()),
        ("units", units.as_str().to_owned()),
    ];
    let body = api
        .get_json(&["weather"], &query)
        .await
        .map_err(|error| error.to_string())?;
    let Some(temperature) = body.get("temperature").filter(|t| t.is_number()) else {
        return Err(format!(
            "the weather API sent no numeric `temperature`: {body}"
        ));
    };
    Ok(CurrentWeather {
        city: body["city"].as_str().unwrap_or(city).to_owned(),
        temperature: temperature.clone(),
        conditions: body["conditions"].as_str().unwrap_or("unknown").to_owned(),
        units,
        humidity: body.get("humidity").filter(|h| h.is_number()).cloned(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tokio::{
        io::{AsyncReadExt, AsyncWriteExt},
        net::TcpListener,
    };

    use super::*;

    /// A base URL whose server answers one request with `200` and `body`.
    async fn answer_once(body: Value) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0; 4096];
            let _ = socket.read(&mut request).await.unwrap();
            let body = body.to_string();
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(response.as_bytes()).await.unwrap();
        });
        url
    }

    fn call_args(args: Value) -> JsonObject {
        args.as_object().cloned().unwrap()
    }

    #[tokio::test]
    async fn passes_humidity_through_and_defaults_the_city() {
        let api = WeatherApi::new(answer_once(json!({"temperature": 59.5, "humidity": 80})).await);
        let args = call_args(json!({"city": "Oslo", "units": "imperial"}));
        let result = handle_call(&api, args, &ToolContext::silent()).await;
        assert_eq!(result.is_error, Some(false));
        assert_eq!(
            result.structured_content,
            Some(json!({
                "city": "Oslo", "temperature": 59.5, "conditions": "unknown",
                "units": "imperial", "humidity": 80,
            }))
        );
    }

    #[tokio::test]
    async fn a_body_without_a_numeric_temperature_is_a_tool_error() {
        let api = WeatherApi::new(answer_once(json!({"temperature": "warm"})).await);
        let result = handle_call(
            &api,
            call_args(json!({"city": "Oslo"})),
            &ToolContext::silent(),
        )
        .await;
        assert_eq!(result.is_error, Some(true));
    }
}
