//! Every assertion's pass path and fail path, on values built from the wire JSON, with the
//! failure text checked: a reviewer reads these messages, so they are part of the API.

use mcp_assured::{
    Error, PromptResult, ResourceResult, ToolResult,
    assert::AssertionError,
    code,
    model::{CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool},
    prelude::*,
    rest::{ErrorCode, Execution},
    schema,
};
use serde_json::{Value, json};

fn from<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("valid wire JSON")
}

fn tools() -> Vec<Tool> {
    from(json!([
        {
            "name": "weather",
            "title": "Weather",
            "description": "Current weather by city",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}},
                "required": ["city"]
            },
            "outputSchema": {
                "type": "object",
                "properties": {"temperature": {"type": "number"}, "conditions": {"type": "string"}},
                "required": ["temperature", "conditions"]
            },
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {}}}}
    ]))
}

fn tool_result(tool: &str, result: Value) -> ToolResult {
    ToolResult::new(tool, from::<CallToolResult>(result))
}

fn weather_result() -> ToolResult {
    tool_result(
        "weather",
        json!({
            "content": [{"type": "text", "text": "{\"temperature\": 15.0, \"conditions\": \"cloudy\"}"}],
            "structuredContent": {"temperature": 15, "conditions": "cloudy"},
            "isError": false
        }),
    )
}

fn failed_result() -> ToolResult {
    tool_result(
        "weather",
        json!({"content": [{"type": "text", "text": "Connection refused"}], "isError": true}),
    )
}

fn message(result: Result<impl std::fmt::Debug, AssertionError>) -> String {
    result
        .expect_err("the check should fail")
        .message()
        .to_owned()
}

mod tool_lists {
    use super::*;

    #[test]
    fn pass() {
        tools()
            .assert()
            .contains_tool("weather")
            .does_not_contain_tool("removed")
            .has_count(2);
    }

    #[test]
    fn a_missing_tool_lists_the_offer_and_a_likely_typo() {
        assert_eq!(
            message(tools().assert().try_contains_tool("wether")),
            "Expected a tool named `wether`, but the server does not list it.\n\
             tools=weather, echo\n\
             did you mean=`weather`"
        );
        assert_eq!(
            message(tools().assert().try_contains_tool("zzz")),
            "Expected a tool named `zzz`, but the server does not list it.\ntools=weather, echo"
        );
    }

    #[test]
    fn an_unwanted_tool_and_a_wrong_count() {
        assert_eq!(
            message(tools().assert().try_does_not_contain_tool("echo")),
            "Expected no tool named `echo`, but the server lists it.\ntools=weather, echo"
        );
        assert_eq!(
            message(tools().assert().try_has_count(3)),
            "Expected 3 tools, but the server lists 2.\ntools=weather, echo"
        );
    }

    #[test]
    #[should_panic(expected = "Expected a tool named `nope`")]
    fn the_panicking_twin_panics_with_the_message() {
        tools().assert().contains_tool("nope");
    }
}

mod tool_definitions {
    use super::*;

    #[test]
    fn pass() {
        let tools = tools();
        tools
            .assert()
            .tool("weather")
            .has_title("Weather")
            .has_description("Current weather by city")
            .description_contains("weather")
            .requires(["city"])
            .has_property("days")
            .has_property_of_type("city", "string")
            .has_property_of_type("days", "integer")
            .has_output_schema()
            .has_read_only_hint(true)
            .has_open_world_hint(false)
            .accepts_arguments(&json!({"city": "London"}))
            .rejects_arguments(&json!({"city": 7}));
        tools[1].assert().has_property("message");
    }

