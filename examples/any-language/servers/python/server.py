"""A unit converter MCP server, written with the official Python SDK (PyPI `mcp`).

It stands for your own Python server: nothing in it knows about mcp-assured.

    python server.py                                       # stdio
    python server.py --transport streamable-http --port N  # http://127.0.0.1:N/mcp
"""

from __future__ import annotations

import argparse

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

# Metres per unit, for lengths.
LENGTHS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048, "mi": 1609.344}

server = MCPServer(
    name="units",
    version="1.2.0",
    instructions="Converts lengths between metric and imperial units.",
)


class Conversion(BaseModel):
    """The structured result of `convert`."""

    value: float = Field(description="the converted value, rounded to 6 decimals")
    unit: str = Field(description="the unit converted to")


@server.tool(description="Convert a length from one unit to another (mm, cm, m, km, in, ft, mi).")
def convert(value: float, from_unit: str, to_unit: str) -> Conversion:
    for unit in (from_unit, to_unit):
        if unit not in LENGTHS:
            raise ToolError(f"unknown unit {unit!r}; known units: {', '.join(LENGTHS)}")
    return Conversion(value=round(value * LENGTHS[from_unit] / LENGTHS[to_unit], 6), unit=to_unit)


@server.resource("units://lengths", name="lengths", description="The length units and their size in metres.", mime_type="text/plain")
def lengths() -> str:
    return "\n".join(f"{unit} = {metres} m" for unit, metres in LENGTHS.items())


@server.prompt(description="Ask for a conversion explained step by step.")
def explain(value: str, from_unit: str, to_unit: str) -> str:
    return f"Convert {value} {from_unit} to {to_unit}, and explain each step of the calculation."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if args.transport == "stdio":
        server.run()
    else:
        server.run(args.transport, host="127.0.0.1", port=args.port)


if __name__ == "__main__":
    main()
