//! `mcp-assured fuzz`: every tool's arguments generated from its input schema, valid and
//! invalid, and the variables of resource templates and arguments of prompts; each bug
//! printed with the smallest input that shows it and how to reproduce it; exit status 1
//! when a finding fails, the seed printed for a rerun.

use super::stdout::outln;
use std::{path::PathBuf, time::Duration};

use clap::Args;
use mcp_assured::fuzz::{self, DEFAULT_CASES, DEFAULT_CONCURRENCY};
use mcp_assured_cli::output;

use super::{
    html::HtmlArgs,
    outcome::{Exit, Failure, Outcome},
    progress::{self, Live},
    sarif::SarifArgs,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct FuzzArgs {
    /// The seed inputs are generated from; the same seed generates the same inputs
    /// (default: MCP_ASSURED_FUZZ_SEED, or a random one, printed).
    #[arg(long, env = "MCP_ASSURED_FUZZ_SEED")]
    seed: Option<u64>,
    /// Valid inputs per tool, template and prompt, and as many invalid ones.
    #[arg(long, default_value_t = DEFAULT_CASES)]
    cases: u32,
    /// Fuzz only this tool (repeatable); templates and prompts then only with --templates
    /// and --prompts.
    #[arg(long, value_name = "NAME")]
    tool: Vec<String>,
    /// Leave this tool out (repeatable).
    #[arg(long, value_name = "NAME")]
    exclude_tool: Vec<String>,
    /// Fuzz resource templates even when --tool names tools.
    #[arg(long, conflicts_with = "no_templates")]
    templates: bool,
    /// Do not fuzz resource templates.
    #[arg(long)]
    no_templates: bool,
    /// Fuzz prompts even when --tool names tools.
    #[arg(long, conflicts_with = "no_prompts")]
    prompts: bool,
    /// Do not fuzz prompts.
    #[arg(long)]
    no_prompts: bool,
    /// Stop sending new inputs after this many seconds and report what was found.
    #[arg(long, value_name = "SECONDS")]
    time_budget: Option<f64>,
    /// How long one call may take before it counts as a hang (default: 5, or --timeout when
    /// shorter).
    #[arg(long, value_name = "SECONDS")]
    call_timeout: Option<f64>,
    /// Calls in flight at once (1: one at a time).
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY)]
    concurrency: usize,
    /// Also fuzz tools annotated destructiveHint.
    #[arg(long)]
    include_destructive: bool,
    /// A regression file: its past findings are sent first, and new ones added to it.
    #[arg(long, value_name = "FILE")]
    regressions: Option<PathBuf>,
    /// Fail every warning: the findings that only warn (an extra property accepted, a prompt
    /// that serves a missing required argument, a finding seen only with other calls in
    /// flight, a slow tool) and the run's own (a schema no input can be generated from, calls
    /// the server kept refusing).
    #[arg(long)]
    strict: bool,
    /// Write a JUnit XML report here (for CI systems).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    #[command(flatten)]
    sarif: SarifArgs,
    #[command(flatten)]
    html: HtmlArgs,
    #[command(flatten)]
    target: Target,
}

fn seconds(flag: &str, value: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(value)
        .map_err(|_| Failure::usage(format!("{flag} {value}: expected a number of seconds")))
}