    #[test]
    fn schema_failures_show_the_schema() {
        let tools = tools();
        let weather = tools.assert().tool("weather");
        let text = message(weather.try_requires(["city", "units"]));
        assert!(
            text.starts_with(
                "Expected tool `weather` to require units, but its input schema does not.\n\
                 tool=weather\nrequired=city\ninputSchema=```{"
            ),
            "{text}"
        );
        assert_eq!(
            message(weather.try_has_property("units")),
            "Expected tool `weather` to have an input property `units`.\ntool=weather\nproperties=city, days"
        );
        let text = message(weather.try_has_property_of_type("city", "number"));
        assert!(
            text.starts_with(
                "Expected property `city` of tool `weather` to be of type `number`, but it is `string`.\ntool=weather\nproperty=```"
            ),
            "{text}"
        );
        let text = message(
            tools[1]
                .assert()
                .try_has_property_of_type("message", "string"),
        );
        assert!(text.contains("but it is untyped"), "{text}");
    }

    #[test]
    fn description_title_and_output_schema_failures() {
        let tools = tools();
        let weather = tools.assert().tool("weather");
        assert_eq!(
            message(weather.try_has_description("Weather")),
            "Expected tool `weather` to have the description `Weather`.\ntool=weather\ndescription=```Current weather by city```"
        );
        assert_eq!(
            message(weather.try_description_contains("rain")),
            "Expected the description of tool `weather` to contain `rain`.\ntool=weather\ndescription=```Current weather by city```"
        );
        let echo = tools.assert().tool("echo");
        assert!(message(echo.try_has_output_schema()).starts_with(
            "Expected tool `echo` to declare an outputSchema.\ntool=echo\ndefinition=```"
        ));
        assert!(
            message(echo.try_has_title("Echo"))
                .starts_with("Expected tool `echo` to have the title `Echo`, but it has none.")
        );
    }

    #[test]
    fn annotation_failures_say_what_the_tool_has() {
        let tools = tools();
        let weather = tools.assert().tool("weather");
        assert!(message(weather.try_has_read_only_hint(false)).starts_with(
            "Expected tool `weather` to have readOnlyHint=false, but it has readOnlyHint=true."
        ));
        assert!(
            message(weather.try_has_destructive_hint(false)).starts_with(
                "Expected tool `weather` to have destructiveHint=false, but it has no such annotation."
            )
        );
        weather
            .try_has_idempotent_hint(true)
            .expect_err("no idempotentHint is declared");
    }

    #[test]
    fn argument_violations_are_all_listed() {
        let tools = tools();
        let text = message(
            tools
                .assert()
                .tool("weather")
                .try_accepts_arguments(&json!({"days": "two"})),
        );
        assert!(
            text.starts_with(
                "Expected tool `weather` to accept the arguments, but they break its input schema in 2 place(s)."
            ),
            "{text}"
        );
        assert!(
            text.contains("- at /: \"city\" is a required property"),
            "{text}"
        );
        assert!(text.contains("- at /days:"), "{text}");
        let text = message(
            tools
                .assert()
                .tool("weather")
                .try_rejects_arguments(&json!({"city": "Oslo"})),
        );
        assert!(
            text.starts_with("Expected tool `weather` to reject the arguments, but they conform to its input schema."),
            "{text}"
        );
    }

    #[test]
    #[should_panic(expected = "Expected tool `weather` to require units")]
    fn the_panicking_twin_panics_with_the_message() {
        tools().assert().tool("weather").requires(["units"]);
    }
}

mod tool_results {
    use super::*;

