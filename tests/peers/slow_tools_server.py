"""A server on the Python SDK's high-level `MCPServer` (PyPI `mcp`, pinned in
requirements.txt) whose tools take longer than a fuzzer's per-call timeout, some by design
and some because they hang: the fuzzer's hang oracle must fail only the ones that hang.

    python slow_tools_server.py            # stdio

- `long_job(duration, steps=5)`: sleeps `duration / steps` seconds before each of `steps`
  progress notifications, as server-everything's `trigger-long-running-operation` does.
  Slow by design, and it says so: a long `duration` answers no sooner than a per-call timeout
  and sends no progress within it either, but it is no hang. Correct.
- `stuck_search(query)`: never answers, and sends no progress: the planted hang.
- `fetch_page(url)`: open-world (`openWorldHint: true`); its first call waits on an outside
  system that does not answer (it sleeps for a minute), every later call answers at once, as a
  fetch whose first DNS lookup timed out does. Correct.
- `fetch_unreachable(url)`: open-world, and never answers, alone or not: a hang.
- `slow_lookup(key)`: every tenth call takes 0.6 s (a cache miss), every other answers at once:
  slow now and then, always within a 1 s timeout. Correct.
"""

import asyncio
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ToolAnnotations
from pydantic import Field

server = MCPServer(name="slow-tools-python", version="1.0.0")

OPEN_WORLD = ToolAnnotations(open_world_hint=True)

fetches = 0
lookups = 0


@server.tool(description="Runs for `duration` seconds, reporting progress at each of `steps`.")
async def long_job(
    ctx: Context,
    duration: Annotated[float, Field(ge=0)],
    steps: Annotated[int, Field(ge=1, le=100)] = 5,
) -> str:
    for step in range(1, steps + 1):
        await asyncio.sleep(duration / steps)
        await ctx.report_progress(step, steps)
    return f"ran {duration} s in {steps} steps"


@server.tool(description="Searches for the query.")
async def stuck_search(query: str) -> str:
    await asyncio.Event().wait()
    return query


@server.tool(description="Fetches the page at the URL.", annotations=OPEN_WORLD)
async def fetch_page(url: str) -> str:
    global fetches
    fetches += 1
    if fetches == 1:
        await asyncio.sleep(60)
    return f"fetched {url}"


@server.tool(description="Looks the key up.")
async def slow_lookup(key: str) -> str:
    global lookups
    lookups += 1
    if lookups % 10 == 0:
        await asyncio.sleep(0.6)
    return f"found {key}"


@server.tool(description="Fetches the page at the URL, from a host never reached.", annotations=OPEN_WORLD)
async def fetch_unreachable(url: str) -> str:
    await asyncio.Event().wait()
    return url


if __name__ == "__main__":
    server.run()
