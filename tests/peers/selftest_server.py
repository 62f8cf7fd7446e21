"""A small MCP server over stdio, written against the wire protocol with the standard library
only, so it can send what SDKs will not: tools with `testMetadata` (the `mcp.test.*`
convention), and malformed metadata and results.

    python3 selftest_server.py            # the mcp.test.* suite below, plus an ordinary tool
    python3 selftest_server.py --broken   # a server that breaks the protocol checks
    python3 selftest_server.py --answers-anything   # answers any unknown method with {}
    python3 selftest_server.py --hang     # answers initialize, then nothing
    python3 selftest_server.py --incomplete   # a suite without mcp.test.protocol
    python3 selftest_server.py --strays   # passing tests named against the convention
    python3 selftest_server.py --failing-priority N   # one failing test of priority N (1-3)

Its `mcp.test.*` tools: two that pass (one needs an `echo` argument), one that fails, one
whose checks were all skipped, one slower than its own timeout, one with malformed
`testMetadata`, one whose result is not a TestResult, and one that answers with a tool error.
With `--incomplete`, only `mcp.test.capabilities` and one whose TestResult has no
`duration`: the convention's other required test, `mcp.test.protocol`, is missing.
With `--failing-priority N`, the two required tests, which pass, and `mcp.test.tools.trim`
of priority N, which fails; no other tool, and `mcp.test.protocol` refuses an `echo` that is
not a string with -32602, so that the protocol checks all pass.
"""

import json
import sys
import threading
import time

PROTOCOL = "2025-11-25"
OUT = threading.Lock()


def send(message):
    with OUT:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def text(payload, is_error=False):
    body = payload if isinstance(payload, str) else json.dumps(payload)
    result = {"content": [{"type": "text", "text": body}], "isError": is_error}
    # Structured content is a JSON object (2025-11-25's schema; `wire.schema` holds it).
    if isinstance(payload, dict):
        result["structuredContent"] = payload
    return result


def test_tool(name, description, category, priority, timeout, properties=None, required=None):
    schema = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return {
        "name": name,
        "description": description,
        "inputSchema": schema,
        "testMetadata": {"category": category, "priority": priority, "timeout": timeout},
    }


TOOLS = [
    {
        "name": "echo",
        "description": "Echoes `message`.",
        "inputSchema": {
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
        },
    },
    test_tool("mcp.test.tools.failing", "A tool check that fails.", "tools", 2, 5000),
    test_tool("mcp.test.capabilities", "The server's capabilities are consistent.", "protocol", 1, 5000),
    test_tool(
        "mcp.test.protocol",
        "Echoes `echo` back through the protocol.",
        "protocol",
        1,
        5000,
        {"echo": {"type": "string"}},
        ["echo"],
    ),
    test_tool("mcp.test.resources.skipped", "Resource checks (none apply).", "resources", 3, 5000),
    test_tool("mcp.test.custom.slow", "Takes longer than its timeout.", "custom", 2, 200),
    {
        "name": "mcp.test.custom.bad_metadata",
        "description": "Malformed testMetadata.",
        "inputSchema": {"type": "object"},
        "testMetadata": {"category": 7, "priority": "high", "timeout": -1},
    },
    test_tool("mcp.test.custom.bad_result", "Answers with something that is not a TestResult.", "custom", 3, 5000),
    test_tool("mcp.test.custom.tool_error", "Answers with isError.", "custom", 3, 5000),
]

# --incomplete: a suite that lacks one of the convention's two required tests.
INCOMPLETE_TOOLS = [tool for tool in TOOLS if tool["name"] in ("echo", "mcp.test.capabilities")] + [
    test_tool("mcp.test.tools.no_duration", "Passes, but its TestResult has no duration.", "tools", 2, 5000),
]


# --strays: the required tests, and two that pass but stray from the convention's naming: a
# name not in lowercase dotted words, and a namespace (`resources`) that is not the category.
STRAY_TOOLS = [tool for tool in TOOLS if tool["name"] in ("echo", "mcp.test.capabilities", "mcp.test.protocol")] + [
    test_tool("mcp.test.Tools.Echo", "Echo answers (a name of another form).", "tools", 2, 5000),
    test_tool("mcp.test.resources.echo", "Echo answers (under another category's namespace).", "tools", 2, 5000),
]


def priority_tools():
    """--failing-priority N: the required tests, and one of priority N that fails."""
    required = [tool for tool in TOOLS if tool["name"] in ("mcp.test.capabilities", "mcp.test.protocol")]
    trim = test_tool("mcp.test.tools.trim", "Echo trims whitespace.", "tools", FAILING_PRIORITY, 5000)
    return required + [trim]


def listed_tools():
    if FAILING_PRIORITY is not None:
        return priority_tools()
    if STRAYS:
        return STRAY_TOOLS
    return INCOMPLETE_TOOLS if INCOMPLETE else TOOLS


