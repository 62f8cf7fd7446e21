//! `mcp-assured` reaches servers slow to boot with its defaults (issue 30): the Python SDK
//! 2.3 peer and server-everything (TypeScript SDK), each behind a wrapper that sleeps 10 s
//! before starting it, negotiated and pinned to 2025-11-25. The four run at once.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use mcp_assured_tests::peers;

/// `sh -c SLEEP_THEN_EXEC program args..`: sleeps [`BOOT_DELAY`], then becomes the program.
const SLEEP_THEN_EXEC: &str = r#"sleep 10; exec "$0" "$@""#;

/// Longer than the 3 s the `server/discover` probe used to wait for any server.
const BOOT_DELAY: Duration = Duration::from_secs(10);

fn ping(protocol: Option<&str>, server: Vec<String>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-assured"));
    command.arg("ping").env("NO_COLOR", "1");
    if let Some(protocol) = protocol {
        command.args(["--protocol", protocol]);
    }
    command
        .args(["--", "sh", "-c", SLEEP_THEN_EXEC])
        .args(server)
        .output()
        .expect("run mcp-assured")
}

#[test]
fn ping_waits_for_servers_slow_to_boot_on_either_revision() {
    let python = vec![
        peers::python().display().to_string(),
        peers::python_server_script().display().to_string(),
    ];
    let typescript = vec![
        peers::node().display().to_string(),
        peers::server_everything().display().to_string(),
        "stdio".to_owned(),
    ];
    let cases = [
        (
            None,
            python.clone(),
            "mcp-assured-python-peer",
            "2026-07-28",
        ),
        (
            Some("2025-11-25"),
            python,
            "mcp-assured-python-peer",
            "2025-11-25",
        ),
        (
            None,
            typescript.clone(),
            "mcp-servers/everything",
            "2025-11-25",
        ),
        (
            Some("2025-11-25"),
            typescript,
            "mcp-servers/everything",
            "2025-11-25",
        ),
    ];
    let started = Instant::now();
    let runs: Vec<_> = cases
        .into_iter()
        .map(|(protocol, server, name, revision)| {
            let run = std::thread::spawn(move || ping(protocol, server));
            (run, name, revision)
        })
        .collect();
    for (run, name, revision) in runs {
        let output = run.join().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
        assert!(
            stdout.starts_with(&format!("pong from {name} ")),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("(protocol {revision})")),
            "{stdout}"
        );
    }
    assert!(started.elapsed() >= BOOT_DELAY, "{:?}", started.elapsed());
}
