//! mcp-assured (placeholder while the client is written).