def call_tool(name, arguments):
    started = time.monotonic()

    def done(success, message, passed=(), failed=(), skipped=()):
        return text(
            {
                "success": success,
                "message": message,
                "details": {"passed": list(passed), "failed": list(failed), "skipped": list(skipped)},
                "duration": round((time.monotonic() - started) * 1000, 3),
            }
        )

    if name not in {tool["name"] for tool in listed_tools()}:
        return None
    if name == "echo":
        return text(arguments.get("message", ""))
    if name == "mcp.test.capabilities":
        return done(True, "tools capability works", passed=["tools/list answers", "tools/call answers"])
    if name == "mcp.test.protocol":
        echoed = arguments.get("echo")
        if not isinstance(echoed, str):
            return done(False, "no echo argument", failed=["echo is a string"])
        return done(True, f"echoed {echoed!r}", passed=["echo round trip"])
    if name == "mcp.test.tools.failing":
        return done(False, "1 of 2 checks failed", passed=["echo answers"], failed=["echo trims whitespace"])
    if name == "mcp.test.resources.skipped":
        return done(True, "no resources to check", skipped=["resources/list", "resources/read"])
    if name == "mcp.test.custom.slow":
        time.sleep(3)
        return done(True, "finally")
    if name == "mcp.test.custom.bad_metadata":
        return done(True, "ran despite its metadata", passed=["ran"])
    if name == "mcp.test.custom.bad_result":
        return text("All good!")
    if name == "mcp.test.custom.tool_error":
        return text("the test harness inside the server crashed", is_error=True)
    if name in ("mcp.test.Tools.Echo", "mcp.test.resources.echo"):
        return done(True, "echo answers", passed=["echo answers"])
    if name == "mcp.test.tools.trim":
        return done(False, "echo kept the whitespace", passed=["echo answers"], failed=["echo trims whitespace"])
    if name == "mcp.test.tools.no_duration":
        return text({"success": True, "message": "echo answers", "details": {"passed": ["echo answers"]}})
    return None


# --broken: each of these breaks one protocol check, for a reason the check must name.
BROKEN_TOOLS = [
    {"name": "good", "description": "Fine.", "inputSchema": {"type": "object"}},
    {"name": "good", "description": "The same name again.", "inputSchema": {"type": "object"}},
    {"name": "has space", "description": "Not a valid name.", "inputSchema": {"type": "object"}},
    {"name": "bad_schema", "description": "Its schema is not one.", "inputSchema": {"type": "objekt"}},
    {
        "name": "loose",
        "description": "Requires `count` but accepts anything.",
        "inputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
    },
    {
        "name": "shaped",
        "description": "Promises an integer `n`, returns a string.",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    },
]


def handle_broken(message):
    method = message.get("method")
    ident = message.get("id")
    if ident is None:
        return
    params = message.get("params") or {}

    def reply(result):
        send({"jsonrpc": "2.0", "id": ident, "result": result})

    def error(code, text):
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": text}})

    if method == "initialize":
        reply({
            "protocolVersion": PROTOCOL,
            # Prompts are advertised; their listing loops.
            "capabilities": {"tools": {}, "resources": {}, "prompts": {}},
            "serverInfo": {"name": "broken-server", "version": "0.0.1"},
        })
    elif method == "ping":
        reply({})
    elif method == "tools/list":
        reply({"tools": BROKEN_TOOLS})
    elif method == "tools/call":
        name = params.get("name")
        if name == "shaped":
            reply(text({"n": "one"}))
        elif name in {tool["name"] for tool in BROKEN_TOOLS}:
            reply(text("ok"))
        else:
            # Wrong: an unknown tool is a protocol error (-32602), not a tool error.
            reply(text(f"no tool {name}", is_error=True))
    elif method == "resources/list":
        reply({"resources": []})
    elif method == "resources/read":
        # Wrong: an unknown resource is -32002.
        error(-32602, "no such resource")
    elif method == "prompts/list":
        reply({"prompts": [], "nextCursor": "again"})
    else:
        # Wrong: an unknown method is -32601.
        error(-32603, f"cannot handle {method}")


def handle(message):
    if HANG and message.get("method") != "initialize":
        return
    if BROKEN:
        return handle_broken(message)
    method = message.get("method")
    ident = message.get("id")
    if ident is None:
        return  # a notification
    params = message.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": PROTOCOL,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "selftest-server", "version": "1.0.0"},
        }})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": ident, "result": {}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": listed_tools()}})
    elif method == "tools/call":
        arguments = params.get("arguments") or {}
        if FAILING_PRIORITY is not None and params.get("name") == "mcp.test.protocol" and not isinstance(arguments.get("echo"), str):
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": "invalid arguments: `echo` must be a string"}})
            return
        result = call_tool(params.get("name"), arguments)
        if result is None:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32602, "message": f"Unknown tool: {params.get('name')}"}})
        else:
            send({"jsonrpc": "2.0", "id": ident, "result": result})
    elif ANSWERS_ANYTHING:
        # Wrong: an unknown method is -32601, not an empty result.
        send({"jsonrpc": "2.0", "id": ident, "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"Method not found: {method}"}})


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        # Each request on a thread of its own, so a slow test does not hold up the next.
        threading.Thread(target=handle, args=(message,), daemon=True).start()


BROKEN = "--broken" in sys.argv[1:]
HANG = "--hang" in sys.argv[1:]
ANSWERS_ANYTHING = "--answers-anything" in sys.argv[1:]
INCOMPLETE = "--incomplete" in sys.argv[1:]
STRAYS = "--strays" in sys.argv[1:]
FAILING_PRIORITY = (
    int(sys.argv[sys.argv.index("--failing-priority") + 1]) if "--failing-priority" in sys.argv[1:] else None
)

if __name__ == "__main__":
    main()
