//! `mcp-assured check`: the server's own `mcp.test.*` tests, the protocol checks, with
//! `--load` the torture checks `load.*` and, with `--rest URL`, the parity of a hybrid
//! server's REST surface with its MCP side, as a readable report, JSON, and JUnit XML; exit
//! status 1 when anything failed.

use super::stdout::outln;
use std::path::PathBuf;

use clap::Args;
use mcp_assured::{
    checks::{
        CHECKS, CheckOptions, HybridOptions, LOAD_CHECKS, ParityOptions, check_hybrid_with,
        check_parity_with, names_a_check,
    },
    diff::Surface,
    lint,
    report::{Entry, Report, Status},
    server_tests,
};
use mcp_assured_cli::output;
use serde_json::Value;

use super::{
    html::HtmlArgs,
    outcome::{Exit, Failure, Outcome},
    progress::Live,
    sarif::SarifArgs,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// Write a JUnit XML report here (for CI systems).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Also fail when a definition (tool, prompt, resource, template) changed since
    /// `mcp-assured pin --out FILE` wrote FILE: a rug pull, or a release to pin again.
    #[arg(long, value_name = "FILE")]
    pinned: Option<PathBuf>,
    /// Arguments for checking a tool's structured output: `TOOL=JSON` (repeatable).
    #[arg(long = "tool-args", value_name = "TOOL=JSON")]
    tool_args: Vec<String>,
    /// Skip the server's own mcp.test.* tools.
    #[arg(long)]
    no_server_tests: bool,
    /// Report this protocol check as skipped, whatever it finds (a known fault of the SDK
    /// the server is built on, say): its name, or a prefix ending in `*` such as `http.*`.
    /// The line still says what it found. Repeatable.
    #[arg(long, value_name = "CHECK")]
    skip: Vec<String>,
    /// Fail every warning, which otherwise leaves the exit status 0: the checks that find a
    /// SHOULD of the specification broken (or a sentence without a keyword; without it only
    /// a MUST broken fails), and the server tests' and parity's warnings.
    #[arg(long)]
    strict: bool,
    /// A token the server issued that has expired: check that the server refuses it with
    /// 401 (auth.tokens_refused). Never printed.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_ASSURED_EXPIRED_TOKEN",
        hide_env_values = true
    )]
    expired_token: Option<String>,
    /// A token issued for another resource (another audience): check that the server
    /// refuses it with 401 (auth.tokens_refused). Never printed.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_ASSURED_OTHER_AUDIENCE_TOKEN",
        hide_env_values = true
    )]
    other_audience_token: Option<String>,
    /// Also run the torture checks (load.*, 10–20 s): many sessions and calls in flight at
    /// once, each answer matched to its request by content; memory given back after
    /// cancelled calls and closed sessions; many sessions open at once, or refused clearly.
    #[arg(long)]
    load: bool,
    /// How many sessions load.session_limit holds open at once over HTTP.
    #[arg(long, value_name = "N", default_value_t = 100, requires = "load")]
    load_sessions: usize,
    /// The pid of the HTTP server's process, whose memory load.* watches (by default the
    /// process listening on a loopback URL's port; a stdio server's own process).
    #[arg(long, value_name = "PID", requires = "load")]
    load_pid: Option<u32>,
    /// The tool load.* sends unique markers through, in each string argument; its answer
    /// must carry them (by default a tool named like `echo` that does).
    #[arg(long, value_name = "TOOL", requires = "load")]
    echo_tool: Option<String>,
    /// A hybrid server's REST base URL (`GET /mcp/tools`, `POST /mcp/tools/{name}/execute`):
    /// also check that it agrees with the MCP side. Sends the same headers and bearer token.
    #[arg(long, value_name = "URL")]
    rest: Option<String>,
    /// With `--rest`: a call that runs longer than its tool's maxExecutionTime (its backend
    /// made slow, say), `TOOL=JSON` (repeatable): hybrid.max_execution_time expects
    /// TIMEOUT_ERROR in time on both faces.
    #[arg(long = "slow-call", value_name = "TOOL=JSON", requires = "rest")]
    slow_calls: Vec<String>,
    /// With `--rest`: a bearer token that grants only `--limited-scopes`: hybrid.permissions
    /// calls every tool that declares permissions with it, expecting PERMISSION_ERROR
    /// exactly where one is missing. Never printed.
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_ASSURED_LIMITED_TOKEN",
        hide_env_values = true,
        requires = "rest"
    )]
    limited_token: Option<String>,
    /// The scopes `--limited-token` grants, comma-separated (none if not given).
    #[arg(
        long,
        value_name = "SCOPES",
        value_delimiter = ',',
        requires = "limited_token"
    )]
    limited_scopes: Vec<String>,
    #[command(flatten)]
    sarif: SarifArgs,
    #[command(flatten)]
    html: HtmlArgs,
    #[command(flatten)]
    target: Target,
}

