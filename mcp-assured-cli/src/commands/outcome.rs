//! How a command ends: its exit status (one per kind of ending, listed in `--help`), and its
//! error, printed as a line on stderr or, with `--json`, as a JSON object on stdout.

use super::stdout::outln;
use mcp_assured_cli::output;
use std::process::ExitCode;

/// The exit statuses, as `mcp-assured --help` lists them.
pub(crate) const EXIT_STATUSES: &str = "\
Exit status:
  0  success: every check passed, the call succeeded, the snapshot matched
  1  failure: the server answered, but a check failed, a tool returned an error, a request
     failed or a snapshot differs
  2  usage: the command line or the config file is wrong (clap's own errors use 2 as well)
  3  unreachable: the server could not be started, reached, authorized or initialized
  4  output: a report or snapshot file could not be written";

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    Success,
    Failure,
    Usage,
    Unreachable,
    Output,
}

impl Exit {
    pub(crate) fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::Unreachable => 3,
            Exit::Output => 4,
        }
    }

    /// The word for it, as the exit statuses' table says it.
    #[cfg(test)]
    fn kind(self) -> &'static str {
        match self {
            Exit::Success => "success",
            Exit::Failure => "failure",
            Exit::Usage => "usage",
            Exit::Unreachable => "unreachable",
            Exit::Output => "output",
        }
    }

    /// The `kind` of a JSON error (a failure never ends in success).
    fn failure_kind(self) -> output::FailureKind {
        match self {
            Exit::Success | Exit::Failure => output::FailureKind::Failure,
            Exit::Usage => output::FailureKind::Usage,
            Exit::Unreachable => output::FailureKind::Unreachable,
            Exit::Output => output::FailureKind::Output,
        }
    }

    /// `Success` when nothing failed, else `Failure`.
    pub(crate) fn from_success(success: bool) -> Self {
        if success {
            Exit::Success
        } else {
            Exit::Failure
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit.code())
    }
}

/// A command that could not do its job, and why.
#[derive(Debug)]
pub(crate) struct Failure {
    exit: Exit,
    message: String,
}

impl Failure {
    pub(crate) fn new(exit: Exit, message: impl Into<String>) -> Self {
        Self {
            exit,
            message: message.into(),
        }
    }

    pub(crate) fn failed(message: impl Into<String>) -> Self {
        Self::new(Exit::Failure, message)
    }

    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(Exit::Usage, message)
    }

    pub(crate) fn unreachable(message: impl Into<String>) -> Self {
        Self::new(Exit::Unreachable, message)
    }

    pub(crate) fn output(message: impl Into<String>) -> Self {
        Self::new(Exit::Output, message)
    }

    /// Writes `contents` to `path`, or the failure to write it (exit status 4) naming it.
    pub(crate) fn write_file(
        path: &std::path::Path,
        contents: impl AsRef<[u8]>,
    ) -> Result<(), Failure> {
        std::fs::write(path, contents)
            .map_err(|error| Self::output(format!("could not write {}: {error}", path.display())))
    }

    /// Prints the error (`{"error": {kind, message, exit_status}}` on stdout with `json`,
    /// else `mcp-assured: message` on stderr) and returns the exit status.
    pub(crate) fn report(&self, json: bool) -> Exit {
        if json {
            let error = output::Failed {
                error: output::Failure {
                    kind: self.exit.failure_kind(),
                    message: self.message.clone(),
                    exit_status: self.exit.code(),
                },
            };
            outln!(
                "{}",
                serde_json::to_string_pretty(&error).unwrap_or_default()
            );
        } else {
            eprintln!("mcp-assured: {}", self.message);
        }
        self.exit
    }
}

/// What a command returns: how it ended when it ran to the end (its output printed), or the
/// failure that stopped it.
pub(crate) type Outcome = Result<Exit, Failure>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exit_status_is_listed_once() {
        for exit in [
            Exit::Success,
            Exit::Failure,
            Exit::Usage,
            Exit::Unreachable,
            Exit::Output,
        ] {
            let line = format!("  {}  {}", exit.code(), exit.kind());
            assert_eq!(EXIT_STATUSES.matches(&line).count(), 1, "{line}");
        }
    }
}
