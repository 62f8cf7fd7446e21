//! Faults in the JSON-RPC lines on stdio: a proxy between the process's stdin/stdout and a
//! [`FaultServer`] on an in-memory pipe, which breaks the lines as the [`Fault`] says.

use std::{
    collections::HashSet,
    io,
    sync::{Arc, Mutex, PoisonError},
};

use rmcp::ServiceExt as _;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader};

use super::{Fault, FaultServer, LATE_ANSWER, STRAY_RESPONSE};

/// Serves `server` on stdin/stdout with `fault` applied to the lines; returns when stdin
/// closes or the server ends.
///
/// # Errors
///
/// If reading stdin or writing stdout fails.
pub async fn serve_stdio(server: FaultServer, fault: Fault) -> io::Result<()> {
    let (server_end, proxy_end) = tokio::io::duplex(1 << 20);
    let running = tokio::spawn(async move {
        match server.serve(server_end).await {
            Ok(service) => {
                let _ = service.waiting().await;
            }
            Err(error) => eprintln!("fault-server: initialize failed: {error}"),
        }
    });
    let (from_server, mut to_server) = tokio::io::split(proxy_end);
    let calls = Arc::new(Mutex::new(HashSet::new()));
    let discovers = Arc::new(Mutex::new(Discovers::default()));
    // Answers the proxy gives itself, written out between the server's lines.
    let (answer, mut answers) = tokio::sync::mpsc::unbounded_channel::<String>();

    let inbound = {
        let calls = Arc::clone(&calls);
        let discovers = Arc::clone(&discovers);
        let mut last_meta = Value::Null;
        async move {
            let mut lines = BufReader::new(tokio::io::stdin()).lines();
            let mut initialized = false;
            while let Some(mut line) = lines.next_line().await? {
                let mut message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                initialized |= message["method"] == "initialize";
                match before_the_server(fault, &message, initialized) {
                    Some(Some(reply)) => {
                        let _ = answer.send(reply.to_string());
                        continue;
                    }
                    Some(None) => continue,
                    None => {}
                }
                if rewrite_request(fault, &mut message, &mut last_meta) {
                    line = message.to_string();
                }
                if message["method"] == "server/discover" {
                    discovers
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .asked(fault, message["id"].to_string());
                }
                if fault == Fault::LateAnswer && message["method"] == "notifications/cancelled" {
                    continue;
                }
                if message["method"] == "tools/call" {
                    calls
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(message["id"].to_string());
                }
                to_server.write_all(line.as_bytes()).await?;
                to_server.write_all(b"\n").await?;
            }
            io::Result::Ok(())
        }
    };

    let outbound = async move {
        let mut stdout = tokio::io::stdout();
        let mut lines = BufReader::new(from_server).lines();
        loop {
            let mut line = tokio::select! {
                line = lines.next_line() => match line? {
                    Some(line) => line,
                    None => break,
                },
                Some(reply) = answers.recv() => {
                    write_line(&mut stdout, &reply).await?;
                    continue;
                }
            };
            let mut message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            if fault == Fault::ResultsWithoutResultType
                && let Some(result) = message.get_mut("result").and_then(Value::as_object_mut)
                && !result.contains_key("supportedVersions")
                && result.remove("resultType").is_some()
            {
                line = message.to_string();
            }
            let answers_call = message.get("method").is_none()
                && calls
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&message["id"].to_string());
            let answers_broken_discover = message.get("method").is_none()
                && discovers
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .is_broken(&message["id"].to_string());
            let advertises = message.pointer("/result/capabilities").is_some();
            if answers_call {
                write_faulty_answer(&mut stdout, fault, &line, message).await?;
            } else if fault == Fault::ListsFail && advertises {
                let mut message = message;
                let capabilities = &mut message["result"]["capabilities"];
                capabilities["resources"] = serde_json::json!({});
                capabilities["prompts"] = serde_json::json!({});
                write_line(&mut stdout, &message.to_string()).await?;
            } else if answers_broken_discover {
                let mut message = message;
                if fault == Fault::NoisyProbe {
                    let noise = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"probed"}}"#;
                    write_line(&mut stdout, noise).await?;
                    write_line(&mut stdout, &line).await?;
                    continue;
                }
                if let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) {
                    if fault == Fault::DiscoverWithoutResultType {
                        result.remove("resultType");
                    } else if fault == Fault::DiscoverLegacyOnly {
                        let legacy = Value::from(vec![Value::from("2025-11-25")]);
                        result.insert("supportedVersions".into(), legacy);
                    } else {
                        result.remove("supportedVersions");
                    }
                }
                write_line(&mut stdout, &message.to_string()).await?;
            } else {
                write_line(&mut stdout, &line).await?;
            }
        }
        io::Result::Ok(())
    };

    tokio::select! {
        result = inbound => result?,
        result = outbound => result?,
        _ = running => {}
    }
    Ok(())
}

