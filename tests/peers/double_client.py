"""Drives an mcp-assured MCP double with the official Python MCP SDK client.

    python double_client.py stdio <program> <args...>
    python double_client.py http <url>
    python double_client.py sse <url>

Initializes, lists the tools, calls `search` with {"query": "rust"} and `missing` (which no
mock answers), and prints what came back as one JSON object.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


async def drive(read, write) -> dict:
    async with ClientSession(read, write) as session:
        init = await session.initialize()
        tools = await session.list_tools()
        found = await session.call_tool("search", {"query": "rust"})
        try:
            await session.call_tool("missing", {})
            missing = "answered"
        except Exception as error:  # the double refuses it with a JSON-RPC error
            missing = str(error)
        return {
            "server": init.server_info.name,
            "protocol": init.protocol_version,
            "tools": [tool.name for tool in tools.tools],
            "found": found.structured_content,
            "missing": missing,
        }


async def main(face: str, target: list[str]) -> None:
    if face == "stdio":
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
