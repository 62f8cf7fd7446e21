// The TypeScript twin of lint_twins_server.py: one side of one lint twin, served by the
// TypeScript SDK's low-level `Server` (npm @modelcontextprotocol/sdk, pinned in
// package.json), which lists the tool's definition as given, byte for byte.
//
//   node lint_twins_server.mjs NODE_MODULES TWIN_JSON vulnerable|safe   # stdio
//
// TWIN_JSON is one line of `python lint_twins_server.py --list` (a twin: its name, and each
// side's description and input schema), so both languages serve the same definitions. The
// tool, TWIN with `-` as `_`, answers "ok" to arguments its schema's required properties
// are in (a tool error otherwise); an unknown tool is a JSON-RPC error -32602. The side's
// resources, resource templates and prompts are listed as given (each read or got as "ok"),
// and its `instructions` are the server's.
import { createRequire } from "node:module";
import path from "node:path";

const [modules, twinJson, side] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "index.js"));
const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} = require("@modelcontextprotocol/sdk/types.js");

const twin = JSON.parse(twinJson);
const definition = twin[side];
const tool = {
  name: definition.name ?? twin.twin.replaceAll("-", "_"),
  description: definition.description,
  inputSchema: definition.inputSchema,
};

const resources = definition.resources ?? [];
const resourceTemplates = definition.resourceTemplates ?? [];
const prompts = definition.prompts ?? [];
const capabilities = { tools: {} };
if (resources.length || resourceTemplates.length) capabilities.resources = {};
if (prompts.length) capabilities.prompts = {};

const server = new Server(
  { name: `lint-twin-${twin.twin}-${side}-typescript`, version: "1.0.0" },
  { capabilities, ...(definition.instructions ? { instructions: definition.instructions } : {}) },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [tool] }));
if (capabilities.resources) {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (!resources.some((resource) => resource.uri === request.params.uri)) {
      throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
    }
    return { contents: [{ uri: request.params.uri, text: "ok" }] };
  });
}
if (capabilities.prompts) {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (!prompts.some((prompt) => prompt.name === request.params.name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    }
    return { messages: [{ role: "user", content: { type: "text", text: "ok" } }] };
  });
}
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== tool.name) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
  }
  const given = request.params.arguments ?? {};
  const missing = (tool.inputSchema.required ?? []).find((name) => !(name in given));
  if (missing) {
    return { content: [{ type: "text", text: `missing required argument \`${missing}\`` }], isError: true };
  }
  return { content: [{ type: "text", text: "ok" }] };
});
await server.connect(new StdioServerTransport());
