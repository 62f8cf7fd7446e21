//! Where mcp-assured differs from the seed specifications on purpose (`docs/seed-differences.md`),
//! each difference pinned: the companion's schemas and answers against
//! `test-server-tool-schemas.md`, the READMEs' registration against its tool names, and the
//! `mcp.test.*` convention's naming warnings on a server whose test tools stray from it.

mod support;

use std::path::Path;

use mcp_assured::{McpClient, fixture::ServerCommand, mcp_test};
use mcp_assured_cli::CompanionServer;
use mcp_assured_tests::{example_server_binary, peers::SELFTEST_SERVER};
use serde_json::{Value, json};

use support::{fails, ok, printed, run};

/// The companion's definition of `tool`, as it lists it.
async fn definition(client: &McpClient, tool: &str) -> Value {
    let tools = client.list_tools_json().await.unwrap();
    tools
        .into_iter()
        .find(|listed| listed["name"] == tool)
        .unwrap_or_else(|| panic!("the companion lists no `{tool}`"))
}

/// One of the seed's nine tools as `test-server-tool-schemas.md` words it: its description,
/// and each parameter's.
struct SeedTool {
    name: &'static str,
    description: &'static str,
    parameters: &'static [(&'static str, &'static str)],
}

/// The seed's tools, its words copied as it writes them (its line breaks included).
const SEED_TOOLS: &[SeedTool] = &[
    SeedTool {
        name: "connect_to_server",
        description: "Connects to an MCP server for testing. Supports both deployed servers
(streaming-http) and local servers (stdio). Once connected, all other
tools will operate on this connection until disconnect() is called.

For deployed servers, provide the full URL (e.g., https://server.apps.openshift.com/mcp)
For local servers, this will be implemented in Phase 2.",
        parameters: &[(
            "url",
            "URL of the MCP server to connect to (e.g., https://my-server.apps.openshift.com/mcp)",
        )],
    },
    SeedTool {
        name: "disconnect",
        description: "Disconnects from the currently active MCP server connection.
After disconnecting, you must connect to a server before using
other tools.",
        parameters: &[],
    },
    SeedTool {
        name: "get_connection_status",
        description: "Returns detailed information about the current connection state,
including server info, connection time, and statistics.",
        parameters: &[],
    },
    SeedTool {
        name: "list_tools",
        description: "Retrieves all tools from the currently connected MCP server with
complete schemas. Returns full input schemas, descriptions, and
metadata to enable verification and prevent hallucination.

This tool provides verbose output showing exactly what the server
advertised, not a summary.",
        parameters: &[],
    },
    SeedTool {
        name: "call_tool",
        description: "Calls a specific tool on the currently connected MCP server with
provided arguments. Returns verbose execution details including
the result, execution time, and metadata.

Use this to test that tools work correctly and return expected values.",
        parameters: &[
            (
                "name",
                "Name of the tool to call (as returned by list_tools)",
            ),
            (
                "arguments",
                "Arguments to pass to the tool (must match tool's input schema)",
            ),
        ],
    },
    SeedTool {
        name: "list_resources",
        description: "Retrieves all resources from the currently connected MCP server
with complete metadata. Returns URIs, descriptions, MIME types,
and other resource information.",
        parameters: &[],
    },
    SeedTool {
        name: "read_resource",
        description: "Reads a specific resource from the currently connected MCP server.
Provide the resource URI as returned by list_resources.",
        parameters: &[(
            "uri",
            "URI of the resource to read (as returned by list_resources)",
        )],
    },
    SeedTool {
        name: "list_prompts",
        description: "Retrieves all prompts from the currently connected MCP server
with complete schemas. Returns prompt names, descriptions, and
argument schemas.",
        parameters: &[],
    },
    SeedTool {
        name: "get_prompt",
        description: "Gets a specific prompt from the currently connected MCP server.
Provide the prompt name and any required arguments.",
        parameters: &[
            (
                "name",
                "Name of the prompt to retrieve (as returned by list_prompts)",
            ),
            (
                "arguments",
                "Arguments for the prompt (must match prompt's argument schema)",
            ),
        ],
    },
];

/// Where the companion's words replace the seed's (`docs/seed-differences.md`): the tool,
/// the seed's sentence, the companion's.
const REPLACED: &[(&str, &str, &str)] = &[(
    "connect_to_server",
    "For local servers, this will be implemented in Phase 2.",
    "For local servers, give `command` (with `args`, `env`, `cwd`): the server is started \
     and spoken to over stdio.",
)];

async fn connect_example(client: &McpClient, name: Option<&str>) -> Value {
    let mut target = json!({"command": example_server_binary(), "protocol_version": "2025-11-25"});
    if let Some(name) = name {
        target["name"] = json!(name);
    }
    ok(client, "connect_to_server", target).await
}

#[mcp_test(server = service(CompanionServer::new()), timeout = "60s")]
mod companion {
    use super::*;

    #[mcp_test]
    async fn connect_to_server_takes_a_url_a_command_or_a_config(client: McpClient) {
        let schema = &definition(&client, "connect_to_server").await["inputSchema"];
        for property in ["url", "command", "config"] {
            assert!(
                schema["properties"][property].is_object(),
                "{property}: {schema:#}"
            );
        }
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        assert!(!required.contains(&json!("url")), "{schema:#}");
        let refused = fails(&client, "connect_to_server", json!({}), "invalid_arguments").await;
        let message = refused["error"]["message"].as_str().unwrap();
        for named in ["`url`", "`command`", "`config`"] {
            assert!(message.contains(named), "{message}");
        }
    }

    /// Each of the seed's tools says the seed's description word for word (but for
    /// [`REPLACED`]), then what it adds in a paragraph of its own; each of its parameters says
    /// the seed's words, then what it adds on a line of its own.
    #[mcp_test]
    async fn the_seeds_tools_say_the_seeds_words_first(client: McpClient) {
        for (tool, seed, _) in REPLACED {
            let described = SEED_TOOLS.iter().find(|t| t.name == *tool).unwrap();
            assert!(described.description.contains(seed), "{tool}: {seed}");
        }
        for seed in SEED_TOOLS {
            let listed = definition(&client, seed.name).await;
            let mut expected = seed.description.to_owned();
            for (_, theirs, ours) in REPLACED.iter().filter(|(tool, ..)| *tool == seed.name) {
                expected = expected.replace(theirs, ours);
            }
            let description = listed["description"].as_str().unwrap();
            assert!(
                description == expected || description.starts_with(&format!("{expected}\n\n")),
                "{}: the description does not begin with the seed's words.\nexpected first:\n{expected}\n\ngot:\n{description}",
                seed.name
            );
            for (parameter, words) in seed.parameters {
                let said = listed["inputSchema"]["properties"][parameter]["description"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{}: no `{parameter}` described", seed.name));
                assert!(
                    said == *words || said.starts_with(&format!("{words}\n")),
                    "{}.{parameter}: expected first `{words}`, got `{said}`",
                    seed.name
                );
            }
        }
    }

    /// The seed's two transports and the older HTTP+SSE: chosen from a URL whose path ends in
    /// `/sse`, or asked for, and reported as `sse`.
    #[mcp_test]
    async fn connect_to_server_also_speaks_sse(client: McpClient) {
        let schema = &definition(&client, "connect_to_server").await["inputSchema"];
        let transports = &schema["$defs"]["TransportName"];
        assert!(transports.to_string().contains(r#""sse""#), "{schema:#}");
        let server = mcp_assured_tests::server::start(
            &ServerCommand::new(example_server_binary()).args([
                "--transport",
                "sse",
                "--port",
                "{port}",
            ]),
            "/sse",
        )
        .await;
        let url = server.url().unwrap();
        for target in [json!({"url": url}), json!({"url": url, "transport": "sse"})] {
            let connected = ok(&client, "connect_to_server", target).await;
            assert_eq!(connected["connection"]["transport"], "sse", "{connected:#}");
            let listed = ok(&client, "list_tools", json!({})).await;
            assert!(
                listed["metadata"]["total_tools"].as_u64() > Some(0),
                "{listed:#}"
            );
        }
    }

    /// An unknown tool: the companion reads both answers the seeds give (the router
    /// contract's JSON-RPC -32602 and the tool-module interface's tool result) as
    /// `tool_not_found`, and itself answers an unknown tool of its own with -32602.
    #[mcp_test]
    async fn an_unknown_tool_is_tool_not_found_however_the_server_answers(client: McpClient) {
        connect_example(&client, Some("rmcp")).await;
        let python = mcp_assured_tests::peers::python();
        ok(
            &client,
            "connect_to_server",
            json!({"name": "tool-result", "command": python, "args": [SELFTEST_SERVER, "--broken"]}),
        )
        .await;
        for connection in ["rmcp", "tool-result"] {
            let unknown = fails(
                &client,
                "call_tool",
                json!({"name": "tides", "connection": connection}),
                "tool_not_found",
            )
            .await;
            assert!(
                unknown["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("`tides`"),
                "{unknown:#}"
            );
        }
        match client.call_tool("tides", json!({})).await {
            Err(mcp_assured::Error::JsonRpc { code, message, .. }) => {
                assert_eq!(code, mcp_assured::code::INVALID_PARAMS);
                assert!(message.starts_with("unknown tool `tides`"), "{message}");
            }
            other => panic!("expected -32602, got {other:?}"),
        }
    }

    #[mcp_test]
    async fn call_tool_arguments_may_be_left_out(client: McpClient) {
        let schema = &definition(&client, "call_tool").await["inputSchema"];
        assert_eq!(schema["required"], json!(["name"]), "{schema:#}");
        connect_example(&client, None).await;
        let called = ok(&client, "call_tool", json!({"name": "cancelled_count"})).await;
        assert_eq!(called["tool_call"]["arguments"], json!({}), "{called:#}");
    }

    #[mcp_test]
    async fn connecting_again_under_a_name_replaces_it_and_says_so(client: McpClient) {
        let first = connect_example(&client, Some("upstream")).await;
        assert!(first.get("replaced_connection").is_none(), "{first:#}");
        let second = connect_example(&client, Some("upstream")).await;
        let replaced = &second["replaced_connection"];
        assert_eq!(replaced["name"], "upstream", "{second:#}");
        let listed = ok(&client, "list_connections", json!({})).await;
        let names: Vec<&Value> = listed["connections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|connection| &connection["name"])
            .collect();
        assert_eq!(names, [&json!("upstream")], "{listed:#}");
    }

    #[mcp_test]
    async fn get_prompt_returns_the_description_the_server_gave(client: McpClient) {
        connect_example(&client, None).await;
        let prompt = ok(
            &client,
            "get_prompt",
            json!({"name": "code_review", "arguments": {"code": "fn main() {}", "language": "rust"}}),
        )
        .await;
        assert_eq!(
            prompt["prompt"]["description"], "A review of a piece of rust code",
            "{prompt:#}"
        );
        assert_eq!(
            prompt["prompt"]["messages"].as_array().map(Vec::len),
            Some(2)
        );
    }

    #[mcp_test]
    async fn get_prompt_leaves_out_a_description_the_server_did_not_give(client: McpClient) {
        connect_example(&client, None).await;
        let prompt = ok(
            &client,
            "get_prompt",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
        )
        .await;
        let body = prompt["prompt"].as_object().unwrap();
        assert!(!body.contains_key("description"), "{prompt:#}");
        assert!(!body.contains_key("_meta"), "{prompt:#}");
        // Every value where the seed's schema says string is one.
        assert!(body["name"].is_string());
    }
}

#[test]
fn the_readmes_register_the_companion_under_the_seeds_prefix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for readme in ["README.md", "mcp-assured-cli/README.md"] {
        let text = std::fs::read_to_string(root.join(readme)).unwrap();
        assert!(
            text.contains("claude mcp add mcp_test_mcp -- mcp-assured serve"),
            "{readme} registers the companion under another name"
        );
        assert!(
            text.contains(r#""mcp_test_mcp": { "command": "mcp-assured", "args": ["serve"] }"#),
            "{readme}'s JSON registers the companion under another name"
        );
        assert!(!text.contains("claude mcp add mcp-assured "), "{readme}");
    }
}

/// The self-test server with `--strays`: test tools of another form, and one whose namespace
/// is not its category; each passes, and warns.
#[test]
fn test_names_of_another_form_or_namespace_warn() {
    let python = mcp_assured_tests::peers::python();
    let output = run(
        &[
            "check",
            "--json",
            "--",
            python.to_str().unwrap(),
            SELFTEST_SERVER,
            "--strays",
        ],
        &[],
    );
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", printed(&output)));
    let entry = |name: &str| -> Value {
        report["server_tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no `{name}`: {report:#}"))
    };
    let misshapen = entry("mcp.test.Tools.Echo");
    assert_eq!(misshapen["status"], "warned", "{misshapen:#}");
    assert!(
        misshapen["problems"][0]
            .as_str()
            .unwrap()
            .contains("is not of the convention's form"),
        "{misshapen:#}"
    );
    let elsewhere = entry("mcp.test.resources.echo");
    assert_eq!(elsewhere["status"], "warned", "{elsewhere:#}");
    assert!(
        elsewhere["problems"][0].as_str().unwrap().contains(
            "named under `resources` (mcp.test.resources.*) but testMetadata.category is `tools`"
        ),
        "{elsewhere:#}"
    );
    // A strict run fails them.
    let strict = run(
        &[
            "check",
            "--strict",
            "--",
            python.to_str().unwrap(),
            SELFTEST_SERVER,
            "--strays",
        ],
        &[],
    );
    let text = printed(&strict);
    assert_eq!(strict.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL mcp.test.resources.echo: (a warning, failed by strict)"),
        "{text}"
    );
}

/// The convention's priorities grade a failure: the self-test server with one failing test
/// of priority 1, 2 or 3 beside the two required ones, which pass. A critical or important
/// test that fails fails the run; an optional one warns, and the run passes, unless strict.
#[test]
fn an_optional_test_that_fails_warns_and_a_critical_one_fails() {
    let python = mcp_assured_tests::peers::python();
    let check = |priority: &str, strict: bool| {
        let mut args = vec!["check"];
        if strict {
            args.push("--strict");
        }
        args.extend([
            "--",
            python.to_str().unwrap(),
            SELFTEST_SERVER,
            "--failing-priority",
            priority,
        ]);
        let output = run(&args, &[]);
        (output.status.code(), printed(&output))
    };
    let verdict = "echo kept the whitespace (failed: echo trims whitespace)";
    for priority in ["1", "2"] {
        let (code, text) = check(priority, false);
        assert_eq!(code, Some(1), "priority {priority}: {text}");
        assert!(
            text.contains(&format!("FAIL mcp.test.tools.trim: {verdict}\n")),
            "priority {priority}: {text}"
        );
    }
    let (code, text) = check("3", false);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!(
            "WARN mcp.test.tools.trim: optional test (priority 3) failed: {verdict}\n"
        )),
        "{text}"
    );
    assert!(text.contains("PASS mcp.test.protocol: "), "{text}");
    assert!(!text.contains("FAIL "), "{text}");
    let (code, text) = check("3", true);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "FAIL mcp.test.tools.trim: (a warning, failed by strict) optional test (priority 3) \
             failed: {verdict}\n"
        )),
        "{text}"
    );
}
