//! The command line's conventions: one exit status per kind of ending, errors as JSON with
//! `--json`, colour as `--color`, `NO_COLOR` and `CLICOLOR_FORCE` say, a list that fails
//! reported as a failure, and completions and man pages generated from the definition.

use std::process::{Command, Output};

use mcp_assured::fixture::free_port;
use mcp_assured_tests::{example_server_binary, workspace_binary};
use serde_json::Value;

/// `mcp-assured <args>` with `env` set and the colour variables cleared otherwise.
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .envs(env.iter().copied())
        .output()
        .expect("run mcp-assured");
    mcp_assured_tests::schemas::assert_json_output(args, &output.stdout);
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn unreachable_url() -> String {
    format!("http://127.0.0.1:{}/mcp", free_port().unwrap())
}

fn json_error(output: &Output) -> Value {
    let printed: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("not JSON ({error}): {}", stdout(output)));
    printed["error"].clone()
}

#[test]
fn each_kind_of_ending_has_its_exit_status_and_help_lists_them() {
    let example = example_server_binary();
    let example = example.to_str().unwrap();
    let help = stdout(&run(&["--help"], &[]));
    assert!(help.contains("Exit status:"), "{help}");
    for (args, status) in [
        (
            vec!["call", "echo", "--arg", "message=hi", "--", example],
            0,
        ),
        (vec!["call", "fail", "--", example], 1),
        (
            vec!["call", "echo", "--arg", "no-equals-sign", "--", example],
            2,
        ),
        (vec!["list", "--timeout", "soon", "--", example], 2),
        (vec!["list", &unreachable_url()], 3),
        (
            vec![
                "check",
                "--junit",
                "/nonexistent-dir/report.xml",
                "--",
                example,
            ],
            4,
        ),
    ] {
        let output = run(&args, &[]);
        assert_eq!(
            output.status.code(),
            Some(status),
            "{args:?}\n{}\n{}",
            stdout(&output),
            stderr(&output)
        );
        assert!(
            help.contains(&format!("  {status}  ")),
            "exit status {status} is not in --help"
        );
    }
}

#[test]
fn errors_are_json_on_stdout_with_json() {
    let url = unreachable_url();
    let unreachable = run(&["list", "--json", &url], &[]);
    assert_eq!(unreachable.status.code(), Some(3));
    let error = json_error(&unreachable);
    assert_eq!(error["kind"], "unreachable");
    assert_eq!(error["exit_status"], 3);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("connection refused"),
        "{error}"
    );
    assert_eq!(stderr(&unreachable), "");

    // clap's own errors too, and `--json` may come anywhere.
    let usage = run(&["--json", "list", "--timeout", "soon", &url], &[]);
    assert_eq!(usage.status.code(), Some(2));
    let error = json_error(&usage);
    assert_eq!(error["kind"], "usage");
    assert!(
        error["message"].as_str().unwrap().contains("'soon'"),
        "{error}"
    );

    // Without --json, a line on stderr and nothing on stdout.
    let text = run(&["list", &url], &[]);
    assert_eq!(stdout(&text), "");
    assert!(
        stderr(&text).starts_with("mcp-assured: could not connect to "),
        "{}",
        stderr(&text)
    );
}

#[test]
fn colour_follows_color_no_color_and_clicolor_force() {
    let example = example_server_binary();
    let check = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["check", "--no-server-tests"];
        args.extend_from_slice(extra);
        args.extend(["--", example.to_str().unwrap()]);
        let output = run(&args, env);
        assert!(output.status.success(), "{}", stdout(&output));
        stdout(&output).contains("\x1b[")
    };
    // Not a terminal: plain, unless forced.
    assert!(!check(&[], &[]));
    assert!(check(&["--color", "always"], &[]));
    assert!(check(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!check(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(!check(&[], &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]));
}

/// A server that advertises resources and prompts but cannot list them (the fault server's
/// `lists-fail`): `list` prints what it got, names each failed list, and exits 1.
#[test]
fn a_list_that_fails_fails_the_command() {
    let fault_server = workspace_binary("mcp-assured-tests", "fault-server");
    let server = [fault_server.to_str().unwrap(), "--fault", "lists-fail"];
    let text = run(&[&["list", "--"][..], &server].concat(), &[]);
    assert_eq!(text.status.code(), Some(1), "{}", stdout(&text));
    assert!(stdout(&text).contains("tools ("), "{}", stdout(&text));
    for list in ["resources", "resource_templates", "prompts"] {
        assert!(
            stderr(&text).contains(&format!("mcp-assured: {list}/list failed: ")),
            "{list}: {}",
            stderr(&text)
        );
    }

    let json = run(&[&["list", "--json", "--"][..], &server].concat(), &[]);
    assert_eq!(json.status.code(), Some(1));
    let listed: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(
        listed["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty())
    );
    let errors = listed["errors"].as_object().unwrap();
    let failed: Vec<&str> = errors.keys().map(String::as_str).collect();
    assert_eq!(failed, ["prompts", "resource_templates", "resources"]);
}

#[test]
fn completions_and_man_pages_come_from_the_definition() {
    let bash = run(&["completions", "bash"], &[]);
    assert!(bash.status.success());
    let script = stdout(&bash);
    assert!(
        script
            .lines()
            .any(|line| line.trim().starts_with("complete -F") && line.ends_with(" mcp-assured")),
        "{script}"
    );
    for command in ["check", "list", "call", "serve", "completions", "man"] {
        assert!(script.contains(command), "{command} is not completed");
    }
    let zsh = stdout(&run(&["completions", "zsh"], &[]));
    assert!(zsh.starts_with("#compdef mcp-assured"), "{zsh}");

    let man = stdout(&run(&["man"], &[]));
    assert!(man.contains(".TH mcp-assured 1"), "{man}");
    assert!(man.contains("Exit status"), "{man}");

    let dir = std::env::temp_dir().join(format!("mcp-assured-man-{}", std::process::id()));
    let written = run(&["man", "--dir", dir.to_str().unwrap()], &[]);
    assert!(written.status.success(), "{}", stderr(&written));
    for page in ["mcp-assured.1", "mcp-assured-check.1", "mcp-assured-call.1"] {
        assert!(dir.join(page).is_file(), "{page} was not written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
