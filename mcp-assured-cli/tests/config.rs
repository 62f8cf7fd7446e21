//! `--config FILE --server NAME` for the commands and `config`/`server` for the companion's
//! `connect_to_server`: servers taken from an `mcpServers` file, over stdio (with env) and
//! over HTTP (with headers whose `${VAR}` comes from the environment), and the errors of a
//! file that does not name the server.

mod support;

use std::path::PathBuf;

use mcp_assured::{McpClient, mcp_test};
use mcp_assured_cli::CompanionServer;
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
use mcp_assured_tests::example_server_binary;
use serde_json::{Value, json};

use support::{fails, ok, printed, run};

const TOKEN: &str = "config-test-token-7";

/// A config file in a fresh temporary directory, removed on drop.
struct ConfigFile {
    dir: PathBuf,
    path: PathBuf,
}

impl ConfigFile {
    fn new(servers: Value) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "mcp-assured-config-{}-{}",
            std::process::id(),
            mcp_assured::fixture::free_port().unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mcp.json");
        let file = json!({ "mcpServers": servers });
        std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
        Self { dir, path }
    }

    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

impl Drop for ConfigFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The example server over streamable HTTP on a thread of its own, refusing requests
/// without `Authorization: Bearer TOKEN`; its `/mcp` URL.
fn example_with_token() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let options = HttpOptions {
                bearer_token: Some(TOKEN.to_owned()),
                ..HttpOptions::default()
            };
            let _ = serve_streamable_http(listener, options).await;
        });
    });
    url
}

fn servers(remote_url: &str) -> Value {
    json!({
        "local": {
            "command": example_server_binary(),
            "args": [],
            "env": { "EXAMPLE_UNUSED": "${MCP_ASSURED_CONFIG_TEST_UNSET:-fine}" },
            "disabled": false
        },
        "remote": {
            "type": "http",
            "url": remote_url,
            "headers": { "Authorization": "Bearer ${CONFIG_TEST_TOKEN}" }
        },
        "keyed": {
            "url": format!("{remote_url}?key=${{CONFIG_TEST_TOKEN}}"),
            "headers": { "Authorization": "Bearer ${CONFIG_TEST_TOKEN}" }
        }
    })
}

#[test]
fn commands_take_stdio_and_http_servers_from_a_config_file() {
    let config = ConfigFile::new(servers(&example_with_token()));
    let env = [("CONFIG_TEST_TOKEN", TOKEN)];

    let local = run(
        &["list", "--config", config.path(), "--server", "local"],
        &env,
    );
    assert!(local.status.success(), "{}", printed(&local));
    assert!(printed(&local).contains("tools ("), "{}", printed(&local));

    let remote = run(
        &[
            "call",
            "echo",
            "--arg",
            "message=configured",
            "--config",
            config.path(),
            "--server",
            "remote",
        ],
        &env,
    );
    assert!(remote.status.success(), "{}", printed(&remote));
    let result: Value = serde_json::from_slice(&remote.stdout).unwrap();
    assert_eq!(result["content"][0]["text"], "configured");
    assert!(!printed(&remote).contains(TOKEN), "{}", printed(&remote));

    // A secret `${VAR}` filled into the URL: the report names the server, never its URL.
    for json in [false, true] {
        let mut args = vec![
            "check",
            "--no-server-tests",
            "--config",
            config.path(),
            "--server",
            "keyed",
        ];
        if json {
            args.push("--json");
        }
        let keyed = run(&args, &env);
        assert!(!printed(&keyed).contains(TOKEN), "{}", printed(&keyed));
        assert!(
            printed(&keyed).contains("server `keyed` of "),
            "{}",
            printed(&keyed)
        );
    }

    // The header's variable unset: said before anything is sent.
    let unset = run(
        &["list", "--config", config.path(), "--server", "remote"],
        &[],
    );
    assert_eq!(unset.status.code(), Some(2), "{}", printed(&unset));
    assert!(
        printed(&unset).contains("`${CONFIG_TEST_TOKEN}` is not set"),
        "{}",
        printed(&unset)
    );
}

#[test]
fn a_config_file_that_does_not_name_the_server_is_a_usage_error() {
    let config = ConfigFile::new(servers("http://127.0.0.1:1/mcp"));
    for (args, says) in [
        (
            vec!["list", "--config", config.path()],
            "the file has several servers; choose one with --server: keyed, local, remote",
        ),
        (
            vec!["list", "--config", config.path(), "--server", "nope"],
            "no server `nope`; the file has: keyed, local, remote",
        ),
        (
            vec!["list", "--config", "/nonexistent/mcp.json"],
            "could not read the config file /nonexistent/mcp.json",
        ),
        (
            vec!["list", "--server", "local", "http://127.0.0.1:1/mcp"],
            "--config",
        ),
        (
            vec!["list", "--config", config.path(), "http://127.0.0.1:1/mcp"],
            "cannot be used with",
        ),
    ] {
        let output = run(&args, &[]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            printed(&output)
        );
        assert!(
            printed(&output).contains(says),
            "{args:?}: {}",
            printed(&output)
        );
    }
}

#[mcp_test(server = service(CompanionServer::new()), timeout = "60s")]
async fn the_companion_connects_to_a_server_of_a_config_file(client: McpClient) {
    let remote = example_with_token();
    let config = ConfigFile::new(json!({
        "local": { "command": example_server_binary() },
        "remote": { "url": remote, "headers": { "Authorization": format!("Bearer {TOKEN}") } }
    }));
    let local = ok(
        &client,
        "connect_to_server",
        json!({"config": config.path(), "server": "local", "name": "local"}),
    )
    .await;
    assert_eq!(local["connection"]["transport"], "stdio", "{local:#}");
    let remote_answer = ok(
        &client,
        "connect_to_server",
        json!({"config": config.path(), "server": "remote", "name": "remote"}),
    )
    .await;
    assert_eq!(
        remote_answer["connection"]["transport"], "streaming-http",
        "{remote_answer:#}"
    );
    assert!(
        !remote_answer.to_string().contains(TOKEN),
        "{remote_answer:#}"
    );
    assert_eq!(
        remote_answer["connection"]["server_url"],
        format!("server `remote` of {}", config.path()),
        "{remote_answer:#}"
    );
    let echoed = ok(
        &client,
        "call_tool",
        json!({"connection": "remote", "name": "echo", "arguments": {"message": "hi"}}),
    )
    .await;
    assert_eq!(
        echoed["tool_call"]["result"]["content"][0]["text"], "hi",
        "{echoed:#}"
    );

    let missing = fails(
        &client,
        "connect_to_server",
        json!({"config": config.path(), "server": "nope"}),
        "invalid_arguments",
    )
    .await;
    assert!(
        missing
            .to_string()
            .contains("no server `nope`; the file has: local, remote"),
        "{missing:#}"
    );
    fails(
        &client,
        "connect_to_server",
        json!({"config": config.path(), "url": remote}),
        "invalid_arguments",
    )
    .await;
}
