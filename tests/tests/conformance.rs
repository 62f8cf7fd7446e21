//! mcp-assured's client against the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`, pinned in `tests/peers/conformance/`): one test per
//! client scenario of the suite, named after it (`auth/metadata-default` is
//! `auth_metadata_default`).
//!
//! Each test runs `<node22> <suite> client --command <conformance-client> --scenario <name>`.
//! The suite serves the scenario, runs `examples/conformance-client` against it and judges
//! what it saw; the test passes when the suite passes the scenario with at least one check.
//!
//! The `auth_*` tests need the client's OAuth support.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use mcp_assured_tests::{peers, workspace_binary};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// For the whole run of one scenario. The suite gives the client 30 s, and its servers start
/// in well under a second.
const TIMEOUT: Duration = Duration::from_secs(60);

macro_rules! scenarios {
    ($($test:ident => $scenario:literal,)*) => {
        $(
            #[test]
            fn $test() {
                passes($scenario);
            }
        )*
    };
}

scenarios! {
    // The core protocol.
    initialize => "initialize",
    tools_call => "tools_call",
    elicitation_sep1034_client_defaults => "elicitation-sep1034-client-defaults",
    sse_retry => "sse-retry",

    // Authorization, as the 2025-11-25 spec has it.
    auth_metadata_default => "auth/metadata-default",
    auth_metadata_var1 => "auth/metadata-var1",
    auth_metadata_var2 => "auth/metadata-var2",
    auth_metadata_var3 => "auth/metadata-var3",
    auth_basic_cimd => "auth/basic-cimd",
    auth_scope_from_www_authenticate => "auth/scope-from-www-authenticate",
    auth_scope_from_scopes_supported => "auth/scope-from-scopes-supported",
    auth_scope_omitted_when_undefined => "auth/scope-omitted-when-undefined",
    auth_scope_step_up => "auth/scope-step-up",
    auth_scope_retry_limit => "auth/scope-retry-limit",
    auth_token_endpoint_auth_basic => "auth/token-endpoint-auth-basic",
    auth_token_endpoint_auth_post => "auth/token-endpoint-auth-post",
    auth_token_endpoint_auth_none => "auth/token-endpoint-auth-none",
    auth_pre_registration => "auth/pre-registration",

    // Authorization servers of the 2025-03-26 spec.
    auth_2025_03_26_oauth_metadata_backcompat => "auth/2025-03-26-oauth-metadata-backcompat",
    auth_2025_03_26_oauth_endpoint_fallback => "auth/2025-03-26-oauth-endpoint-fallback",
}

/// Runs the suite on `scenario` and asserts that it passed, with at least one check passed:
/// the suite passes `initialize` on a client that sends nothing ("Passed: 0/0").
#[track_caller]
fn passes(scenario: &str) {
    let node = peers::node22();
    let suite = peers::conformance_suite();
    let client = workspace_binary("conformance-client", "conformance-client");
    // The suite splits `--command` on spaces.
    assert!(
        !client.to_string_lossy().contains(' '),
        "the conformance suite cannot run a client whose path has a space: {}",
        client.display()
    );

    let started = Instant::now();
    let run = Suite::start(
        Command::new(&node)
            .arg(&suite)
            .arg("client")
            .arg("--command")
            .arg(&client)
            .arg("--scenario")
            .arg(scenario),
    );
    let (status, output) = run.finish(TIMEOUT);
    let output = without_colors(&output);
    let shown = format!(
        "--- {} {} client --command {} --scenario {scenario} ({:.1} s) ---\n{output}",
        node.display(),
        suite.display(),
        client.display(),
        started.elapsed().as_secs_f64()
    );

    let Some(status) = status else {
        panic!("The conformance suite did not finish `{scenario}` within {TIMEOUT:?}.\n{shown}");
    };
    assert!(
        status.success(),
        "The conformance suite failed `{scenario}` ({status}).\n{shown}"
    );
    match checks_passed(&output) {
        Some(passed) if passed >= 1 => {}
        Some(_) => panic!(
            "The conformance suite passed `{scenario}` without a single check passing: the \
             client did not do what the scenario tests.\n{shown}"
        ),
        None => panic!("No `Passed: N/M` line in the conformance suite's output.\n{shown}"),
    }
}

/// The suite running one scenario, in a process group of its own with the client it starts.
struct Suite {
    child: Child,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<String>,
}

impl Suite {
    fn start(command: &mut Command) -> Suite {
        use std::os::unix::process::CommandExt as _;
        let mut child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the conformance suite: {e}"));
        let stdout = read_all(child.stdout.take().expect("piped stdout"));
        let stderr = read_all(child.stderr.take().expect("piped stderr"));
        Suite {
            child,
            stdout,
            stderr,
        }
    }

