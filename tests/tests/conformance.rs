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

#[path = "conformance_suite/client.rs"]
#[macro_use]
mod conformance_client;
mod conformance_suite;

use mcp_assured_tests::peers;

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

/// Runs the suite on `scenario` and asserts that it passed, with at least one check passed.
#[track_caller]
fn passes(scenario: &str) {
    conformance_client::passes(&peers::node22(), &peers::conformance_suite(), scenario, &[]);
}
