//! The companion's tools, driven by an MCP client (mcp-assured's own) against the companion
//! running in this process, aimed at the example server: every tool, every error type with
//! the input that causes it, malformed requests, and snapshots of the answers.

mod support;

use mcp_assured::{McpClient, assert_tool_snapshot, fixture::free_port, mcp_test};
use mcp_assured_cli::CompanionServer;
use mcp_assured_tests::{
    ExampleHttp, example_server_binary,
    oauth::{Deployment, TOKEN},
    peers::{self, SELFTEST_SERVER},
    tls::{Flaw, HttpsFront, TestCa},
};
use serde_json::{Value, json};

use support::{envelope, fails, ok};

/// Connects the companion to the example server over HTTP as `name`.
async fn connect_http(client: &McpClient, example: &ExampleHttp) -> Value {
    // The companion's answers about 2025-11-25 sessions; `protocol_version` is tested below.
    ok(
        client,
        "connect_to_server",
        json!({"url": example.url, "protocol_version": "2025-11-25"}),
    )
    .await
}

/// Connects the companion to the example server's binary over stdio.
async fn connect_stdio(client: &McpClient, name: &str) -> Value {
    ok(
        client,
        "connect_to_server",
        json!({"command": example_server_binary(), "name": name, "protocol_version": "2025-11-25"}),
    )
    .await
}

/// Connects the companion to the selftest server (`python3 selftest_server.py <args>`) over
/// stdio, as `name` or as the default connection.
async fn connect_selftest(client: &McpClient, args: &[&str], name: Option<&str>) -> Value {
    let args: Vec<&str> = std::iter::once(SELFTEST_SERVER)
        .chain(args.iter().copied())
        .collect();
    let mut target = json!({"command": "python3", "args": args});
    if let Some(name) = name {
        target["name"] = json!(name);
    }
    ok(client, "connect_to_server", target).await
}

fn is_iso_timestamp(value: &Value) -> bool {
    value.as_str().is_some_and(|text| {
        chrono::DateTime::parse_from_rfc3339(text).is_ok() && text.ends_with('Z')
    })
}

#[mcp_test(server = service(CompanionServer::new()), timeout = "60s")]
mod companion {
    use super::*;

