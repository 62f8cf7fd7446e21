// An order desk on the TypeScript SDK's high-level `McpServer` (npm @modelcontextprotocol/sdk
// and zod, pinned in package.json), the twin of orders_server.py on the Python SDK: the same
// surface, for the surface-coverage tests (tests/tests/coverage.rs).
//
//   node orders_server.mjs NODE_MODULES     # stdio; NODE_MODULES has the SDK and zod
//
// - `place_order({item, size: small|medium|large, gift?: boolean})`: text; a tool error for
//   an empty item.
// - `cancel_order({id})`: text for order A1; a tool error for any other id.
// - `track_order({id, verbose?: boolean})`: text.
// - `quote({item})`: structured `{price}` (an output schema); a tool error for an item not on
//   the menu (tea, cake).
// - prompt `order_summary({id})`; resource `orders://recent`; template `orders://{id}`.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(path.resolve(process.argv[2]), "index.js"));
const { McpServer, ResourceTemplate } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

const PRICES = { tea: 2.5, cake: 4.0 };
const server = new McpServer({ name: "orders-typescript", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });
const refused = (why) => ({ content: [{ type: "text", text: why }], isError: true });

server.registerTool(
  "place_order",
  {
    description: "Place an order for an item in a size, wrapped as a gift or not.",
    inputSchema: { item: z.string(), size: z.enum(["small", "medium", "large"]), gift: z.boolean().optional() },
  },
  async ({ item, size, gift }) =>
    item ? text(`ordered a ${size} ${item}${gift ? " as a gift" : ""}`) : refused("an order needs an item"),
);

server.registerTool(
  "cancel_order",
  { description: "Cancel an order by its id.", inputSchema: { id: z.string() } },
  async ({ id }) => (id === "A1" ? text("cancelled A1") : refused(`no order ${id}`)),
);

server.registerTool(
  "track_order",
  { description: "Where an order is.", inputSchema: { id: z.string(), verbose: z.boolean().optional() } },
  async ({ id, verbose }) => text(`${id} is on its way${verbose ? " (left the kitchen at noon)" : ""}`),
);

server.registerTool(
  "quote",
  { description: "The price of an item.", inputSchema: { item: z.string() }, outputSchema: { price: z.number() } },
  async ({ item }) => {
    if (!(item in PRICES)) return refused(`${item} is not on the menu`);
    const price = { price: PRICES[item] };
    return { content: [{ type: "text", text: JSON.stringify(price) }], structuredContent: price };
  },
);

server.registerPrompt(
  "order_summary",
  { description: "Ask for a summary of an order.", argsSchema: { id: z.string() } },
  ({ id }) => ({ messages: [{ role: "user", content: { type: "text", text: `Summarise order ${id}.` } }] }),
);

server.registerResource(
  "recent",
  "orders://recent",
  { description: "The recent orders.", mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "A1" }] }),
);

server.registerResource(
  "order",
  new ResourceTemplate("orders://{id}", { list: undefined }),
  { description: "One order.", mimeType: "text/plain" },
  async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `order ${id}` }] }),
);

await server.connect(new StdioServerTransport());
