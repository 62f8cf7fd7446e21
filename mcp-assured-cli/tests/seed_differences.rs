//! Where mcp-assured differs from the seed specifications on purpose (`docs/seed-differences.md`),
//! each difference pinned: the companion's schemas and answers against
//! `test-server-tool-schemas.md`, the READMEs' registration against its tool names, and the
//! `mcp.test.*` convention's naming warnings on a server whose test tools stray from it.

mod support;

use std::path::Path;

use mcp_assured::{McpClient, mcp_test};
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
