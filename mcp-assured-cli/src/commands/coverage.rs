//! `mcp-assured coverage DIR`: the surface coverage recorded under DIR
//! (`MCP_ASSURED_COVERAGE=DIR cargo test` writes it), merged by server, as a table or JSON,
//! and with `--html FILE` as a page (what was never exercised first), with `--sarif FILE` as
//! code-scanning notes (and a warning per tally below its threshold); with `--min-*`, exit 1
//! below a threshold. A directory with no record is a usage error (exit 2), never a pass.

use std::path::PathBuf;

use clap::Args;
use mcp_assured::coverage::{Coverage, Thresholds};
use mcp_assured_cli::output;

use super::{
    html::HtmlArgs,
    outcome::{Exit, Failure, Outcome},
    sarif::SarifArgs,
    stdout::{out, outln},
};

#[derive(Debug, Args)]
pub(crate) struct CoverageArgs {
    /// The directory the records are in (searched with its subdirectories, so the
    /// directories of several CI partitions can be copied under one).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Only the server of this name (`serverInfo.name`; every version of it).
    #[arg(long, value_name = "NAME")]
    server: Option<String>,
    /// Exit 1 if less than this percentage of a server's listed tools was called.
    #[arg(long, value_name = "PERCENT")]
    min_tools: Option<f64>,
    /// Exit 1 if less than this percentage of the listed tools' arguments was sent.
    #[arg(long, value_name = "PERCENT")]
    min_arguments: Option<f64>,
    /// Exit 1 if less than this percentage of the arguments' enum and boolean values was
    /// sent.
    #[arg(long, value_name = "PERCENT")]
    min_values: Option<f64>,
    /// Exit 1 if less than this percentage of the outcomes (a success and an `isError`
    /// result per tool) was seen.
    #[arg(long, value_name = "PERCENT")]
    min_outcomes: Option<f64>,
    /// Exit 1 if less than this percentage of the listed prompts was got.
    #[arg(long, value_name = "PERCENT")]
    min_prompts: Option<f64>,
    /// Exit 1 if less than this percentage of the listed resources was read.
    #[arg(long, value_name = "PERCENT")]
    min_resources: Option<f64>,
    #[command(flatten)]
    sarif: SarifArgs,
    #[command(flatten)]
    html: HtmlArgs,
}

impl CoverageArgs {
    fn thresholds(&self) -> Result<Thresholds, Failure> {
        let thresholds = Thresholds {
            tools: self.min_tools,
            arguments: self.min_arguments,
            values: self.min_values,
            outcomes: self.min_outcomes,
            prompts: self.min_prompts,
            resources: self.min_resources,
            templates: None,
        };
        let given = [
            ("--min-tools", thresholds.tools),
            ("--min-arguments", thresholds.arguments),
            ("--min-values", thresholds.values),
            ("--min-outcomes", thresholds.outcomes),
            ("--min-prompts", thresholds.prompts),
            ("--min-resources", thresholds.resources),
        ];
        for (flag, minimum) in given {
            if let Some(minimum) = minimum
                && !(0.0..=100.0).contains(&minimum)
            {
                return Err(Failure::usage(format!(
                    "{flag} {minimum} is not a percentage: give 0 to 100"
                )));
            }
        }
        Ok(thresholds)
    }

    /// The thresholds given, as `--min-tools 100, --min-arguments 80`, or `none`.
    fn minimums(&self) -> String {
        let given: Vec<String> = [
            ("--min-tools", self.min_tools),
            ("--min-arguments", self.min_arguments),
            ("--min-values", self.min_values),
            ("--min-outcomes", self.min_outcomes),
            ("--min-prompts", self.min_prompts),
            ("--min-resources", self.min_resources),
        ]
        .into_iter()
        .filter_map(|(flag, minimum)| minimum.map(|minimum| format!("{flag} {minimum}")))
        .collect();
        if given.is_empty() {
            "none".to_owned()
        } else {
            given.join(", ")
        }
    }
}

pub(crate) async fn run(args: CoverageArgs, json: bool) -> Outcome {
    let thresholds = args.thresholds()?;
    let mut coverage =
        Coverage::load(&args.dir).map_err(|error| Failure::usage(error.to_string()))?;
    if let Some(name) = &args.server {
        coverage = coverage
            .only(name)
            .map_err(|error| Failure::usage(error.to_string()))?;
    }
    let report = coverage.report();
    let below = report.below(&thresholds);
    let servers: Vec<String> = report
        .servers
        .iter()
        .map(|server| server.server.to_string())
        .collect();
    let about = [
        (
            if servers.len() == 1 {
                "Server"
            } else {
                "Servers"
            },
            servers.join(", "),
        ),
        ("Directory", args.dir.display().to_string()),
        ("Minimums", args.minimums()),
    ];
    let title = format!("mcp-assured coverage: {}", servers.join(", "));
    let page = args
        .html
        .page_titled(title, &about)
        .map(|page| page.coverage(&report, &below));
    args.html.write(page)?;
    args.sarif
        .write_log("coverage", report.to_sarif(&below), &[])?;
    if json {
        let answer = output::Coverage {
            directory: args.dir.display().to_string(),
            servers: report.servers,
            below: below.clone(),
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&answer).unwrap_or_default()
        );
    } else {
        out!("{report}");
        for shortfall in &below {
            outln!("FAIL {shortfall}");
        }
    }
    Ok(Exit::from_success(below.is_empty()))
}
