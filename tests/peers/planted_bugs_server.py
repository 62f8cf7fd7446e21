"""An MCP server with planted bugs, for proving that a tool fuzzer finds them (and nothing else).

Built on the official Python SDK (PyPI `mcp`, pinned in requirements.txt) through its LOW-LEVEL
`Server`, which validates no tool arguments: every tool here checks its arguments by hand against
the schema it declares, and answers invalid input with `isError: true` and a plain message
(missing required, wrong type, out of range, too long, too few/many items, not in the enum, an
extra property: every input schema has `"additionalProperties": false`). A tool that declares an
`outputSchema` returns `structuredContent` conforming to it plus the same JSON as text. JSON
Schema semantics throughout: `true`/`false` are not numbers, `2.0` is an integer, and a string's
length is counted in code points. PYTHON-SERVER.md describes it.

    python planted_bugs_server.py                                        # stdio (nothing else on stdout)
    python planted_bugs_server.py --transport streamable-http --port N   # http://127.0.0.1:N/mcp
    python planted_bugs_server.py --correct                              # no planted bug (same schemas)
    python planted_bugs_server.py --exclusive LOCKFILE                   # exits 1 while another holds LOCKFILE

The nine buggy tools, each with exactly one planted bug (everything else about it is correct);
`--correct` removes the bug and keeps the schema:

1. `greet` {name: string, required, maxLength 50} -> text "Hello, NAME".
   BUG: name == "" kills the whole process (`os._exit(1)`): stdio closes, HTTP stops answering.
   Correct: "Hello, ".
2. `divide` {a: number, b: number, both required}, outputSchema {quotient: number} ->
   structured {"quotient": a / b}.
   BUG: b == 0 raises ZeroDivisionError out of the handler, which the SDK answers as a
   JSON-RPC error (code 0 with the exception's message, "division by zero" or "float division
   by zero", on the 2025 protocols; -32603 "Internal server error" on 2026-07-28).
   Correct: `isError: true` "division by zero". (A quotient too large for a double is a tool
   error in both modes, never an `inf` in the result.)
3. `search` {query: string, required, maxLength 100; limit: integer 1..20, default 5} -> text,
   `limit` lines "N. result N for 'QUERY'".
   BUG: a query with any non-ASCII character (code point > 127) never answers (the handler awaits
   `anyio.sleep_forever()`; the request stays open until cancelled). Correct: answers like any
   other query.
4. `scale` {value: integer 0..100, required}, outputSchema {scaled: integer, maximum 1000,
   required} -> structured {"scaled": value * 10}.
   BUG: value == 100 answers {"scaled": 1001}, which breaks the output schema. Correct: 1000.
5. `convert` {unit: enum celsius|fahrenheit|kelvin, value: number, both required} -> text
   "V UNIT = X celsius = Y fahrenheit = Z kelvin" (the two other units).
   BUG: unit == "kelvin" answers a NORMAL result (`isError: false`) whose text is a Python
   traceback ("Error converting: Traceback (most recent call last):\n  File
   \"/abs/path/planted_bugs_server.py\", line N, in call\n ... KeyError: 'kelvin'\n"), as a
   careless `traceback.format_exc()` does. Correct: kelvin converts like the other two.
6. `lookup` {id: string, required; verbose: boolean, optional} -> text "looked up ID"
   (", verbose" appended when verbose is true).
   BUG: a missing `id` is accepted: "looked up None", `isError: false`. Correct: tool error.
7. `page` {page: integer, required, minimum 1, maximum 1000} -> text "page N of 1000".
   BUG: the range is not checked: 0, -5 or 1001 answer "page 0 of 1000" etc. normally (types,
   missing and extra arguments are still rejected). Correct: out of range is a tool error.
8. `batch` {items: array of strings, minItems 1, maxItems 5, required} -> text
   "N items (LABEL): a, b, c".
   BUG: exactly 5 items raise IndexError out of the handler (a label table one entry short),
   a JSON-RPC error as for `divide`. Correct: 5 items answer "5 items (five): ...".
9. `profile` {name: string, include_email: boolean, include_phone: boolean, all required},
   outputSchema {name, email, phone: strings, all required} -> structured
   {"name": NAME, "email": "NAME@example.com" or "", "phone": "+1-555-0100" or ""}.
   BUG: include_email false AND include_phone true drops `email` from structuredContent (and
   from the text), breaking the output schema; the three other combinations are correct.

The correct tools (never buggy; a fuzzer must report nothing on them):

- `echo` {message: string, required} -> text MESSAGE.
- `add` {a: integer, b: integer, required}, outputSchema {sum: integer} -> structured {"sum": a + b}.
- `noop` (schema `{"type": "object", "properties": {}, "additionalProperties": false}`) -> "ok".
- `delete_everything` {confirm: boolean, required}, annotated `destructiveHint: true` (a fuzzer
  should leave it alone by default) -> "deleted everything (not really)" / "nothing deleted";
  it deletes nothing.

An unknown tool is a JSON-RPC error -32602 "Unknown tool: NAME". Logs go to stderr only.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import traceback
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

CORRECT = False  # set by --correct: every planted bug is off
LOCK = None  # with --exclusive: the file locked while the server runs


def schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


TOOLS = [
    types.Tool(
        name="greet",
        description="Greet someone by name.",
        input_schema=schema({"name": {"type": "string", "maxLength": 50}}, ["name"]),
    ),
    types.Tool(
        name="divide",
        description="Divide a by b.",
        input_schema=schema({"a": {"type": "number"}, "b": {"type": "number"}}, ["a", "b"]),
        output_schema={"type": "object", "properties": {"quotient": {"type": "number"}}, "required": ["quotient"]},
    ),
    types.Tool(
        name="search",
        description="Search the catalogue; answers up to `limit` results.",
        input_schema=schema(
            {
                "query": {"type": "string", "maxLength": 100},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5},
            },
            ["query"],
        ),
    ),
    types.Tool(
        name="scale",
        description="Multiply a value by ten.",
        input_schema=schema({"value": {"type": "integer", "minimum": 0, "maximum": 100}}, ["value"]),
        output_schema={
            "type": "object",
            "properties": {"scaled": {"type": "integer", "maximum": 1000}},
            "required": ["scaled"],
        },
    ),
    types.Tool(
        name="convert",
        description="Convert a temperature into the two other units.",
        input_schema=schema(
            {"unit": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"]}, "value": {"type": "number"}},
            ["unit", "value"],
        ),
    ),
    types.Tool(
        name="lookup",
        description="Look a record up by id.",
        input_schema=schema({"id": {"type": "string"}, "verbose": {"type": "boolean"}}, ["id"]),
    ),
    types.Tool(
        name="page",
        description="Fetch one page of 1000.",
        input_schema=schema({"page": {"type": "integer", "minimum": 1, "maximum": 1000}}, ["page"]),
    ),
    types.Tool(
        name="batch",
        description="Process one to five items.",
        input_schema=schema(
            {"items": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5}}, ["items"]
        ),
    ),
    types.Tool(
        name="profile",
        description="Build a user profile, with or without contact details.",
        input_schema=schema(
            {"name": {"type": "string"}, "include_email": {"type": "boolean"}, "include_phone": {"type": "boolean"}},
            ["name", "include_email", "include_phone"],
        ),
        output_schema={
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}, "phone": {"type": "string"}},
            "required": ["name", "email", "phone"],
        },
    ),
    types.Tool(
        name="echo",
        description="Echo the message back.",
        input_schema=schema({"message": {"type": "string"}}, ["message"]),
    ),
    types.Tool(
        name="add",
        description="Add two integers; the result is structured.",
        input_schema=schema({"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"]),
        output_schema={"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]},
    ),
    types.Tool(
        name="noop",
        description="Do nothing.",
        input_schema={"type": "object", "properties": {}, "additionalProperties": False},
    ),
    types.Tool(
        name="delete_everything",
        description="Delete everything (it does not really).",
        input_schema=schema({"confirm": {"type": "boolean"}}, ["confirm"]),
        annotations=types.ToolAnnotations(destructive_hint=True, read_only_hint=False),
    ),
]
SCHEMAS = {tool.name: tool.input_schema for tool in TOOLS}


# --- hand-written validation of the JSON Schema subset above -------------------------------------


class Invalid(Exception):
    """An argument that its schema rejects: answered as a tool error."""


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def check_value(spec: dict[str, Any], value: Any, where: str, check_range: bool = True) -> Any:
    """Check `value` against `spec`; returns it normalised (2.0 -> 2 for integers)."""
    kind = spec.get("type")
    if kind == "string":
        if not isinstance(value, str):
            raise Invalid(f"'{where}' must be a string")
        if "maxLength" in spec and len(value) > spec["maxLength"]:
            raise Invalid(f"'{where}' is longer than {spec['maxLength']} characters")
    elif kind == "integer":
        if not _is_integer(value):
            raise Invalid(f"'{where}' must be an integer")
        value = int(value)
    elif kind == "number":
        if not _is_number(value):
            raise Invalid(f"'{where}' must be a number")
    elif kind == "boolean":
        if not isinstance(value, bool):
            raise Invalid(f"'{where}' must be a boolean")
    elif kind == "array":
        if not isinstance(value, list):
            raise Invalid(f"'{where}' must be an array")
        if "minItems" in spec and len(value) < spec["minItems"]:
            raise Invalid(f"'{where}' needs at least {spec['minItems']} items")
        if "maxItems" in spec and len(value) > spec["maxItems"]:
            raise Invalid(f"'{where}' takes at most {spec['maxItems']} items")
        value = [check_value(spec["items"], item, f"{where}[{i}]") for i, item in enumerate(value)]
    if "enum" in spec and not any(type(value) is type(e) and value == e for e in spec["enum"]):
        raise Invalid(f"'{where}' must be one of {', '.join(map(str, spec['enum']))}")
    if check_range and kind in ("integer", "number"):
        if "minimum" in spec and value < spec["minimum"]:
            raise Invalid(f"'{where}' must be at least {spec['minimum']}")
        if "maximum" in spec and value > spec["maximum"]:
            raise Invalid(f"'{where}' must be at most {spec['maximum']}")
    return value


def check_arguments(
    name: str, arguments: dict[str, Any], *, skip_required: tuple[str, ...] = (), skip_range: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Check a call's arguments against the tool's input schema; `skip_*` are the planted holes."""
    spec = SCHEMAS[name]
    properties = spec.get("properties", {})
    for key in spec.get("required", []):
        if key not in arguments and key not in skip_required:
            raise Invalid(f"missing required argument '{key}'")
    checked = {}
    for key, value in arguments.items():
        if key not in properties:
            raise Invalid(f"unexpected argument '{key}'")
        checked[key] = check_value(properties[key], value, key, check_range=key not in skip_range)
    return checked


