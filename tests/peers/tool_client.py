"""Lists a server's tools and calls one with the official Python MCP SDK's documented
client, `mcp.Client`, on its default negotiation (`server/discover` first, so 2026-07-28
with a server that speaks it; every result validated against the revision's types).

    python tool_client.py stdio TOOL ARGUMENTS_JSON <program> <args...>
    python tool_client.py http TOOL ARGUMENTS_JSON <url>

Prints {"protocol", "tools", "result"} as one JSON object, the result as the SDK read it.
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def main(face: str, tool: str, arguments: str, target: list[str]) -> None:
    if face == "stdio":
        server = StdioServerParameters(command=target[0], args=target[1:])
    else:
        server = target[0]
    async with Client(server) as client:
        tools = await client.list_tools()
        result = await client.call_tool(tool, json.loads(arguments))
        print(
            json.dumps(
                {
                    "protocol": client.protocol_version,
                    "tools": [listed.name for listed in tools.tools],
                    "result": result.model_dump(mode="json", by_alias=True, exclude_none=True),
                }
            )
        )


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
