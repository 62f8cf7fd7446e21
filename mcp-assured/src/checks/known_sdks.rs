//! Deviations that come from the SDK a server is built on, not from its author's code: told
//! by the shape of the answer, so that a report says whom to tell.

/// Who gives an unknown tool a tool error (`isError`) whose text is `text`, if an SDK is known
/// to answer so.
pub(super) fn unknown_tool_as_tool_error(text: &str) -> Option<&'static str> {
    if text.starts_with("MCP error -32602: Tool ") && text.ends_with(" not found") {
        Some(
            "the TypeScript SDK's McpServer answers so (@modelcontextprotocol/sdk 1.x, seen in \
             1.32): report it to modelcontextprotocol/typescript-sdk, not to the server's author",
        )
    } else if text.starts_with("Unknown tool: ") {
        Some(
            "the Python SDK's MCPServer (FastMCP) answers so (mcp 1.x and 2.x, seen in 2.3): \
             report it to modelcontextprotocol/python-sdk, not to the server's author",
        )
    } else {
        None
    }
}

/// Who answers a failure with `error`'s JSON-RPC code, if an SDK is known to.
pub(super) fn behind_error(error: &crate::error::Error) -> Option<&'static str> {
    error.code().and_then(|code| error_code(code.into()))
}

/// Who answers a failure with JSON-RPC error code `code`, if an SDK is known to.
fn error_code(code: i64) -> Option<&'static str> {
    (code == 0).then_some(
        "error code 0 is what the Python SDK's low-level server answers for an exception raised \
         in a handler (mcp 1.x and 2.x, seen in 2.3): report it to \
         modelcontextprotocol/python-sdk, or raise an McpError with a code in the handler",
    )
}

/// `message`, with what the SDK behind it is, when one is known.
pub(super) fn noted(message: String, sdk: Option<&str>) -> String {
    match sdk {
        Some(sdk) => format!("{message} ({sdk})"),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sdks_answers_are_told_apart_from_others() {
        let typescript = "MCP error -32602: Tool mcp-assured.no-such-tool not found";
        assert!(
            unknown_tool_as_tool_error(typescript)
                .unwrap()
                .contains("TypeScript SDK")
        );
        let python = "Unknown tool: mcp-assured.no-such-tool";
        assert!(
            unknown_tool_as_tool_error(python)
                .unwrap()
                .contains("Python SDK")
        );
        assert_eq!(unknown_tool_as_tool_error("no such tool"), None);
        assert!(error_code(0).is_some());
        assert_eq!(error_code(-32603), None);
        assert_eq!(noted("m".into(), None), "m");
        assert_eq!(noted("m".into(), Some("sdk")), "m (sdk)");
    }
}