/// The methods the [`FaultServer`] has (protocol 2025-11-25).
const SERVED_METHODS: [&str; 13] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// What the proxy does with a request before the server sees it, for the faults of an older
/// server's lifecycle: `None` passes it on; `Some(None)` drops it; `Some(Some(answer))`
/// answers it.
fn before_the_server(fault: Fault, message: &Value, initialized: bool) -> Option<Option<Value>> {
    let method = message.get("method").and_then(Value::as_str)?;
    let id = message.get("id")?;
    let served = SERVED_METHODS.contains(&method);
    let empty = || Some(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}));
    match fault {
        Fault::AnswersAnything if !served => Some(empty()),
        Fault::DropsUnknown if !served => Some(None),
        // rmcp's server takes nothing before `initialize`: the proxy answers the ping an
        // older server would.
        Fault::DropsUnknown if method == "ping" && !initialized => Some(empty()),
        Fault::SilentUntilInitialize if !initialized => Some(None),
        _ => None,
    }
}

/// The `server/discover` requests whose answers a fault breaks.
#[derive(Default)]
struct Discovers {
    seen: usize,
    later: HashSet<String>,
}

impl Discovers {
    /// Notes a `server/discover` whose answer `fault` breaks: every one but the client's
    /// probe, or (legacy versions only) every one.
    fn asked(&mut self, fault: Fault, id: String) {
        self.seen += 1;
        let broken = match fault {
            Fault::DiscoverWithoutVersions => self.seen > 1,
            Fault::DiscoverLegacyOnly | Fault::NoisyProbe | Fault::DiscoverWithoutResultType => {
                true
            }
            _ => false,
        };
        if broken {
            self.later.insert(id);
        }
    }

    fn is_broken(&mut self, id: &str) -> bool {
        self.later.remove(id)
    }
}

/// The 2026-07-28 faults in a request: served whatever its version ([`Fault::AnyVersion`])
/// or metadata ([`Fault::MetadataOptional`]). Whether it was changed.
fn rewrite_request(fault: Fault, message: &mut Value, last_meta: &mut Value) -> bool {
    const VERSION: &str = "io.modelcontextprotocol/protocolVersion";
    let is_request = message.get("id").is_some() && message.get("method").is_some();
    if !is_request || message["method"] == "initialize" {
        return false;
    }
    let meta = message.pointer("/params/_meta").cloned();
    match (fault, meta) {
        (Fault::AnyVersion, Some(meta)) if meta.get(VERSION).is_some_and(|v| v != "2026-07-28") => {
            message["params"]["_meta"][VERSION] = Value::from("2026-07-28");
            true
        }
        (Fault::MetadataOptional, None) if last_meta.is_object() => {
            if !message.get("params").is_some_and(Value::is_object) {
                message["params"] = Value::Object(Default::default());
            }
            message["params"]["_meta"] = last_meta.clone();
            true
        }
        (_, Some(meta)) => {
            *last_meta = meta;
            false
        }
        (_, None) => false,
    }
}

/// Writes the answer to a `tools/call` as `fault` breaks it.
async fn write_faulty_answer(
    out: &mut (impl AsyncWrite + Unpin),
    fault: Fault,
    line: &str,
    mut message: Value,
) -> io::Result<()> {
    match fault {
        Fault::LogLines => {
            write_line(out, "[fault-server] INFO finished tools/call").await?;
            write_line(out, line).await
        }
        Fault::PartialJson => {
            let mut cut = line.len() / 2;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            write_line(out, &line[..cut]).await
        }
        Fault::UnknownId => {
            write_line(out, STRAY_RESPONSE).await?;
            write_line(out, line).await
        }
        Fault::LateAnswer => {
            tokio::time::sleep(LATE_ANSWER).await;
            write_line(out, line).await
        }
        Fault::WrongId => {
            message["id"] = Value::String(format!("wrong-{}", message["id"]));
            write_line(out, &message.to_string()).await
        }
        _ => write_line(out, line).await,
    }
}

async fn write_line(out: &mut (impl AsyncWrite + Unpin), line: &str) -> io::Result<()> {
    out.write_all(line.as_bytes()).await?;
    out.write_all(b"\n").await?;
    out.flush().await
}
