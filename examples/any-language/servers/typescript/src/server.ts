// A text-tools MCP server, written in TypeScript with the official SDK (npm
// `@modelcontextprotocol/sdk`). It stands for your own TypeScript server: nothing in it knows
// about mcp-assured. `npm run build` compiles it to dist/server.js; `node dist/server.js`
// serves stdio.

import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const STOPWORDS = ["a", "an", "and", "of", "the", "to"];

const server = new McpServer({ name: "text-tools", version: "0.3.0" });

server.registerTool(
  "word_count",
  {
    description: "Count the words of a text, and the distinct ones (case-insensitive).",
    inputSchema: { text: z.string() },
    outputSchema: { words: z.number().int(), distinct: z.number().int() },
  },
  async ({ text }) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const counts = { words: words.length, distinct: new Set(words).size };
    return {
      content: [{ type: "text", text: JSON.stringify(counts) }],
      structuredContent: counts,
    };
  },
);

server.registerTool(
  "slugify",
  {
    description: "Turn a title into a URL slug.",
    inputSchema: { title: z.string().min(1) },
  },
  async ({ title }) => {
    const slug = title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    if (slug === "") {
      return { content: [{ type: "text", text: `"${title}" has no letters or digits to slug` }], isError: true };
    }
    return { content: [{ type: "text", text: slug }] };
  },
);

server.registerResource(
  "stopwords",
  "text://stopwords",
  { description: "The words `word_count` would skip if asked to.", mimeType: "text/plain" },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: STOPWORDS.join("\n") }] }),
);

server.registerResource(
  "reversed",
  new ResourceTemplate("text://reversed/{word}", { list: undefined }),
  { description: "A word, reversed.", mimeType: "text/plain" },
  async (uri, { word }) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: [...String(word)].reverse().join("") }],
  }),
);

server.registerPrompt(
  "proofread",
  {
    description: "Ask for a text to be proofread.",
    argsSchema: { text: z.string(), tone: z.string().optional() },
  },
  ({ text, tone }) => ({
    messages: [
      {
        role: "user",
        content: { type: "text", text: `Proofread this text${tone ? ` in a ${tone} tone` : ""}:\n\n${text}` },
      },
    ],
  }),
);

await server.connect(new StdioServerTransport());
