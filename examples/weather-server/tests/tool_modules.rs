//! The tool-module interface (`tool-module-interface.md`) as the weather server adapts it
//! (`docs/seed-differences.md`), each adaptation pinned on the modules themselves, called as
//! the server calls them, with no server around them: `tool_definition()` and an `async
//! handle_call(api, args, context)`, a third function `policy()`, the hooks by name, one
//! argument parser whose type the schema comes from, and one hand-written error enum whose
//! `Display` is what the model reads. A wiremock server stands in for the weather API.

mod support;

use mcp_assured::wiremock::{
    Mock, MockServer, ResponseTemplate,
    matchers::{method, path},
};
use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Value, json};
use weather_server::{
    api::{ApiError, WeatherApi},
    policy::Refusal,
    tools::{
        self, ToolContext, ToolEvent, current_weather, forecast,
        hooks::{Call, Face},
        weather_alerts, weather_report,
    },
};

/// A weather API answering every endpoint the tools call (`support::every_endpoint_answers`).
async fn api() -> (MockServer, WeatherApi) {
    let backend = MockServer::start().await;
    support::every_endpoint_answers(&backend).await;
    let api = WeatherApi::new(backend.uri());
    (backend, api)
}

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

/// The text of a result's text blocks.
fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect()
}

/// Each module's name, valid arguments and the `handle_call` the server calls.
async fn handle(
    name: &str,
    api: &WeatherApi,
    args: JsonObject,
    context: &ToolContext,
) -> CallToolResult {
    match name {
        current_weather::NAME => current_weather::handle_call(api, args, context).await,
        forecast::NAME => forecast::handle_call(api, args, context).await,
        weather_alerts::NAME => weather_alerts::handle_call(api, args, context).await,
        weather_report::NAME => weather_report::handle_call(api, args, context).await,
        other => panic!("no module `{other}`"),
    }
}

/// Each module with arguments that it runs with.
fn modules() -> [(&'static str, Value); 4] {
    [
        (current_weather::NAME, json!({"city": "London"})),
        (forecast::NAME, json!({"city": "London", "days": 1})),
        (weather_alerts::NAME, json!({"region": "Greater London"})),
        (weather_report::NAME, json!({"cities": ["London"]})),
    ]
}

/// The seed's two functions, `tool_definition()` and `handle_call(..)` (async, with the API
/// client and a context), and a third, `policy()`; the server only lists the definitions and
/// dispatches by name.
#[tokio::test]
async fn each_module_stands_alone_behind_its_functions() {
    let (_backend, api) = api().await;
    let definitions = [
        current_weather::tool_definition(),
        forecast::tool_definition(),
        weather_alerts::tool_definition(),
        weather_report::tool_definition(),
    ];
    let names: Vec<&str> = definitions.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, modules().map(|(name, _)| name));
    assert_eq!(tools::definitions(), definitions);
    let policies = [
        current_weather::policy(),
        forecast::policy(),
        weather_alerts::policy(),
        weather_report::policy(),
    ];
    assert_eq!(
        tools::policies()
            .into_iter()
            .map(|(_, policy)| policy)
            .collect::<Vec<_>>(),
        policies
    );
    for policy in &policies {
        assert!(
            policy.permissions.contains(&"weather:read".to_owned()),
            "{policy:?}"
        );
    }
    for (name, args) in modules() {
        let direct = handle(name, &api, object(args.clone()), &ToolContext::silent()).await;
        assert_eq!(direct.is_error, Some(false), "{name}: {}", text(&direct));
        assert!(direct.structured_content.is_some(), "{name}");
        let dispatched = tools::call(&api, name, object(args), &ToolContext::silent()).await;
        assert_eq!(dispatched, Some(direct), "{name}");
    }
    assert_eq!(
        tools::call(&api, "tides", JsonObject::new(), &ToolContext::silent()).await,
        None
    );
}

