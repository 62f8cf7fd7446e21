//! Checks on a [`Report`]: nothing failed, no fuzz findings, or a given finding, with each
//! failure's message and reproduction in the panic.

use super::failure::{AssertionError, Failure, check};
use crate::report::{Finding, FindingKind, Report, Status, finding_of, findings};

/// Chained checks on one report; made by [`AssertReport::assert`].
#[derive(Debug)]
pub struct ReportAssert<'a> {
    report: &'a Report,
}

/// `.assert()` on a report of checks, server tests or a fuzz run.
///
/// ```
/// use mcp_assured::prelude::*;
/// use mcp_assured::report::{Entry, Report, Status};
///
/// let mut report = Report::default();
/// report.push(Entry::new("protocol-checks", "ping", Status::Passed, "answered"));
/// report.assert().all_passed().no_findings();
///
/// report.push(Entry::new("protocol-checks", "tools.names", Status::Failed, "`a b` has a space"));
/// let failure = report.assert().try_all_passed().unwrap_err();
/// assert!(failure.message().contains("FAIL tools.names: `a b` has a space"));
/// ```
pub trait AssertReport {
    /// Starts a chain of checks on the report.
    fn assert(&self) -> ReportAssert<'_>;
}

impl AssertReport for Report {
    fn assert(&self) -> ReportAssert<'_> {
        ReportAssert { report: self }
    }
}

impl ReportAssert<'_> {
    /// No entry failed (warnings and skips are no failure).
    #[track_caller]
    pub fn all_passed(self) -> Self {
        check(self.try_all_passed())
    }

    /// [`all_passed`](Self::all_passed), returning the failure instead of panicking.
    pub fn try_all_passed(self) -> Result<Self, AssertionError> {
        let failed: Vec<String> = self
            .report
            .entries()
            .iter()
            .filter(|entry| entry.status == Status::Failed)
            .map(|entry| entry.text().to_string())
            .collect();
        if failed.is_empty() {
            return Ok(self);
        }
        Failure::new(format!(
            "Expected every entry to pass; {} failed.",
            failed.len()
        ))
        .block("failed", failed.join("\n"))
        .fact("summary", self.report.summary())
        .err()
    }

    /// The fuzz run found nothing: no finding failed or warned. The panic lists each one
    /// with its shrunk input, what came back, and the command line and test that show it
    /// again. A fuzz run that sent no input at all (every subject skipped or unsupported,
    /// no time, no cases) fails too: it found nothing because it looked at nothing.
    #[track_caller]
    pub fn no_findings(self) -> Self {
        check(self.try_no_findings())
    }

    /// [`no_findings`](Self::no_findings), returning the failure instead of panicking.
    pub fn try_no_findings(self) -> Result<Self, AssertionError> {
        if let Some(run) = self.report.entry("fuzz.run")
            && run.details.get("calls").and_then(serde_json::Value::as_u64) == Some(0)
        {
            let not_fuzzed: Vec<String> = self
                .report
                .entries()
                .iter()
                .filter(|entry| entry.name != "fuzz.run")
                .map(|entry| entry.text().to_string())
                .collect();
            let mut failure = Failure::new(
                "Expected no findings of a fuzz run, but it sent no input: nothing was fuzzed, \
                 so no finding proves nothing.",
            )
            .fact("run", &run.message);
            if !not_fuzzed.is_empty() {
                failure = failure.block("entries", not_fuzzed.join("\n"));
            }
            return failure
                .fact(
                    "hint",
                    "fuzz what the server offers: name a tool it lists (`.tool(..)`), raise \
                     `.cases(..)` or `.time_budget(..)`, or include destructive tools \
                     (`.include_destructive(true)`); to accept a run with nothing to fuzz, \
                     assert `report.entry(\"fuzz.run\")` instead",
                )
                .err();
        }
        let found = findings(self.report);
        let failed_setup: Vec<String> = self
            .report
            .entries()
            .iter()
            .filter(|entry| entry.status == Status::Failed && finding_of(entry).is_none())
            .map(|entry| entry.text().to_string())
            .collect();
        if found.is_empty() && failed_setup.is_empty() {
            return Ok(self);
        }
        let mut failure = Failure::new(format!(
            "Expected no findings; the fuzz run found {}.",
            found.len()
        ));
        for (index, finding) in found.iter().enumerate() {
            failure = describe(failure, index + 1, finding);
        }
        if !failed_setup.is_empty() {
            failure = failure.block("failed", failed_setup.join("\n"));
        }
        if let Some(run) = self.report.entry("fuzz.run") {
            failure = failure.fact("run", &run.message);
        }
        failure.err()
    }

    /// The run found a bug of `kind` in the tool, template or prompt named `name`.
    #[track_caller]
    pub fn has_finding(self, kind: FindingKind, name: &str) -> Self {
        check(self.try_has_finding(kind, name))
    }

    /// [`has_finding`](Self::has_finding), returning the failure instead of panicking.
    pub fn try_has_finding(self, kind: FindingKind, name: &str) -> Result<Self, AssertionError> {
        let found = findings(self.report);
        if found.iter().any(|f| f.kind == kind && f.name == name) {
            return Ok(self);
        }
        let listed: Vec<String> = found.iter().map(ToString::to_string).collect();
        Failure::new(format!("Expected a `{kind}` finding in `{name}`."))
            .block(
                "found",
                if listed.is_empty() {
                    "nothing".to_owned()
                } else {
                    listed.join("\n")
                },
            )
            .err()
    }
}

fn describe(failure: Failure, number: usize, finding: &Finding) -> Failure {
    let replayed = if finding.replayed {
        " (replayed from the regression file)"
    } else {
        ""
    };
    let mut failure = failure
        .fact(&format!("finding {number}"), format!("{finding}{replayed}"))
        .fact(
            "  arguments",
            serde_json::to_string(&finding.arguments).unwrap_or_default(),
        );
    if let Some(command) = &finding.reproduce.command {
        failure = failure.fact("  reproduce", command);
    }
    failure.block("  test", &finding.reproduce.test)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::AssertReport;
    use crate::report::{Entry, Report, Status};

    fn fuzz_run(calls: u64) -> Report {
        let mut report = Report::default();
        let mut run = Entry::new(
            "fuzz",
            "fuzz.run",
            Status::Passed,
            format!("seed 1: {calls} calls to 1 tools"),
        );
        run.details = json!({"seed": 1, "calls": calls});
        report.push(run);
        report.push(Entry::new(
            "fuzz",
            "fuzz.tools.wipe",
            Status::Skipped,
            "annotated destructiveHint",
        ));
        report
    }

    #[test]
    fn a_fuzz_run_that_sent_nothing_proves_nothing() {
        let nothing = fuzz_run(0);
        let failure = nothing.assert().try_no_findings().unwrap_err().to_string();
        assert!(
            failure.contains("it sent no input: nothing was fuzzed"),
            "{failure}"
        );
        assert!(failure.contains("fuzz.tools.wipe"), "{failure}");
        assert!(failure.contains("include_destructive(true)"), "{failure}");
        let something = fuzz_run(40);
        assert!(something.assert().try_no_findings().is_ok());
    }
}
