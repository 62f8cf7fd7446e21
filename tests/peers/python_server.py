"""A small MCP server written with the official Python SDK (PyPI `mcp`, pinned in requirements.txt).

It is a third-party peer for the mcp-assured integration tests: everything on the wire comes
from the SDK, this file only declares tools, resources and prompts with its high-level API.
PYTHON-SERVER.md describes what it serves.

    python python_server.py                                       # stdio (nothing else on stdout)
    python python_server.py --transport streamable-http --port N  # http://127.0.0.1:N/mcp
        [--json-response]                                         # plain JSON bodies, no SSE
    python python_server.py --transport sse --port N              # http://127.0.0.1:N/sse
"""

from __future__ import annotations

import argparse
import platform

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import Annotations, Completion, PromptReference, TextContent
from pydantic import BaseModel, Field

SUMMARY_STYLES = ["brief", "detailed", "bullet-points"]

server = MCPServer(
    name="mcp-assured-python-peer",
    version="1.0.0",
    instructions="Test peer for mcp-assured: echo, arithmetic, a resource, a template and a prompt.",
)


class AddResult(BaseModel):
    """The structured result of `add`."""

    sum: int = Field(description="a + b")


@server.tool(description="Echo the message back.")
def echo(message: str) -> str:
    return message


@server.tool(description="Add two integers; the result is structured.")
def add(a: int, b: int) -> AddResult:
    return AddResult(sum=a + b)


@server.tool(description="Divide a by b; dividing by zero is a tool error.")
def divide(a: float, b: float) -> float:
    if b == 0:
        raise ToolError("division by zero")
    return a / b


@server.tool(description="A text block annotated with priority 0.7: rmcp holds priorities as f32.")
def ranked() -> list[TextContent]:
    return [TextContent(type="text", text="ranked", annotations=Annotations(priority=0.7))]


@server.resource("python://info", name="info", description="About this server.", mime_type="text/plain")
def info() -> str:
    return f"mcp-assured Python peer on Python {platform.python_version()}"


@server.resource(
    "python://greeting/{name}",
    name="greeting",
    description="A greeting for `name`.",
    mime_type="text/plain",
)
def greeting(name: str) -> str:
    return f"Hello, {name}!"


@server.prompt(description="Ask for a summary of `text`, optionally in a given style.")
def summarize(text: str, style: str | None = None) -> str:
    how = f" in a {style} style" if style else ""
    return f"Summarize the following text{how}:\n\n{text}"


@server.completion()
async def complete(ref, argument, context):
    if isinstance(ref, PromptReference) and ref.name == "summarize" and argument.name == "style":
        values = [s for s in SUMMARY_STYLES if s.startswith(argument.value)]
        return Completion(values=values, total=len(values), has_more=False)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", choices=["stdio", "streamable-http", "sse"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--certfile", help="serve HTTPS with this certificate (PEM); needs --keyfile")
    parser.add_argument("--keyfile", help="the certificate's private key (PEM)")
    parser.add_argument(
        "--json-response",
        action="store_true",
        help="streamable HTTP: answer each request with a plain JSON body instead of an SSE stream",
    )
    args = parser.parse_args()
    if args.transport == "stdio":
        server.run()
    elif args.certfile:
        # The SDK's run() has no TLS options; serve its ASGI app with uvicorn, as a deployment does.
        import uvicorn

        app = server.streamable_http_app() if args.transport == "streamable-http" else server.sse_app()
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            ssl_certfile=args.certfile,
            ssl_keyfile=args.keyfile,
            log_level="warning",
        )
    else:
        options = {"json_response": True} if args.json_response else {}
        server.run(args.transport, host=args.host, port=args.port, **options)


if __name__ == "__main__":
    main()
