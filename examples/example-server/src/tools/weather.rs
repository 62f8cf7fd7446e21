//! `weather`: structured output plus annotations, from fixed fake data.

use rmcp::{
    handler::server::wrapper::{Json, Parameters},
    tool, tool_router,
};
use serde::{Deserialize, Serialize};

use crate::ExampleServer;

/// City, temperature in °C, conditions.
const FORECASTS: &[(&str, f64, &str)] = &[
    ("London", 15.0, "cloudy"),
    ("Paris", 18.0, "sunny"),
    ("Tokyo", 22.0, "rainy"),
];

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct WeatherArgs {
    /// The city: London, Paris or Tokyo (any case).
    city: String,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct Forecast {
    /// The city, as spelled in the forecast table.
    city: String,
    /// Temperature in °C.
    #[serde(serialize_with = "super::whole_number::serialize")]
    temperature: f64,
    /// e.g. `cloudy`.
    conditions: String,
}

#[tool_router(router = weather_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        title = "Weather",
        description = "Current weather for a city, from fixed fake data: London 15 °C cloudy, \
                       Paris 18 °C sunny, Tokyo 22 °C rainy. Returns structured content \
                       `{city, temperature, conditions}`; any other city is a tool error.",
        annotations(title = "Weather", read_only_hint = true, open_world_hint = false)
    )]
    fn weather(
        &self,
        Parameters(WeatherArgs { city }): Parameters<WeatherArgs>,
    ) -> Result<Json<Forecast>, String> {
        FORECASTS
            .iter()
            .find(|(name, ..)| name.eq_ignore_ascii_case(&city))
            .map(|&(name, temperature, conditions)| {
                Json(Forecast {
                    city: name.to_owned(),
                    temperature,
                    conditions: conditions.to_owned(),
                })
            })
            .ok_or_else(|| format!("Unknown city: {city}. Known cities: London, Paris, Tokyo."))
    }
}
