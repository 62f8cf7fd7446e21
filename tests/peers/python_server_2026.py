"""A Python SDK server (PyPI `mcp`, pinned in requirements.txt) for what only protocol
2026-07-28 has: multi-round-trip requests (SEP-2322: `input_required`, `requestState`,
`inputRequests`) and `subscriptions/listen` (SEP-2575). PYTHON-SERVER.md describes it.

    python python_server_2026.py                                       # stdio
    python python_server_2026.py --transport streamable-http --port N  # http://127.0.0.1:N/mcp
"""

from __future__ import annotations

import argparse

import anyio

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult

server = MCPServer(
    name="mcp-assured-python-2026-peer",
    version="1.0.0",
    instructions="Test peer for mcp-assured: multi-round-trip tools and subscriptions.",
)


@server.resource("file:///counter")
def counter() -> str:
    return "counter"


@server.tool(description="Publish tools/list_changed and an update of file:///counter to listeners.")
async def bump(ctx: Context) -> str:
    await ctx.notify_tools_changed()
    await ctx.notify_resource_updated("file:///counter")
    return "bumped"


@server.tool(description="Answer input_required with a requestState, then complete with what came back.")
async def two_step(ctx: Context) -> str | InputRequiredResult:
    if ctx.request_state is None:
        return InputRequiredResult(request_state="step-1")
    return f"completed with state {ctx.request_state!r}"


@server.tool(description="Ask for a name with an elicitation input request, then greet it.")
async def ask_name(ctx: Context) -> str | InputRequiredResult:
    answers = ctx.input_responses or {}
    if "name" not in answers:
        return InputRequiredResult(
            input_requests={
                "name": ElicitRequest(
                    params=ElicitRequestFormParams(
                        message="Your name?",
                        requested_schema={
                            "type": "object",
                            "properties": {"name": {"type": "string", "default": "Ada"}},
                            "required": ["name"],
                        },
                    )
                )
            },
            request_state="asked",
        )
    answer = answers["name"]
    content = getattr(answer, "content", None) or (answer.get("content") if isinstance(answer, dict) else None)
    return f"hello {content['name']}"


ENDLESS_CALLS: list[str] = []


@server.tool(description="Answer input_required every time (after delay_ms): a server that never completes.")
async def endless(ctx: Context, delay_ms: int = 0) -> InputRequiredResult:
    ENDLESS_CALLS.append(f"{ctx.request_id}:{ctx.request_state}")
    await anyio.sleep(delay_ms / 1000)
    return InputRequiredResult(request_state="again")


@server.tool(description="The request id and requestState of every call of `endless`.")
def endless_calls() -> str:
    return " ".join(ENDLESS_CALLS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if args.transport == "stdio":
        server.run()
    else:
        server.run(args.transport, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
