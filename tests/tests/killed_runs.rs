//! No orphan, ever: a test binary killed with `kill -9` in the middle of an `#[mcp_test]` (what
//! a runner's timeout or a cancelled CI job does) leaves nothing of its server running, on
//! each transport that starts a child: stdio, streamable HTTP and HTTP+SSE. (An in-process
//! server dies with the test process by definition.)
//!
//! The test re-runs its own binary with one `victim` test selected and `MCP_ASSURED_VICTIM`
//! set; that test starts the example server behind `sh`, which first starts a `sleep` in the
//! server's process group (as servers started by `npx` or a shell script leave helpers
//! behind), prints the group's id and waits. The test kills the binary with SIGKILL, so no
//! destructor runs, and expects every process of that group gone within seconds.

use std::{
    io::{BufRead as _, BufReader},
    process::{Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use mcp_assured::{McpClient, fixture::ServerProcess, mcp_test};
use mcp_assured_tests::{example_server_binary, processes};

/// Set when the binary is run to be killed.
const VICTIM: &str = "MCP_ASSURED_VICTIM";
/// How the victim tells its server's process group.
const GROUP_LINE: &str = "victim server group: ";

/// Starts the server (and its `sleep`), checks they share a group; when run to be killed,
/// says which and waits. Run as a plain test, it checks just that.
#[mcp_test(
    server = command(
        "sh",
        "-c",
        "sleep 600 & exec \"$0\" \"$@\"",
        example_server_binary(),
    ),
    transport = [
        stdio,
        http(args("--transport", "streamable-http", "--port", "{port}")),
        sse(args("--transport", "sse", "--port", "{port}")),
    ],
    timeout = "60s",
)]
async fn victim(client: McpClient, server: &ServerProcess) {
    client.list_tools().await.unwrap();
    let group = server.pid().expect("the server is a child");
    let running = processes::running_in_group(group);
    assert!(
        running
            .iter()
            .any(|(_, command)| command.starts_with("sleep"))
            && running.len() >= 2,
        "the server and its sleep share group {group}: {running:?}"
    );
    if std::env::var_os(VICTIM).is_some() {
        println!("{GROUP_LINE}{group}");
        std::future::pending::<()>().await;
    }
}

#[test]
fn a_test_binary_killed_mid_test_leaves_no_server_running() {
    for transport in ["stdio", "http", "sse"] {
        let group = start_victim_and_kill_it(transport);
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut running = processes::running_in_group(group);
        while !running.is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            running = processes::running_in_group(group);
        }
        assert!(
            running.is_empty(),
            "{transport}: the server's group {group} outlived the killed test binary by 10 s: {running:?}"
        );
    }
}

/// Runs `victim::<transport>` in a new process of this binary, waits for its server's group
/// id, kills the process with SIGKILL, reaps it, and returns the group id.
fn start_victim_and_kill_it(transport: &str) -> u32 {
    let this_binary = std::env::current_exe().expect("the test binary's path");
    let mut run = Command::new(this_binary)
        .args([
            &format!("victim::{transport}"),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(VICTIM, "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the test binary starts");
    let stdout = run.stdout.take().expect("stdout is piped");
    let (lines, told) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            // libtest prints `test victim::stdio ... ` before the test's own output.
            if let Some((_, group)) = line.split_once(GROUP_LINE) {
                let _ = lines.send(group.trim().parse::<u32>().ok());
            }
        }
        let _ = lines.send(None);
    });
    let group = told.recv_timeout(Duration::from_secs(60));
    processes::kill_hard(run.id());
    let _ = run.wait();
    match group {
        Ok(Some(group)) => group,
        other => panic!("{transport}: the victim test never named its server's group: {other:?}"),
    }
}
