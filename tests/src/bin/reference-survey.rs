//! The survey of the seven reference MCP servers of `modelcontextprotocol/servers`: the
//! `mcp-assured` binary's `lint --json` and `check --json` against each, over stdio, printed
//! as one Markdown table.
//!
//! ```sh
//! cargo run -p mcp-assured-tests --bin reference-survey                 # lint and check all seven
//! cargo run -p mcp-assured-tests --bin reference-survey -- lint --server git
//! ```
//!
//! `reference-survey [lint|check|all] [--server NAME]` (default `all`, every server; NAME as in
//! the table, `git`, or the package, `mcp-server-git`). The servers are pinned in
//! `tests/peers/reference/` and installed like every peer (`tests/src/peers.rs`): npm
//! `@modelcontextprotocol/server-everything`, `-filesystem`, `-memory` and
//! `-sequential-thinking` into `target/peers/reference-npm/`, PyPI `mcp-server-time`,
//! `mcp-server-fetch` and `mcp-server-git` into `target/peers/reference-python/`; so the first
//! run needs the registries (or warm caches). `mcp-assured` is built first if need be
//! (`cargo build -p mcp-assured-cli --bin mcp-assured`, into this binary's target directory).
//! Each server gets what it needs in a temporary directory: filesystem an allowed directory,
//! git a repository with one commit (`--repository`), memory its `MEMORY_FILE_PATH`.
//!
//! The version column is the one the server reports (`server` of the JSON report: `check`'s
//! has it), else the pin, marked `(pin)`. Exit status: 1 if a lint has a failing finding, or did not report at all (a gate: none
//! is expected to); 2 if an install or the build of `mcp-assured` fails; 0 otherwise. Check's
//! failures are shown, not gated on. It is not run by `.ci/run` nor by any test: it needs the
//! registries and takes minutes.

use std::{
    collections::BTreeSet,
    ffi::OsString,
    io::Read,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    thread,
    time::{Duration, Instant},
};

use mcp_assured_tests::peers;
use serde_json::Value;

/// How long one `lint` or `check` may take before it is killed.
const RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// Where a reference server comes from.
#[derive(Clone, Copy)]
enum Source {
    /// An npm package of `tests/peers/reference/package.json`, run with `node`.
    Npm(&'static str),
    /// A command of a PyPI package of `tests/peers/reference/requirements.txt`.
    Pypi(&'static str),
}

/// One of the seven.
struct Reference {
    /// Its name in the table and for `--server`.
    name: &'static str,
    source: Source,
    /// The version pinned in `tests/peers/reference/`.
    pin: &'static str,
}

const SERVERS: &[Reference] = &[
    Reference {
        name: "everything",
        source: Source::Npm("@modelcontextprotocol/server-everything"),
        pin: "2026.8.31",
    },
    Reference {
        name: "filesystem",
        source: Source::Npm("@modelcontextprotocol/server-filesystem"),
        pin: "2026.8.31",
    },
    Reference {
        name: "memory",
        source: Source::Npm("@modelcontextprotocol/server-memory"),
        pin: "2026.8.31",
    },
    Reference {
        name: "sequential-thinking",
        source: Source::Npm("@modelcontextprotocol/server-sequential-thinking"),
        pin: "2026.8.31",
    },
    Reference {
        name: "time",
        source: Source::Pypi("mcp-server-time"),
        pin: "2026.10.19",
    },
    Reference {
        name: "fetch",
        source: Source::Pypi("mcp-server-fetch"),
        pin: "2026.10.24",
    },
    Reference {
        name: "git",
        source: Source::Pypi("mcp-server-git"),
        pin: "2026.10.19",
    },
];

impl Reference {
    fn package(&self) -> &'static str {
        match self.source {
            Source::Npm(package) | Source::Pypi(package) => package,
        }
    }

    /// Whether `--server NAME` means this one.
    fn is_named(&self, name: &str) -> bool {
        name == self.name
            || name == self.package()
            || name == format!("server-{}", self.name)
            || name == format!("mcp-server-{}", self.name)
    }
}

/// Which commands to run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Lint,
    Check,
    All,
}

impl Mode {
    fn lints(self) -> bool {
        self != Self::Check
    }

