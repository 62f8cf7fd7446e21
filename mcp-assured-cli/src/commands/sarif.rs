//! `--sarif FILE` and `--sarif-artifact PATH`, shared by `check`, `fuzz`, `lint`, `diff`,
//! `bench` and `coverage`: the run's failures and warnings as SARIF 2.1.0, for code scanning.

use std::path::{Path, PathBuf};

use clap::Args;
use mcp_assured::sarif::Sarif;

use super::outcome::Failure;

#[derive(Debug, Args)]
pub(crate) struct SarifArgs {
    /// Write the failures and warnings as SARIF 2.1.0 here, for code scanning (GitHub's
    /// `upload-sarif`): stable rule ids, and fingerprints that match a finding from one run to
    /// the next.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// The repository file each SARIF result points to when it has none of its own (code
    /// scanning refuses a result without one), relative to the repository's root. Default:
    /// the file the run read (--regressions, --pinned, the config file, the old snapshot).
    #[arg(long, value_name = "PATH", requires = "sarif")]
    sarif_artifact: Option<PathBuf>,
}

impl SarifArgs {
    /// Whether a SARIF file was asked for.
    pub(crate) fn wanted(&self) -> bool {
        self.sarif.is_some()
    }

    /// Writes `log` about `server`, its results pointing to `--sarif-artifact`, else to the
    /// first of `read` (the files the run read, most specific first).
    pub(crate) fn write(
        &self,
        command: &str,
        log: Sarif,
        server: &str,
        read: &[Option<&Path>],
    ) -> Result<(), Failure> {
        self.write_log(command, log.server(server), read)
    }

    /// [`write`](Self::write) of a log that names its servers itself (`coverage`'s, each
    /// result about its own).
    pub(crate) fn write_log(
        &self,
        command: &str,
        log: Sarif,
        read: &[Option<&Path>],
    ) -> Result<(), Failure> {
        let Some(path) = &self.sarif else {
            return Ok(());
        };
        let mut log = log.category(format!("mcp-assured/{command}/"));
        let artifact = self
            .sarif_artifact
            .as_deref()
            .or_else(|| read.iter().flatten().next().copied());
        if let Some(artifact) = artifact {
            log = log.artifact(repository_relative(artifact));
        }
        Failure::write_file(path, log.to_string())
    }
}

/// `path` relative to the working directory (the repository's root, in CI) when it is
/// inside it.
fn repository_relative(path: &Path) -> PathBuf {
    match std::env::current_dir() {
        Ok(here) if path.is_absolute() => path.strip_prefix(&here).unwrap_or(path).to_owned(),
        _ => path.to_owned(),
    }
}
