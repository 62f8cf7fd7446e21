//! The assertions against the example server: how a test of an MCP server reads, and what
//! its failures say.

#![allow(deprecated)] // logging is SEP-2577-deprecated, and tested here

mod support;

use mcp_assured::{code, model::LoggingLevel, prelude::*};
use serde_json::json;
use support::{Transport, connect};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_test_reads_as_sentences() {
    for transport in [Transport::InProcess, Transport::Stdio] {
        let client = connect(transport).await;
        let tools = client.list_tools().await.unwrap();
        tools
            .assert()
            .contains_tool("weather")
            .does_not_contain_tool("extra")
            .tool("weather")
            .has_title("Weather")
            .requires(["city"])
            .has_property_of_type("city", "string")
            .has_output_schema()
            .has_read_only_hint(true)
            .has_open_world_hint(false)
            .accepts_arguments(&json!({"city": "London"}))
            .rejects_arguments(&json!({"city": 7}));

        let weather_tool = client.tool("weather").await.unwrap();
        client
            .call_tool("weather", json!({"city": "London"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .has_content_count(1)
            .json_at("/temperature", 15)
            .json_at("/conditions", "cloudy")
            .structured_contains(json!({"city": "London"}))
            .structured_equals(
                json!({"city": "London", "temperature": 15.0, "conditions": "cloudy"}),
            )
            .conforms_to_output_schema(&weather_tool);

        client
            .call_tool("fail", json!({}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_contains("Connection refused")
            .text_matches(r"localhost:\d+/weather$");

        client
            .call_tool("unknown-tool", json!({}))
            .await
            .assert_err()
            .has_code(code::INVALID_PARAMS)
            // The router contract's words.
            .message_equals("Tool 'unknown-tool' not found");
        client
            .read_resource("example://nothing")
            .await
            .assert_err()
            .has_code(code::RESOURCE_NOT_FOUND);

        client
            .list_resources()
            .await
            .unwrap()
            .assert()
            .contains_uri("example://static/readme")
            .has_count(3);
        client
            .read_resource("example://static/readme")
            .await
            .unwrap()
            .assert()
            .has_text("text/markdown");
        client
            .read_resource("example://static/logo.png")
            .await
            .unwrap()
            .assert()
            .has_blob("image/png");

        client
            .list_prompts()
            .await
            .unwrap()
            .assert()
            .prompt("greet")
            .has_argument("name", true)
            .has_argument("style", false);
        client
            .get_prompt("code_review", json!({"code": "fn main() {}"}))
            .await
            .unwrap()
            .assert()
            .has_description("A review of a piece of code")
            .has_message_count(2)
            .has_message("user", "fn main() {}")
            .has_message("assistant", "review");

        client.set_logging_level(LoggingLevel::Info).await.unwrap();
        client
            .call_tool(
                "log",
                json!({"level": "warning", "message": "disk almost full"}),
            )
            .await
            .unwrap();
        client
            .wait_for_notification("notifications/message")
            .await
            .unwrap();
        client
            .call_tool("progress", json!({"steps": 2}))
            .await
            .unwrap();
        client
            .assert_notifications()
            .has_notification("notifications/progress")
            .has_log(LoggingLevel::Warning, "almost full")
            .progress_reached(2.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_name_what_went_wrong() {
    let client = connect(Transport::InProcess).await;

    let failed = client.call_tool("fail", json!({})).await.unwrap();
    let message = failed.assert().try_is_success().unwrap_err();
    assert_eq!(
        message.message(),
        "Expected tool `fail` to succeed, but it returned a tool error (isError: true).\n\
         tool=fail\n\
         content=```Connection refused: http://localhost:9999/weather```"
    );

    let weather = client
        .call_tool("weather", json!({"city": "London"}))
        .await
        .unwrap();
    let message = weather
        .assert()
        .try_structured_equals(json!({"city": "London", "temperature": 16, "conditions": "cloudy"}))
        .unwrap_err();
    let text = message.message();
    assert!(
        text.starts_with("Expected the structured content of tool `weather` to equal the expected JSON.\ntool=weather\ndiff (< expected, > actual):"),
        "{text}"
    );
    // pretty_assertions colours the diff; without the colour codes it reads:
    let plain = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(text, "");
    assert!(plain.contains("<  \"temperature\": 16"), "{plain}");
    assert!(plain.contains(">  \"temperature\": 15"), "{plain}");

    let tools = client.list_tools().await.unwrap();
    let message = tools.assert().try_contains_tool("wether").unwrap_err();
    assert!(
        message.message().starts_with(
            "Expected a tool named `wether`, but the server does not list it.\ntools="
        ),
        "{message}"
    );
    assert!(
        message.message().ends_with("did you mean=`weather`"),
        "{message}"
    );

    let review = client
        .get_prompt(
            "code_review",
            json!({"code": "fn main() {}", "language": "rust"}),
        )
        .await
        .unwrap();
    let message = review
        .assert()
        .try_has_description("A review of a piece of code")
        .unwrap_err();
    assert_eq!(
        message.message().lines().next().unwrap(),
        "Expected prompt `code_review` to be described as `A review of a piece of code`, but \
         its description is `A review of a piece of rust code`."
    );
    let greeting = client
        .get_prompt("greet", json!({"name": "Ada"}))
        .await
        .unwrap();
    let message = greeting
        .assert()
        .try_has_description("A greeting")
        .unwrap_err();
    assert!(
        message
            .message()
            .starts_with("Expected prompt `greet` to be described as `A greeting`, but the result has no description."),
        "{message}"
    );

    let message = client
        .call_tool("unknown-tool", json!({}))
        .await
        .try_assert_err()
        .unwrap()
        .try_has_code(code::METHOD_NOT_FOUND)
        .unwrap_err();
    assert!(
        message.message().starts_with(
            "Expected JSON-RPC error -32601 (METHOD_NOT_FOUND), but the server answered -32602 (INVALID_PARAMS).\nerror=```"
        ),
        "{message}"
    );

    let rejected = client
        .call_tool_checked("weather", json!({"city": 7, "units": "metric"}))
        .await
        .unwrap_err();
    let text = rejected.to_string();
    assert!(
        text.starts_with("invalid arguments for tool `weather`"),
        "{text}"
    );
    assert!(
        text.contains("at /city"),
        "every violation is listed: {text}"
    );
}