/// The context is the hybrid protocol's `ExecutionContext`: `weather_report` writes each city
/// to the stream and reports its progress as soon as its answer is in.
#[tokio::test]
async fn handle_call_reports_progress_and_streams_through_its_context() {
    let (_backend, api) = api().await;
    let (context, mut events) = ToolContext::with_events();
    let args = object(json!({"cities": ["London", "Oslo"]}));
    let result = weather_report::handle_call(&api, args, &context).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    drop(context);
    let mut seen = Vec::new();
    while let Some(event) = events.recv().await {
        seen.push(match event {
            ToolEvent::Item(item) => format!("item {}", item["city"]),
            ToolEvent::Progress {
                progress,
                total,
                message,
            } => format!("progress {progress}/{total:?}: {message}"),
        });
    }
    assert_eq!(
        seen,
        [
            r#"item "London""#,
            "progress 1/Some(2.0): 1 of 2: London",
            // The API spells every city London.
            r#"item "London""#,
            "progress 2/Some(2.0): 2 of 2: Oslo",
        ]
    );
}

/// One parser (`tools::support::parse_args`, serde on the type the input schema is generated
/// from): what the schema requires, the parser requires, what it does not list, the parser
/// refuses, and its words name the tool and serde's reason (not the seed's `Parameter
/// validation error: …`).
#[tokio::test]
async fn arguments_are_read_by_the_type_their_schema_comes_from() {
    let (backend, api) = api().await;
    for (tool, (name, args)) in tools::definitions().into_iter().zip(modules()) {
        let schema = Value::Object(tool.input_schema.as_ref().clone());
        assert_eq!(
            schema["additionalProperties"],
            json!(false),
            "{name}: {schema}"
        );
        let required = schema["required"].as_array().unwrap();
        for field in required {
            let field = field.as_str().unwrap();
            let mut without = object(args.clone());
            without.remove(field);
            let refused = handle(name, &api, without, &ToolContext::silent()).await;
            assert_eq!(refused.is_error, Some(true), "{name} without {field}");
            assert_eq!(
                text(&refused),
                format!("invalid arguments for `{name}`: missing field `{field}`")
            );
        }
        let mut extra = object(args);
        extra.insert("color".to_owned(), json!("blue"));
        let refused = handle(name, &api, extra, &ToolContext::silent()).await;
        assert!(
            text(&refused).starts_with(&format!(
                "invalid arguments for `{name}`: unknown field `color`, expected "
            )),
            "{name}: {}",
            text(&refused)
        );
    }
    assert!(
        backend.received_requests().await.unwrap().is_empty(),
        "refused before the API is asked"
    );
}

/// One hand-written error enum for the whole API, whose `Display` is the tool error the model
/// reads; no `thiserror` (the seed's suggestion) for an enum written once.
#[tokio::test]
async fn api_errors_are_one_enum_whose_display_the_model_reads() {
    let backend = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/weather"))
        .respond_with(ResponseTemplate::new(503).set_body_string("maintenance"))
        .mount(&backend)
        .await;
    let api = WeatherApi::new(backend.uri());
    let error = api
        .get_json(&["weather"], &[("city", "London".to_owned())])
        .await
        .unwrap_err();
    let url = format!("{}/weather?city=London", backend.uri());
    assert!(
        matches!(&error, ApiError::Status { status: 503, body, .. } if body == "maintenance"),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        format!("weather API answered 503 for {url}: maintenance")
    );
    let _: &dyn std::error::Error = &error;
    let result = current_weather::handle_call(
        &api,
        object(json!({"city": "London"})),
        &ToolContext::silent(),
    )
    .await;
    assert_eq!(
        text(&result),
        format!("weather API answered 503 for {url}&units=metric: maintenance")
    );
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert!(!manifest.contains("thiserror"), "{manifest}");
}

/// The hooks, picked by tool name at run time (`&dyn ToolHooks`, their futures boxed): every
/// module keeps the defaults, which let the call through and do nothing.
#[tokio::test]
async fn each_modules_hooks_are_the_defaults_picked_by_name() {
    let params = JsonObject::new();
    for (name, _) in modules() {
        let hooks = tools::hooks(name);
        let call = Call {
            tool: name,
            params: &params,
            face: Face::Mcp,
        };
        assert!(hooks.before_execute(&call).await.is_ok(), "{name}");
        hooks
            .after_execute(&call, &CallToolResult::success(vec![]))
            .await;
        hooks
            .on_error(&call, &Refusal::execution("the API is down"))
            .await;
    }
}
