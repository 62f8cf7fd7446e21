//! `#[mcp_test]`'s compile errors: `tests/ui/` holds each misuse of the attribute beside the
//! error it must give (`tests/ui.rs` runs them with trybuild). Nothing here is published.
