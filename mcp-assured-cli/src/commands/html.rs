//! `--html FILE`, shared by `check`, `fuzz`, `lint`, `bench` and `coverage`: one
//! self-contained page of the run (`mcp_assured::html`), headed by the server, its revision,
//! the target and the run's settings.

use std::path::PathBuf;

use chrono::{SecondsFormat, Utc};
use clap::Args;
use mcp_assured::{ServerInfo, diff::SurfaceServer, html::HtmlReport};

use super::outcome::Failure;

#[derive(Debug, Args)]
pub(crate) struct HtmlArgs {
    /// Write the run as one self-contained HTML page here (inline CSS and SVG plots, no
    /// script, nothing fetched), to attach to a CI run.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

impl HtmlArgs {
    /// A page for `command` about `server` (`None`: a lint of several servers) at `target`,
    /// with the run's `settings`, or `None` when no page was asked for.
    pub(crate) fn page(
        &self,
        command: &str,
        server: Option<&ServerInfo>,
        target: &str,
        settings: &[(&str, String)],
    ) -> Option<HtmlReport> {
        let revision = server.map(|server| server.protocol_version.as_str());
        let server = server.map(SurfaceServer::from);
        self.page_of(command, server.as_ref(), revision, target, settings)
    }

    /// [`page`](Self::page) about a server known as a surface knows it (lint's: its name
    /// and version), of the protocol `revision` when known.
    pub(crate) fn page_of(
        &self,
        command: &str,
        server: Option<&SurfaceServer>,
        revision: Option<&str>,
        target: &str,
        settings: &[(&str, String)],
    ) -> Option<HtmlReport> {
        let title = match server {
            Some(server) => format!("mcp-assured {command}: {}", server.described()),
            None => format!("mcp-assured {command}"),
        };
        let mut about = Vec::new();
        if let Some(server) = server {
            about.push(("Server", server.described()));
        }
        if let Some(revision) = revision {
            about.push(("Revision", revision.to_owned()));
        }
        about.push(("Target", target.to_owned()));
        about.extend(settings.iter().cloned());
        self.page_titled(title, &about)
    }

    /// A page titled `title`, headed by each line of `about` and the time it was written,
    /// or `None` when no page was asked for (`coverage`'s: about servers and a directory).
    pub(crate) fn page_titled(
        &self,
        title: String,
        about: &[(&str, String)],
    ) -> Option<HtmlReport> {
        self.html.as_ref()?;
        let mut page = HtmlReport::new(title);
        for (name, value) in about {
            page = page.about(*name, value.clone());
        }
        Some(page.about(
            "Written",
            Utc::now().to_rfc3339_opts(SecondsFormat::Secs, true),
        ))
    }

    /// Writes `page`, when one was asked for.
    pub(crate) fn write(&self, page: Option<HtmlReport>) -> Result<(), Failure> {
        match (&self.html, page) {
            (Some(path), Some(page)) => Failure::write_file(path, page.render()),
            _ => Ok(()),
        }
    }
}
