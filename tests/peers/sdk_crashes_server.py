"""A server on the Python SDK's high-level `MCPServer` (PyPI `mcp`, pinned in
requirements.txt) whose one buggy tool crashes on some valid input. `MCPServer` answers the
crash as a tool error, `Error executing tool first_word`, and logs the traceback on stderr:
the connection lives on, which is why a fuzzer that only watches for dropped connections and
JSON-RPC errors misses it.

    python sdk_crashes_server.py            # stdio

- `first_word(text)`: the first word, upper-cased; crashes (IndexError) on a text with no
  word (empty, or only spaces): the planted bug.
- `shout(text)`: the text upper-cased. Correct.
- `divide(a, b)`: a / b; a deliberate `ToolError` when b is 0, which is no crash.
"""

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer(name="sdk-crashes-python", version="1.0.0")


@server.tool(description="The first word of the text, upper-cased.")
def first_word(text: str) -> str:
    return text.split()[0].upper()


@server.tool(description="The text, upper-cased.")
def shout(text: str) -> str:
    return text.upper()


@server.tool(description="a divided by b; dividing by zero is refused.")
def divide(a: float, b: float) -> str:
    if b == 0:
        raise ToolError("division by zero is not allowed")
    return str(a / b)


if __name__ == "__main__":
    server.run()