/// Fuzzes the server; with `json`, the report is printed as JSON instead of text.
pub(crate) async fn run(args: FuzzArgs, json: bool) -> Outcome {
    let client = args.target.connect().await?;
    let server = client.server_info().clone();
    let target = args.target.describe();
    let mut fuzz = client
        .fuzz()
        .cases(args.cases)
        .concurrency(args.concurrency)
        .include_destructive(args.include_destructive)
        .strict(args.strict);
    if let Some(seed) = args.seed {
        fuzz = fuzz.seed(seed);
    }
    for tool in &args.tool {
        fuzz = fuzz.tool(tool);
    }
    for tool in &args.exclude_tool {
        fuzz = fuzz.exclude_tool(tool);
    }
    if args.templates || args.no_templates {
        fuzz = fuzz.templates(args.templates);
    }
    if args.prompts || args.no_prompts {
        fuzz = fuzz.prompts(args.prompts);
    }
    if let Some(budget) = args.time_budget {
        fuzz = fuzz.time_budget(seconds("--time-budget", budget)?);
    }
    if let Some(timeout) = args.call_timeout {
        fuzz = fuzz.call_timeout(seconds("--call-timeout", timeout)?);
    }
    if let Some(path) = &args.regressions {
        fuzz = fuzz.regressions(path);
    }
    if let Some(words) = args.target.config_words() {
        fuzz = fuzz.reproduce_as(words);
    }
    if !json {
        outln!(
            "{} {} on protocol {} ({target})",
            server.name,
            server.version,
            server.protocol_version,
        );
    }
    let live = Live::bar("fuzz", 1);
    let shown = live.clone();
    fuzz = fuzz.progress(move |how_far| {
        let left = how_far
            .time_left()
            .map(|left| format!(", {} left", progress::duration(left)))
            .unwrap_or_default();
        let message = format!(
            "{} calls, {} failure{} so far, {}/{} subjects done{left}",
            how_far.calls,
            how_far.failures,
            if how_far.failures == 1 { "" } else { "s" },
            how_far.subjects_done,
            how_far.subjects,
        );
        // Against the time budget when there is one, else against the inputs planned.
        match how_far.time_budget {
            Some(budget) => shown.show(
                how_far.elapsed.as_millis() as u64,
                Some(budget.as_millis() as u64),
                message,
            ),
            None => shown.show(
                how_far.calls.min(how_far.planned_inputs),
                Some(how_far.planned_inputs.max(1)),
                message,
            ),
        }
    });
    let report = fuzz.run().await;
    live.finish();
    let _ = client.close().await;
    if let Some(path) = &args.junit {
        let xml = report.junit("mcp-assured fuzz").target(&target).to_string();
        Failure::write_file(path, xml)?;
    }
    let mut settings = vec![
        ("Seed", report_seed(&report)),
        ("Cases", args.cases.to_string()),
        ("Concurrency", args.concurrency.to_string()),
        ("Strict", args.strict.to_string()),
    ];
    if let Some(budget) = args.time_budget {
        settings.push(("Time budget", format!("{budget} s")));
    }
    if let Some(path) = &args.regressions {
        settings.push(("Regressions", path.display().to_string()));
    }
    let page = args.html.page("fuzz", Some(&server), &target, &settings);
    args.html.write(page.map(|page| page.report(&report)))?;
    args.sarif.write(
        "fuzz",
        report.to_sarif(),
        &server.name,
        &[args.regressions.as_deref(), args.target.config_file()],
    )?;
    if json {
        let output = output::Fuzz {
            target,
            server,
            fuzz: report.entries().to_vec(),
            findings: fuzz::findings(&report),
            summary: report.summary(),
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&output).unwrap_or_default()
        );
    } else {
        for entry in &report {
            outln!("{}", entry.text().colour(true));
        }
        for (number, finding) in fuzz::findings(&report).iter().enumerate() {
            outln!(
                "\nfinding {}: {} in {} `{}`, as a test:\n{}",
                number + 1,
                finding.kind,
                finding.subject,
                finding.name,
                finding.reproduce.test
            );
        }
        outln!("{}", report.summary());
    }
    Ok(Exit::from_success(report.is_success()))
}

/// The run's seed, as its `fuzz.run` entry holds it.
fn report_seed(report: &mcp_assured::report::Report) -> String {
    report
        .entry("fuzz.run")
        .and_then(|entry| entry.details.get("seed"))
        .map_or_else(|| "unknown".to_owned(), |seed| seed.to_string())
}
