//! `mcp-assured bench`: a load run against a server, a mix of named calls or every tool
//! with generated arguments, at a concurrency, over one or more sessions, for a duration or
//! a count; prints latency percentiles, throughput and errors by kind per tool; exit status
//! 1 when a threshold is missed.

use super::stdout::outln;
use mcp_assured_cli::output;
use std::{path::PathBuf, time::Duration};

use clap::Args;
use mcp_assured::load::{DEFAULT_DURATION, LoadBuilder, Progress};
use serde_json::{Value, json};

use super::{
    html::HtmlArgs,
    outcome::{Exit, Failure, Outcome},
    progress::{self, Live},
    sarif::SarifArgs,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    /// A call to send: `TOOL=JSON` (JSON an object; `TOOL` alone for no arguments), with
    /// `@WEIGHT` after it to send it WEIGHT times as often as a call of weight 1, e.g.
    /// `--call 'echo={"message":"hi"}@3'`. Repeatable: each call of the run picks one of
    /// them at random, by weight. Without any, every tool is called (as --all-tools).
    #[arg(long = "call", value_name = "TOOL=JSON[@WEIGHT]")]
    calls: Vec<String>,
    /// Call every tool the server lists, equally often, with valid arguments generated from
    /// its input schema as `fuzz` generates them (the default without --call). Tools
    /// annotated destructiveHint are left out unless --include-destructive.
    #[arg(long, conflicts_with = "calls")]
    all_tools: bool,
    /// With --all-tools, also call tools annotated destructiveHint.
    #[arg(long)]
    include_destructive: bool,
    /// Calls in flight at once in each session.
    #[arg(long, default_value_t = 1, value_name = "N")]
    concurrency: usize,
    /// Sessions to spread the calls over: over stdio, N server processes; over HTTP, N
    /// connections, each its own MCP session.
    #[arg(long, default_value_t = 1, value_name = "N")]
    sessions: usize,
    /// Measure for this many seconds (default 10 when --calls is not given either).
    #[arg(long, value_name = "SECONDS")]
    duration: Option<f64>,
    /// Measure this many calls, over all sessions (with --duration, whichever ends first).
    #[arg(long = "calls", value_name = "N")]
    count: Option<u64>,
    /// Send this many calls first, not measured.
    #[arg(long, default_value_t = 0, value_name = "N")]
    warmup: u64,
    /// Seconds one call may take before it counts as a timeout (default: --timeout).
    #[arg(long, value_name = "SECONDS")]
    call_timeout: Option<f64>,
    /// Exit 1 unless the median latency is at most MS milliseconds.
    #[arg(long, value_name = "MS")]
    max_p50: Option<f64>,
    /// Exit 1 unless the 90th percentile latency is at most MS milliseconds.
    #[arg(long, value_name = "MS")]
    max_p90: Option<f64>,
    /// Exit 1 unless the 99th percentile latency is at most MS milliseconds.
    #[arg(long, value_name = "MS")]
    max_p99: Option<f64>,
    /// Exit 1 unless at most this share of calls failed, any kind (0.01 = 1%). Without it,
    /// one failed call exits 1.
    #[arg(long, value_name = "FRACTION")]
    max_error_rate: Option<f64>,
    /// Exit 1 unless at least this many calls per second completed.
    #[arg(long, value_name = "CALLS_PER_SEC")]
    min_throughput: Option<f64>,
    /// Also write the report as JSON to FILE (`-` for stdout); the global --json prints it
    /// on stdout instead of the table.
    #[arg(long, value_name = "FILE")]
    json_file: Option<PathBuf>,
    /// Write a JUnit XML report here (for CI systems): a test case for the run and one per
    /// threshold.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    #[command(flatten)]
    sarif: SarifArgs,
    #[command(flatten)]
    html: HtmlArgs,
    #[command(flatten)]
    target: Target,
}

/// A `--call`: the tool, its arguments and its weight.
#[derive(Debug, PartialEq)]
struct CallSpec {
    tool: String,
    arguments: Value,
    weight: u32,
}

