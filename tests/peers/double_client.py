"""Drives an mcp-assured MCP double with the official Python MCP SDK's clients.

    python double_client.py stdio <program> <args...>
    python double_client.py http <url>
    python double_client.py sse <url>
    python double_client.py client-stdio <program> <args...>
    python double_client.py client-http <url>

The first three go through `ClientSession` and its `initialize()` (the legacy handshake,
2025-11-25); the `client-` ones through `mcp.Client`, the SDK's documented high-level
client, on its default negotiation (`server/discover` first: 2026-07-28 with a server that
speaks it), which validates every result against the revision's types.

Lists the tools, calls `search` with {"query": "rust"} and `missing` (which no mock
answers); with `client-`, also lists resources and prompts, reads `file:///notes.txt` and
gets the prompt `greet`. Prints what came back as one JSON object.
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


async def refused(call) -> str:
    try:
        await call
        return "answered"
    except Exception as error:  # the double refuses it with a JSON-RPC error
        return str(error)


async def drive(read, write) -> dict:
    async with ClientSession(read, write) as session:
        init = await session.initialize()
        tools = await session.list_tools()
        found = await session.call_tool("search", {"query": "rust"})
        return {
            "server": init.server_info.name,
            "protocol": init.protocol_version,
            "tools": [tool.name for tool in tools.tools],
            "found": found.structured_content,
            "missing": await refused(session.call_tool("missing", {})),
        }


async def drive_client(server) -> dict:
    async with Client(server) as client:
        tools = await client.list_tools()
        found = await client.call_tool("search", {"query": "rust"})
        resources = await client.list_resources()
        read = await client.read_resource("file:///notes.txt")
        prompts = await client.list_prompts()
        prompt = await client.get_prompt("greet", {"name": "Ada"})
        return {
            "server": client.server_info.name if client.server_info else None,
            "protocol": client.protocol_version,
            "tools": [tool.name for tool in tools.tools],
            "found": found.structured_content,
            "missing": await refused(client.call_tool("missing", {})),
            "resources": [str(resource.uri) for resource in resources.resources],
            "read": [content.text for content in read.contents],
            "prompts": [prompt.name for prompt in prompts.prompts],
            "prompt": [message.content.text for message in prompt.messages],
        }


async def main(face: str, target: list[str]) -> None:
    if face == "client-stdio":
        report = await drive_client(StdioServerParameters(command=target[0], args=target[1:]))
    elif face == "client-http":
        report = await drive_client(target[0])
    elif face == "stdio":
        params = StdioServerParameters(command=target[0], args=target[1:])
        async with stdio_client(params) as (read, write):
            report = await drive(read, write)
    elif face == "sse":
        async with sse_client(target[0]) as (read, write):
            report = await drive(read, write)
    else:
        async with streamable_http_client(target[0]) as streams:
            read, write = streams[0], streams[1]
            report = await drive(read, write)
    print(json.dumps(report))


asyncio.run(main(sys.argv[1], sys.argv[2:]))