    #[test]
    fn pass() {
        let tools = tools();
        weather_result()
            .assert()
            .is_success()
            .has_content_count(1)
            .text_contains("cloudy")
            .text_matches(r#""temperature": \d+"#)
            .json_at("/temperature", 15)
            .json_at("/conditions", "cloudy")
            .structured_equals(json!({"temperature": 15.0, "conditions": "cloudy"}))
            .structured_contains(json!({"conditions": "cloudy"}))
            .conforms_to_output_schema(&tools[0]);
        failed_result()
            .assert()
            .is_tool_error()
            .text_equals("Connection refused");
    }

    #[test]
    fn success_and_error_failures_show_the_content() {
        assert_eq!(
            message(failed_result().assert().try_is_success()),
            "Expected tool `weather` to succeed, but it returned a tool error (isError: true).\n\
             tool=weather\ncontent=```Connection refused```"
        );
        let text = message(weather_result().assert().try_is_tool_error());
        assert!(
            text.starts_with(
                "Expected tool `weather` to return a tool error (isError: true), but it succeeded.\ntool=weather\ncontent=```{"
            ),
            "{text}"
        );
    }

    #[test]
    fn text_failures() {
        let failed = failed_result();
        assert_eq!(
            message(failed.assert().try_text_equals("Timeout")),
            "Expected the text of tool `weather` to equal the expected text.\n\
             tool=weather\nexpected=```Timeout```\nactual=```Connection refused```"
        );
        assert_eq!(
            message(failed.assert().try_text_contains("Timeout")),
            "Expected the text of tool `weather` to contain `Timeout`.\ntool=weather\ncontent=```Connection refused```"
        );
        assert_eq!(
            message(failed.assert().try_text_matches("^Time")),
            "Expected the text of tool `weather` to match /^Time/.\ntool=weather\ncontent=```Connection refused```"
        );
        assert!(
            message(failed.assert().try_text_matches("("))
                .starts_with("`(` is not a valid regular expression")
        );
    }

    #[test]
    fn json_pointer_failures() {
        let weather = weather_result();
        let text = message(weather.assert().try_json_at("/temperature", 16));
        assert!(
            text.starts_with("Expected `/temperature` in the JSON of tool `weather` to be 16, but it is 15.0.\ntool=weather\njson=```{"),
            "{text}"
        );
        let text = message(weather.assert().try_json_at("/wind", 3));
        assert!(
            text.starts_with(
                "Expected the JSON of tool `weather` to have a value at `/wind`, but there is none."
            ),
            "{text}"
        );
        let text = message(failed_result().assert().try_json_at("/x", 1));
        assert!(
            text.starts_with(
                "Expected the text of tool `weather` to be JSON, but it does not parse ("
            ),
            "{text}"
        );
    }

    #[test]
    fn structured_content_failures() {
        let weather = weather_result();
        let text = message(
            weather
                .assert()
                .try_structured_equals(json!({"temperature": 16, "conditions": "cloudy"})),
        );
        assert!(
            text.starts_with(
                "Expected the structured content of tool `weather` to equal the expected JSON.\ntool=weather\ndiff (< expected, > actual):\n"
            ),
            "{text}"
        );
        let text = message(weather.assert().try_structured_contains(json!({"wind": 3})));
        assert!(
            text.starts_with(
                "Expected the structured content of tool `weather` to contain the expected JSON.\ntool=weather\nexpected (subset)=```{"
            ),
            "{text}"
        );
        assert!(text.contains("actual=```{"), "{text}");
        assert_eq!(
            message(failed_result().assert().try_structured_contains(json!({}))),
            "Expected tool `weather` to return structured content, but it has none.\ntool=weather\ncontent=```Connection refused```"
        );
    }

    #[test]
    fn output_schema_violations_are_listed() {
        let tools = tools();
        let wrong = tool_result(
            "weather",
            json!({"content": [], "structuredContent": {"temperature": "hot"}}),
        );
        let text = message(wrong.assert().try_conforms_to_output_schema(&tools[0]));
        assert!(
            text.starts_with(
                "Expected the structured content of tool `weather` to conform to its outputSchema, but it breaks it in 2 place(s)."
            ),
            "{text}"
        );
        assert!(text.contains("- at /temperature:"), "{text}");
        assert!(
            text.contains("\"conditions\" is a required property"),
            "{text}"
        );
        let text = message(
            weather_result()
                .assert()
                .try_conforms_to_output_schema(&tools[1]),
        );
        assert!(
            text.starts_with(
                "Expected tool `echo` to declare an outputSchema to check against, but it has none."
            ),
            "{text}"
        );
    }

    #[test]
    fn content_block_checks() {
        let mixed = tool_result(
            "files",
            json!({"content": [
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "resource_link", "uri": "file:///a.txt", "name": "a", "mimeType": "text/plain"},
                {"type": "resource", "resource": {"uri": "file:///b.txt", "mimeType": "text/plain", "text": "b"}}
            ]}),
        );
        mixed
            .assert()
            .has_image("image/png")
            .has_resource_link(None)
            .has_resource_link(Some("text/plain"))
            .has_embedded_resource("text/plain")
            .has_content_count(3);
        let text = message(mixed.assert().try_has_image("image/jpeg"));
        assert!(
            text.starts_with("Expected tool `files` to return an image of MIME type `image/jpeg`.\ntool=files\ncontent=```["),
            "{text}"
        );
        assert!(message(mixed.assert().try_has_embedded_resource("application/pdf"))
            .starts_with("Expected tool `files` to return an embedded resource of MIME type `application/pdf`."));
        assert!(
            message(failed_result().assert().try_has_resource_link(None)).starts_with(
                "Expected tool `weather` to return a resource link of MIME type `any`."
            )
        );
        assert!(
            message(mixed.assert().try_has_content_count(1)).starts_with(
                "Expected tool `files` to return 1 content block(s), but it returned 3."
            )
        );
    }

