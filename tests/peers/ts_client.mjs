// Drives an MCP server with the official TypeScript SDK's client (npm
// @modelcontextprotocol/sdk, pinned in package.json), on its default negotiation, which
// validates every result against the SDK's schemas.
//
//   node ts_client.mjs NODE_MODULES SESSION stdio <program> <args...>
//   node ts_client.mjs NODE_MODULES SESSION http <url>
//
// NODE_MODULES holds the SDK. SESSION is what it does, printed as one JSON object:
// - `echo=TEXT`: lists the tools and calls `echo` with {"message": TEXT};
// - `double`: lists the tools, calls `search` with {"query": "rust"} and `missing` (which
//   no mock answers), lists resources and prompts, reads `file:///notes.txt`, gets the
//   prompt `greet` with {"name": "Ada"}.
import { createRequire } from "node:module";
import path from "node:path";

const [modules, session, face, ...target] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "index.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = require(
  "@modelcontextprotocol/sdk/client/streamableHttp.js",
);

const transport =
  face === "stdio"
    ? new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target[0]));
// The client tells the transport the version it negotiated (HTTP sends it as a header).
let negotiated = null;
const told = transport.setProtocolVersion?.bind(transport);
transport.setProtocolVersion = (version) => {
  negotiated = version;
  told?.(version);
};
const client = new Client({ name: "mcp-assured-ts-peer", version: "1.0.0" });
await client.connect(transport);

async function refused(call) {
  try {
    const result = await call;
    return result.isError ? `isError: ${JSON.stringify(result.content)}` : "answered";
  } catch (error) {
    return String(error.message ?? error);
  }
}

const report = {
  server: client.getServerVersion()?.name,
  protocol: negotiated,
  tools: (await client.listTools()).tools.map((tool) => tool.name),
};
if (session.startsWith("echo=")) {
  const message = session.slice("echo=".length);
  report.result = await client.callTool({ name: "echo", arguments: { message } });
} else {
  report.found = (await client.callTool({ name: "search", arguments: { query: "rust" } }))
    .structuredContent;
  report.missing = await refused(client.callTool({ name: "missing", arguments: {} }));
  report.resources = (await client.listResources()).resources.map((resource) => resource.uri);
  report.read = (await client.readResource({ uri: "file:///notes.txt" })).contents.map(
    (content) => content.text,
  );
  report.prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  report.prompt = (
    await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })
  ).messages.map((message) => message.content.text);
}
console.log(JSON.stringify(report));
await client.close();
