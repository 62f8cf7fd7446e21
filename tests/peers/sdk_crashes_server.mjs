// A server on the TypeScript SDK's high-level `McpServer` (npm @modelcontextprotocol/sdk
// and zod, pinned in package.json) with two planted bugs. `McpServer` answers an exception
// in a tool as a tool error with the exception's message, nothing on stderr, so the
// connection lives on.
//
//   node sdk_crashes_server.mjs NODE_MODULES     # stdio; NODE_MODULES has the SDK and zod
//
// - `first_word({text})`: the first word, upper-cased; crashes on a text with no word
//   ("Cannot read properties of undefined (reading 'toUpperCase')"): planted.
// - `preview({text})`: the first 5 UTF-16 code units of the text, which splits a character
//   outside the BMP (an emoji) into a lone surrogate, an answer JSON parsers refuse:
//   planted. Only it may be blamed, never the tools whose calls were in flight beside it.
// - `shout({text})`: the text upper-cased. Correct.
// - `lookup({city})`: a deliberate tool error for every city but Oslo; no crash.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(path.resolve(process.argv[2]), "index.js"));
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

const server = new McpServer({ name: "sdk-crashes-typescript", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

server.registerTool(
  "first_word",
  { description: "The first word of the text, upper-cased.", inputSchema: { text: z.string() } },
  async ({ text: given }) => text(given.split(" ").filter(Boolean)[0].toUpperCase()),
);

server.registerTool(
  "preview",
  { description: "The first five characters of the text.", inputSchema: { text: z.string() } },
  async ({ text: given }) => text(given.slice(0, 5)),
);

server.registerTool(
  "shout",
  { description: "The text, upper-cased.", inputSchema: { text: z.string() } },
  async ({ text: given }) => text(given.toUpperCase()),
);

server.registerTool(
  "lookup",
  { description: "The weather in a city we know.", inputSchema: { city: z.string() } },
  async ({ city }) =>
    city === "Oslo"
      ? text("Oslo: 3 °C, snow")
      : { content: [{ type: "text", text: `Unknown city: ${city}` }], isError: true },
);

await server.connect(new StdioServerTransport());
