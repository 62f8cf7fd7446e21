//! `mcp-assured check`: the server's own `mcp.test.*` tests, the protocol checks and, with
//! `--rest URL`, the parity of a hybrid server's REST surface with its MCP side, as a
//! readable report, JSON, and JUnit XML; exit status 1 when anything failed.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use clap::Args;
use mcp_assured::{
    checks::{Check, CheckOptions, CheckStatus, ParityOptions, check_parity_with},
    server_tests::TestStatus,
};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::{Map, Value, json};

use super::{
    output::{Mark, colour, mark},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Write a JUnit XML report here (for CI systems).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Arguments for checking a tool's structured output: `TOOL=JSON` (repeatable).
    #[arg(long = "tool-args", value_name = "TOOL=JSON")]
    tool_args: Vec<String>,
    /// Skip the server's own mcp.test.* tools.
    #[arg(long)]
    no_server_tests: bool,
    /// A hybrid server's REST base URL (`GET /mcp/tools`, `POST /mcp/tools/{name}/execute`):
    /// also check that it agrees with the MCP side. Sends the same headers and bearer token.
    #[arg(long, value_name = "URL")]
    rest: Option<String>,
    #[command(flatten)]
    target: Target,
}

/// The report line of a protocol or parity check.
fn case(suite: &'static str, check: &Check) -> Case {
    Case {
        suite,
        name: check.name.clone(),
        mark: match check.status {
            CheckStatus::Passed => Mark::Pass,
            CheckStatus::Failed => Mark::Fail,
            CheckStatus::Skipped => Mark::Skip,
        },
        reason: check.reason.clone(),
        time: None,
    }
}

/// One line of the report.
struct Case {
    suite: &'static str,
    name: String,
    mark: Mark,
    reason: String,
    time: Option<Duration>,
}

pub(crate) async fn run(args: CheckArgs) -> ExitCode {
    let mut options = CheckOptions::default();
    let mut parity = ParityOptions::new();
    for pair in &args.tool_args {
        let Some((tool, json)) = pair.split_once('=') else {
            eprintln!("mcp-assured: --tool-args {pair:?}: expected TOOL=JSON");
            return ExitCode::from(2);
        };
        match serde_json::from_str::<Value>(json) {
            Ok(arguments) => {
                parity = parity.arguments(tool, arguments.clone());
                options = options.tool_arguments(tool, arguments);
            }
            Err(error) => {
                eprintln!("mcp-assured: --tool-args for `{tool}` is not JSON: {error}");
                return ExitCode::from(2);
            }
        }
    }
    let rest = match args.rest.as_deref().map(|url| args.target.rest_client(url)) {
        Some(Err(error)) => {
            eprintln!("mcp-assured: --rest: {error}");
            return ExitCode::from(2);
        }
        Some(Ok(rest)) => Some(rest),
        None => None,
    };
    let client = match args.target.connect().await {
        Ok(client) => client,
        Err(error) => {
            eprintln!("mcp-assured: {error}");
            return ExitCode::from(2);
        }
    };
    let mut cases = Vec::new();
    let mut json_report = Map::new();
    if !args.no_server_tests {
        match client.run_server_tests().await {
            Ok(report) => {
                for outcome in &report.outcomes {
                    let mut reason = outcome.reason.clone();
                    for problem in &outcome.problems {
                        reason.push_str(&format!(" [{problem}]"));
                    }
                    cases.push(Case {
                        suite: "server-tests",
                        name: outcome.tool.name.clone(),
                        mark: match outcome.status {
                            TestStatus::Passed => Mark::Pass,
                            TestStatus::Failed => Mark::Fail,
                            TestStatus::Skipped => Mark::Skip,
                        },
                        reason,
                        time: Some(outcome.elapsed),
                    });
                }
                json_report.insert("server_tests".into(), json!(report.outcomes));
            }
            Err(error) => cases.push(Case {
                suite: "server-tests",
                name: "discovery".into(),
                mark: Mark::Fail,
                reason: format!("could not list the tools: {error}"),
                time: None,
            }),
        }
    }
    let checks = client.check_with(&options).await;
    cases.extend(
        checks
            .checks
            .iter()
            .map(|check| case("protocol-checks", check)),
    );
    json_report.insert("protocol_checks".into(), json!(checks.checks));
    if let Some(rest) = &rest {
        let parity = check_parity_with(&client, rest, &parity).await;
        cases.extend(parity.checks.iter().map(|check| case("parity", check)));
        json_report.insert("parity_checks".into(), json!(parity.checks));
    }
    let server = client.server_info().clone();
    let _ = client.close().await;

    let count = |wanted: fn(Mark) -> bool| cases.iter().filter(|c| wanted(c.mark)).count();
    let (passed, failed, skipped) = (
        count(|m| matches!(m, Mark::Pass)),
        count(|m| matches!(m, Mark::Fail)),
        count(|m| matches!(m, Mark::Skip)),
    );
    if let Some(path) = &args.junit
        && let Err(error) = write_junit(path, &args.target.describe(), &cases)
    {
        eprintln!("mcp-assured: could not write {}: {error}", path.display());
        return ExitCode::from(2);
    }
    if args.json {
        json_report.insert("target".into(), json!(args.target.describe()));
        json_report.insert("server".into(), json!(server));
        json_report.insert(
            "summary".into(),
            json!({"passed": passed, "failed": failed, "skipped": skipped}),
        );
        println!(
            "{}",
            serde_json::to_string_pretty(&Value::Object(json_report)).unwrap_or_default()
        );
    } else {
        let colour = colour();
        println!(
            "{} {} on protocol {} ({})",
            server.name,
            server.version,
            server.protocol_version,
            args.target.describe()
        );
        for case in &cases {
            println!("{} {}: {}", mark(case.mark, colour), case.name, case.reason);
        }
        println!("{passed} passed, {failed} failed, {skipped} skipped");
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn write_junit(path: &PathBuf, target: &str, cases: &[Case]) -> Result<(), String> {
    let mut report = Report::new("mcp-assured check");
    // Every suite the cases name, in report order, so that none can be left out.
    let mut suites: Vec<&str> = Vec::new();
    for case in cases {
        if !suites.contains(&case.suite) {
            suites.push(case.suite);
        }
    }
    for suite_name in suites {
        let mut suite = TestSuite::new(suite_name);
        for case in cases.iter().filter(|case| case.suite == suite_name) {
            let status = match case.mark {
                Mark::Pass => TestCaseStatus::success(),
                Mark::Skip => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(case.reason.clone());
                    status
                }
                Mark::Fail => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(case.reason.clone());
                    status
                }
            };
            let mut test_case = TestCase::new(case.name.clone(), status);
            test_case.set_classname(format!("{suite_name}.{target}"));
            if let Some(time) = case.time {
                test_case.set_time(time);
            }
            suite.add_test_case(test_case);
        }
        if !suite.test_cases.is_empty() {
            report.add_test_suite(suite);
        }
    }
    let xml = report.to_string().map_err(|error| error.to_string())?;
    std::fs::write(path, xml).map_err(|error| error.to_string())
}
