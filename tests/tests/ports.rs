//! Ports across processes: a port handed to a server is reserved against every other process
//! of mcp-assured (nextest runs each test in its own), and readiness means the harness's own
//! child listens, not whoever else took its port.

use std::{
    net::TcpListener,
    path::Path,
    process::Command,
    sync::{Arc, atomic::AtomicBool, atomic::Ordering},
    time::Duration,
};

use mcp_assured::{
    Error,
    fixture::{ServerCommand, ServerProcess, free_port},
};
use mcp_assured_tests::example_server_binary;

/// Whether another process can take the port's lock: what every other mcp-assured process
/// asks before handing the port out. `flock(1)` is that other process.
fn locked_elsewhere(port: u16) -> bool {
    let lock = std::env::temp_dir().join(format!("mcp-assured-ports/{port}.lock"));
    let status = Command::new("flock")
        .args(["--nonblock", "--conflict-exit-code", "75"])
        .arg(&lock)
        .arg("true")
        .status()
        .expect("flock(1) runs");
    status.code() == Some(75)
}

#[test]
fn a_port_handed_out_is_locked_against_other_processes() {
    let port = free_port().unwrap();
    assert!(
        locked_elsewhere(port),
        "port {port} is not reserved against other processes"
    );
}

#[tokio::test]
async fn a_server_s_port_is_reserved_while_it_runs_and_released_after() {
    let command = ServerCommand::new(example_server_binary()).args([
        "--transport",
        "streamable-http",
        "--port",
        "{port}",
    ]);
    let server = ServerProcess::start_http(&command, "/mcp").await.unwrap();
    let port = server.port().unwrap();
    assert!(
        locked_elsewhere(port),
        "port {port} is free to take while its server runs"
    );
    server.stop().await;
    drop(server);
    assert!(
        !locked_elsewhere(port),
        "port {port} stays reserved after its server stopped"
    );
}

/// A child that does not listen but writes its port to a file, where the test binds it
/// first: the connection succeeds, but to a process that listened before the child
/// started, so the port is given up; after three, the start fails saying so.
#[tokio::test]
async fn a_port_another_process_listens_on_is_not_mistaken_for_the_server() {
    let dir = std::env::temp_dir().join(format!("mcp-assured-squatter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let told = dir.join("port");
    let stop = Arc::new(AtomicBool::new(false));
    let squatter = {
        let (told, stop) = (told.clone(), stop.clone());
        std::thread::spawn(move || squat(&told, &stop))
    };
    let command = ServerCommand::new("sh")
        .arg("-c")
        .arg(format!("echo {{port}} > {}; exec sleep 30", told.display()))
        .startup_timeout(Duration::from_secs(20));
    let started = ServerProcess::start_http(&command, "/mcp").await;
    stop.store(true, Ordering::Relaxed);
    let squatted = squatter.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    match started {
        Err(Error::Startup { reason, .. }) => {
            assert!(reason.contains("3 free ports were taken"), "{reason}")
        }
        other => panic!("a squatted port was taken for the server: {other:?}"),
    }
    assert_eq!(squatted.len(), 3, "each attempt was squatted: {squatted:?}");
}

/// Binds each port the child writes to `told`, until `stop`; returns them.
fn squat(told: &Path, stop: &AtomicBool) -> Vec<u16> {
    let mut held = Vec::new();
    let mut ports = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        if let Some(port) = std::fs::read_to_string(told)
            .ok()
            .and_then(|text| text.trim().parse::<u16>().ok())
            && !ports.contains(&port)
            && let Ok(listener) = TcpListener::bind(("127.0.0.1", port))
        {
            ports.push(port);
            held.push(listener);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    ports
}