/// Runs the checks; with `json`, the report is printed as JSON instead of text.
pub(crate) async fn run(args: CheckArgs, json: bool) -> Outcome {
    let mut options = CheckOptions::default()
        .strict(args.strict)
        .load(args.load)
        .load_sessions(args.load_sessions);
    if let Some(pid) = args.load_pid {
        options = options.load_process_id(pid);
    }
    if let Some(tool) = &args.echo_tool {
        options = options.echo_tool(tool);
    }
    if let Some(token) = &args.expired_token {
        options = options.expired_token(token);
    }
    if let Some(token) = &args.other_audience_token {
        options = options.other_audience_token(token);
    }
    for pattern in &args.skip {
        if !names_a_check(pattern) {
            return Err(Failure::usage(format!(
                "--skip {pattern:?} names no check. The checks: {}; with --load: {}",
                CHECKS.join(", "),
                LOAD_CHECKS.join(", ")
            )));
        }
        options = options.skip(pattern);
    }
    let mut parity = ParityOptions::new();
    let mut hybrid = HybridOptions::new();
    for pair in &args.tool_args {
        let (tool, arguments) = tool_and_json("--tool-args", pair)?;
        parity = parity.arguments(&tool, arguments.clone());
        hybrid = hybrid.arguments(&tool, arguments.clone());
        options = options.tool_arguments(&tool, arguments);
    }
    for pair in &args.slow_calls {
        let (tool, arguments) = tool_and_json("--slow-call", pair)?;
        hybrid = hybrid.slow_call(tool, arguments);
    }
    if let Some(token) = &args.limited_token {
        let credentials = mcp_assured::Credentials::new().bearer_token(token.clone());
        hybrid = hybrid.limited_credentials(credentials, args.limited_scopes.iter().cloned());
    }
    let rest = args
        .rest
        .as_deref()
        .map(|url| args.target.rest_client(url))
        .transpose()?;
    let pinned = args
        .pinned
        .as_deref()
        .map(|path| {
            Surface::from_path(path)
                .map_err(|error| Failure::usage(format!("--pinned {}: {error}", path.display())))
        })
        .transpose()?;
    let client = args.target.connect().await?;
    let server = client.server_info().clone();
    let target = args.target.describe();
    // The text goes out as each check ends; JSON and JUnit are written once, at the end.
    // Coloured labels, which anstream strips unless `--color` and the terminal allow them.
    let text = !json;
    if text {
        outln!(
            "{} {} on protocol {} ({target})",
            server.name,
            server.version,
            server.protocol_version,
        );
    }
    // With --load the run takes 10-20 s more: a spinner on a terminal's stderr, each
    // check's line printed above it.
    let live = if args.load {
        Live::spinner("check --load")
    } else {
        Live::none()
    };
    let shown = live.clone();
    let done = std::sync::atomic::AtomicUsize::new(0);
    options = options.progress(move |entry| {
        let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if text {
            shown.suspend(|| outln!("{}", entry.text().colour(true)));
        }
        shown.say(format!("{done} done, the last `{}`", entry.name));
    });
    let print_all = |part: &Report| {
        if text {
            for entry in part {
                outln!("{}", entry.text().colour(true));
            }
        }
    };
    // Strict: every warning of every part fails.
    let strictly = |part: Report| if args.strict { part.strictly() } else { part };
    // One report for the text and JUnit; the JSON keeps each part under its own key.
    let mut report = Report::default();
    let mut parts: std::collections::BTreeMap<&str, Vec<Entry>> = Default::default();
    let mut add = |key: &'static str, part: Report| {
        parts.insert(key, part.entries().to_vec());
        report.extend(part);
    };
    if !args.no_server_tests {
        let tests = client.run_server_tests().await.unwrap_or_else(|error| {
            let message = format!("could not list the tools: {error}");
            let discovery = Entry::new(server_tests::SUITE, "discovery", Status::Failed, message);
            Report::from_iter([discovery])
        });
        let tests = strictly(tests);
        print_all(&tests);
        add("server_tests", tests);
    }
    add("protocol_checks", client.check_with(&options).await);
    live.finish();
    if let Some(pinned) = &pinned {
        let entry = pinned_entry(pinned, &client).await;
        if text {
            outln!("{}", entry.text().colour(true));
        }
        add("pinned", Report::from_iter([entry]));
    }
    if let Some(rest) = &rest {
        let parity_report = strictly(check_parity_with(&client, rest, &parity).await);
        print_all(&parity_report);
        add("parity_checks", parity_report);
        let hybrid_report = strictly(check_hybrid_with(&client, rest, &hybrid).await);
        print_all(&hybrid_report);
        add("hybrid_checks", hybrid_report);
    }
    let _ = client.close().await;

    if let Some(path) = &args.junit {
        let xml = report
            .junit("mcp-assured check")
            .target(&target)
            .to_string();
        Failure::write_file(path, xml)?;
    }
    let mut settings = vec![("Strict", args.strict.to_string())];
    if args.load {
        settings.push(("Load", format!("{} sessions", args.load_sessions)));
    }
    if let Some(path) = &args.pinned {
        settings.push(("Pinned", path.display().to_string()));
    }
    if let Some(rest) = &args.rest {
        settings.push(("REST", rest.clone()));
    }
    if !args.skip.is_empty() {
        settings.push(("Skipped", args.skip.join(", ")));
    }
    let page = args.html.page("check", Some(&server), &target, &settings);
    args.html.write(page.map(|page| page.report(&report)))?;
    if args.sarif.wanted() {
        // The pinned entry is about the pinned file; the rest about the server.
        let (pinned_part, rest): (Vec<Entry>, Vec<Entry>) = report
            .entries()
            .iter()
            .cloned()
            .partition(|entry| entry.suite == "pinned");
        let mut log = Report::from_iter(rest).to_sarif();
        let pinned_log = Report::from_iter(pinned_part).to_sarif();
        log.extend(match &args.pinned {
            Some(path) => pinned_log.located_at(path),
            None => pinned_log,
        });
        args.sarif
            .write("check", log, &server.name, &[args.target.config_file()])?;
    }
    if json {
        let document = output::Check {
            server_tests: parts.remove("server_tests"),
            protocol_checks: parts.remove("protocol_checks").unwrap_or_default(),
            pinned: parts.remove("pinned"),
            parity_checks: parts.remove("parity_checks"),
            hybrid_checks: parts.remove("hybrid_checks"),
            target,
            server,
            summary: report.summary(),
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        outln!("{}", report.summary());
    }
    Ok(Exit::from_success(report.is_success()))
}

