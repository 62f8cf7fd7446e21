//! `mcp-assured lint`: what a model sees of a server (its tools, prompts, resources and
//! templates as listed), held to the rules of `mcp_assured::lint`; with `--config FILE` and
//! no `--server`, every server of FILE, each also against the others (cross-server
//! shadowing), each finding naming its server. Exit 0 without a failing
//! finding, 1 with one (`--strict`: a warning too), 2 for a usage error, 3 when the server
//! cannot be reached or listed: `check`'s codes.

use mcp_assured_cli::output;
use std::path::PathBuf;

use clap::Args;
use mcp_assured::{
    diff::Surface,
    lint::{Lint, Profile, Severity},
};

use super::{
    html::HtmlArgs,
    outcome::{Exit, Failure, Outcome},
    sarif::SarifArgs,
    stdout::outln,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct LintArgs {
    /// Make a provider's strict-mode findings fail (they warn otherwise): `openai-strict`
    /// (OpenAI's strict function calling) or `anthropic-strict` (Anthropic's strict tool
    /// use). Repeatable.
    #[arg(long = "profile", value_name = "PROFILE", value_parser = parse_profile)]
    profiles: Vec<Profile>,
    /// Fail on warnings too.
    #[arg(long)]
    strict: bool,
    /// Fail when the whole surface costs more than N tokens (OpenAI's o200k_base): every
    /// definition is sent to the model on every turn.
    #[arg(long, value_name = "N")]
    max_surface_tokens: Option<usize>,
    /// Fail on every definition that changed since `mcp-assured pin --out FILE` wrote FILE
    /// (a rug pull), each change said as `mcp-assured diff` says it.
    #[arg(long, value_name = "FILE")]
    pinned: Option<PathBuf>,
    #[command(flatten)]
    sarif: SarifArgs,
    #[command(flatten)]
    html: HtmlArgs,
    #[command(flatten)]
    target: Target,
}

fn parse_profile(name: &str) -> Result<Profile, String> {
    name.parse()
}

/// Lists the server and lints what it lists; with `json`, prints `{passed, findings, tokens,
/// server}` (`servers` for several).
pub(crate) async fn run(args: LintArgs, json: bool) -> Outcome {
    let mut lint = Lint::new().strict(args.strict);
    for profile in &args.profiles {
        lint = lint.profile(*profile);
    }
    if let Some(budget) = args.max_surface_tokens {
        lint = lint.max_surface_tokens(budget);
    }
    if let Some(path) = &args.pinned {
        let pinned = Surface::from_path(path)
            .map_err(|error| Failure::usage(format!("--pinned {}: {error}", path.display())))?;
        lint = lint.pinned(pinned);
    }
    // Each finding of several servers names its own.
    let mut server_name = String::from("servers");
    let (report, surfaces) = match args.target.every_configured_server()? {
        // Every server of the config file: each linted, and each against the others
        // (cross-server shadowing).
        Some(names) => {
            if args.pinned.is_some() {
                return Err(Failure::usage(
                    "--pinned holds one server to its pin: name it with --server",
                ));
            }
            let mut surfaces = Vec::new();
            for name in &names {
                surfaces.push(args.target.for_server(name).surface().await?);
            }
            let servers: Vec<(&str, &Surface)> = names
                .iter()
                .map(String::as_str)
                .zip(surfaces.iter())
                .collect();
            (lint.run_servers(&servers), surfaces)
        }
        None => {
            let (name, surface) = args.target.named_surface().await?;
            server_name = name;
            (lint.run(&surface), vec![surface])
        }
    };
    let mut settings = vec![
        (
            "Profiles",
            if args.profiles.is_empty() {
                "none (strict-mode findings warn)".to_owned()
            } else {
                args.profiles
                    .iter()
                    .map(|profile| profile.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ),
        ("Strict", args.strict.to_string()),
    ];
    if let Some(budget) = args.max_surface_tokens {
        settings.push(("Max surface tokens", budget.to_string()));
    }
    let page = args
        .html
        .page_of(
            "lint",
            report.server.as_ref(),
            None,
            &args.target.describe(),
            &settings,
        )
        .map(|page| match (&report.server, report.linted()) {
            (None, Some(servers)) => page.about("Servers", servers),
            _ => page,
        })
        .map(|page| page.lint(&report));
    args.html.write(page)?;
    args.sarif.write(
        "lint",
        report.to_sarif(),
        &server_name,
        &[args.pinned.as_deref(), args.target.config_file()],
    )?;
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&output::Lint::from(&report)).unwrap_or_default()
        );
    } else {
        for finding in &report.findings {
            outln!("{finding}");
        }
        let total = |list: fn(&Surface) -> usize| surfaces.iter().map(list).sum::<usize>();
        let servers = match surfaces.len() {
            1 => String::new(),
            count => format!("{count} servers, "),
        };
        outln!(
            "{servers}{} tools, {} prompts, {} resources, {} templates: {} failed, {} warned; \
             the surface costs {} tokens ({})",
            total(|surface| surface.tools.len()),
            total(|surface| surface.prompts.len()),
            total(|surface| surface.resources.len()),
            total(|surface| surface.resource_templates.len()),
            report.count(Severity::Fail),
            report.count(Severity::Warn),
            report.tokens.total,
            report.tokens.encoding,
        );
    }
    Ok(Exit::from_success(!report.failed()))
}