/// Parses `TOOL`, `TOOL@W`, `TOOL=JSON` or `TOOL=JSON@W`.
fn parse_call(text: &str) -> Result<CallSpec, Failure> {
    let weighted =
        |rest: &str| -> Result<(String, u32), Failure> {
            match rest.rsplit_once('@') {
                Some((body, weight))
                    if !weight.is_empty() && weight.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    let weight = weight.parse::<u32>().ok().filter(|w| *w > 0).ok_or_else(|| {
                    Failure::usage(format!(
                        "--call {text:?}: the weight after `@` is a whole number from 1 to {}",
                        u32::MAX
                    ))
                })?;
                    Ok((body.to_owned(), weight))
                }
                _ => Ok((rest.to_owned(), 1)),
            }
        };
    let (tool, arguments, weight) = match text.split_once('=') {
        Some((tool, rest)) => {
            let (json, weight) = weighted(rest)?;
            let arguments = serde_json::from_str::<Value>(&json).map_err(|error| {
                Failure::usage(format!(
                    "--call {text:?}: the arguments of `{tool}` are not JSON ({error}); \
                     write TOOL='{{\"name\": \"value\"}}'"
                ))
            })?;
            if !arguments.is_object() {
                return Err(Failure::usage(format!(
                    "--call {text:?}: the arguments of `{tool}` must be a JSON object, got {arguments}"
                )));
            }
            (tool.to_owned(), arguments, weight)
        }
        None => {
            let (tool, weight) = weighted(text)?;
            (tool, json!({}), weight)
        }
    };
    if tool.trim().is_empty() {
        return Err(Failure::usage(format!(
            "--call {text:?}: expected TOOL=JSON[@WEIGHT], e.g. echo='{{\"message\":\"hi\"}}'@2"
        )));
    }
    Ok(CallSpec {
        tool,
        arguments,
        weight,
    })
}

fn seconds(flag: &str, value: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            Failure::usage(format!(
                "{flag} {value}: expected a number of seconds above 0"
            ))
        })
}

fn milliseconds(flag: &str, value: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(value / 1000.0)
        .map_err(|_| Failure::usage(format!("{flag} {value}: expected milliseconds, 0 or more")))
}

/// Sets up the run from the arguments; every wrong value is a usage failure.
fn configure<'a>(args: &BenchArgs, mut load: LoadBuilder<'a>) -> Result<LoadBuilder<'a>, Failure> {
    for text in &args.calls {
        let call = parse_call(text)?;
        load = load.call_weighted(call.tool, call.arguments, call.weight);
    }
    if args.all_tools || args.calls.is_empty() {
        load = load.every_tool();
    }
    load = load
        .include_destructive(args.include_destructive)
        .concurrency(args.concurrency)
        .sessions(args.sessions)
        .warmup(args.warmup);
    if let Some(duration) = args.duration {
        load = load.duration(seconds("--duration", duration)?);
    }
    if let Some(count) = args.count {
        load = load.calls(count);
    }
    if let Some(timeout) = args.call_timeout {
        load = load.call_timeout(seconds("--call-timeout", timeout)?);
    }
    if let Some(ms) = args.max_p50 {
        load = load.max_p50(milliseconds("--max-p50", ms)?);
    }
    if let Some(ms) = args.max_p90 {
        load = load.max_p90(milliseconds("--max-p90", ms)?);
    }
    if let Some(ms) = args.max_p99 {
        load = load.max_p99(milliseconds("--max-p99", ms)?);
    }
    if let Some(rate) = args.max_error_rate {
        load = load.max_error_rate(rate);
    }
    if let Some(rate) = args.min_throughput {
        load = load.min_throughput(rate);
    }
    Ok(load)
}

/// The progress of a run on the bar: against its duration, or its count of calls.
fn show_progress(live: &Live, how_far: &Progress) {
    let phase = if how_far.warming_up {
        "warming up"
    } else {
        "measuring"
    };
    let rate = how_far.calls as f64 / how_far.elapsed.as_secs_f64().max(1e-3);
    let message = format!(
        "{phase}: {} calls, {} errors, {rate:.0} calls/s",
        how_far.calls, how_far.errors
    );
    match (how_far.duration, how_far.target_calls) {
        (Some(duration), _) => {
            let left = duration.saturating_sub(how_far.elapsed);
            live.show(
                how_far.elapsed.as_millis() as u64,
                Some(duration.as_millis() as u64),
                format!("{message}, {} left", progress::duration(left)),
            );
        }
        (None, Some(calls)) => live.show(how_far.calls, Some(calls), message),
        (None, None) => live.say(message),
    }
}