    #[test]
    fn a_raw_rmcp_result_is_unnamed() {
        let raw: CallToolResult = failed_result().into_inner();
        assert!(
            message(raw.assert().try_is_success())
                .starts_with("Expected tool `<unnamed>` to succeed")
        );
    }

    #[test]
    #[should_panic(expected = "Expected tool `weather` to succeed, but it returned a tool error")]
    fn the_panicking_twin_panics_with_the_message() {
        failed_result().assert().is_success();
    }
}

mod resources {
    use super::*;

    fn list() -> Vec<Resource> {
        from(json!([
            {"uri": "example://readme", "name": "readme"},
            {"uri": "example://logo", "name": "logo"}
        ]))
    }

    fn read(contents: Value) -> ResourceResult {
        ResourceResult::new(
            "example://readme",
            from::<ReadResourceResult>(json!({"contents": contents})),
        )
    }

    #[test]
    fn lists() {
        list()
            .assert()
            .contains_uri("example://readme")
            .does_not_contain_uri("example://gone")
            .has_count(2);
        assert_eq!(
            message(list().assert().try_contains_uri("example://readem")),
            "Expected a resource `example://readem`, but the server does not list it.\n\
             resources=example://readme, example://logo\n\
             did you mean=`example://readme`"
        );
        assert_eq!(
            message(list().assert().try_does_not_contain_uri("example://logo")),
            "Expected no resource `example://logo`, but the server lists it.\nresources=example://readme, example://logo"
        );
        assert!(
            message(list().assert().try_has_count(1))
                .starts_with("Expected 1 resources, but the server lists 2.")
        );
    }

    #[test]
    fn reads() {
        let text = read(
            json!([{"uri": "example://readme", "mimeType": "text/markdown", "text": "# Hello"}]),
        );
        text.assert()
            .has_text("text/markdown")
            .text_contains("Hello");
        let failure = message(text.assert().try_has_blob("image/png"));
        assert!(
            failure.starts_with(
                "Expected resource `example://readme` to have a blob content of MIME type `image/png`.\nresource=example://readme\ncontents=```["
            ),
            "{failure}"
        );
        assert!(message(text.assert().try_has_text("text/plain"))
            .starts_with("Expected resource `example://readme` to have a text content of MIME type `text/plain`."));
        assert!(
            message(text.assert().try_text_contains("Bye"))
                .starts_with("Expected the text of resource `example://readme` to contain `Bye`.")
        );
        read(json!([{"uri": "example://readme", "mimeType": "image/png", "blob": "iVBOR"}]))
            .assert()
            .has_blob("image/png");
    }

    #[test]
    #[should_panic(expected = "Expected a resource `example://nope`")]
    fn the_panicking_twin_panics_with_the_message() {
        list().assert().contains_uri("example://nope");
    }
}

mod prompts {
    use super::*;

    fn list() -> Vec<Prompt> {
        from(json!([{
            "name": "greet",
            "arguments": [{"name": "name", "required": true}, {"name": "style"}]
        }]))
    }

    fn got() -> PromptResult {
        PromptResult::new(
            "greet",
            from::<GetPromptResult>(json!({"messages": [
                {"role": "user", "content": {"type": "text", "text": "Please greet Ada."}},
                {"role": "assistant", "content": {"type": "text", "text": "Hello, Ada!"}}
            ]})),
        )
    }

