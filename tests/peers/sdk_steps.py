"""Drives any MCP server through a list of steps with the official Python MCP SDK's clients,
so a test says what to do and reads what the SDK made of each answer.

    python sdk_steps.py CLIENT STEPS_JSON stdio <program> <args...>
    python sdk_steps.py CLIENT STEPS_JSON http <url>
    python sdk_steps.py CLIENT STEPS_JSON sse <url>      # session only

CLIENT is `client` for `mcp.Client`, the SDK's documented high-level client, on its default
negotiation (`server/discover` first: 2026-07-28 with a server that speaks it), or `session`
for `ClientSession` and its `initialize()` (the legacy handshake, 2025-11-25). Both validate
every result against the negotiated revision's types, so an answer they refuse fails its step.

STEPS_JSON is a list; each step is a list whose first item names it:
  ["list_tools"]  ["list_resources"]  ["list_templates"]  ["list_prompts"]  ["ping"]
  ["call", NAME, ARGUMENTS]  ["read", URI]  ["prompt", NAME, ARGUMENTS]

Prints one JSON object: {"server", "protocol", "steps"}, where each step is what came back
as the SDK read it (a list step: the names, or URIs), or {"error": MESSAGE} when the SDK
raised (a JSON-RPC error, or a result it refused).
"""

import asyncio
import json
import sys

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def dumped(result) -> dict:
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


async def step(peer, action: list):
    match action:
        case ["list_tools"]:
            return [tool.name for tool in (await peer.list_tools()).tools]
        case ["list_resources"]:
            return [str(resource.uri) for resource in (await peer.list_resources()).resources]
        case ["list_templates"]:
            listed = await peer.list_resource_templates()
            return [template.uri_template for template in listed.resource_templates]
        case ["list_prompts"]:
            return [prompt.name for prompt in (await peer.list_prompts()).prompts]
        case ["ping"]:
            await peer.send_ping()
            return "pong"
        case ["call", name, arguments]:
            return dumped(await peer.call_tool(name, arguments))
        case ["read", uri]:
            return dumped(await peer.read_resource(uri))
        case ["prompt", name, arguments]:
            return dumped(await peer.get_prompt(name, arguments))
    raise ValueError(f"unknown step {action!r}")


async def run(peer, steps: list) -> list:
    done = []
    for action in steps:
        try:
            done.append(await step(peer, action))
        except Exception as error:  # a JSON-RPC error, or a result the SDK refused
            done.append({"error": f"{type(error).__name__}: {error}"})
    return done


async def with_client(steps: list, face: str, target: list[str]) -> dict:
    if face == "stdio":
        server = StdioServerParameters(command=target[0], args=target[1:])
    elif face == "http":
        server = target[0]
    else:
        raise ValueError(f"mcp.Client is driven over stdio and http, not {face}")
    async with Client(server) as client:
        done = await run(client, steps)
        return {
            "server": client.server_info.name,
            "protocol": client.protocol_version,
            "steps": done,
        }


async def with_session(steps: list, face: str, target: list[str]) -> dict:
    if face == "stdio":
        streams = stdio_client(StdioServerParameters(command=target[0], args=target[1:]))
    elif face == "http":
        streams = streamable_http_client(target[0])
    else:
        streams = sse_client(target[0])
    async with streams as opened:
        read, write = opened[0], opened[1]
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            done = await run(session, steps)
            return {
                "server": init.server_info.name,
                "protocol": init.protocol_version,
                "steps": done,
            }


async def main(client: str, steps: str, face: str, target: list[str]) -> None:
    drive = with_client if client == "client" else with_session
    print(json.dumps(await drive(json.loads(steps), face, target)))


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
