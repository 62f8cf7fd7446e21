//! `mcp-assured completions SHELL` and `mcp-assured man`: generated from the command line's
//! own definition, so they never drift from it.

use std::path::Path;

use clap::Command;
use clap_complete::Shell;

use super::{
    outcome::{Exit, Failure, Outcome},
    stdout,
};

/// Prints the completion script for `shell` to stdout.
pub(crate) fn completions(shell: Shell, mut command: Command) -> Outcome {
    let name = command.get_name().to_owned();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    stdout::write_bytes(&script);
    Ok(Exit::Success)
}

/// Prints the man page of `mcp-assured` to stdout, or writes one page per command
/// (`mcp-assured.1`, `mcp-assured-check.1`, ...) into `dir`.
pub(crate) fn man(command: Command, dir: Option<&Path>) -> Outcome {
    let written = match dir {
        Some(dir) => std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(command, dir))
            .map_err(|error| {
                format!(
                    "could not write the man pages into {}: {error}",
                    dir.display()
                )
            }),
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command)
                .render(&mut page)
                .map(|()| stdout::write_bytes(&page))
                .map_err(|error| format!("could not print the man page: {error}"))
        }
    };
    written.map(|()| Exit::Success).map_err(Failure::output)
}