    #[test]
    fn definitions() {
        list()
            .assert()
            .contains_prompt("greet")
            .prompt("greet")
            .has_argument("name", true)
            .has_argument("style", false);
        assert_eq!(
            message(list().assert().try_contains_prompt("gret")),
            "Expected a prompt named `gret`, but the server does not list it.\nprompts=greet\ndid you mean=`greet`"
        );
        let prompts = list();
        let greet = prompts.assert().prompt("greet");
        assert!(message(greet.try_has_argument("style", true))
            .starts_with("Expected argument `style` of prompt `greet` to be required, but it is not.\nprompt=greet\narguments=```["));
        assert!(
            message(greet.try_has_argument("tone", false))
                .starts_with("Expected prompt `greet` to have an optional argument `tone`.")
        );
    }

    #[test]
    fn results() {
        got()
            .assert()
            .has_message_count(2)
            .has_message("user", "Ada")
            .has_message("assistant", "Hello");
        assert!(message(got().assert().try_has_message("assistant", "Please"))
            .starts_with("Expected prompt `greet` to return a message from `assistant` containing `Please`.\nprompt=greet\nmessages=```["));
        assert!(
            message(got().assert().try_has_message_count(1))
                .starts_with("Expected prompt `greet` to return 1 message(s), but it returned 2.")
        );
    }
}

mod errors {
    use super::*;

    fn unknown_tool() -> Result<ToolResult, Error> {
        Err(Error::JsonRpc {
            method: "tools/call nope".into(),
            code: code::INVALID_PARAMS,
            message: "Tool 'nope' not found".into(),
            data: None,
        })
    }

    #[test]
    fn codes_and_messages() {
        unknown_tool()
            .assert_err()
            .has_code(code::INVALID_PARAMS)
            .message_contains("not found");
        assert_eq!(
            message(unknown_tool().assert_err().try_has_code(code::METHOD_NOT_FOUND)),
            "Expected JSON-RPC error -32601 (METHOD_NOT_FOUND), but the server answered -32602 (INVALID_PARAMS).\n\
             error=```error```"
                .replace(
                    "error```",
                    "`tools/call nope` failed with JSON-RPC error -32602 (INVALID_PARAMS): Tool 'nope' not found```"
                )
        );
        assert!(
            message(unknown_tool().assert_err().try_message_contains("timeout"))
                .starts_with("Expected the error message to contain `timeout`.\nerror=```")
        );
        unknown_tool()
            .assert_err()
            .message_equals("Tool 'nope' not found");
        assert!(
            message(unknown_tool().assert_err().try_message_equals("not found"))
                .starts_with("Expected the error message to be `not found`.\nerror=```")
        );
        assert!(
            message(unknown_tool().assert_err().try_is_timeout())
                .starts_with("Expected a timeout.")
        );
    }

    #[test]
    fn a_non_json_rpc_error_and_a_success() {
        let timeout: Result<(), Error> = Err(Error::Timeout {
            method: "tools/call slow".into(),
            timeout: std::time::Duration::from_millis(300),
            stderr_tail: None,
        });
        timeout.assert_err().is_timeout();
        assert!(
            message(timeout.assert_err().try_has_code(code::INTERNAL_ERROR)).starts_with(
                "Expected JSON-RPC error -32603 (INTERNAL_ERROR), but the call failed otherwise."
            )
        );
        let ok: Result<u32, Error> = Ok(7);
        assert_eq!(
            message(ok.try_assert_err()),
            "Expected the call to fail, but it succeeded.\nvalue=```7```"
        );
    }

    #[test]
    #[should_panic(expected = "Expected JSON-RPC error -32601 (METHOD_NOT_FOUND)")]
    fn the_panicking_twin_panics_with_the_message() {
        unknown_tool().assert_err().has_code(code::METHOD_NOT_FOUND);
    }
}

mod rest_executions {
    use super::*;

