//! The companion under abuse: a generated stream of malformed requests, reconnect loops, and
//! 200 concurrent calls. Every request gets a well-formed answer and the binary stays up.

mod support;

use std::{
    collections::HashMap,
    process::Stdio,
    time::{Duration, Instant},
};

use mcp_assured::{McpClient, fixture::ServerProcess, mcp_test};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader},
    process::Command,
    task::JoinSet,
};

use mcp_assured_tests::{
    ExampleHttp, eventually, example_server_binary,
    processes::{assert_running, children_of},
};
use support::ok;

/// A small deterministic generator (xorshift64*), so a failure reproduces from its seed.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A value of any JSON type, often the wrong one: odd strings (empty, NUL, emoji, path
    /// traversal, a refused URL, 1 MB), numbers at the edges, nesting.
    fn value(&mut self, depth: usize) -> Value {
        match self.below(if depth > 2 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => json!(self.chance(50)),
            2 => [
                json!(-1),
                json!(0),
                json!(i64::MAX),
                json!(u64::MAX),
                json!(1e308),
                json!(-0.5),
            ][self.below(6)]
            .clone(),
            3 | 4 => json!(
                [
                    "",
                    "a\u{0}b",
                    "🦀 ünïcödé",
                    "../../../etc/passwd",
                    "http://127.0.0.1:1/mcp",
                    "not a url",
                    "$(echo pwned)",
                ][self.below(7)]
            ),
            5 => {
                if self.chance(10) {
                    json!("x".repeat(1024 * 1024))
                } else {
                    json!("plain")
                }
            }
            6 => Value::Array((0..self.below(4)).map(|_| self.value(depth + 1)).collect()),
            _ => {
                let mut object = serde_json::Map::new();
                for index in 0..self.below(4) {
                    object.insert(format!("k{index}"), self.value(depth + 1));
                }
                Value::Object(object)
            }
        }
    }
}

/// Where a generated argument gets invalid UTF-8 (a lone `0xFF`, a truncated sequence).
const INVALID_UTF8_MARK: &str = "INVALID-UTF8-HERE";

/// One generated request line, and whether it has an id (everything but notifications).
fn generated_request(
    generator: &mut Generator,
    id: u64,
    tools: &[(String, Vec<String>)],
) -> Vec<u8> {
    let (name, fields) = if generator.chance(10) {
        (
            ["", "nope", "call_tool ", "🦀"][generator.below(4)].to_owned(),
            Vec::new(),
        )
    } else {
        tools[generator.below(tools.len())].clone()
    };
    let mut arguments = serde_json::Map::new();
    for field in &fields {
        if generator.chance(60) {
            arguments.insert(field.clone(), generator.value(0));
        }
    }
    if generator.chance(20) {
        arguments.insert("unexpected".into(), generator.value(0));
    }
    // Invalid UTF-8 inside an argument's string: the mark is swapped for bytes below.
    let invalid_argument = generator.chance(5);
    if invalid_argument {
        arguments.insert("text".into(), json!(INVALID_UTF8_MARK));
    }
    let mut params = json!({"name": name, "arguments": arguments});
    match generator.below(20) {
        0 => params = json!({"arguments": arguments}), // no name
        1 => params["arguments"] = generator.value(2), // arguments not an object
        2 => params = generator.value(2),              // params not an object
        _ => {}
    }
    let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    let mut bytes = serde_json::to_vec(&line).unwrap();
    if let Some(at) = bytes
        .windows(INVALID_UTF8_MARK.len())
        .position(|window| window == INVALID_UTF8_MARK.as_bytes())
    {
        bytes.splice(at..at + INVALID_UTF8_MARK.len(), *b"a\xFF\xC3(b");
    }
    if generator.chance(5) {
        // Invalid UTF-8 inside the name's string.
        if let Some(at) = bytes.windows(8).position(|window| window == b"\"name\":\"") {
            bytes.insert(at + 8, 0xFF);
        }
    }
    bytes
}

/// The companion's tools and the fields of their input schemas.
fn tools_of(list: &Value) -> Vec<(String, Vec<String>)> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            let fields = tool["inputSchema"]["properties"]
                .as_object()
                .map(|properties| properties.keys().cloned().collect())
                .unwrap_or_default();
            (tool["name"].as_str().unwrap().to_owned(), fields)
        })
        .collect()
}

