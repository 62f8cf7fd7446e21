// Drives any MCP server through a list of steps with the official TypeScript SDK's client
// (npm @modelcontextprotocol/sdk, pinned in package.json) on its default negotiation, which
// validates every result against the SDK's schemas: the TypeScript twin of sdk_steps.py.
//
//   node sdk_steps.mjs NODE_MODULES STEPS_JSON stdio <program> <args...>
//   node sdk_steps.mjs NODE_MODULES STEPS_JSON http <url>
//
// NODE_MODULES holds the SDK. STEPS_JSON is the steps of `sdk_steps.py` (its docstring).
// Prints one JSON object: {"server", "protocol", "steps"}, each step's answer as the SDK read
// it, or {"error": MESSAGE} when the SDK threw (a JSON-RPC error, or a result its schemas
// refused).
import { createRequire } from "node:module";
import path from "node:path";

const [modules, steps, face, ...target] = process.argv.slice(2);
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

async function step([name, ...given]) {
  switch (name) {
    case "list_tools":
      return (await client.listTools()).tools.map((tool) => tool.name);
    case "list_resources":
      return (await client.listResources()).resources.map((resource) => resource.uri);
    case "list_templates":
      return (await client.listResourceTemplates()).resourceTemplates.map(
        (template) => template.uriTemplate,
      );
    case "list_prompts":
      return (await client.listPrompts()).prompts.map((prompt) => prompt.name);
    case "ping":
      await client.ping();
      return "pong";
    case "call":
      return await client.callTool({ name: given[0], arguments: given[1] });
    case "read":
      return await client.readResource({ uri: given[0] });
    case "prompt":
      return await client.getPrompt({ name: given[0], arguments: given[1] });
    default:
      throw new Error(`unknown step ${name}`);
  }
}

const report = { server: client.getServerVersion()?.name, protocol: negotiated, steps: [] };
for (const action of JSON.parse(steps)) {
  try {
    report.steps.push(await step(action));
  } catch (error) {
    report.steps.push({ error: String(error.message ?? error) });
  }
}
console.log(JSON.stringify(report));
await client.close();