    const METADATA: &str =
        r#"{"executionId": "exec-1", "duration": 12, "timestamp": "2026-11-23T10:00:00.123Z"}"#;

    fn execution(status: u16, mut body: Value) -> Execution {
        if body.get("metadata").is_none() {
            body["metadata"] = serde_json::from_str(METADATA).unwrap();
        }
        Execution::from_envelope("current_weather", status, body).expect("an envelope")
    }

    fn weather() -> Execution {
        execution(
            200,
            json!({"success": true, "result": {"city": "London", "temperature": 15}}),
        )
    }

    fn sunny() -> Execution {
        execution(200, json!({"success": true, "result": "sunny, 21 °C"}))
    }

    fn failed() -> Execution {
        execution(
            502,
            json!({"success": false, "error": {"code": "EXECUTION_ERROR", "message": "weather API answered 503"}}),
        )
    }

    /// The facts every failure on `execution` ends with, before the envelope itself.
    fn facts(status: u16) -> String {
        format!("\ntool=current_weather\nHTTP status={status}\nenvelope=```{{")
    }

    #[test]
    fn pass() {
        weather()
            .assert()
            .is_conforming_envelope()
            .is_success()
            .has_status(200)
            .text_contains("\"city\":\"London\"")
            .json_at("/temperature", 15)
            .result_equals(json!({"temperature": 15, "city": "London"}))
            .result_contains(json!({"city": "London"}));
        sunny().assert().text_contains("sunny");
        failed()
            .assert()
            .is_conforming_envelope()
            .has_status(502)
            .has_error_code(ErrorCode::ExecutionError)
            .message_contains("answered 503");
    }

    #[test]
    fn success_status_and_code_failures() {
        assert!(
            message(failed().assert().try_is_success()).starts_with(&format!(
                "Expected tool `current_weather` to succeed over REST, but it failed with EXECUTION_ERROR.{}",
                facts(502)
            ))
        );
        assert!(
            message(failed().assert().try_has_status(200)).starts_with(&format!(
                "Expected HTTP 200 from tool `current_weather`, got HTTP 502.{}",
                facts(502)
            ))
        );
        assert!(
            message(weather().assert().try_has_error_code(ErrorCode::ToolNotFound)).starts_with(
                &format!(
                    "Expected tool `current_weather` to fail with TOOL_NOT_FOUND over REST, but the envelope has no error.{}",
                    facts(200)
                )
            )
        );
    }

