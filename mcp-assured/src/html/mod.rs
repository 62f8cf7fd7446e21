//! One self-contained HTML page of a run, to attach to a CI job or send to a reviewer: the
//! server, its revision and the run's settings; the checks with each verdict, its grade and
//! the specification's words; each fuzz finding with its shrunk input, what came back and
//! its reproductions; lint findings by category; and for a load run, each tool's latency
//! distribution (histogram and percentile curve) and the throughput over time as inline
//! SVG, errors apart; and a suite's MCP surface coverage ([`HtmlReport::coverage`]), what
//! was never exercised first.
//!
//! The page loads nothing: its CSS and plots are inline, it has no script, and its
//! Content-Security-Policy forbids every fetch, so it reads the same offline, attached to a
//! run, or printed (a print style keeps each finding on one page). Links to the
//! specification are there to follow.
//!
//! ```
//! use mcp_assured::{html::HtmlReport, report::{Entry, Report, Status}};
//!
//! let report = Report::from_iter([
//!     Entry::new("protocol-checks", "ping", Status::Passed, "answered"),
//!     Entry::new("protocol-checks", "errors.unknown_tool", Status::Failed, "got -32603"),
//! ]);
//! let page = HtmlReport::new("mcp-assured check")
//!     .about("Server", "weather 1.0.0")
//!     .about("Revision", "2025-11-25")
//!     .report(&report)
//!     .render();
//! assert!(page.starts_with("<!DOCTYPE html>"));
//! assert!(page.contains("errors.unknown_tool"));
//! assert!(!page.contains("<script"));
//! // Or in one call: report.to_html("mcp-assured check").
//! ```

mod checks;
mod coverage;
mod escape;
mod fuzz;
#[cfg(feature = "lint")]
mod lint;
mod load;
mod svg;

use std::{fmt::Write as _, io, path::Path};

use self::escape::escape;
use crate::{
    coverage::report::{CoverageReport, Shortfall},
    report::Report,
};

/// The page's style: readable on screen and printed, in the browser's own fonts.
const STYLE: &str = include_str!("style.css");

/// A page being put together: what it is about, then its sections in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HtmlReport {
    title: String,
    about: Vec<(String, String)>,
    sections: Vec<String>,
}

impl HtmlReport {
    /// An empty page titled `title`.
    pub fn new(title: impl Into<String>) -> HtmlReport {
        HtmlReport {
            title: title.into(),
            ..HtmlReport::default()
        }
    }

    /// A line of what the run was about, shown at the top: `Server`, `Revision`,
    /// `Target`, a setting (`Seed`, `Cases`, `Profiles`, …).
    pub fn about(mut self, name: impl Into<String>, value: impl Into<String>) -> HtmlReport {
        self.about.push((name.into(), value.into()));
        self
    }

    /// The entries of `report` (checks, server tests, parity, a fuzz run's) as a table of
    /// verdicts, and each fuzz finding it carries in full.
    pub fn report(mut self, report: &Report) -> HtmlReport {
        self.sections.push(checks::section(report));
        if let Some(findings) = fuzz::section(report) {
            self.sections.push(findings);
        }
        self
    }

    /// A load run: its figures, each tool's latency histogram and percentile curve, the
    /// throughput over time, the thresholds, and the errors apart.
    pub fn load(mut self, report: &crate::load::LoadReport) -> HtmlReport {
        self.sections.push(load::section(report));
        self
    }

    /// The MCP surface coverage of a suite ([`crate::coverage`]): the tallies in `below`
    /// (from [`CoverageReport::below`]) listed first when there are any, then for each
    /// server what was never exercised, by name (tools never called; the arguments, values
    /// and outcomes of the tools called; prompts, resources, templates), what was exercised
    /// but not listed, the tallies, each tool's calls and outcomes, and the notifications.
    ///
    /// ```
    /// use mcp_assured::{
    ///     coverage::{Coverage, Record, ServerCoverage, ServerId, ToolSurface},
    ///     html::HtmlReport,
    /// };
    /// use serde_json::json;
    ///
    /// let mut record = ServerCoverage::new(ServerId { name: "weather".into(), version: "1.0.0".into() });
    /// let tool = json!({"name": "forecast", "inputSchema": {"type": "object"}});
    /// record.listed.tools = Some([("forecast".to_owned(), ToolSurface::from_tool(&tool))].into());
    /// let report = Coverage::from_records([Record::new(vec![record])]).report();
    /// let page = HtmlReport::new("mcp-assured coverage").coverage(&report, &[]).render();
    /// assert!(page.contains("<li>tool <code>forecast</code>: never called</li>"));
    /// ```
    pub fn coverage(mut self, report: &CoverageReport, below: &[Shortfall]) -> HtmlReport {
        self.sections.extend(coverage::sections(report, below));
        self
    }

    /// The lint findings, by category.
    #[cfg(feature = "lint")]
    pub fn lint(mut self, report: &crate::lint::LintReport) -> HtmlReport {
        self.sections.push(lint::section(report));
        self
    }

    /// The page.
    pub fn render(&self) -> String {
        let mut page = String::new();
        let title = escape(&self.title);
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'; img-src data:\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"mcp-assured {version}\">\n\
             <link rel=\"icon\" href=\"data:,\">\n\
             <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <header>\n<h1>{title}</h1>\n",
            version = env!("CARGO_PKG_VERSION"),
        );
        if !self.about.is_empty() {
            page.push_str("<dl class=\"about\">\n");
            for (name, value) in &self.about {
                let _ = writeln!(page, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
            }
            page.push_str("</dl>\n");
        }
        page.push_str("</header>\n<main>\n");
        for section in &self.sections {
            page.push_str(section);
        }
        let _ = write!(
            page,
            "</main>\n<footer>Written by mcp-assured {} \
             (<a href=\"https://github.com/mcp-assured/mcp-assured\">github.com/mcp-assured/mcp-assured</a>).</footer>\n\
             </body>\n</html>\n",
            env!("CARGO_PKG_VERSION")
        );
        page
    }

    /// Writes the page to `path`.
    ///
    /// # Errors
    ///
    /// The file could not be written.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.render())
    }
}

impl Report {
    /// The report as one self-contained HTML page titled `title` (see [`crate::html`]).
    ///
    /// ```
    /// use mcp_assured::report::{Entry, Report, Status};
    ///
    /// let page = Report::from_iter([Entry::new("protocol-checks", "ping", Status::Passed, "")])
    ///     .to_html("mcp-assured check");
    /// assert!(page.contains("<td class=\"verdict passed\">PASS</td>"));
    /// ```
    pub fn to_html(&self, title: &str) -> String {
        HtmlReport::new(title).report(self).render()
    }
}

#[cfg(test)]
mod tests;
