"""A server on the Python SDK's high-level `MCPServer` (PyPI `mcp`, pinned in
requirements.txt) whose tools answer file paths, as file tools do: the fuzzer's leak oracle
must not take a path the caller named (in the arguments, or as a root) for the server
showing its own internals, and must still find the server's own source path.

    python file_tools_server.py            # stdio

- `find_sources(directory)`: the source files found under `directory` (an absolute path
  under /srv): `<directory>/main.py` and `<directory>/lib/util.js`. Correct.
- `project_files()`: asks the client for its roots (`roots/list`) and answers the source
  files under each: `<root>/app.py`. Correct.
- `load_settings(name)`: a deliberate tool error that names this server's own source file
  (`cannot load settings <name> from /…/file_tools_server.py`): the planted leak.
"""

import os
from typing import Annotated
from urllib.parse import unquote, urlparse

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

server = MCPServer(name="file-tools-python", version="1.0.0")


@server.tool(description="The source files under a directory.")
def find_sources(
    directory: Annotated[str, Field(pattern=r"^/srv/[a-z]{1,8}$")],
) -> str:
    return f"{directory}/main.py\n{directory}/lib/util.js"


@server.tool(description="The source files under each of the client's roots.")
async def project_files(ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    paths = [unquote(urlparse(str(root.uri)).path) for root in roots.roots]
    return "\n".join(f"{path}/app.py" for path in paths) or "no roots"


@server.tool(description="Loads the named settings.")
def load_settings(name: str) -> str:
    raise ToolError(f"cannot load settings {name!r} from {os.path.abspath(__file__)}")


if __name__ == "__main__":
    server.run()
