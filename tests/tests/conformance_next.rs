//! mcp-assured's client against the newest line of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance` 0.2.0-alpha, pinned in
//! `tests/peers/conformance-next/`), on protocol 2026-07-28: one test per client scenario of
//! the suite's 2026-07-28 requirement set (`conformance list --client --requirements
//! 2026-07-28`), named after it, plus `json-schema-2020-12-preservation`, which the set runs
//! without scoring it.
//!
//! Each test runs `<node22> <suite> client --command <conformance-client> --scenario <name>
//! --spec-version 2026-07-28`: the suite serves the scenario on the stateless 2026-07-28 wire
//! (no `initialize`; `server/discover`, and the version and `_meta` on every request), runs
//! `examples/conformance-client` against it and judges what it saw. The test passes when the
//! suite passes the scenario with at least one check; in client mode a WARNING fails a
//! scenario as a FAILURE does.
//!
//! The scenarios of protocol 2025-11-25 run against the suite the project pins
//! (`conformance.rs`).

#[path = "conformance_suite/client.rs"]
#[macro_use]
mod conformance_client;
mod conformance_suite;

use mcp_assured_tests::peers;

scenarios! {
    // The core protocol: a tool call, and the per-request metadata (version header, `_meta`,
    // and a retry at a version the server lists after -32022).
    tools_call => "tools_call",
    request_metadata => "request-metadata",

    // Multi-round-trip requests (SEP-2322): `requestState` echoed, a new id per retry.
    sep_2322_client_request_state => "sep-2322-client-request-state",

    // HTTP headers (SEP-2243): `Mcp-Method` and `Mcp-Name`, `Mcp-Param-*` from `x-mcp-header`
    // annotations, and tools whose annotations are invalid left out.
    http_standard_headers => "http-standard-headers",
    http_custom_headers => "http-custom-headers",
    http_invalid_tool_headers => "http-invalid-tool-headers",

    // JSON Schema (SEP-2106): no network `$ref` fetched; and, not scored, a 2020-12 schema
    // kept keyword for keyword.
    json_schema_ref_no_deref => "json-schema-ref-no-deref",
    json_schema_2020_12_preservation => "json-schema-2020-12-preservation",

    // Authorization, as the 2025-11-25 spec has it, on the 2026-07-28 wire.
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

    // Authorization as 2026-07-28 adds to it: the resource of the metadata checked, offline
    // access, a moved authorization server, and the issuer checked (RFC 9207).
    auth_resource_mismatch => "auth/resource-mismatch",
    auth_offline_access_scope => "auth/offline-access-scope",
    auth_offline_access_not_supported => "auth/offline-access-not-supported",
    auth_authorization_server_migration => "auth/authorization-server-migration",
    auth_iss_supported => "auth/iss-supported",
    auth_iss_not_advertised => "auth/iss-not-advertised",
    auth_iss_supported_missing => "auth/iss-supported-missing",
    auth_iss_wrong_issuer => "auth/iss-wrong-issuer",
    auth_iss_unexpected => "auth/iss-unexpected",
    auth_iss_normalized => "auth/iss-normalized",
    auth_metadata_issuer_mismatch => "auth/metadata-issuer-mismatch",
}

/// Runs the suite on `scenario` at 2026-07-28 and asserts that it passed, with at least one
/// check passed.
#[track_caller]
fn passes(scenario: &str) {
    conformance_client::passes(
        &peers::node22_next(),
        &peers::conformance_suite_next(),
        scenario,
        &["--spec-version", "2026-07-28"],
    );
}
