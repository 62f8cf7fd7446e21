//! `mcp-assured pin --out FILE [TARGET]`: the server's surface (tools, prompts, resources,
//! templates, as listed) written as JSON, for `lint --pinned FILE` to hold the server to: a
//! definition that changes afterwards (a rug pull) fails the lint.

use std::path::PathBuf;

use clap::Args;
use mcp_assured::diff::Surface;

use super::{
    outcome::{Exit, Failure, Outcome},
    stdout::outln,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct PinArgs {
    /// Where to write the surface (JSON; `mcp-assured diff` reads it too).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    target: Target,
}

/// Lists the server and writes what it lists to `--out`.
pub(crate) async fn run(args: PinArgs) -> Outcome {
    let client = args.target.connect().await?;
    let surface = Surface::from_client(&client).await;
    let _ = client.close().await;
    let surface = surface.map_err(|error| {
        Failure::unreachable(format!("could not list what the server offers: {error}"))
    })?;
    let pretty = serde_json::to_string_pretty(&surface.to_json()).unwrap_or_default();
    Failure::write_file(&args.out, format!("{pretty}\n"))?;
    outln!(
        "pinned {} tools, {} prompts, {} resources and {} templates in {}; hold the server to \
         them with `mcp-assured lint --pinned {}`",
        surface.tools.len(),
        surface.prompts.len(),
        surface.resources.len(),
        surface.resource_templates.len(),
        args.out.display(),
        args.out.display(),
    );
    Ok(Exit::Success)
}
