//! `mcp-assured read`, `prompt`, `complete` and `ping` against the example server: the
//! complete answer as JSON, and a failed request as exit status 1 with the server's error.

mod support;

use std::process::Output;

use mcp_assured_tests::example_server_binary;
use serde_json::{Value, json};

use support::{printed, run};

/// `mcp-assured <args> -- <example-server>`.
fn on_example(args: &[&str]) -> Output {
    let example = example_server_binary();
    run(&[args, &["--", example.to_str().unwrap()]].concat(), &[])
}

fn answer(output: &Output) -> Value {
    assert!(output.status.success(), "{}", printed(output));
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", printed(output)))
}

#[test]
fn read_prints_the_resource() {
    let read = answer(&on_example(&["read", "example://counter"]));
    assert_eq!(read["contents"][0]["uri"], "example://counter");
    assert_eq!(read["contents"][0]["mimeType"], "text/plain");

    let missing = on_example(&["read", "example://nothing-here"]);
    assert_eq!(missing.status.code(), Some(1), "{}", printed(&missing));
    assert!(
        printed(&missing)
            .contains("`resources/read example://nothing-here` failed with JSON-RPC error -32602"),
        "{}",
        printed(&missing)
    );
}

#[test]
fn prompt_prints_the_messages() {
    let prompt = answer(&on_example(&[
        "prompt",
        "greet",
        "--arg",
        "name=Ada",
        "-a",
        "style=formal",
    ]));
    let text = prompt["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(
        text.contains("Ada") && text.contains("formal"),
        "{prompt:#}"
    );

    let unknown = on_example(&["prompt", "no-such-prompt"]);
    assert_eq!(unknown.status.code(), Some(1), "{}", printed(&unknown));
}

#[test]
fn complete_prints_the_completions() {
    let completed = answer(&on_example(&[
        "complete", "--prompt", "greet", "style", "fo",
    ]));
    assert_eq!(completed["completion"]["values"], json!(["formal"]));

    let neither = on_example(&["complete", "style", "fo"]);
    assert_eq!(neither.status.code(), Some(2), "{}", printed(&neither));
}

#[test]
fn ping_prints_the_round_trip() {
    let text = on_example(&["ping", "--protocol", "2025-11-25"]);
    assert!(text.status.success(), "{}", printed(&text));
    let line = String::from_utf8_lossy(&text.stdout);
    assert!(
        line.starts_with("pong from mcp-assured-example 0.1.0 (protocol 2025-11-25) in "),
        "{line}"
    );
    let json = answer(&on_example(&["ping", "--json", "--protocol", "2025-11-25"]));
    assert_eq!(json["server"]["name"], "mcp-assured-example");
    assert!(
        json["round_trip_ms"].as_f64().is_some_and(|ms| ms > 0.0),
        "{json:#}"
    );
}
