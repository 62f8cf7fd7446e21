//! The servers under test, ready to start: each helper installs what its server needs from
//! the registries the first time a test asks (again only when a pin or a source changes),
//! and returns what `#[mcp_test(server = command(..))]` runs.
//!
//! - `servers/python/`: a unit converter on the official Python SDK (`mcp` from PyPI),
//!   pinned in `requirements.txt` and `requirements.lock`.
//! - `servers/typescript/`: text tools on the official TypeScript SDK
//!   (`@modelcontextprotocol/sdk` from npm), pinned in `package-lock.json` and compiled with
//!   `tsc` by its `build` script.
//!
//! Both need only what their own projects need: `python3` with `venv`, and `node` with `npm`.

use std::path::PathBuf;

use mcp_assured::fixture::install::{NodeProject, PythonVenv};

/// `servers/python/server.py`; run it with [`python`].
pub const PYTHON_SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/servers/python/server.py");

/// The `python` of `servers/python/.venv-mcp-assured`, with the server's pinned packages installed.
///
/// # Panics
///
/// If the venv cannot be made: the message names the failing command and its output.
pub fn python() -> PathBuf {
    PythonVenv::new(concat!(env!("CARGO_MANIFEST_DIR"), "/servers/python"))
        .constraints("requirements.lock")
        .install()
        .unwrap()
}

/// `servers/typescript/dist/server.js`, built: `npm ci`, then `npm run build` (`tsc`), again
/// whenever `src/` or `tsconfig.json` changes. Run it with `node`.
///
/// # Panics
///
/// If `npm ci` or the build fails: the message names the failing command and its output.
pub fn typescript_server() -> PathBuf {
    NodeProject::new(concat!(env!("CARGO_MANIFEST_DIR"), "/servers/typescript"))
        .script("build")
        .inputs(["tsconfig.json", "src"])
        .install()
        .unwrap()
        .join("dist/server.js")
}
