//! The tools, one self-contained module each: `tool_definition()` and `handle_call(api,
//! args)`. Adding a tool is adding a module and a line in [`definitions`] and [`call`].

mod support;

pub mod current_weather;
pub mod forecast;
pub mod weather_alerts;

use rmcp::model::{CallToolResult, JsonObject, Tool};

use crate::api::WeatherApi;

/// Every tool, as `tools/list` shows them.
pub fn definitions() -> Vec<Tool> {
    vec![
        current_weather::tool_definition(),
        forecast::tool_definition(),
        weather_alerts::tool_definition(),
    ]
}

/// Runs the tool called `name`; `None` if there is none.
pub async fn call(api: &WeatherApi, name: &str, args: JsonObject) -> Option<CallToolResult> {
    Some(match name {
        current_weather::NAME => current_weather::handle_call(api, args).await,
        forecast::NAME => forecast::handle_call(api, args).await,
        weather_alerts::NAME => weather_alerts::handle_call(api, args).await,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_requires_its_arguments() {
        let required: Vec<(String, serde_json::Value)> = definitions()
            .into_iter()
            .map(|tool| (tool.name.to_string(), tool.input_schema["required"].clone()))
            .collect();
        assert_eq!(
            required,
            [
                ("current_weather".to_owned(), serde_json::json!(["city"])),
                ("forecast".to_owned(), serde_json::json!(["city", "days"])),
                ("weather_alerts".to_owned(), serde_json::json!(["region"])),
            ]
        );
    }

    /// What the REST surface's `expect` on [`call`] relies on.
    #[tokio::test]
    async fn every_defined_tool_is_one_call_runs() {
        // Nothing listens on port 9: each call fails fast, as a tool error.
        let api = WeatherApi::new("http://127.0.0.1:9");
        for tool in definitions() {
            let result = call(&api, &tool.name, JsonObject::new()).await;
            assert!(result.is_some(), "{}", tool.name);
        }
        assert!(
            call(&api, "no_such_tool", JsonObject::new())
                .await
                .is_none()
        );
    }

    #[test]
    fn every_tool_is_described_read_only_and_open_world() {
        for tool in definitions() {
            let name = &tool.name;
            assert!(tool.title.is_some(), "{name}: no title");
            let description = tool.description.as_deref().unwrap_or_default();
            assert!(description.contains("GET /"), "{name}: {description}");
            assert_eq!(tool.input_schema["type"], "object", "{name}");
            let output = tool.output_schema.as_ref().expect("an output schema");
            assert_eq!(output["type"], "object", "{name}");
            let annotations = tool.annotations.as_ref().expect("annotations");
            assert_eq!(annotations.read_only_hint, Some(true), "{name}");
            assert_eq!(annotations.open_world_hint, Some(true), "{name}");
        }
    }
}