/// Runs the load; with `json`, the report is printed as JSON instead of the table.
pub(crate) async fn run(args: BenchArgs, json: bool) -> Outcome {
    // The calls are checked before the server is started.
    for text in &args.calls {
        parse_call(text)?;
    }
    let client = args.target.connect().await?;
    let server = client.server_info().clone();
    let target = args.target.describe();
    let live = Live::bar("bench", 1);
    let outcome = match configure(&args, client.load()) {
        Ok(mut load) => {
            let shown = live.clone();
            load = load.progress(move |how_far| show_progress(&shown, how_far));
            if !json {
                outln!(
                    "{} {} on protocol {} ({target})",
                    server.name,
                    server.version,
                    server.protocol_version,
                );
                if args.duration.is_none() && args.count.is_none() {
                    outln!(
                        "measuring for {} s (give --duration or --calls to change it)",
                        DEFAULT_DURATION.as_secs()
                    );
                }
            }
            let report = load.run().await;
            live.finish();
            report.map_err(|error| match error {
                mcp_assured::Error::InvalidInput { .. } | mcp_assured::Error::NotFound { .. } => {
                    Failure::usage(error.to_string())
                }
                _ => Failure::unreachable(error.to_string()),
            })
        }
        Err(failure) => Err(failure),
    };
    let _ = client.close().await;
    let report = outcome?;

    let document = output::Bench {
        target: target.clone(),
        server: server.clone(),
        load: report.clone(),
    };
    let pretty = serde_json::to_string_pretty(&document).unwrap_or_default();
    if let Some(path) = &args.json_file {
        if path.as_os_str() == "-" {
            outln!("{pretty}");
        } else {
            Failure::write_file(path, &pretty)?;
        }
    }
    if let Some(path) = &args.junit {
        let xml = report
            .to_report()
            .junit("mcp-assured bench")
            .target(&target)
            .to_string();
        Failure::write_file(path, xml)?;
    }
    let settings = [
        ("Sessions", report.sessions.to_string()),
        ("Concurrency", report.concurrency.to_string()),
        ("Warm-up calls", report.warmup_calls.to_string()),
    ];
    let page = args.html.page("bench", Some(&server), &target, &settings);
    args.html.write(page.map(|page| page.load(&report)))?;
    args.sarif.write(
        "bench",
        report.to_report().to_sarif(),
        &server.name,
        &[args.target.config_file()],
    )?;
    if json {
        outln!("{pretty}");
    } else {
        outln!("{report}");
    }
    // On stderr in both forms, so that a CI log shows why the step failed.
    for missed in report.missed() {
        eprintln!(
            "mcp-assured: threshold missed: {}, measured {}",
            missed.limit, missed.measured
        );
    }
    Ok(Exit::from_success(report.is_success()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_parse_with_and_without_arguments_and_weights() {
        let call = |tool: &str, arguments: Value, weight| CallSpec {
            tool: tool.to_owned(),
            arguments,
            weight,
        };
        assert_eq!(
            parse_call(r#"echo={"message":"a@3"}"#).unwrap(),
            call("echo", json!({"message": "a@3"}), 1)
        );
        assert_eq!(
            parse_call(r#"echo={"message":"hi"}@3"#).unwrap(),
            call("echo", json!({"message": "hi"}), 3)
        );
        assert_eq!(parse_call("ping").unwrap(), call("ping", json!({}), 1));
        assert_eq!(parse_call("ping@2").unwrap(), call("ping", json!({}), 2));
    }

    #[test]
    fn bad_calls_are_usage_errors_that_say_what_to_write() {
        for (text, says) in [
            ("echo={nope", "not JSON"),
            ("echo=[1]", "must be a JSON object"),
            ("echo={}@0", "weight"),
            ("={}", "expected TOOL=JSON"),
        ] {
            let failure = parse_call(text).unwrap_err();
            assert!(format!("{failure:?}").contains(says), "{text}: {failure:?}");
        }
    }
}
