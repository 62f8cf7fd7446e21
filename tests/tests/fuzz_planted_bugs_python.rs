//! The fuzzer against the Python SDK 2.3 server with planted bugs
//! (`tests/peers/planted_bugs_server.py`), as a child over stdio and over streamable HTTP:
//! every bug found with a shrunk input, the crash survived (the server started again and
//! the run going on), nothing reported on the correct tools or the `--correct` server.

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use mcp_assured::{
    McpAssured, McpClient, fixture::ServerProcess, fuzz, mcp_test, prelude::*, report::Report,
};
use mcp_assured_tests::{
    peers,
    planted_bugs::{Reached, assert_every_bug_found},
    server,
};

/// A fuzz run as every test here makes it: seed given, 60 inputs of each kind per tool,
/// toolproof's per-call timeout.
async fn fuzz_run(client: &McpClient, seed: u64) -> Report {
    client
        .fuzz()
        .seed(seed)
        .cases(60)
        .call_timeout(Duration::from_secs(2))
        .run()
        .await
}

#[mcp_test(
    server = command(peers::python(), peers::planted_bugs_server_script()),
    timeout = "240s"
)]
async fn over_stdio_every_bug_is_found_and_the_crash_survived(client: McpClient) {
    let report = fuzz_run(&client, 11).await;
    assert_every_bug_found(&report, Reached::Child);
    let run = report.entry("fuzz.run").unwrap();
    assert!(
        run.message.contains("the server was started again"),
        "{}",
        run.message
    );
    // The calls the crash took with it were told apart on a second process of the server.
    assert!(
        run.details["second_process_starts"].as_u64().unwrap() >= 1,
        "{}",
        run.details
    );
    let greet = fuzz::findings(&report)
        .into_iter()
        .find(|f| f.name == "greet")
        .unwrap();
    let command = greet.reproduce.command.unwrap();
    assert!(
        command.starts_with(r#"mcp-assured call greet --args-json '{"name":""}' -- "#),
        "{command}"
    );
    assert!(command.ends_with("planted_bugs_server.py"), "{command}");
}

#[mcp_test(
    server = command(peers::python(), peers::planted_bugs_server_script(), "--correct"),
    timeout = "240s"
)]
async fn over_stdio_the_correct_server_has_no_finding(client: McpClient) {
    fuzz_run(&client, 12)
        .await
        .assert()
        .no_findings()
        .all_passed();
}

/// A server that cannot run twice (it holds a lock while it runs) refuses the second
/// process the fuzzer tells crashes apart on: the calls a crash took with it are sent again
/// alone on the one server instead, and every bug is still found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_a_server_that_runs_once_at_a_time_is_told_apart_alone() {
    let lock = std::env::temp_dir().join(format!("planted-bugs-{}.lock", std::process::id()));
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::planted_bugs_server_script())
        .arg("--exclusive")
        .arg(lock.clone())
        .build()
        .await
        .unwrap();
    let report = fuzz_run(&client, 11).await;
    client.close().await.unwrap();
    let _ = std::fs::remove_file(&lock);
    assert_every_bug_found(&report, Reached::Child);
    let run = report.entry("fuzz.run").unwrap();
    assert_eq!(run.details["second_process_starts"], 0, "{}", run.details);
    assert!(
        run.message.contains("the server was started again"),
        "{}",
        run.message
    );
}

/// A client of the planted-bugs server over HTTP, and how to start a fresh one when a call
/// killed it: the servers live as long as the returned list.
async fn over_http(args: &'static [&'static str]) -> (McpClient, Arc<Mutex<Vec<ServerProcess>>>) {
    let servers = Arc::new(Mutex::new(Vec::new()));
    let first = server::planted_bugs(args).await;
    let client = McpAssured::client()
        .base_uri(first.url().unwrap())
        .build()
        .await
        .unwrap();
    servers.lock().unwrap().push(first);
    (client, servers)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_streamable_http_every_bug_is_found_and_the_crash_survived() {
    let (client, servers) = over_http(&[]).await;
    let started = servers.clone();
    let report = client
        .fuzz()
        .seed(11)
        .cases(60)
        .call_timeout(Duration::from_secs(2))
        .restart_with(move || {
            let started = started.clone();
            async move {
                let fresh = server::planted_bugs(&[]).await;
                let client = McpAssured::client()
                    .base_uri(fresh.url().unwrap())
                    .build()
                    .await;
                started.lock().unwrap().push(fresh);
                client
            }
        })
        .run()
        .await;
    // Over HTTP, the dead server is a refused connection.
    assert_every_bug_found(&report, Reached::Child);
    assert!(servers.lock().unwrap().len() >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_streamable_http_the_correct_server_has_no_finding() {
    let (client, _servers) = over_http(&["--correct"]).await;
    fuzz_run(&client, 12)
        .await
        .assert()
        .no_findings()
        .all_passed();
}
