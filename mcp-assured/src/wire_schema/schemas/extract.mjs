// Writes the official MCP JSON schemas, one per revision, as the official conformance suite
// (npm @modelcontextprotocol/conformance) bundles and validates with them: its dist/index.js
// holds each revision's `schema/<revision>/schema.json` of the specification repository
// (2026-07-28 from its `draft` folder) as an object literal, in a table by revision.
//
//   node extract.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js .
//
// The suite is pinned in tests/peers/conformance-next/package.json; the tests hold the files
// here to what this prints from the installed suite (tests/tests/wire_schema.rs).
import fs from "node:fs";

const [, , bundle, out] = process.argv;
const text = fs.readFileSync(bundle, "utf8");
const table = text.match(
  /const (\w+)=\{"2025-03-26":(\w+),"2025-06-18":(\w+),"2025-11-25":(\w+),\[(\w+)\]:(\w+)\}/,
);
if (!table) throw new Error(`no table of schemas by revision in ${bundle}`);

// The object literal bound to `name`, evaluated: braces counted outside template strings.
function literal(name) {
  const start = text.indexOf(`${name}={$schema:`);
  if (start < 0) throw new Error(`no schema named ${name}`);
  const open = text.indexOf("{", start);
  let depth = 0;
  let inTemplate = false;
  let at = open;
  for (; at < text.length; at++) {
    const c = text[at];
    if (c === "`") {
      inTemplate = !inTemplate;
    } else if (inTemplate) {
      if (c === "\\") at++;
    } else if (c === "{") {
      depth++;
    } else if (c === "}" && --depth === 0) {
      break;
    }
  }
  return (0, eval)(`(${text.slice(open, at + 1)})`);
}

const revisions = {
  "2025-03-26": table[2],
  "2025-06-18": table[3],
  "2025-11-25": table[4],
  "2026-07-28": table[6],
};
for (const [revision, name] of Object.entries(revisions)) {
  fs.writeFileSync(`${out}/${revision}.json`, JSON.stringify(literal(name), null, 2) + "\n");
}