/// A well-formed answer: JSON-RPC 2.0 with either an error (code + message) or a tool
/// result whose envelope says whether it worked and, if not, why and what to do.
fn assert_well_formed(answer: &Value, request: &str) {
    assert_eq!(answer["jsonrpc"], "2.0", "{request} -> {answer}");
    if let Some(error) = answer.get("error") {
        assert!(error["code"].is_i64(), "{request} -> {answer}");
        assert!(
            !error["message"].as_str().unwrap_or_default().is_empty(),
            "{request} -> {answer}"
        );
        return;
    }
    let result = &answer["result"];
    assert!(result["content"].is_array(), "{request} -> {answer}");
    let envelope = &result["structuredContent"];
    let success = envelope["success"].as_bool().expect("success is a boolean");
    assert_eq!(result["isError"], json!(!success), "{request} -> {answer}");
    if !success {
        for field in ["type", "message", "suggestion"] {
            assert!(
                envelope["error"][field].is_string(),
                "{field} missing: {request} -> {answer}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_stream_of_malformed_requests_gets_well_formed_answers() {
    const REQUESTS: u64 = 400;
    let seed = 0x5EED_F0FA;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut answers = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = async |line: &[u8]| {
        stdin.write_all(line).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    };
    send(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}"#).await;
    answers.next_line().await.unwrap().unwrap();
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    send(br#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#).await;
    let list: Value = serde_json::from_str(&answers.next_line().await.unwrap().unwrap()).unwrap();
    let tools = tools_of(&list);
    assert!(tools.len() >= 15, "{list}");

    // Answers are read while requests are written: the pipes hold only 64 KiB each way.
    let reader = tokio::spawn(async move {
        // Answers come in any order (requests run concurrently): wait for every id.
        let mut answered: HashMap<String, Vec<Value>> = HashMap::new();
        let mut expected: std::collections::HashSet<String> =
            (1..=REQUESTS).map(|id| id.to_string()).collect();
        expected.insert("last".to_owned());
        while !expected.is_empty() {
            let line = tokio::time::timeout(Duration::from_secs(60), answers.next_line())
                .await
                .expect("the companion stopped answering")
                .unwrap()
                .expect("the companion exited");
            let answer: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let key = match &answer["id"] {
                Value::Number(id) => id.to_string(),
                Value::String(id) => id.clone(),
                _ => "null".to_owned(),
            };
            expected.remove(&key);
            answered.entry(key).or_default().push(answer);
        }
        answered
    });

    let mut generator = Generator(seed);
    let mut sent = HashMap::new();
    let started = Instant::now();
    for id in 1..=REQUESTS {
        let line = generated_request(&mut generator, id, &tools);
        sent.insert(
            id.to_string(),
            String::from_utf8_lossy(&line)
                .chars()
                .take(300)
                .collect::<String>(),
        );
        send(&line).await;
        if generator.chance(3) {
            // Not JSON-RPC at all; answered with id null.
            send(b"garbage {").await;
        }
    }
    send(br#"{"jsonrpc":"2.0","id":"last","method":"ping"}"#).await;
    let answered = reader.await.unwrap();
    for (key, answers) in answered.iter().filter(|(key, _)| *key != "last") {
        let request = sent.get(key).map_or("garbage {", String::as_str);
        for answer in answers {
            assert_well_formed(answer, request);
        }
    }
    for id in 1..=REQUESTS {
        let key = id.to_string();
        assert_eq!(
            answered.get(&key).map(Vec::len),
            Some(1),
            "request {id} was not answered exactly once: {}",
            sent[&key]
        );
    }
    eprintln!(
        "{REQUESTS} generated requests answered in {:?}",
        started.elapsed()
    );

    // Still up, and it exits cleanly when its client goes.
    assert!(child.try_wait().unwrap().is_none(), "the companion exited");
    drop(stdin);
    let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
        .await
        .expect("the companion did not exit after stdin closed")
        .unwrap();
    assert!(status.success(), "{status}");
}

#[mcp_test(server = bin("mcp-assured"), args("serve"), timeout = "120s")]
async fn reconnect_loops_leave_nothing_behind(
    client: McpClient,
    server: &ServerProcess,
    example: ExampleHttp,
) {
    let command = example_server_binary();
    for round in 0..25 {
        let name = format!("loop{}", round % 3);
        let target = if round % 2 == 0 {
            json!({"command": command, "name": name})
        } else {
            json!({"url": example.url, "name": name})
        };
        ok(&client, "connect_to_server", target).await;
        if round % 4 != 3 {
            ok(&client, "disconnect", json!({"connection": name})).await;
        }
    }
    let companion = server.pid().expect("the companion runs as a child");
    let listed = ok(&client, "list_connections", json!({})).await;
    let open = listed["metadata"]["total_connections"].as_u64().unwrap();
    assert!(open <= 3, "{listed}");
    // Replaced and closed connections stopped their servers: at most the open ones remain.
    await_children(companion, open as usize).await;
    for index in 0..3 {
        let _ = client
            .call_tool("disconnect", json!({"connection": format!("loop{index}")}))
            .await;
    }
    let listed = ok(&client, "list_connections", json!({})).await;
    assert_eq!(
        listed["metadata"]["total_connections"],
        json!(0),
        "{listed}"
    );
    // Every stdio server it started has been stopped and reaped.
    await_children(companion, 0).await;
    client.list_tools().await.unwrap();
}

/// Waits (10 s at most) until `parent` has no more than `at_most` child processes, zombies
/// counted (a child not yet reaped keeps its parent).
async fn await_children(parent: u32, at_most: usize) {
    let at_most_left = eventually(Duration::from_secs(10), || async {
        children_of(parent).len() <= at_most
    })
    .await;
    assert!(
        at_most_left,
        "expected at most {at_most} servers still started by the companion, found {:?}",
        children_of(parent)
    );
}

#[mcp_test(server = bin("mcp-assured"), args("serve"), timeout = "120s")]
async fn two_hundred_concurrent_call_tools_all_complete(
    client: McpClient,
    server: &ServerProcess,
    example: ExampleHttp,
) {
    ok(&client, "connect_to_server", json!({"url": example.url})).await;
    let started = Instant::now();
    let mut calls = JoinSet::new();
    for index in 0..200 {
        let client = client.clone();
        calls.spawn(async move {
            let text = format!("call {index}");
            let answer = ok(
                &client,
                "call_tool",
                json!({"name": "echo", "arguments": {"message": text}}),
            )
            .await;
            (index, text, answer)
        });
    }
    let mut done = 0;
    while let Some(finished) = calls.join_next().await {
        let (index, text, answer) = finished.unwrap();
        assert_eq!(
            answer["tool_call"]["result"]["content"][0]["text"],
            json!(text),
            "call {index}: {answer}"
        );
        done += 1;
    }
    assert_eq!(done, 200);
    eprintln!("200 concurrent call_tools in {:?}", started.elapsed());
    assert_running(server.pid().expect("the companion runs as a child"));
    client.list_tools().await.unwrap();
}
