//! Example MCP servers (placeholder while the example server is written).
