//! MCP surface coverage: which of a server's tools, arguments, values and outcomes, prompts,
//! resources and templates a test suite exercised, measured from what the client sent and
//! received, so it works for a server in any language.
//!
//! Turn recording on for a whole run with the `MCP_ASSURED_COVERAGE` environment variable
//! (the directory the records go to), or for one client with
//! [`ClientBuilder::coverage_to`](crate::ClientBuilder::coverage_to):
//!
//! ```text
//! MCP_ASSURED_COVERAGE=target/mcp-coverage cargo test
//! mcp-assured coverage target/mcp-coverage --min-tools 100 --min-arguments 80 \
//!     --html coverage.html --sarif coverage.sarif --sarif-artifact mcp.json
//! ```
//!
//! Every client writes one file of its own (`*.coverage.json`, a [`Record`]) when it closes
//! or is dropped, so that the processes of `cargo nextest`, and the partitions of a CI run
//! on many machines, each add theirs to the directory (or to directories copied into one).
//! [`Coverage::load`] merges every record under a directory, by server (`serverInfo` name
//! and version); [`Coverage::report`] compares what was exercised against what the server
//! listed (`tools/list` and the others, every page, as the suite listed them or, for what it
//! did not list, as the client listed them before closing).
//!
//! What counts, per server:
//! - **tools**: each listed tool called at least once; a tool called but not listed is
//!   reported apart ([`Unlisted`]).
//! - **arguments**: each top-level property of each listed tool's input schema, sent in at
//!   least one call (how often it was absent is in the record: calls less presences).
//! - **values**: each value of an argument's `enum` (or `const`, or `anyOf` of constants),
//!   and `false` and `true` of a boolean argument, sent at least once.
//! - **outcomes**: for each listed tool, a success and an `isError` result, each seen at
//!   least once (JSON-RPC errors are counted, not covered).
//! - **prompts**, **resources**, **templates**: each listed one got or read (a template by
//!   a URI it matches).
//! - beside the tallies: each tool's successful structured outputs checked against its
//!   output schema (with the `schema` feature), and every notification the server sent.
//!
//! A [`CoverageReport`] reads as text ([`Display`](std::fmt::Display)), serialises to JSON
//! (`mcp-assured coverage --json`, the `Coverage` document of `schemas/report.schema.json`),
//! renders as one self-contained page, what was never exercised first
//! ([`HtmlReport::coverage`](crate::html::HtmlReport::coverage), `--html FILE`), and, with
//! the `sarif` feature, turns into SARIF for code scanning: each item never exercised a
//! `note` of a stable rule (`coverage/tool-never-called`, `coverage/argument-never-sent`,
//! ...), each tally below its threshold a `warning` (`CoverageReport::to_sarif`,
//! `--sarif FILE`).
//!
//! ```
//! use mcp_assured::coverage::{Coverage, Record, ServerCoverage, ServerId, ToolSurface};
//! use serde_json::json;
//!
//! let server = ServerId { name: "weather".into(), version: "1.0.0".into() };
//! let mut record = ServerCoverage::new(server);
//! let tool = json!({"name": "forecast", "inputSchema": {"type": "object", "properties": {
//!     "city": {"type": "string"},
//!     "units": {"enum": ["metric", "imperial"]},
//! }}});
//! record.listed.tools = Some([("forecast".to_owned(), ToolSurface::from_tool(&tool))].into());
//! let call = record.exercised.tools.entry("forecast".into()).or_default();
//! call.calls = 1;
//! call.arguments.entry("city".into()).or_default().present = 1;
//!
//! let report = Coverage::from_records([Record::new(vec![record])]).report();
//! let weather = &report.servers[0];
//! assert_eq!((weather.tools.covered, weather.tools.total), (1, 1));
//! assert_eq!((weather.arguments.covered, weather.arguments.total), (1, 2));
//! assert_eq!((weather.values.covered, weather.values.total), (0, 2));
//! assert_eq!(weather.uncovered.arguments[0].argument, "units");
//! ```

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
};

pub(crate) mod record;
pub(crate) mod recorder;
pub(crate) mod report;
mod uri_template;

#[cfg(test)]
mod tests;

pub use record::{
    ArgumentSurface, ArgumentUse, Exercised, FORMAT, MAX_VALUES, Outcomes, OutputChecks, Record,
    ServerCoverage, ServerId, Surface, ToolSurface, ToolUse,
};
pub use recorder::ENV;
pub use report::{
    ArgumentRef, ArgumentRow, CoverageReport, Outcome, OutcomeRef, ServerReport, Shortfall, Tally,
    Thresholds, ToolRow, Uncovered, Unlisted, ValueRef,
};

/// The records of a directory, merged by server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coverage {
    servers: BTreeMap<ServerId, ServerCoverage>,
}

