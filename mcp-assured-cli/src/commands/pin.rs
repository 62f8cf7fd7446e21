//! `mcp-assured pin --out FILE [TARGET]`: the server's surface (tools, prompts, resources,
//! templates, as listed) written as JSON, for `lint --pinned FILE` to hold the server to: a
//! definition that changes afterwards (a rug pull) fails the lint.

use std::path::PathBuf;

use super::{
    outcome::{Exit, Failure, Outcome},
    stdout::outln,
    target::Target,
};
use clap::Args;

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
    let surface = args.target.surface().await?;
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
