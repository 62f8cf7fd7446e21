//! The fault-injection suite: misbehaving servers make typed errors, within the timeout,
//! and leave nothing running.
//!
//! The misbehaving server is `fault-server` (this package's binary, `src/faults/`): a real
//! rmcp server whose tools misbehave on request, with faults injected below rmcp (stdio lines,
//! HTTP responses) on the command line.

// `#[mcp_test]` bodies here take `_client`-style parameters: the macro must not turn them
// into identifiers that trip a lint.
#![deny(warnings)]

mod support;

mod calls;
mod handshake;
mod http;
mod mcp_test;
mod revision_2026;
mod stdio;
mod throttled;
mod transport_checks;
mod wire_schema;
