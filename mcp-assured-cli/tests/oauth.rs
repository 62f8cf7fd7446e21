//! `--oauth` on the command line: the example server requires a token its authorization
//! server (a wiremock HTTP backend) issues; `list` gets one headless or by client
//! credentials, and prints neither it nor the secret.

mod support;

use mcp_assured_tests::oauth::{Deployment, TOKEN};
use support::{printed, run};

const SECRET: &str = "cli-client-secret-42";

#[test]
fn list_authorizes_with_oauth_headless_or_by_client_credentials() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let deployment = runtime.block_on(Deployment::compliant());
    let url = deployment.mcp_url.clone();

    let unauthorized = run(&["list", &url], &[]);
    assert_eq!(
        unauthorized.status.code(),
        Some(3),
        "{}",
        printed(&unauthorized)
    );
    assert!(
        printed(&unauthorized).contains("401"),
        "{}",
        printed(&unauthorized)
    );

    for args in [
        vec!["list", "--oauth", &url],
        vec!["list", "--oauth", "--scope", "mcp:tools", &url],
        vec![
            "list",
            "--oauth=client-credentials",
            "--client-id",
            "svc",
            "--client-secret",
            SECRET,
            &url,
        ],
    ] {
        let output = run(&args, &[]);
        let shown = printed(&output);
        assert!(output.status.success(), "{args:?}: {shown}");
        assert!(shown.contains("tools (15):"), "{shown}");
        assert!(!shown.contains(SECRET) && !shown.contains(TOKEN), "{shown}");
    }
    let received = runtime.block_on(deployment.received());
    assert!(
        received.contains(&"GET /authorize".to_owned()),
        "{received:?}"
    );
}

/// A client secret in the environment is for `--oauth`; without it, nothing changes.
#[test]
fn a_client_secret_in_the_environment_does_not_get_in_the_way() {
    let url = "http://127.0.0.1:1/mcp";
    let output = run(&["list", url], &[("MCP_ASSURED_CLIENT_SECRET", "x")]);
    assert!(
        printed(&output).contains("connection refused"),
        "{}",
        printed(&output)
    );
}

#[test]
fn oauth_options_need_oauth_and_client_credentials_need_a_client() {
    let without = run(&["list", "--client-id", "x", "http://127.0.0.1:1/mcp"], &[]);
    assert_eq!(without.status.code(), Some(2));
    assert!(
        printed(&without).contains("--oauth"),
        "{}",
        printed(&without)
    );
    let no_client = run(
        &[
            "list",
            "--oauth=client-credentials",
            "http://127.0.0.1:1/mcp",
        ],
        &[],
    );
    assert_eq!(no_client.status.code(), Some(2));
    assert!(
        printed(&no_client).contains("needs --client-id and --client-secret"),
        "{}",
        printed(&no_client)
    );
}
