//! `mcp-assured snapshot`: a server's surface (tools, resources, resource templates, prompts)
//! and chosen tool calls written as insta-format snapshot files, redacted and sorted as
//! `assert_mcp_snapshot!` does; with `--check`, compared with the files instead, each
//! difference printed as a diff, exit 1 if any. A project in any language gates its CI on
//! `mcp-assured snapshot --check` without writing Rust.

use super::stdout::{out, outln};
use std::path::{Path, PathBuf};

use clap::Args;
use mcp_assured::{
    McpClient,
    snapshot::{Snapshot, redact},
};
use serde_json::{Value, json};
use similar::TextDiff;

use super::{
    outcome::{Exit, Failure, Outcome},
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct SnapshotArgs {
    /// Where the snapshot files are (`NAME__tools.snap`, ...).
    #[arg(long, value_name = "DIR", default_value = "snapshots")]
    dir: PathBuf,
    /// The files' prefix (default: the server's name).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Also snapshot a tool call, `TOOL=JSON` arguments (repeatable): `NAME__call_TOOL.snap`,
    /// numbered when a tool is called more than once.
    #[arg(long = "call", value_name = "TOOL=JSON")]
    calls: Vec<String>,
    /// Compare with the files instead of writing them: print a diff for each difference
    /// and exit 1 if there is any (a missing file is a difference).
    #[arg(long)]
    check: bool,
    #[command(flatten)]
    target: Target,
}

/// One snapshot: its file's name and its content.
struct Taken {
    file: String,
    expression: String,
    content: String,
}

pub(crate) async fn run(args: SnapshotArgs, json: bool) -> Outcome {
    let calls = parse_calls(&args.calls)?;
    let client = args.target.connect().await?;
    let taken = take(&client, args.name.as_deref(), &calls).await;
    let _ = client.close().await;
    let taken = taken?;
    // Names are made file-safe (`a.b` and `a_b` alike): two snapshots must not share a file.
    for (index, snapshot) in taken.iter().enumerate() {
        if let Some(first) = taken[..index].iter().find(|t| t.file == snapshot.file) {
            return Err(Failure::usage(format!(
                "`{}` and `{}` would both be written to {}: snapshot calls of tools whose \
                 names differ in more than punctuation",
                first.expression, snapshot.expression, snapshot.file
            )));
        }
    }
    let mut report = Vec::new();
    // Set only under --check: without it, a difference is written, not reported.
    let mut differ = false;
    for snapshot in &taken {
        let path = args.dir.join(&snapshot.file);
        let old = match std::fs::read_to_string(&path) {
            Ok(old) => Some(old),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(error) => {
                return Err(Failure::output(format!(
                    "cannot read the snapshot {}: {error}",
                    path.display()
                )));
            }
        };
        let old = old.as_deref().map(content_of);
        let state = match old {
            Some(old) if old == snapshot.content.trim_end() => "unchanged",
            Some(_) => "changed",
            None => "new",
        };
        report.push(json!({"file": path, "state": state}));
        match (state, args.check) {
            ("unchanged", _) => {}
            (_, true) => {
                differ = true;
                if !json {
                    print_difference(&path, old, &snapshot.content);
                }
                continue;
            }
            (_, false) => write(&path, &file_text(snapshot))?,
        }
        if !json {
            outln!("{state:>9} {}", path.display());
        }
    }
    if json {
        let answer = json!({"check": args.check, "snapshots": report, "differ": differ});
        outln!(
            "{}",
            serde_json::to_string_pretty(&answer).unwrap_or_default()
        );
    } else if differ {
        eprintln!(
            "mcp-assured: the server's snapshots differ; if the change is intended, run \
             `mcp-assured snapshot` without --check to update them, and review the diff"
        );
    }
    Ok(Exit::from_success(!differ))
}

fn parse_calls(calls: &[String]) -> Result<Vec<(String, Value)>, Failure> {
    calls
        .iter()
        .map(|call| {
            let (tool, arguments) = call.split_once('=').unwrap_or((call.as_str(), "{}"));
            let arguments = serde_json::from_str::<Value>(arguments).map_err(|error| {
                Failure::usage(format!(
                    "--call {tool}: the arguments are not JSON: {error}"
                ))
            })?;
            if !arguments.is_object() {
                return Err(Failure::usage(format!(
                    "--call {tool}: the arguments must be a JSON object"
                )));
            }
            Ok((tool.to_owned(), arguments))
        })
        .collect()
}

/// The snapshots of the server's surface and of `calls`. A list the server does not
/// advertise is not taken; one it advertises but fails to give fails the command.
async fn take(
    client: &McpClient,
    name: Option<&str>,
    calls: &[(String, Value)],
) -> Result<Vec<Taken>, Failure> {
    let info = client.server_info();
    let prefix = file_safe(name.unwrap_or(&info.name));
    let capabilities = info.capabilities.clone();
    let failed =
        |what: &str, error: mcp_assured::Error| Failure::failed(format!("{what} failed: {error}"));
    let mut taken = Vec::new();
    let mut add = |expression: &str, value: Value| {
        taken.push(Taken {
            file: format!("{prefix}__{}.snap", file_safe(expression)),
            expression: expression.to_owned(),
            content: serde_json::to_string_pretty(&redact(value)).unwrap_or_default(),
        });
    };
    if capabilities.tools.is_some() {
        let tools = client
            .list_tools()
            .await
            .map_err(|e| failed("tools/list", e))?;
        add("tools", tools.snapshot_json());
    }
    if capabilities.resources.is_some() {
        let resources = client
            .list_resources()
            .await
            .map_err(|e| failed("resources/list", e))?;
        add("resources", resources.snapshot_json());
        let templates = client
            .list_resource_templates()
            .await
            .map_err(|e| failed("resources/templates/list", e))?;
        add("resource_templates", templates.snapshot_json());
    }
    if capabilities.prompts.is_some() {
        let prompts = client
            .list_prompts()
            .await
            .map_err(|e| failed("prompts/list", e))?;
        add("prompts", prompts.snapshot_json());
    }
    for (index, (tool, arguments)) in calls.iter().enumerate() {
        let result = client
            .call_tool(tool, arguments.clone())
            .await
            .map_err(|e| failed(&format!("tools/call {tool}"), e))?;
        let earlier = calls[..index].iter().filter(|(t, _)| t == tool).count();
        let expression = match earlier {
            0 => format!("call_{tool}"),
            n => format!("call_{tool}_{}", n + 1),
        };
        add(
            &expression,
            json!({"arguments": arguments, "result": result.snapshot_json()}),
        );
    }
    Ok(taken)
}

/// The file as insta writes it: a header, then the content.
fn file_text(snapshot: &Taken) -> String {
    format!(
        "---\nsource: mcp-assured snapshot\nexpression: {}\n---\n{}\n",
        snapshot.expression, snapshot.content
    )
}

/// A snapshot file's content: what follows its header.
fn content_of(file: &str) -> &str {
    let body = file
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(file, |(_, content)| content);
    body.trim_end()
}

fn print_difference(path: &Path, old: Option<&str>, new: &str) {
    match old {
        None => outln!("--- {} is missing; it would hold:\n{new}\n", path.display()),
        Some(old) => {
            let diff = TextDiff::from_lines(old, new.trim_end());
            let header = path.display().to_string();
            out!(
                "{}",
                diff.unified_diff().context_radius(3).header(
                    &format!("{header} (snapshot)"),
                    &format!("{header} (server)")
                )
            );
            outln!();
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| {
            Failure::output(format!("could not create {}: {error}", dir.display()))
        })?;
    }
    Failure::write_file(path, text)
}

/// A name as a file name: letters, digits, `-` and `_`; anything else becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_what_it_writes() {
        let taken = Taken {
            file: "s__tools.snap".into(),
            expression: "tools".into(),
            content: "[\n  1\n]".into(),
        };
        assert_eq!(content_of(&file_text(&taken)), "[\n  1\n]");
        // insta's own header, with more fields, reads the same.
        assert_eq!(
            content_of(
                "---\nsource: tests/x.rs\nexpression: tools\nsnapshot_kind: text\n---\n[\n  1\n]\n"
            ),
            "[\n  1\n]"
        );
    }

    #[test]
    fn names_become_file_names() {
        assert_eq!(file_safe("my server/1.0"), "my_server_1_0");
        assert_eq!(file_safe("weather-api_v2"), "weather-api_v2");
    }
}