    /// Waits up to `timeout` for the suite to exit, then kills its process group (the suite
    /// and the client), and returns how it exited (`None`: it was killed) and what it printed.
    fn finish(mut self, timeout: Duration) -> (Option<ExitStatus>, String) {
        let deadline = Instant::now() + timeout;
        let mut status = None;
        while Instant::now() < deadline {
            status = self
                .child
                .try_wait()
                .expect("wait for the conformance suite");
            if status.is_some() {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
        // Also when the suite exited: a client it left behind would keep our pipes open.
        let group = Pid::from_raw(self.child.id().try_into().expect("a pid fits in i32"));
        let _ = killpg(group, Signal::SIGKILL);
        if status.is_none() {
            let _ = self.child.wait();
        }
        let stdout = self.stdout.join().expect("read the suite's stdout");
        let stderr = self.stderr.join().expect("read the suite's stderr");
        (status, format!("{stdout}{stderr}"))
    }
}

fn read_all(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// N of the suite's `Passed: N/M, ...` line.
fn checks_passed(output: &str) -> Option<u32> {
    output
        .lines()
        .find_map(|line| line.trim().strip_prefix("Passed: "))
        .and_then(|counts| counts.split('/').next())
        .and_then(|passed| passed.parse().ok())
}

/// `output` without the ANSI colour codes the suite always prints (`ESC [ ... m`).
fn without_colors(output: &str) -> String {
    let mut plain = String::with_capacity(output.len());
    let mut rest = output;
    while let Some(start) = rest.find("\x1b[") {
        plain.push_str(&rest[..start]);
        rest = &rest[start + 2..];
        match rest.find('m') {
            Some(end) => rest = &rest[end + 1..],
            None => rest = "",
        }
    }
    plain.push_str(rest);
    plain
}

// The suite's server mode, side by side with `McpClient::check` on the same servers: every
// fault the suite finds with a scenario that needs no fixture (no `test_*` tool, no
// `test://` resource), our checks find too; and our servers pass both.

mod server_mode {
    use std::process::Command;

    use mcp_assured::{McpAssured, fixture::ServerCommand, report::Report};
    use mcp_assured_tests::{Transport, faults::Fault, peers, server, workspace_binary};

    use super::{Suite, TIMEOUT, without_colors};

    /// The suite's server scenarios that hold for any server (the rest need its fixtures).
    const GENERIC: [&str; 5] = [
        "server-initialize",
        "ping",
        "tools-list",
        "server-sse-multiple-streams",
        "dns-rebinding-protection",
    ];

    /// Generic scenarios that hold only for a server declaring the capability: the suite
    /// calls the method whatever the server declares.
    const GENERIC_IF_DECLARED: [(&str, &str); 3] = [
        ("logging-set-level", "logging"),
        ("resources-list", "resources"),
        ("prompts-list", "prompts"),
    ];

    const FAULT_SERVER: &str = env!("CARGO_BIN_EXE_fault-server");

    /// The generic scenarios the suite fails on the server at `url`, with its output.
    async fn suite_failures(url: &str, declared: &serde_json::Value) -> Vec<(String, String)> {
        let url = url.to_owned();
        let declared = declared.clone();
        tokio::task::spawn_blocking(move || {
            let node = peers::node22();
            let suite = peers::conformance_suite();
            let scenarios = GENERIC.into_iter().chain(
                GENERIC_IF_DECLARED
                    .into_iter()
                    .filter(|(_, capability)| declared.get(capability).is_some())
                    .map(|(scenario, _)| scenario),
            );
            // One at a time: scenarios run at once would meet in the server.
            let mut failures = Vec::new();
            for scenario in scenarios {
                let run = Suite::start(Command::new(&node).arg(&suite).args([
                    "server",
                    "--url",
                    &url,
                    "--scenario",
                    scenario,
                ]));
                let (status, output) = run.finish(TIMEOUT);
                if !status.is_some_and(|status| status.success()) {
                    failures.push((scenario.to_owned(), without_colors(&output)));
                }
            }
            failures
        })
        .await
        .unwrap()
    }

    /// Our checks of the server at `url`, or why no client could connect (which finds a
    /// fault too); and what the server declares.
    async fn our_checks(url: &str) -> (Result<Report, String>, serde_json::Value) {
        match McpAssured::client().base_uri(url).build().await {
            Ok(client) => {
                let report = client.check().await;
                let declared = client.server_capabilities().clone();
                (Ok(report), declared)
            }
            Err(error) => (Err(error.to_string()), serde_json::json!({})),
        }
    }

    /// The checks of ours that must fail where the suite fails `scenario`.
    fn ours_for(scenario: &str) -> &'static [&'static str] {
        match scenario {
            "dns-rebinding-protection" => &["http.host_validation", "http.origin_validation"],
            "server-sse-multiple-streams" => &["http.concurrent_streams"],
            "logging-set-level" => &["capabilities.logging"],
            "resources-list" => &["capabilities.resources"],
            "prompts-list" => &["capabilities.prompts"],
            _ => &[],
        }
    }

    /// Asserts that every generic scenario the suite fails on the server at `suite_url`, our
    /// checks fail too on the same server at `our_url` (the matching check, or, for a server
    /// no client can reach, the connection); returns the scenarios it failed. Two processes
    /// of one server, for faults that change the process for good.
    async fn ours_find_what_the_suite_finds(
        what: &str,
        our_url: &str,
        suite_url: &str,
    ) -> Vec<String> {
        let (ours, declared) = our_checks(our_url).await;
        let failures = suite_failures(suite_url, &declared).await;
        for (scenario, output) in &failures {
            match &ours {
                Err(_) => {}
                Ok(report) => {
                    let expected = ours_for(scenario);
                    let found = if expected.is_empty() {
                        report.failed() > 0
                    } else {
                        expected.iter().any(|name| {
                            report.entry(name).is_some_and(|entry| {
                                entry.status == mcp_assured::report::Status::Failed
                            })
                        })
                    };
                    assert!(
                        found,
                        "{what}: the suite fails `{scenario}`, and none of {expected:?} fails.\n\
                         ours:\n{report}\nthe suite:\n{output}"
                    );
                }
            }
        }
        failures.into_iter().map(|(scenario, _)| scenario).collect()
    }

    async fn fault_server(fault: Fault) -> mcp_assured::fixture::ServerProcess {
        server::start(
            &ServerCommand::new(FAULT_SERVER)
                .args(["--transport", "http", "--port", "{port}"])
                .args(["--fault", fault.name()]),
            "/mcp",
        )
        .await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_generic_fault_the_suite_finds_in_the_fault_server_ours_finds() {
        let mut found_by_the_suite = Vec::new();
        for (name, fault) in Fault::ALL {
            // The faults of stdio and of the handshake are not the HTTP server's.
            if matches!(
                fault,
                Fault::ExitAtStart
                    | Fault::CrashOnInitialize
                    | Fault::HangOnInitialize
                    | Fault::SlowStart
                    | Fault::NotFound
            ) {
                continue;
            }
            // Two processes: a fault such as `expire-session` changes its process for good.
            let ours = fault_server(fault).await;
            let suites = fault_server(fault).await;
            let failed =
                ours_find_what_the_suite_finds(name, ours.url().unwrap(), suites.url().unwrap())
                    .await;
            if !failed.is_empty() {
                found_by_the_suite.push((name, failed));
            }
        }
        // What the suite 0.1.16 finds: the rest of the faults only our checks see
        // (tests/tests/faults/transport_checks.rs).
        let names: Vec<&str> = found_by_the_suite.iter().map(|(name, _)| *name).collect();
        for expected in ["one-stream-at-a-time", "non-json", "internal-error"] {
            assert!(names.contains(&expected), "{found_by_the_suite:?}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn server_everythings_dns_rebinding_is_found_by_both() {
        let server = server::everything(Transport::StreamableHttp).await;
        let url = server.url().unwrap();
        let failed = ours_find_what_the_suite_finds("server-everything", url, url).await;
        assert_eq!(failed, ["dns-rebinding-protection"]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_python_sdks_server_passes_the_suites_generic_scenarios() {
        let server = server::python(Transport::StreamableHttp).await;
        let url = server.url().unwrap();
        let failed = ours_find_what_the_suite_finds("the Python SDK", url, url).await;
        assert_eq!(failed, Vec::<String>::new());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn our_servers_pass_the_suite_and_our_checks() {
        let example = workspace_binary("mcp-assured-examples", "example-server");
        let weather = workspace_binary("weather-server", "weather-server");
        let companion = workspace_binary("mcp-assured-cli", "mcp-assured");
        let servers = [
            ServerCommand::new(example).args([
                "--transport",
                "streamable-http",
                "--port",
                "{port}",
            ]),
            ServerCommand::new(weather).args([
                "--api-url",
                "http://127.0.0.1:9",
                "--port",
                "{port}",
            ]),
            ServerCommand::new(companion).args([
                "serve",
                "--transport",
                "http",
                "--port",
                "{port}",
            ]),
        ];
        for command in servers {
            let server = server::start(&command, "/mcp").await;
            let url = server.url().unwrap();
            let (ours, declared) = our_checks(url).await;
            let report = ours.unwrap();
            assert_eq!(report.failed(), 0, "{command}: {report}");
            let failures = suite_failures(url, &declared).await;
            assert!(failures.is_empty(), "{command}: {failures:#?}");
        }
    }
}
