"""An MCP server with 2025-11-25 tasks, on the official Python SDK (PyPI `mcp` 1.30.0, pinned in
requirements.txt beside this file: the last SDK line that runs tasks).

A third-party peer for mcp-assured's task tests: the task store, `tasks/get|result|list|cancel`,
the status notifications and the `tasks` capability all come from the SDK; this file declares
tools and what their work does.

    python python_tasks_server.py        # stdio

Tools (`execution.taskSupport` in brackets):
    slow-echo {message}   [optional]  ~1 s, then the message; as a task or not
    wait-for-cancel       [required]  works until cancelled (up to 30 s), checking every 100 ms
    fail-task             [required]  raises after 200 ms: the task fails
    echo {message}        [forbidden] the message, at once
"""

from __future__ import annotations

import warnings

import anyio
import mcp.types as types
from mcp.server.experimental.task_context import ServerTaskContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

# `server.experimental` is deprecated in 1.30, and a warning on stderr is noise in the tests.
warnings.simplefilter("ignore", DeprecationWarning)

server = Server("mcp-assured-python-tasks-peer", version="1.0.0")
server.experimental.enable_tasks()


def declare(name: str, description: str, support: str | None, properties: dict) -> types.Tool:
    return types.Tool(
        name=name,
        description=description,
        inputSchema={"type": "object", "properties": properties, "required": list(properties)},
        execution=types.ToolExecution(taskSupport=support) if support else None,
    )


MESSAGE = {"message": {"type": "string"}}
TOOLS = {
    tool.name: tool
    for tool in [
        declare("slow-echo", "Echo the message after about a second.", "optional", MESSAGE),
        declare("wait-for-cancel", "Work until cancelled.", "required", {}),
        declare("fail-task", "Fail after 200 ms.", "required", {}),
        declare("echo", "Echo the message at once.", None, MESSAGE),
    ]
}


def text(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)])


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return list(TOOLS.values())


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> types.CallToolResult | types.CreateTaskResult:
    context = server.request_context
    # A task where the tool forbids one, or none where it requires one: the SDK raises -32601,
    # which its call_tool decorator turns into an `isError` result.
    context.experimental.validate_for_tool(TOOLS[name])
    if name == "echo":
        return text(arguments["message"])
    if name == "slow-echo":
        if not context.experimental.is_task:
            await anyio.sleep(1)
            return text(arguments["message"])

        async def echo_later(task: ServerTaskContext) -> types.CallToolResult:
            await task.update_status("sleeping for a second")
            await anyio.sleep(1)
            return text(arguments["message"])

        return await context.experimental.run_task(echo_later)
    if name == "wait-for-cancel":

        async def until_cancelled(task: ServerTaskContext) -> types.CallToolResult:
            for tick in range(300):
                await anyio.sleep(0.1)
                # Re-reads the task: that is how the work sees a tasks/cancel. Work that ends
                # after a cancel without noticing makes the SDK 1.30 fail the whole server.
                await task.update_status(f"tick {tick}", notify=False)
                if task.task.status == "cancelled":
                    return text("stopped")
            return text("never cancelled")

        return await context.experimental.run_task(until_cancelled)

    async def boom(task: ServerTaskContext) -> types.CallToolResult:
        await anyio.sleep(0.2)
        raise RuntimeError("boom")

    return await context.experimental.run_task(boom)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
