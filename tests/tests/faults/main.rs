//! The fault-injection suite: misbehaving servers make typed errors, within the timeout,
//! and leave nothing running.
//!
//! The misbehaving server is `fault-server` (this package's binary, `src/faults/`): a real
//! rmcp server whose tools misbehave on request, with faults injected below rmcp (stdio lines,
//! HTTP responses) on the command line.

mod support;

mod calls;
mod handshake;
mod http;
mod mcp_test;
mod stdio;