/// `TOOL=JSON` of `flag`, split and parsed.
fn tool_and_json(flag: &str, pair: &str) -> Result<(String, Value), Failure> {
    let Some((tool, text)) = pair.split_once('=') else {
        return Err(Failure::usage(format!(
            "{flag} {pair:?}: expected TOOL=JSON"
        )));
    };
    let arguments = serde_json::from_str::<Value>(text)
        .map_err(|error| Failure::usage(format!("{flag} for `{tool}` is not JSON: {error}")))?;
    Ok((tool.to_owned(), arguments))
}

/// `--pinned`: the server's definitions against the pinned ones, one entry (each change a
/// problem, said as `mcp-assured diff` says it), grounded on `MA-PINNED`.
async fn pinned_entry(pinned: &Surface, client: &mcp_assured::McpClient) -> Entry {
    let now = match Surface::from_client(client).await {
        Ok(now) => now,
        Err(error) => {
            let mut entry = Entry::new(
                "pinned",
                "pinned",
                Status::Failed,
                format!("could not list what the server offers: {error}"),
            );
            entry.clause = Some(mcp_assured::rules::PINNED);
            return entry;
        }
    };
    let changes: Vec<String> = lint::changed_since(pinned, &now)
        .iter()
        .map(|finding| {
            format!(
                "{} at {}: {}",
                finding.subject, finding.location, finding.message
            )
        })
        .collect();
    let mut entry = if changes.is_empty() {
        Entry::new(
            "pinned",
            "pinned",
            Status::Passed,
            "every definition is as pinned",
        )
    } else {
        let mut entry = Entry::new(
            "pinned",
            "pinned",
            Status::Failed,
            format!(
                "{} definition change(s) since the pin (a rug pull, or a release to pin again)",
                changes.len()
            ),
        );
        entry.problems = changes;
        entry
    };
    entry.clause = Some(mcp_assured::rules::PINNED);
    entry
}