# --- results ---------------------------------------------------------------------------------------


def text(message: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=is_error)


def structured(payload: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(payload))], structured_content=payload)


# --- the tools ---------------------------------------------------------------------------------------

LABELS = ["one", "two", "three", "four", "five"]
FACTORS = {"celsius": (1.0, 0.0), "fahrenheit": (5 / 9, -32.0)}  # to celsius: (c + offset) * factor


def _convert(unit: str, value: float) -> str | None:
    if unit == "kelvin" and CORRECT:
        celsius = value - 273.15
    else:
        # The planted bug: FACTORS has no entry for kelvin, so this raises KeyError.
        factor, offset = FACTORS[unit]
        celsius = (value + offset) * factor
    values = {"celsius": celsius, "fahrenheit": celsius * 9 / 5 + 32, "kelvin": celsius + 273.15}
    if not all(math.isfinite(v) for v in values.values()):
        return None
    others = " = ".join(f"{values[u]:g} {u}" for u in values if u != unit)
    return f"{value:g} {unit} = {others}"


async def call(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
    if name == "greet":
        args = check_arguments(name, arguments)
        if args["name"] == "" and not CORRECT:
            os._exit(1)  # the planted bug: the whole process dies
        return text(f"Hello, {args['name']}")

    if name == "divide":
        args = check_arguments(name, arguments)
        a, b = args["a"], args["b"]
        if b == 0:
            if CORRECT:
                return text("division by zero", is_error=True)
            return structured({"quotient": a / b})  # the planted bug: ZeroDivisionError escapes
        try:
            quotient = a / b
        except OverflowError:
            quotient = math.inf
        if not math.isfinite(quotient):
            return text("the quotient is too large for a double", is_error=True)
        return structured({"quotient": quotient})

    if name == "search":
        args = check_arguments(name, arguments)
        query, limit = args["query"], args.get("limit", 5)
        if not CORRECT and any(ord(c) > 127 for c in query):
            await anyio.sleep_forever()  # the planted bug: never answers
        return text("\n".join(f"{i}. result {i} for {query!r}" for i in range(1, limit + 1)))

    if name == "scale":
        args = check_arguments(name, arguments)
        scaled = args["value"] * 10
        if scaled == 1000 and not CORRECT:
            scaled = 1001  # the planted bug: breaks the output schema's maximum
        return structured({"scaled": scaled})

    if name == "convert":
        args = check_arguments(name, arguments)
        try:
            converted = _convert(args["unit"], float(args["value"]))
        except OverflowError:
            converted = None
        except Exception:
            # The planted bug: the traceback goes to the client, in a result that says it succeeded.
            return text("Error converting: " + traceback.format_exc())
        if converted is None:
            return text("the value is out of range", is_error=True)
        return text(converted)

    if name == "lookup":
        args = check_arguments(name, arguments, skip_required=() if CORRECT else ("id",))
        verbose = ", verbose" if args.get("verbose") else ""
        return text(f"looked up {args.get('id')}{verbose}")

    if name == "page":
        args = check_arguments(name, arguments, skip_range=() if CORRECT else ("page",))
        return text(f"page {args['page']} of 1000")

    if name == "batch":
        args = check_arguments(name, arguments)
        items = args["items"]
        labels = LABELS if CORRECT else LABELS[:4]  # the planted bug: a table one entry short
        label = labels[len(items) - 1]
        return text(f"{len(items)} items ({label}): {', '.join(items)}")

    if name == "profile":
        args = check_arguments(name, arguments)
        email = f"{args['name']}@example.com" if args["include_email"] else ""
        phone = "+1-555-0100" if args["include_phone"] else ""
        result = {"name": args["name"], "email": email, "phone": phone}
        if not CORRECT and not args["include_email"] and args["include_phone"]:
            del result["email"]  # the planted bug: a required field goes missing
        return structured(result)

    if name == "echo":
        args = check_arguments(name, arguments)
        return text(args["message"])

    if name == "add":
        args = check_arguments(name, arguments)
        return structured({"sum": args["a"] + args["b"]})

    if name == "noop":
        check_arguments(name, arguments)
        return text("ok")

    if name == "delete_everything":
        args = check_arguments(name, arguments)
        return text("deleted everything (not really)" if args["confirm"] else "nothing deleted")

    raise MCPError(code=-32602, message=f"Unknown tool: {name}")


async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    try:
        return await call(params.name, params.arguments or {})
    except Invalid as invalid:
        return text(f"Invalid arguments for {params.name}: {invalid}", is_error=True)


server = Server(
    "mcp-assured-planted-bugs",
    version="1.0.0",
    instructions="Test server for mcp-assured's fuzzer: nine tools with one planted bug each, four correct tools.",
    on_list_tools=on_list_tools,
    on_call_tool=on_call_tool,
)


async def serve_stdio() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    global CORRECT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", choices=["stdio", "streamable-http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--correct", action="store_true", help="turn every planted bug off (same schemas)")
    parser.add_argument(
        "--exclusive",
        metavar="PATH",
        help="hold an exclusive lock on PATH while running, and exit 1 at once when another process holds it: "
        "a server that cannot run twice",
    )
    args = parser.parse_args()
    CORRECT = args.correct
    if args.exclusive:
        import fcntl

        global LOCK
        LOCK = open(args.exclusive, "w")
        try:
            fcntl.flock(LOCK, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"another process holds {args.exclusive}: this server runs once at a time", file=sys.stderr)
            sys.exit(1)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.transport == "stdio":
        anyio.run(serve_stdio)
    else:
        import uvicorn

        app = server.streamable_http_app(host=args.host)
        # uvicorn's access log would go to stdout; its startup line goes to stderr.
        uvicorn.run(app, host=args.host, port=args.port, access_log=False, log_level="info")


if __name__ == "__main__":
    main()
