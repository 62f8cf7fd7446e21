//! The result of the protocol checks: one line per check.

use std::fmt;

use serde::Serialize;

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Passed,
    Failed,
    /// It does not apply (a capability the server does not offer, no arguments given, ...).
    Skipped,
}

/// One named check and why it ended as it did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// e.g. `tools.input_schemas`.
    pub name: String,
    pub status: CheckStatus,
    /// What was found: for a failure, exactly what is wrong.
    pub reason: String,
}

/// Every check, in the order they ran.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckReport {
    pub checks: Vec<Check>,
}

impl CheckReport {
    pub(super) fn push(&mut self, name: &str, status: CheckStatus, reason: impl Into<String>) {
        self.checks.push(Check {
            name: name.to_owned(),
            status,
            reason: reason.into(),
        });
    }

    pub(super) fn pass(&mut self, name: &str, reason: impl Into<String>) {
        self.push(name, CheckStatus::Passed, reason);
    }

    pub(super) fn fail(&mut self, name: &str, reason: impl Into<String>) {
        self.push(name, CheckStatus::Failed, reason);
    }

    pub(super) fn skip(&mut self, name: &str, reason: impl Into<String>) {
        self.push(name, CheckStatus::Skipped, reason);
    }

    fn count(&self, status: CheckStatus) -> usize {
        self.checks.iter().filter(|c| c.status == status).count()
    }

    pub fn passed(&self) -> usize {
        self.count(CheckStatus::Passed)
    }

    pub fn failed(&self) -> usize {
        self.count(CheckStatus::Failed)
    }

    pub fn skipped(&self) -> usize {
        self.count(CheckStatus::Skipped)
    }

    /// No check failed.
    pub fn is_success(&self) -> bool {
        self.failed() == 0
    }

    /// The check called `name`.
    pub fn check(&self, name: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for check in &self.checks {
            let label = match check.status {
                CheckStatus::Passed => "PASS",
                CheckStatus::Failed => "FAIL",
                CheckStatus::Skipped => "SKIP",
            };
            writeln!(f, "{label} {}: {}", check.name, check.reason)?;
        }
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed(),
            self.failed(),
            self.skipped()
        )
    }
}
