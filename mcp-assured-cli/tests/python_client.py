"""Drives `mcp-assured serve` with the official Python MCP SDK client.

    python python_client.py <mcp-assured binary> <stdio MCP server to test>

Initializes, lists the companion's tools, has it connect to the server and call its `echo`
tool, and prints what came back as one JSON object.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(binary: str, target: str) -> None:
    params = StdioServerParameters(command=binary, args=["serve"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tools = await session.list_tools()
            connected = await session.call_tool("connect_to_server", {"command": target})
            called = await session.call_tool(
                "call_tool", {"name": "echo", "arguments": {"message": "from python"}}
            )
            unknown = await session.call_tool("read_resource", {"uri": "example://nope"})
            print(
                json.dumps(
                    {
                        "server": init.server_info.name,
                        "tools": [tool.name for tool in tools.tools],
                        "connected": connected.structured_content,
                        "called": called.structured_content,
                        "called_is_error": called.is_error,
                        "unknown": unknown.structured_content,
                        "unknown_is_error": unknown.is_error,
                    }
                )
            )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
