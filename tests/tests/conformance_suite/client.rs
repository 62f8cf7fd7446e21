//! One client scenario of the conformance suite, played by `examples/conformance-client`:
//! what the client suites (`conformance.rs`, the suite pinned in `tests/peers/conformance/`;
//! `conformance_next.rs`, its newest line) share. Their files include it by path, beside
//! `conformance_suite`: the server suite has no use for it.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use mcp_assured_tests::workspace_binary;

use crate::conformance_suite::{Suite, TIMEOUT, without_colors};

/// `name => "scenario",` lines become one `#[test]` each, calling the including file's
/// `passes(scenario)`.
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

/// Runs `<node> <suite> client --command <conformance-client> --scenario <scenario> <args>`
/// and asserts that the suite passed the scenario, with at least one check passed: the suite
/// passes a scenario on a client that sends nothing when none of its checks is declared up
/// front (`initialize`: "Passed: 0/0"), and skips, with exit code 0, one that does not apply
/// at the `--spec-version` asked for.
///
/// The suite fails a single client scenario on any FAILURE or WARNING, on a client that
/// timed out, and on one that exited non-zero (unless the scenario expects it to).
#[track_caller]
pub fn passes(node: &Path, suite: &Path, scenario: &str, args: &[&str]) {
    let client = workspace_binary("conformance-client", "conformance-client");
    // The suite splits `--command` on spaces.
    assert!(
        !client.to_string_lossy().contains(' '),
        "the conformance suite cannot run a client whose path has a space: {}",
        client.display()
    );

    let started = Instant::now();
    let run = Suite::start(
        Command::new(node)
            .arg(suite)
            .arg("client")
            .arg("--command")
            .arg(&client)
            .arg("--scenario")
            .arg(scenario)
            .args(args),
    );
    let (status, output) = run.finish(TIMEOUT);
    let output = without_colors(&output);
    let shown = format!(
        "--- {} {} client --command {} --scenario {scenario} {} ({:.1} s) ---\n{output}",
        node.display(),
        suite.display(),
        client.display(),
        args.join(" "),
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

/// N of the suite's `Passed: N/M, ...` line.
fn checks_passed(output: &str) -> Option<u32> {
    output
        .lines()
        .find_map(|line| line.trim().strip_prefix("Passed: "))
        .and_then(|counts| counts.split('/').next())
        .and_then(|passed| passed.parse().ok())
}