    #[test]
    fn message_and_text_failures_say_what_came() {
        assert!(
            message(failed().assert().try_message_contains("timeout")).starts_with(&format!(
                "Expected the error message of tool `current_weather` to contain `timeout`, but it is `weather API answered 503`.{}",
                facts(502)
            ))
        );
        assert!(
            message(weather().assert().try_message_contains("x")).starts_with(
                "Expected the error message of tool `current_weather` to contain `x`, but the envelope has no error."
            )
        );
        let text = message(sunny().assert().try_text_contains("rain"));
        assert!(
            text.starts_with(&format!(
                "Expected the result of tool `current_weather` to contain `rain`.{}",
                facts(200)
            )),
            "{text}"
        );
        assert!(text.contains(r#""result": "sunny, 21 °C""#), "{text}");
    }

    #[test]
    fn json_failures_show_the_value_or_the_diff() {
        assert!(
            message(weather().assert().try_json_at("/temperature", 20)).starts_with(&format!(
                "Expected `/temperature` in the result of tool `current_weather` to be 20, but it is 15.{}",
                facts(200)
            ))
        );
        assert!(
            message(weather().assert().try_json_at("/humidity", 80)).starts_with(
                "Expected the result of tool `current_weather` to have a value at `/humidity`, but there is none."
            )
        );
        let text = message(
            weather()
                .assert()
                .try_result_equals(json!({"city": "Paris"})),
        );
        assert!(
            text.starts_with(
                "Expected the result of tool `current_weather` to equal the expected JSON.\ntool=current_weather\ndiff (< expected, > actual):\n"
            ),
            "{text}"
        );
        assert!(text.contains("Paris") && text.contains("London"), "{text}");
        let text = message(
            weather()
                .assert()
                .try_result_contains(json!({"city": "Paris"})),
        );
        assert!(
            text.starts_with(
                "Expected the result of tool `current_weather` to contain the expected JSON.\ntool=current_weather\ndiff"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_non_conforming_envelope_lists_every_departure() {
        let sloppy = execution(
            401,
            json!({
                "success": false,
                "metadata": {"executionId": null, "duration": "12", "timestamp": "yesterday"},
            }),
        );
        let text = message(sloppy.assert().try_is_conforming_envelope());
        assert!(
            text.starts_with(&format!(
                "Expected tool `current_weather` to answer with a conforming REST envelope, but \
                 metadata.executionId is null, not a string; metadata.duration is a string, not a number; \
                 metadata.timestamp `yesterday` is not RFC 3339 (premature end of input); \
                 it has no error although success is false.{}",
                facts(401)
            )),
            "{text}"
        );
        let contradictory = Execution::from_envelope(
            "current_weather",
            200,
            json!({"success": true, "result": 1, "error": {"code": "X"}}),
        )
        .unwrap();
        assert!(
            message(contradictory.assert().try_is_conforming_envelope()).starts_with(
                "Expected tool `current_weather` to answer with a conforming REST envelope, but \
                 metadata is missing, not an object; it has an error although success is true."
            )
        );
        let no_message = execution(
            400,
            json!({"success": false, "error": {"code": "VALIDATION_ERROR"}}),
        );
        assert!(
            message(no_message.assert().try_is_conforming_envelope())
                .starts_with("Expected tool `current_weather` to answer with a conforming REST envelope, but error.message is missing, not a string.")
        );
    }

    /// A code or message that is not a string still makes an `Execution`, keeping what came,
    /// and fails the conformance check rather than the decoding.
    #[test]
    fn an_error_code_or_message_of_another_type_is_kept_and_reported() {
        let odd = execution(
            500,
            json!({"success": false, "error": {"code": 7, "message": {"text": "boom"}}}),
        );
        assert_eq!(odd.error_code(), Some(&ErrorCode::Other("7".into())));
        odd.assert().message_contains(r#"{"text":"boom"}"#);
        assert!(
            message(odd.assert().try_is_conforming_envelope()).starts_with(&format!(
                "Expected tool `current_weather` to answer with a conforming REST envelope, but \
                 error.code is a number, not a string; error.message is an object, not a string.{}",
                facts(500)
            ))
        );
        let no_code = execution(400, json!({"success": false, "error": {"message": 5}}));
        assert_eq!(no_code.error.as_ref().unwrap().message, "5");
        assert!(
            message(no_code.assert().try_is_conforming_envelope()).starts_with(
                "Expected tool `current_weather` to answer with a conforming REST envelope, but \
                 error.code is missing, not a string; error.message is a number, not a string."
            )
        );
    }

    #[test]
    #[should_panic(expected = "Expected tool `current_weather` to succeed over REST")]
    fn the_panicking_twin_panics_with_the_message() {
        failed().assert().is_success();
    }
}

mod schemas {
    use super::*;

    #[test]
    fn structured_content_against_a_tool_without_an_output_schema() {
        let tools = tools();
        assert!(schema::validate_structured_content(&tools[1], &json!({})).is_none());
        assert_eq!(
            schema::validate_structured_content(
                &tools[0],
                &json!({"temperature": 1, "conditions": "x"})
            ),
            Some(vec![])
        );
    }
}

mod caller_location {
    use super::*;

    #[test]
    fn a_failure_points_at_the_test_line() {
        let location = std::sync::Arc::new(std::sync::Mutex::new(None));
        let seen = location.clone();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            *seen.lock().unwrap() = info.location().map(|l| l.file().to_owned());
        }));
        let outcome = std::panic::catch_unwind(|| {
            failed_result().assert().is_success();
        });
        std::panic::set_hook(previous);
        assert!(outcome.is_err());
        let file = location.lock().unwrap().clone().unwrap();
        assert!(file.ends_with("tests/assertion_messages.rs"), "{file}");
    }
}