    fn checks(self) -> bool {
        self != Self::Lint
    }
}

const USAGE: &str = "usage: reference-survey [lint|check|all] [--server NAME]\n\
    NAME: everything, filesystem, memory, sequential-thinking, time, fetch or git";

/// The command line, or the message to exit 2 with.
fn parse_args() -> Result<(Mode, Option<String>), String> {
    let mut mode = None;
    let mut server = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "lint" | "check" | "all" if mode.is_none() => {
                mode = Some(match arg.as_str() {
                    "lint" => Mode::Lint,
                    "check" => Mode::Check,
                    _ => Mode::All,
                });
            }
            "--server" => server = Some(args.next().ok_or("--server needs a NAME")?),
            _ => match arg.strip_prefix("--server=") {
                Some(name) => server = Some(name.to_owned()),
                None => return Err(format!("unexpected argument `{arg}`")),
            },
        }
    }
    if let Some(name) = &server
        && !SERVERS.iter().any(|reference| reference.is_named(name))
    {
        return Err(format!("no reference server is called `{name}`"));
    }
    Ok((mode.unwrap_or(Mode::All), server))
}

/// What one `lint --json` or `check --json` gave.
struct Run {
    exit: Option<i32>,
    /// The JSON report, if stdout held one.
    report: Option<Value>,
    /// What went wrong when there is no report to count.
    trouble: Option<String>,
}

impl Run {
    fn server_version(&self) -> Option<&str> {
        self.report
            .as_ref()?
            .get("server")?
            .get("version")?
            .as_str()
    }

    fn exit_cell(&self) -> String {
        self.exit
            .map_or_else(|| "killed".to_owned(), |code| code.to_string())
    }
}

/// A lint run's counts, or `None` when it did not report findings.
struct LintCounts {
    fails: usize,
    warns: usize,
    failing_rules: BTreeSet<String>,
}

fn lint_counts(run: &Run) -> Option<LintCounts> {
    let findings = run.report.as_ref()?.get("findings")?.as_array()?;
    fn severity(finding: &Value) -> Option<&str> {
        finding.get("severity").and_then(Value::as_str)
    }
    let fails: Vec<&Value> = findings
        .iter()
        .filter(|finding| severity(finding) == Some("fail"))
        .collect();
    Some(LintCounts {
        fails: fails.len(),
        warns: findings
            .iter()
            .filter(|finding| severity(finding) == Some("warn"))
            .count(),
        failing_rules: fails
            .iter()
            .filter_map(|finding| finding.get("rule").and_then(Value::as_str))
            .map(str::to_owned)
            .collect(),
    })
}

/// A check run's `summary.failed` and `summary.warned` (left out when none warned).
fn check_counts(run: &Run) -> Option<(u64, u64)> {
    let summary = run.report.as_ref()?.get("summary")?;
    Some((
        summary.get("failed")?.as_u64()?,
        summary.get("warned").and_then(Value::as_u64).unwrap_or(0),
    ))
}

/// The `mcp-assured` binary beside this one, built from the sources as they are.
///
/// Not `mcp_assured_tests::workspace_binary`: that one finds the target directory from a test
/// binary's place, `<target>/<profile>/deps/`, and this one is `<target>/<profile>/`.
fn mcp_assured() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("the path of this binary: {e}"))?;
    let target = me
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("{} is not in <target>/<profile>/", me.display()))?;
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args([
            "build",
            "--quiet",
            "-p",
            "mcp-assured-cli",
            "--bin",
            "mcp-assured",
        ])
        .arg("--target-dir")
        .arg(target);
    if !cfg!(debug_assertions) {
        cargo.arg("--release");
    }
    let status = cargo
        .status()
        .map_err(|e| format!("cannot run cargo to build mcp-assured: {e}"))?;
    if !status.success() {
        return Err(format!(
            "`cargo build -p mcp-assured-cli --bin mcp-assured` failed ({status})"
        ));
    }
    Ok(me.with_file_name("mcp-assured"))
}

/// Runs `install`, turning the panic of a failed install into its message.
fn install<T>(install: impl FnOnce() -> T) -> Result<T, String> {
    let hook = panic::take_hook();
    // The message is printed once, by `main`, without a backtrace note.
    panic::set_hook(Box::new(|_| {}));
    let result = panic::catch_unwind(AssertUnwindSafe(install));
    panic::set_hook(hook);
    result.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "the install panicked".to_owned())
    })
}