/// Why a coverage directory could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoverageError {
    /// A file or directory could not be read.
    Read {
        /// Which.
        path: PathBuf,
        /// Why.
        problem: String,
    },
    /// A file is not a coverage record of this version.
    Malformed {
        /// Which.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The directory holds no record: nothing recorded into it.
    NoRecords {
        /// The directory.
        dir: PathBuf,
    },
    /// No record is of the server asked for.
    UnknownServer {
        /// The name asked for.
        name: String,
        /// The servers recorded.
        recorded: Vec<ServerId>,
    },
}

impl fmt::Display for CoverageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverageError::Read { path, problem } => {
                write!(f, "cannot read {}: {problem}", path.display())
            }
            CoverageError::Malformed { path, problem } => write!(
                f,
                "{} is not a coverage record ({FORMAT}): {problem}",
                path.display()
            ),
            CoverageError::NoRecords { dir } => write!(
                f,
                "{} holds no coverage record (*.coverage.json): set {ENV}={} for the test \
                 run (or `.coverage_to(..)` on the client) and run it first",
                dir.display(),
                dir.display()
            ),
            CoverageError::UnknownServer { name, recorded } => {
                let recorded: Vec<String> = recorded.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "no record is of a server named `{name}`; recorded: {}",
                    recorded.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for CoverageError {}

/// How a coverage file's name ends.
const EXTENSION: &str = ".coverage.json";

impl Coverage {
    /// Every record (`*.coverage.json`) under `dir`, in it and its subdirectories, merged.
    ///
    /// # Errors
    ///
    /// [`CoverageError::NoRecords`] when there is none (never an empty report), and
    /// [`CoverageError::Read`] or [`CoverageError::Malformed`] naming the file at fault.
    pub fn load(dir: impl AsRef<Path>) -> Result<Coverage, CoverageError> {
        let dir = dir.as_ref();
        let mut files = Vec::new();
        find_records(dir, &mut files)?;
        if files.is_empty() {
            return Err(CoverageError::NoRecords {
                dir: dir.to_owned(),
            });
        }
        files.sort();
        let mut coverage = Coverage::default();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|error| CoverageError::Read {
                path: path.clone(),
                problem: error.to_string(),
            })?;
            let record: Record =
                serde_json::from_str(&text).map_err(|error| CoverageError::Malformed {
                    path: path.clone(),
                    problem: error.to_string(),
                })?;
            if record.format != FORMAT {
                return Err(CoverageError::Malformed {
                    path,
                    problem: format!(
                        "its format is `{}`; this version reads `{FORMAT}`",
                        record.format
                    ),
                });
            }
            coverage.add(record);
        }
        Ok(coverage)
    }

    /// `records` merged.
    pub fn from_records(records: impl IntoIterator<Item = Record>) -> Coverage {
        let mut coverage = Coverage::default();
        for record in records {
            coverage.add(record);
        }
        coverage
    }

    /// Merges `record` into these.
    pub fn add(&mut self, record: Record) {
        for server in record.servers {
            match self.servers.get_mut(&server.server) {
                Some(known) => known.merge(server),
                None => {
                    self.servers.insert(server.server.clone(), server);
                }
            }
        }
    }

    /// Each server's merged record, in name and version order.
    pub fn servers(&self) -> impl Iterator<Item = &ServerCoverage> {
        self.servers.values()
    }

    /// Only the servers named `name` (any version).
    ///
    /// # Errors
    ///
    /// [`CoverageError::UnknownServer`] when no record is of one, listing those that are.
    pub fn only(mut self, name: &str) -> Result<Coverage, CoverageError> {
        let recorded: Vec<ServerId> = self.servers.keys().cloned().collect();
        self.servers.retain(|server, _| server.name == name);
        if self.servers.is_empty() {
            return Err(CoverageError::UnknownServer {
                name: name.to_owned(),
                recorded,
            });
        }
        Ok(self)
    }

    /// The coverage of each server against what it listed.
    pub fn report(&self) -> CoverageReport {
        CoverageReport {
            servers: self.servers.values().map(ServerReport::of).collect(),
        }
    }
}

fn find_records(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), CoverageError> {
    let entries = std::fs::read_dir(dir).map_err(|error| CoverageError::Read {
        path: dir.to_owned(),
        problem: error.to_string(),
    })?;
    for entry in entries {
        let entry = entry.map_err(|error| CoverageError::Read {
            path: dir.to_owned(),
            problem: error.to_string(),
        })?;
        let path = entry.path();
        if path.is_dir() {
            find_records(&path, files)?;
        } else if path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.ends_with(EXTENSION))
        {
            files.push(path);
        }
    }
    Ok(())
}
