//! The tools, one self-contained module each: `tool_definition()`, `policy()` (who may call
//! it, its limits) and `handle_call(api, args, context)`, with [`ToolHooks`] around every
//! call. Adding a tool is adding a module and a line in [`definitions`], [`policies`] and
//! [`call`].

pub mod context;
pub mod hooks;
mod support;

pub mod current_weather;
pub mod forecast;
pub mod weather_alerts;
pub mod weather_report;

use rmcp::model::{CallToolResult, JsonObject, Tool};

pub use context::{ToolContext, ToolEvent};
pub use hooks::ToolHooks;

use crate::{api::WeatherApi, policy::ToolPolicy};

/// Every tool, as `tools/list` shows them.
pub fn definitions() -> Vec<Tool> {
    vec![
        current_weather::tool_definition(),
        forecast::tool_definition(),
        weather_alerts::tool_definition(),
        weather_report::tool_definition(),
    ]
}

/// Whether a tool is called `name` (without building every definition).
pub fn exists(name: &str) -> bool {
    matches!(
        name,
        current_weather::NAME | forecast::NAME | weather_alerts::NAME | weather_report::NAME
    )
}

/// Every tool's policy, as its module declares it.
pub fn policies() -> Vec<(&'static str, ToolPolicy)> {
    vec![
        (current_weather::NAME, current_weather::policy()),
        (forecast::NAME, forecast::policy()),
        (weather_alerts::NAME, weather_alerts::policy()),
        (weather_report::NAME, weather_report::policy()),
    ]
}

/// The hooks of the tool called `name`. Every module here keeps the defaults; a module that
/// needs one implements [`ToolHooks`] and is named here.
pub fn hooks(name: &str) -> &'static dyn ToolHooks {
    let _ = name;
    &hooks::NoHooks
}

/// Runs the tool called `name`; `None` if there is none.
pub async fn call(
    api: &WeatherApi,
    name: &str,
    args: JsonObject,
    context: &ToolContext,
) -> Option<CallToolResult> {
    Some(match name {
        current_weather::NAME => current_weather::handle_call(api, args, context).await,
        forecast::NAME => forecast::handle_call(api, args, context).await,
        weather_alerts::NAME => weather_alerts::handle_call(api, args, context).await,
        weather_report::NAME => weather_report::handle_call(api, args, context).await,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exists_knows_every_defined_tool_and_no_other() {
        assert!(definitions().iter().all(|tool| exists(&tool.name)));
        assert_eq!(policies().len(), definitions().len());
        assert!(!exists("no_such_tool"));
    }

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
                ("weather_report".to_owned(), serde_json::json!(["cities"])),
            ]
        );
    }

    /// What the REST surface's `expect` on [`call`] relies on.
    #[tokio::test]
    async fn every_defined_tool_is_one_call_runs() {
        // Nothing listens on port 9: each call fails fast, as a tool error.
        let api = WeatherApi::new("http://127.0.0.1:9");
        for tool in definitions() {
            let result = call(&api, &tool.name, JsonObject::new(), &ToolContext::silent()).await;
            assert!(result.is_some(), "{}", tool.name);
        }
        assert!(
            call(
                &api,
                "no_such_tool",
                JsonObject::new(),
                &ToolContext::silent()
            )
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