/// The command that starts `reference` over stdio, and the environment it needs, with what it
/// works on made under `scratch`.
fn server_command(
    reference: &Reference,
    entry: &Path,
    scratch: &Path,
) -> Result<(Vec<OsString>, Vec<String>), String> {
    let mut command: Vec<OsString> = match reference.source {
        Source::Npm(_) => vec![peers::node().into(), entry.into()],
        Source::Pypi(_) => vec![entry.into()],
    };
    let mut env = Vec::new();
    let dir = scratch.join(reference.name);
    let create = |dir: &Path| {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
    };
    match reference.name {
        "everything" => command.push("stdio".into()),
        "filesystem" => {
            create(&dir)?;
            std::fs::write(dir.join("hello.txt"), "hello\n")
                .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
            command.push(dir.into());
        }
        "memory" => {
            create(&dir)?;
            env.push(format!(
                "MEMORY_FILE_PATH={}",
                dir.join("memory.jsonl").display()
            ));
        }
        "git" => {
            create(&dir)?;
            git_repository(&dir)?;
            command.push("--repository".into());
            command.push(dir.into());
        }
        _ => {}
    }
    Ok((command, env))
}

/// `git init` and one commit in `dir`.
fn git_repository(dir: &Path) -> Result<(), String> {
    std::fs::write(dir.join("README.md"), "# survey\n")
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    let identity = [
        "-c",
        "user.name=reference-survey",
        "-c",
        "user.email=reference-survey@example.invalid",
        "-c",
        "commit.gpgsign=false",
    ];
    for args in [
        &["init", "--quiet", "--initial-branch=main"][..],
        &["add", "README.md"],
        &["commit", "--quiet", "-m", "One commit"],
    ] {
        let output = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(identity)
            .args(args)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "git {} in {} failed ({}): {}",
                args.join(" "),
                dir.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
    }
    Ok(())
}

/// `mcp-assured <subcommand> --json -e ... -- <server>`, killed after [`RUN_TIMEOUT`].
fn run(cli: &Path, subcommand: &str, server: &[OsString], env: &[String]) -> Run {
    let mut command = Command::new(cli);
    command.args([subcommand, "--json", "--quiet", "--color", "never"]);
    for variable in env {
        command.args(["-e", variable]);
    }
    command
        .arg("--")
        .args(server)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            return Run {
                exit: None,
                report: None,
                trouble: Some(format!("cannot run {}: {e}", cli.display())),
            };
        }
    };
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                killed = true;
                break child.wait().ok();
            }
            Ok(None) => thread::sleep(Duration::from_millis(100)),
            Err(_) => break None,
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let report: Option<Value> = serde_json::from_str(&stdout).ok();
    let trouble = if killed {
        Some(format!("killed after {}s", RUN_TIMEOUT.as_secs()))
    } else {
        let error =
            report
                .as_ref()
                .and_then(|report| report.get("error"))
                .map(|error| match error {
                    Value::String(message) => message.clone(),
                    other => other.to_string(),
                });
        error.or_else(|| {
            report.is_none().then(|| {
                let said = if stdout.trim().is_empty() {
                    stderr.trim()
                } else {
                    stdout.trim()
                };
                format!("no JSON report; it said: {}", last_lines(said, 5))
            })
        })
    };
    Run {
        exit: if killed {
            None
        } else {
            status.and_then(|s| s.code())
        },
        report,
        trouble,
    }
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join(" / ")
}

/// One row of the table, and the notes under it.
struct Row {
    cells: Vec<String>,
    notes: Vec<String>,
    /// Whether the lint gate fails on this server.
    gate_fails: bool,
}

