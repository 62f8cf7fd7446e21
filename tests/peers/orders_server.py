"""An order desk on the Python SDK's high-level `MCPServer` (PyPI `mcp`, pinned in
requirements.txt), the twin of orders_server.mjs on the TypeScript SDK: the same surface, for
the surface-coverage tests (tests/tests/coverage.rs) to measure what a suite exercised.

    python orders_server.py            # stdio

- `place_order(item, size: small|medium|large, gift: bool = false)`: text; a tool error
  for an empty item.
- `cancel_order(id)`: text for order A1; a tool error for any other id.
- `track_order(id, verbose: bool = false)`: text.
- `quote(item)`: structured `{price}` (an output schema); a tool error for an item not on the
  menu (tea, cake).
- prompt `order_summary(id)`; resource `orders://recent`; template `orders://{id}`.
"""

from typing import Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

PRICES = {"tea": 2.5, "cake": 4.0}

server = MCPServer(name="orders-python", version="1.0.0")


class Quote(BaseModel):
    price: float


@server.tool(description="Place an order for an item in a size, wrapped as a gift or not.")
def place_order(item: str, size: Literal["small", "medium", "large"], gift: bool = False) -> str:
    if not item:
        raise ToolError("an order needs an item")
    return f"ordered a {size} {item}" + (" as a gift" if gift else "")


@server.tool(description="Cancel an order by its id.")
def cancel_order(id: str) -> str:
    if id != "A1":
        raise ToolError(f"no order {id}")
    return "cancelled A1"


@server.tool(description="Where an order is.")
def track_order(id: str, verbose: bool = False) -> str:
    return f"{id} is on its way" + (" (left the kitchen at noon)" if verbose else "")


@server.tool(description="The price of an item.")
def quote(item: str) -> Quote:
    if item not in PRICES:
        raise ToolError(f"{item} is not on the menu")
    return Quote(price=PRICES[item])


@server.prompt(description="Ask for a summary of an order.")
def order_summary(id: str) -> str:
    return f"Summarise order {id}."


@server.resource("orders://recent", name="recent", description="The recent orders.", mime_type="text/plain")
def recent() -> str:
    return "A1"


@server.resource("orders://{id}", name="order", description="One order.", mime_type="text/plain")
def order(id: str) -> str:
    return f"order {id}"


if __name__ == "__main__":
    server.run()
