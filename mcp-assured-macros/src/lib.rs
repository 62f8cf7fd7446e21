//! Procedural macros for [`mcp-assured`](https://docs.rs/mcp-assured).
//!
//! Do not depend on this crate directly: everything here is re-exported, and documented, by
//! `mcp-assured`. The `#[mcp_test]` attribute lands here in a later release.