fn row(reference: &Reference, lint: Option<&Run>, check: Option<&Run>) -> Row {
    let dash = || "—".to_owned();
    let mut notes = Vec::new();
    let mut gate_fails = false;
    let version = lint
        .and_then(Run::server_version)
        .or_else(|| check.and_then(Run::server_version))
        .map_or_else(|| format!("{} (pin)", reference.pin), str::to_owned);
    let mut cells = vec![
        format!("{} (`{}`)", reference.name, reference.package()),
        reference.pin.to_owned(),
        version,
    ];
    match lint {
        None => cells.extend([dash(), dash(), dash(), dash()]),
        Some(lint) => {
            cells.push(lint.exit_cell());
            match lint_counts(lint) {
                Some(counts) => {
                    gate_fails |= counts.fails > 0;
                    cells.push(counts.fails.to_string());
                    cells.push(counts.warns.to_string());
                    cells.push(if counts.failing_rules.is_empty() {
                        dash()
                    } else {
                        counts
                            .failing_rules
                            .iter()
                            .map(|rule| format!("`{rule}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    });
                }
                None => {
                    gate_fails = true;
                    cells.extend(["?".to_owned(), "?".to_owned(), "?".to_owned()]);
                }
            }
            if let Some(trouble) = &lint.trouble {
                notes.push(format!("{}: lint: {trouble}", reference.name));
            }
        }
    }
    match check {
        None => cells.extend([dash(), dash(), dash()]),
        Some(check) => {
            cells.push(check.exit_cell());
            match check_counts(check) {
                Some((failed, warned)) => {
                    cells.push(failed.to_string());
                    cells.push(warned.to_string());
                }
                None => cells.extend(["?".to_owned(), "?".to_owned()]),
            }
            if let Some(trouble) = &check.trouble {
                notes.push(format!("{}: check: {trouble}", reference.name));
            }
        }
    }
    Row {
        cells,
        notes,
        gate_fails,
    }
}

fn main() -> ExitCode {
    let (mode, only) = match parse_args() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("reference-survey: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let chosen: Vec<&Reference> = SERVERS
        .iter()
        .filter(|reference| only.as_deref().is_none_or(|name| reference.is_named(name)))
        .collect();

    eprintln!("reference-survey: building mcp-assured");
    let cli = match mcp_assured() {
        Ok(cli) => cli,
        Err(message) => {
            eprintln!("reference-survey: {message}");
            return ExitCode::from(2);
        }
    };

    // Every install first, so that one failing stops the survey before any server runs.
    let mut entries = Vec::new();
    for reference in &chosen {
        eprintln!("reference-survey: installing {}", reference.package());
        let entry = install(|| match reference.source {
            Source::Npm(package) => peers::reference_npm_server(package),
            Source::Pypi(command) => peers::reference_python_server(command),
        });
        match entry {
            Ok(entry) => entries.push(entry),
            Err(message) => {
                eprintln!(
                    "reference-survey: installing {} {} failed:\n{message}",
                    reference.package(),
                    reference.pin
                );
                return ExitCode::from(2);
            }
        }
    }

    let scratch = std::env::temp_dir().join(format!("reference-survey-{}", std::process::id()));
    let mut rows = Vec::new();
    for (reference, entry) in chosen.iter().zip(&entries) {
        let (server, env) = match server_command(reference, entry, &scratch) {
            Ok(command) => command,
            Err(message) => {
                eprintln!("reference-survey: {}: {message}", reference.name);
                let _ = std::fs::remove_dir_all(&scratch);
                return ExitCode::from(2);
            }
        };
        let lint = mode.lints().then(|| {
            eprintln!("reference-survey: mcp-assured lint {}", reference.name);
            run(&cli, "lint", &server, &env)
        });
        let check = mode.checks().then(|| {
            eprintln!("reference-survey: mcp-assured check {}", reference.name);
            run(&cli, "check", &server, &env)
        });
        rows.push(row(reference, lint.as_ref(), check.as_ref()));
    }
    let _ = std::fs::remove_dir_all(&scratch);

    println!(
        "| server | pin | version | lint exit | lint FAIL | lint WARN | failing rules | check exit | check FAIL | check WARN |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for row in &rows {
        println!("| {} |", row.cells.join(" | "));
    }
    let notes: Vec<&String> = rows.iter().flat_map(|row| &row.notes).collect();
    if !notes.is_empty() {
        println!();
        for note in notes {
            println!("- {note}");
        }
    }
    if rows.iter().any(|row| row.gate_fails) {
        eprintln!(
            "reference-survey: a lint failed (a FAIL finding, or no report): none is expected to"
        );
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
