//! mcp-assured's client against the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned in `tests/peers/conformance/`): one test per
//! client scenario of the suite, named after it (`auth/metadata-default` is
//! `auth_metadata_default`).
//!
//! Each test runs `<node22> <suite> client --command <conformance-client> --scenario <name>`.
//! The suite serves the scenario, runs `examples/conformance-client` against it and judges
//! what it saw; the test passes when the suite passes the scenario with at least one check.
//!
//! The `auth_*` tests need the client's OAuth support. The suite's server mode, beside our
//! checks, is `conformance_server.rs`: a binary of its own, so that its load never meets
//! these scenarios' timing (`sse-retry` takes the first GET after a call for the reconnect).

mod conformance_suite;

use std::process::Command;
use std::time::Instant;

use conformance_suite::{Suite, TIMEOUT, without_colors};
use mcp_assured_tests::{peers, workspace_binary};

macro_rules! scenarios {
    ($($test:ident => $scenario:literal,)*) => {
        $(
            #[test]
            fn $test() {
                passes($scenario);
            }
        )*
    };
}

scenarios! {
    // The core protocol.
    initialize => "initialize",
    tools_call => "tools_call",
    elicitation_sep1034_client_defaults => "elicitation-sep1034-client-defaults",
    sse_retry => "sse-retry",

    // Authorization, as the 2025-11-25 spec has it.
    auth_metadata_default => "auth/metadata-default",
    auth_metadata_var1 => "auth/metadata-var1",
    auth_metadata_var2 => "auth/metadata-var2",
    auth_metadata_var3 => "auth/metadata-var3",
    auth_basic_cimd => "auth/basic-cimd",
    auth_scope_from_www_authenticate => "auth/scope-from-www-authenticate",
    auth_scope_from_scopes_supported => "auth/scope-from-scopes-supported",
    auth_scope_omitted_when_undefined => "auth/scope-omitted-when-undefined",
    auth_scope_step_up => "auth/scope-step-up",
    auth_scope_retry_limit => "auth/scope-retry-limit",
    auth_token_endpoint_auth_basic => "auth/token-endpoint-auth-basic",
    auth_token_endpoint_auth_post => "auth/token-endpoint-auth-post",
    auth_token_endpoint_auth_none => "auth/token-endpoint-auth-none",
    auth_pre_registration => "auth/pre-registration",

    // Authorization servers of the 2025-03-26 spec.
    auth_2025_03_26_oauth_metadata_backcompat => "auth/2025-03-26-oauth-metadata-backcompat",
    auth_2025_03_26_oauth_endpoint_fallback => "auth/2025-03-26-oauth-endpoint-fallback",
}

/// Runs the suite on `scenario` and asserts that it passed, with at least one check passed:
/// the suite passes `initialize` on a client that sends nothing ("Passed: 0/0").
#[track_caller]
fn passes(scenario: &str) {
    let node = peers::node22();
    let suite = peers::conformance_suite();
    let client = workspace_binary("conformance-client", "conformance-client");
    // The suite splits `--command` on spaces.
    assert!(
        !client.to_string_lossy().contains(' '),
        "the conformance suite cannot run a client whose path has a space: {}",
        client.display()
    );

    let started = Instant::now();
    let run = Suite::start(
        Command::new(&node)
            .arg(&suite)
            .arg("client")
            .arg("--command")
            .arg(&client)
            .arg("--scenario")
            .arg(scenario),
    );
    let (status, output) = run.finish(TIMEOUT);
    let output = without_colors(&output);
    let shown = format!(
        "--- {} {} client --command {} --scenario {scenario} ({:.1} s) ---\n{output}",
        node.display(),
        suite.display(),
        client.display(),
        started.elapsed().as_secs_f64()
    );

    let Some(status) = status else {
        panic!("The conformance suite did not finish `{scenario}` within {TIMEOUT:?}.\n{shown}");
    };
    assert!(
        status.success(),
        "The conformance suite failed `{scenario}` ({status}).\n{shown}"
    );
    match checks_passed(&output) {
        Some(passed) if passed >= 1 => {}
        Some(_) => panic!(
            "The conformance suite passed `{scenario}` without a single check passing: the \
             client did not do what the scenario tests.\n{shown}"
        ),
        None => panic!("No `Passed: N/M` line in the conformance suite's output.\n{shown}"),
    }
}

/// N of the suite's `Passed: N/M, ...` line.
fn checks_passed(output: &str) -> Option<u32> {
    output
        .lines()
        .find_map(|line| line.trim().strip_prefix("Passed: "))
        .and_then(|counts| counts.split('/').next())
        .and_then(|passed| passed.parse().ok())
}