    #[mcp_test]
    async fn advertises_every_tool_with_a_schema(client: McpClient) {
        let tools = client.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "connect_to_server",
                "disconnect",
                "get_connection_status",
                "list_connections",
                "list_tools",
                "call_tool",
                "list_resources",
                "list_resource_templates",
                "read_resource",
                "list_prompts",
                "get_prompt",
                "ping",
                "complete",
                "set_logging_level",
                "get_notifications",
                "run_server_tests",
                "check_server",
                "fuzz_server",
                "lint_server",
            ]
        );
        assert_tool_snapshot!("companion_tools", tools);
    }

    #[mcp_test]
    async fn every_listed_tool_answers_its_own_call(client: McpClient) {
        // Called with no arguments and no connection, each tool answers with its envelope
        // (never the protocol error of an unknown tool), and its own checks come first.
        let expected = [
            ("connect_to_server", "invalid_arguments"),
            ("disconnect", "not_connected"),
            ("get_connection_status", "success"),
            ("list_connections", "success"),
            ("list_tools", "not_connected"),
            ("call_tool", "invalid_arguments"),
            ("list_resources", "not_connected"),
            ("list_resource_templates", "not_connected"),
            ("read_resource", "invalid_arguments"),
            ("list_prompts", "not_connected"),
            ("get_prompt", "invalid_arguments"),
            ("ping", "not_connected"),
            ("complete", "invalid_arguments"),
            ("set_logging_level", "invalid_arguments"),
            ("get_notifications", "not_connected"),
            ("run_server_tests", "not_connected"),
            ("check_server", "not_connected"),
            ("fuzz_server", "not_connected"),
            ("lint_server", "not_connected"),
        ];
        let tools = client.list_tools().await.unwrap();
        let listed: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(listed, expected.map(|(tool, _)| tool));
        for (tool, outcome) in expected {
            let envelope = envelope(&client, tool, json!({})).await;
            let answered = envelope["error"]["type"].as_str().unwrap_or("success");
            assert_eq!(answered, outcome, "{tool}: {envelope}");
        }
    }

    #[mcp_test]
    async fn everything_but_status_needs_a_connection(client: McpClient) {
        for (tool, args) in [
            ("disconnect", json!({})),
            ("list_tools", json!({})),
            ("call_tool", json!({"name": "echo", "arguments": {}})),
            ("list_resources", json!({})),
            ("list_resource_templates", json!({})),
            ("read_resource", json!({"uri": "example://static/readme"})),
            ("list_prompts", json!({})),
            ("get_prompt", json!({"name": "greet"})),
            ("ping", json!({})),
            ("set_logging_level", json!({"level": "info"})),
            ("get_notifications", json!({})),
            (
                "complete",
                json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "style", "value": ""}}),
            ),
        ] {
            let envelope = fails(&client, tool, args, "not_connected").await;
            assert_eq!(envelope["connection"], Value::Null, "{tool}");
        }
        let status = ok(&client, "get_connection_status", json!({})).await;
        assert_eq!(status["connected"], json!(false));
        assert_tool_snapshot!("status_before_connecting", status);
    }

    #[mcp_test]
    async fn tests_the_example_server_with_every_tool(client: McpClient, example: &ExampleHttp) {
        let connected = connect_http(&client, example).await;
        let connection = &connected["connection"];
        assert_eq!(connection["transport"], json!("streaming-http"));
        assert_eq!(connection["server_url"], json!(example.url));
        assert_eq!(
            connection["server_info"]["name"],
            json!("mcp-assured-example")
        );
        assert!(
            is_iso_timestamp(&connection["connected_at"]),
            "{connection}"
        );
        assert_tool_snapshot!("connect_to_server", connected);

        let tools = ok(&client, "list_tools", json!({})).await;
        let echo = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "echo")
            .unwrap();
        assert_eq!(echo["input_schema"]["required"], json!(["message"]));
        assert_eq!(
            tools["metadata"]["total_tools"],
            json!(tools["tools"].as_array().unwrap().len())
        );
        assert!(is_iso_timestamp(&tools["metadata"]["retrieved_at"]));
        assert_tool_snapshot!("list_tools", tools);

        let called = ok(
            &client,
            "call_tool",
            json!({"name": "weather", "arguments": {"city": "London"}}),
        )
        .await;
        let call = &called["tool_call"];
        assert_eq!(
            call["result"]["structuredContent"]["temperature"],
            json!(15)
        );
        assert_eq!(call["result"]["isError"], json!(false));
        assert_eq!(call["execution"]["success"], json!(true));
        assert!(call["execution"]["duration_ms"].is_u64());
        assert!(is_iso_timestamp(&call["execution"]["started_at"]));
        assert_tool_snapshot!("call_tool", called);

        let resources = ok(&client, "list_resources", json!({})).await;
        assert_eq!(resources["metadata"]["total_resources"], json!(3));
        assert_tool_snapshot!("list_resources", resources);
        let templates = ok(&client, "list_resource_templates", json!({})).await;
        assert_eq!(
            templates["resource_templates"][0]["uriTemplate"],
            json!("example://greeting/{name}")
        );
        assert_tool_snapshot!("list_resource_templates", templates);
        let text = ok(
            &client,
            "read_resource",
            json!({"uri": "example://static/readme"}),
        )
        .await;
        assert_eq!(text["resource"]["contents"][0]["encoding"], json!("utf-8"));
        assert_tool_snapshot!("read_resource_text", text);
        let blob = ok(
            &client,
            "read_resource",
            json!({"uri": "example://static/logo.png"}),
        )
        .await;
        let logo = &blob["resource"]["contents"][0];
        assert_eq!(logo["encoding"], json!("base64"));
        assert_eq!(logo["mimeType"], json!("image/png"));
        assert!(logo["blob"].as_str().is_some_and(|b| !b.is_empty()));
        assert_eq!(blob["metadata"]["content_size"], logo["size"]);
        assert_tool_snapshot!("read_resource_blob", blob);

        let prompts = ok(&client, "list_prompts", json!({})).await;
        assert_eq!(prompts["metadata"]["total_prompts"], json!(2));
        assert_tool_snapshot!("list_prompts", prompts);
        let prompt = ok(
            &client,
            "get_prompt",
            json!({"name": "greet", "arguments": {"name": "Ada", "style": "formal"}}),
        )
        .await;
        assert_eq!(prompt["prompt"]["messages"][0]["role"], json!("user"));
        assert_tool_snapshot!("get_prompt", prompt);

        let completion = ok(
            &client,
            "complete",
            json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "style", "value": "f"}}),
        )
        .await;
        assert_eq!(completion["completion"]["values"], json!(["formal"]));
        assert_tool_snapshot!("complete", completion);
        let ping = ok(&client, "ping", json!({})).await;
        assert!(ping["ping"]["round_trip_ms"].is_u64());
        assert_tool_snapshot!("ping", ping);

        let level = ok(&client, "set_logging_level", json!({"level": "debug"})).await;
        assert_tool_snapshot!("set_logging_level", level);
        ok(
            &client,
            "call_tool",
            json!({"name": "log", "arguments": {"level": "warning", "message": "disk almost full"}}),
        )
        .await;
        let notifications = ok(&client, "get_notifications", json!({})).await;
        let logged = notifications["notifications"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["method"] == "notifications/message")
            .unwrap_or_else(|| panic!("no log message in {notifications}"));
        assert_eq!(logged["params"]["data"], json!("disk almost full"));
        assert!(is_iso_timestamp(&logged["received_at"]));
        assert_tool_snapshot!("get_notifications", notifications);
        let again = ok(&client, "get_notifications", json!({})).await;
        assert_eq!(again["metadata"]["count"], json!(0), "already shown");

        let status = ok(&client, "get_connection_status", json!({})).await;
        assert_eq!(status["connected"], json!(true));
        assert_eq!(status["statistics"]["tools_called"], json!(2));
        assert_eq!(status["statistics"]["resources_read"], json!(2));
        assert_eq!(status["statistics"]["prompts_retrieved"], json!(1));
        assert!(status["connection_details"]["server_info"]["capabilities"]["tools"].is_object());
        assert_tool_snapshot!("get_connection_status", status);
        let connections = ok(&client, "list_connections", json!({})).await;
        assert_tool_snapshot!("list_connections", connections);

        let disconnected = ok(&client, "disconnect", json!({})).await;
        assert!(is_iso_timestamp(
            &disconnected["previous_connection"]["disconnected_at"]
        ));
        assert_tool_snapshot!("disconnect", disconnected);
        fails(&client, "list_tools", json!({}), "not_connected").await;
    }

    #[mcp_test]
    async fn holds_several_named_connections(client: McpClient, example: &ExampleHttp) {
        connect_http(&client, example).await;
        let stdio = connect_stdio(&client, "local").await;
        assert_eq!(stdio["connection"]["transport"], json!("stdio"));
        let listed = ok(&client, "list_connections", json!({})).await;
        assert_eq!(listed["metadata"]["total_connections"], json!(2));
        assert_eq!(
            listed["default_connection"],
            json!("local"),
            "the newest is the default"
        );
        let on_http = ok(&client, "ping", json!({"connection": "default"})).await;
        assert_eq!(on_http["connection"]["transport"], json!("streaming-http"));
        let on_default = ok(&client, "ping", json!({})).await;
        assert_eq!(on_default["connection"]["name"], json!("local"));
        ok(&client, "disconnect", json!({"connection": "local"})).await;
        let status = ok(&client, "get_connection_status", json!({})).await;
        assert_eq!(status["connection"]["name"], json!("default"));
        fails(
            &client,
            "ping",
            json!({"connection": "local"}),
            "not_connected",
        )
        .await;
    }

    /// Over https://, `cacert` (a file or the PEM itself) or `insecure` connects; without
    /// either, a private CA's certificate is `connection_failed` naming the unknown issuer
    /// and how to trust it.
    #[mcp_test]
    async fn connects_over_https_with_cacert_or_insecure(client: McpClient, example: &ExampleHttp) {
        let ca = TestCa::new();
        let backend = example
            .url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp");
        let front =
            HttpsFront::start(backend.parse().unwrap(), &ca.server_certificate(Flaw::None)).await;
        let url = front.url("/mcp");
        let untrusted = fails(
            &client,
            "connect_to_server",
            json!({"url": url}),
            "connection_failed",
        )
        .await;
        let details = &untrusted["error"]["details"];
        assert_eq!(
            details["tls_problem"],
            json!("UnknownIssuer"),
            "{untrusted}"
        );
        let message = untrusted["error"]["message"].as_str().unwrap();
        assert!(message.contains("unknown issuer"), "{message}");
        assert!(
            message.contains("`cacert` in connect_to_server"),
            "{message}"
        );

        let ca_file = ca.file().to_str().unwrap();
        for (args, trusts) in [
            (
                json!({"url": url, "cacert": ca_file}),
                format!("the platform's CAs and {ca_file}"),
            ),
            (
                json!({"url": url, "cacert": ca.pem()}),
                "the platform's CAs and a CA certificate given as PEM".to_owned(),
            ),
            (
                json!({"url": url, "insecure": true}),
                "any certificate (insecure)".to_owned(),
            ),
        ] {
            let connected = ok(&client, "connect_to_server", args).await;
            assert_eq!(
                connected["connection"]["tls"]["trusts"],
                json!(trusts),
                "{connected}"
            );
            ok(
                &client,
                "call_tool",
                json!({"name": "echo", "arguments": {"message": "tls"}}),
            )
            .await;
        }
    }

    /// `oauth` authorizes when the server answers 401, headless or by client credentials;
    /// the connection says how, never with the secret; OAuth arguments without `oauth` are
    /// the caller's mistake.
    #[mcp_test]
    async fn connects_with_oauth_and_never_echoes_the_client_secret(client: McpClient) {
        let deployment = Deployment::compliant().await;
        let url = deployment.mcp_url.clone();
        let refused = fails(
            &client,
            "connect_to_server",
            json!({"url": url}),
            "connection_failed",
        )
        .await;
        assert_eq!(refused["error"]["details"]["http_status"], json!(401));

        let connected = ok(
            &client,
            "connect_to_server",
            json!({"url": url, "oauth": "authorization_code"}),
        )
        .await;
        assert_eq!(
            connected["connection"]["auth"],
            json!(["OAuth (authorization code, dynamic client registration)"])
        );
        let secret = "companion-secret-77";
        let connected = ok(
            &client,
            "connect_to_server",
            json!({
                "url": url,
                "oauth": "client_credentials",
                "client_id": "svc",
                "client_secret": secret,
                "scopes": ["mcp:tools"],
            }),
        )
        .await;
        let shown = connected.to_string();
        assert!(!shown.contains(secret) && !shown.contains(TOKEN), "{shown}");
        ok(&client, "list_tools", json!({})).await;

        let misplaced = fails(
            &client,
            "connect_to_server",
            json!({"url": url, "client_id": "svc"}),
            "invalid_arguments",
        )
        .await;
        assert!(
            misplaced["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`client_id` is an OAuth argument: give `oauth` too"),
            "{misplaced}"
        );
    }

    /// `protocol_version` pins a revision or negotiates the newest; the answer says which
    /// was spoken, and a pin the server does not speak is `connection_failed`.
    #[mcp_test]
    async fn connects_on_the_protocol_revision_asked_for(client: McpClient, example: &ExampleHttp) {
        let newest = ok(
            &client,
            "connect_to_server",
            json!({"url": example.url, "protocol_version": "newest"}),
        )
        .await;
        assert_eq!(
            newest["connection"]["server_info"]["protocol_version"],
            json!("2026-07-28"),
            "{newest}"
        );
        ok(&client, "list_tools", json!({})).await;
        let pinned = ok(
            &client,
            "connect_to_server",
            json!({"url": example.url, "protocol_version": "2025-06-18"}),
        )
        .await;
        assert_eq!(
            pinned["connection"]["server_info"]["protocol_version"],
            json!("2025-06-18")
        );
        fails(
            &client,
            "connect_to_server",
            json!({"url": example.url, "protocol_version": "1999-01-01"}),
            "invalid_arguments",
        )
        .await;
    }

    /// A server slow to boot (the Python SDK 2.3 peer behind a 5 s sleep, longer than the
    /// probe's `discover_timeout`) is reached with the defaults, on 2026-07-28.
    #[mcp_test(timeout = "60s")]
    async fn connects_to_a_server_slow_to_boot_with_the_defaults(client: McpClient) {
        let slow = json!({
            "command": "sh",
            "args": ["-c", r#"sleep 5; exec "$0" "$@""#, peers::python(), peers::python_server_script()],
        });
        let connected = ok(&client, "connect_to_server", slow).await;
        assert_eq!(
            connected["connection"]["server_info"]["protocol_version"],
            json!("2026-07-28"),
            "{connected}"
        );
        ok(&client, "ping", json!({})).await;
    }

    /// `lint_server` on a twin server: the vulnerable one's finding with its rule, subject,
    /// location and fix; an unknown profile named with the profiles there are.
    #[mcp_test]
    async fn lints_a_server_and_reports_every_finding(client: McpClient) {
        let poisoned = json!({
            "command": peers::python(),
            "args": [peers::sources_file("lint_twins_server.py"), "conceal", "vulnerable"],
        });
        ok(&client, "connect_to_server", poisoned).await;
        let linted = ok(&client, "lint_server", json!({})).await;
        assert_eq!(linted["passed"], json!(false), "{linted}");
        let finding = &linted["findings"][0];
        assert_eq!(finding["rule"], "instruction-injection.conceal", "{linted}");
        assert_eq!(finding["subject"], "tool `conceal`");
        assert_eq!(finding["location"], "/description");
        assert!(finding["fix"].is_string());
        assert!(linted["tokens"]["total"].as_u64().unwrap() > 0);
        let unknown = envelope(
            &client,
            "lint_server",
            json!({"profiles": ["gemini-strict"]}),
        )
        .await;
        assert_eq!(unknown["error"]["type"], "invalid_arguments", "{unknown}");
    }

    /// `fuzz_server` on the Python server with planted bugs: each finding with its shrunk
    /// input and reproduction, the seed to run it again, and the crash survived.
    #[mcp_test(timeout = "120s")]
    async fn fuzzes_a_server_and_reports_every_finding(client: McpClient) {
        let planted = json!({
            "command": peers::python(),
            "args": [peers::planted_bugs_server_script()],
        });
        ok(&client, "connect_to_server", planted).await;
        let fuzzed = envelope(
            &client,
            "fuzz_server",
            json!({"seed": 5, "cases": 40, "call_timeout_ms": 2000}),
        )
        .await;
        assert_eq!(fuzzed["seed"], json!(5), "{fuzzed}");
        let findings = fuzzed["findings"].as_array().unwrap();
        let mut tools: Vec<&str> = findings
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        tools.sort_unstable();
        assert_eq!(
            tools,
            [
                "batch", "convert", "divide", "greet", "lookup", "page", "profile", "scale",
                "search"
            ],
            "{fuzzed}"
        );
        let greet = findings.iter().find(|f| f["name"] == "greet").unwrap();
        assert_eq!(greet["kind"], "crash");
        assert_eq!(greet["arguments"], json!({"name": ""}));
        assert!(
            greet["reproduce"]["command"]
                .as_str()
                .unwrap()
                .starts_with("mcp-assured call greet")
        );
        assert_eq!(fuzzed["summary"]["failed"], json!(9), "{fuzzed}");
        // Still connected, to the server started again after the crash.
        ok(&client, "list_tools", json!({})).await;
    }

    /// The answers show what the server sent, not rmcp's re-encoding: a field rmcp's `Tool`
    /// does not model, and a decimal rmcp holds as `f32`.
    #[mcp_test]
    async fn answers_show_what_the_server_sent(client: McpClient) {
        let everything = json!({
            "command": peers::node(),
            "args": [peers::server_everything(), "stdio"],
            "name": "everything",
        });
        ok(&client, "connect_to_server", everything).await;
        let listed = ok(&client, "list_tools", json!({"connection": "everything"})).await;
        let research = listed["tools"]
            .as_array()
            .and_then(|tools| {
                tools
                    .iter()
                    .find(|t| t["name"] == "simulate-research-query")
            })
            .cloned()
            .unwrap_or_else(|| panic!("{listed}"));
        assert_eq!(research["execution"], json!({"taskSupport": "required"}));
        let python = json!({
            "command": peers::python(),
            "args": [peers::python_server_script()],
            "name": "python",
        });
        ok(&client, "connect_to_server", python).await;
        let called = ok(
            &client,
            "call_tool",
            json!({"connection": "python", "name": "ranked"}),
        )
        .await;
        assert_eq!(
            called["tool_call"]["result"]["content"][0]["annotations"]["priority"],
            json!(0.7),
            "{called}"
        );
    }

    #[mcp_test]
    async fn each_error_type_comes_from_what_happened(client: McpClient, example: &ExampleHttp) {
        // connection_failed: nothing listens there.
        let closed = format!("http://127.0.0.1:{}/mcp", free_port().unwrap());
        let refused = fails(
            &client,
            "connect_to_server",
            json!({"url": closed}),
            "connection_failed",
        )
        .await;
        assert!(refused["error"]["details"]["client_error"].is_string());
        // A URL that is not one is the caller's mistake.
        fails(
            &client,
            "connect_to_server",
            json!({"url": "not a url"}),
            "invalid_arguments",
        )
        .await;
        fails(
            &client,
            "connect_to_server",
            json!({"command": "/nonexistent/mcp-server"}),
            "connection_failed",
        )
        .await;

        connect_http(&client, example).await;
        let unknown = fails(
            &client,
            "call_tool",
            json!({"name": "no_such_tool", "arguments": {}}),
            "tool_not_found",
        )
        .await;
        assert!(
            unknown["error"]["details"]["available_tools"]
                .as_array()
                .unwrap()
                .contains(&json!("echo"))
        );
        assert_tool_snapshot!("error_tool_not_found", unknown);
        let missing = fails(
            &client,
            "read_resource",
            json!({"uri": "example://nope"}),
            "resource_not_found",
        )
        .await;
        assert_tool_snapshot!("error_resource_not_found", missing);
        fails(
            &client,
            "get_prompt",
            json!({"name": "nope"}),
            "prompt_not_found",
        )
        .await;

        // Arguments of the wrong type: refused before calling when strict...
        let strict = fails(
            &client,
            "call_tool",
            json!({"name": "add", "arguments": {"a": "one", "b": 2}, "strict": true}),
            "invalid_arguments",
        )
        .await;
        assert_eq!(
            strict["error"]["details"]["violations"][0]["path"],
            json!("/a")
        );
        assert_eq!(
            strict["error"]["details"]["input_schema"]["required"],
            json!(["a", "b"])
        );
        assert!(strict.get("tool_call").is_none(), "not called");
        // ...otherwise sent, with the violations as warnings next to the server's answer.
        let sent = fails(
            &client,
            "call_tool",
            json!({"name": "add", "arguments": {"a": "one", "b": 2}}),
            "invalid_arguments",
        )
        .await;
        assert_eq!(
            sent["warnings"]["argument_violations"][0]["path"],
            json!("/a")
        );
        // This server (rmcp) answers bad arguments with a tool error, as MCP 2025-11-25 asks.
        assert_eq!(sent["tool_call"]["result"]["isError"], json!(true));

        let failed = fails(
            &client,
            "call_tool",
            json!({"name": "fail", "arguments": {"message": "boom"}}),
            "execution_error",
        )
        .await;
        assert_eq!(failed["tool_call"]["result"]["isError"], json!(true));
        assert_eq!(failed["tool_call"]["execution"]["success"], json!(false));
        assert_tool_snapshot!("error_execution_error", failed);

        let slow = fails(
            &client,
            "call_tool",
            json!({"name": "hang", "arguments": {}, "timeout_ms": 200}),
            "timeout",
        )
        .await;
        assert!(
            slow["tool_call"]["execution"]["duration_ms"]
                .as_u64()
                .unwrap()
                >= 200
        );
    }

    #[mcp_test]
    async fn a_target_that_dies_is_a_transport_error(client: McpClient) {
        connect_stdio(&client, "default").await;
        let died = fails(
            &client,
            "call_tool",
            json!({"name": "crash", "arguments": {"code": 3}}),
            "transport_error",
        )
        .await;
        let client_error = died["error"]["details"]["client_error"].as_str().unwrap();
        assert!(client_error.contains("exit status: 3"), "{client_error}");
        fails(&client, "ping", json!({}), "transport_error").await;
        // Reconnecting works.
        connect_stdio(&client, "default").await;
        ok(&client, "ping", json!({})).await;
    }

    #[mcp_test]
    async fn a_target_that_hangs_at_start_times_out(client: McpClient) {
        let hung = fails(
            &client,
            "connect_to_server",
            json!({"command": "sh", "args": ["-c", "echo waiting >&2; sleep 30"], "startup_timeout_ms": 300}),
            "timeout",
        )
        .await;
        // Silent to the probe, the server was started again for `initialize`, and the tail
        // says so between the two processes' lines.
        let tail = hung["error"]["details"]["stderr_tail"].as_str().unwrap();
        let lines: Vec<&str> = tail.lines().collect();
        assert_eq!(lines.first(), Some(&"waiting"), "{tail}");
        assert_eq!(lines.last(), Some(&"waiting"), "{tail}");
        assert!(
            tail.contains("the server is started again for `initialize`"),
            "{tail}"
        );
    }

    #[mcp_test]
    async fn runs_the_servers_own_tests(client: McpClient) {
        connect_selftest(&client, &[], None).await;
        let run = ok(&client, "run_server_tests", json!({})).await;
        assert_eq!(
            run["summary"],
            // The 8 tests and the convention's coverage, which passes; the two optional
            // tests that fail warn.
            json!({"total": 9, "passed": 3, "failed": 3, "skipped": 1, "warned": 2, "all_passed": false})
        );
        let tests = run["tests"].as_array().unwrap();
        assert_eq!(tests[0]["name"], json!("mcp.test.capabilities"));
        assert_eq!(
            tests[0]["details"]["tool"]["name"],
            json!("mcp.test.capabilities")
        );
        assert_eq!(tests[0]["status"], json!("passed"));
        assert_eq!(
            tests[0]["details"]["result"]["details"]["passed"],
            json!(["tools/list answers", "tools/call answers"])
        );
        assert!(
            run["report"]
                .as_str()
                .unwrap()
                .ends_with("3 passed, 3 failed, 1 skipped, 2 warned")
        );
        assert_eq!(tests[8]["name"], json!("server_tests.coverage"));
    }

    /// The entry of check `name` in a `check_server` answer.
    fn check_named<'a>(answer: &'a Value, name: &str) -> &'a Value {
        answer["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|check| check["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {answer}"))
    }

    #[mcp_test]
    async fn checks_the_server(client: McpClient, example: &ExampleHttp) {
        connect_http(&client, example).await;
        let checked = ok(
            &client,
            "check_server",
            json!({"tool_arguments": {"weather": {"city": "Tokyo"}}}),
        )
        .await;
        assert_eq!(checked["summary"]["failed"], json!(0), "{checked}");
        // The 5 checks only 2026-07-28 has, and the 4 of authorization (it asks for none).
        assert_eq!(checked["summary"]["skipped"], json!(9), "{checked}");
        assert_eq!(checked["checks"][0]["name"], json!("initialize"));
        connect_selftest(&client, &["--broken"], Some("broken")).await;
        let broken = ok(&client, "check_server", json!({"connection": "broken"})).await;
        assert_eq!(broken["summary"]["all_passed"], json!(false));
        let unknown_tool = check_named(&broken, "errors.unknown_tool");
        // An unknown tool as a tool error breaks no MUST: a warning, with its clause; `strict`
        // fails it.
        assert_eq!(unknown_tool["status"], json!("warned"), "{broken}");
        assert_eq!(
            unknown_tool["clause"]["level"],
            json!("no keyword"),
            "{broken}"
        );
        let strict = ok(
            &client,
            "check_server",
            json!({"connection": "broken", "strict": true}),
        )
        .await;
        let unknown_tool = check_named(&strict, "errors.unknown_tool");
        assert_eq!(unknown_tool["status"], json!("failed"), "{strict}");

        // A known fault, skipped on request: reported as skipped, saying what it found.
        let skipped = ok(
            &client,
            "check_server",
            json!({"connection": "broken", "skip": ["errors.unknown_tool"]}),
        )
        .await;
        let unknown_tool = check_named(&skipped, "errors.unknown_tool");
        assert_eq!(unknown_tool["status"], json!("skipped"), "{skipped}");
        assert!(
            unknown_tool["message"]
                .as_str()
                .unwrap()
                .starts_with("skipped on request; it found: WARN "),
            "{skipped}"
        );
        let typo = envelope(
            &client,
            "check_server",
            json!({"connection": "broken", "skip": ["errors.unknwn_tool"]}),
        )
        .await;
        assert_eq!(typo["error"]["type"], json!("invalid_arguments"), "{typo}");
    }

    #[mcp_test]
    async fn credentials_are_used_but_never_echoed(client: McpClient) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let options = mcp_assured_examples::HttpOptions {
            bearer_token: Some("s3cret-token".into()),
            ..Default::default()
        };
        let server = tokio::spawn(mcp_assured_examples::serve::serve_streamable_http(
            listener, options,
        ));
        let mut answers = Vec::new();
        let refused = fails(
            &client,
            "connect_to_server",
            json!({"url": url, "bearer_token": "wrong-token"}),
            "connection_failed",
        )
        .await;
        assert_eq!(refused["error"]["details"]["http_status"], json!(401));
        answers.push(refused);
        let connected = ok(
            &client,
            "connect_to_server",
            json!({"url": url, "bearer_token": "s3cret-token", "headers": {"X-Api-Key": "k3y-value"}}),
        )
        .await;
        assert_eq!(
            connected["connection"]["auth"],
            json!(["bearer token given", "header `X-Api-Key` given"])
        );
        answers.push(connected);
        answers.push(
            ok(
                &client,
                "call_tool",
                json!({"name": "echo", "arguments": {"message": "hi"}}),
            )
            .await,
        );
        answers.push(ok(&client, "get_connection_status", json!({})).await);
        answers.push(ok(&client, "list_connections", json!({})).await);
        answers.push(ok(&client, "disconnect", json!({})).await);
        for answer in answers {
            let text = answer.to_string();
            for secret in ["s3cret-token", "wrong-token", "k3y-value"] {
                assert!(!text.contains(secret), "`{secret}` echoed in {text}");
            }
        }
        server.abort();
    }

    #[mcp_test]
    async fn malformed_requests_get_invalid_arguments(client: McpClient, example: &ExampleHttp) {
        let huge = "x".repeat(1 << 20);
        for (tool, args) in [
            ("connect_to_server", json!({})),
            ("connect_to_server", json!({"url": 42})),
            (
                "connect_to_server",
                json!({"url": "http://127.0.0.1:1/mcp", "command": "x"}),
            ),
            (
                "connect_to_server",
                json!({"url": "http://127.0.0.1:1/mcp", "transport": "stdio"}),
            ),
            (
                "connect_to_server",
                json!({"url": example.url, "timeout_ms": "soon"}),
            ),
            (
                "connect_to_server",
                json!({"url": example.url, "unexpected": true}),
            ),
            ("call_tool", json!({"arguments": {}})),
            ("call_tool", json!({"name": 7})),
            (
                "call_tool",
                json!({"name": "echo", "arguments": "not an object"}),
            ),
            ("read_resource", json!({})),
            ("get_prompt", json!({"name": ["greet"]})),
            ("set_logging_level", json!({"level": "loud"})),
            (
                "complete",
                json!({"ref": {"type": "ref/tool"}, "argument": {"name": "a", "value": ""}}),
            ),
            ("get_notifications", json!({"all": "yes"})),
        ] {
            let envelope = fails(&client, tool, args.clone(), "invalid_arguments").await;
            assert!(
                envelope["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(tool),
                "{tool} {args}: {envelope}"
            );
        }
        // Huge strings are just strings.
        fails(
            &client,
            "ping",
            json!({"connection": huge}),
            "not_connected",
        )
        .await;
        connect_http(&client, example).await;
        let echoed = ok(
            &client,
            "call_tool",
            json!({"name": "echo", "arguments": {"message": huge}}),
        )
        .await;
        assert_eq!(
            echoed["tool_call"]["result"]["content"][0]["text"]
                .as_str()
                .map(str::len),
            Some(1 << 20)
        );
        fails(
            &client,
            "call_tool",
            json!({"name": huge, "arguments": {}}),
            "tool_not_found",
        )
        .await;
        // An unknown tool of the companion itself is a protocol error, not a crash.
        let error = client
            .call_tool("no_such_companion_tool", json!({}))
            .await
            .unwrap_err();
        assert_eq!(error.code(), Some(mcp_assured::code::INVALID_PARAMS));
        ok(&client, "ping", json!({})).await;
        let _ = envelope;
    }
}
