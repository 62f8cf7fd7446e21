//! What the companion's stdio does with lines rmcp cannot read: rmcp skips a line that is not
//! UTF-8 or not JSON without a word, leaving the client waiting for an answer that never
//! comes. The guard sits between stdin and rmcp and answers such a line itself with a JSON-RPC
//! error (`-32700`, the request's id when one can be read), so every request gets an answer
//! and the session goes on.

use std::io;

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};
use tokio::{
    io::{
        AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader, DuplexStream,
    },
    sync::mpsc,
};

/// The largest line passed on, 16 MiB; a longer one is answered with an error.
const MAX_LINE: usize = 16 * 1024 * 1024;

/// Puts the guard between `input`/`output` (the process's stdin/stdout) and the returned
/// stream, which rmcp serves. Runs until `input` closes and rmcp stops writing.
pub(crate) fn guard(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> DuplexStream {
    let (rmcp_end, guard_end) = tokio::io::duplex(1 << 20);
    let (from_rmcp, to_rmcp) = tokio::io::split(guard_end);
    let (answers, pending_answers) = mpsc::unbounded_channel();
    tokio::spawn(read_requests(input, to_rmcp, answers));
    tokio::spawn(write_output(from_rmcp, pending_answers, output));
    rmcp_end
}

/// Passes each readable line to rmcp; answers the others.
async fn read_requests(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: impl AsyncWrite + Unpin,
    answers: mpsc::UnboundedSender<String>,
) -> io::Result<()> {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await? == 0 {
            // stdin closed: rmcp sees the end of its input and ends the session.
            return to_rmcp.shutdown().await;
        }
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        match check(trimmed) {
            Ok(()) => {
                to_rmcp.write_all(trimmed).await?;
                to_rmcp.write_all(b"\n").await?;
                to_rmcp.flush().await?;
            }
            Err(answer) => {
                if answers.send(answer).is_err() {
                    return Ok(());
                }
            }
        }
    }
}

/// `Ok` for a line rmcp can read, else the error answer to send back.
fn check(line: &[u8]) -> Result<(), String> {
    if line.len() > MAX_LINE {
        return Err(parse_error(
            Value::Null,
            &format!(
                "the message is {} bytes, more than the {MAX_LINE} accepted",
                line.len()
            ),
        ));
    }
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(error) => {
            // The id, if the rest is JSON, so the client can match the answer.
            let lossy = String::from_utf8_lossy(line);
            let id = serde_json::from_str::<Value>(&lossy)
                .ok()
                .and_then(|message| message.get("id").cloned())
                .unwrap_or(Value::Null);
            return Err(parse_error(
                id,
                &format!(
                    "the message is not valid UTF-8 (invalid byte at offset {}); MCP messages \
                     are UTF-8 JSON, one per line",
                    error.valid_up_to()
                ),
            ));
        }
    };
    if serde_json::from_str::<ClientJsonRpcMessage>(text).is_ok() {
        return Ok(());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(message) => {
            // JSON, but not a message rmcp can read: say why, under the request's id.
            let reason = match serde_json::from_value::<ClientJsonRpcMessage>(message.clone()) {
                Err(error) => error.to_string(),
                Ok(_) => "unreadable".to_owned(),
            };
            let id = message
                .get("id")
                .filter(|id| id.is_string() || id.is_number())
                .cloned()
                .unwrap_or(Value::Null);
            Err(json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {
                    "code": -32600,
                    "message": format!(
                        "not a valid JSON-RPC 2.0 message ({reason}); expected \
                         {{\"jsonrpc\": \"2.0\", \"id\": .., \"method\": .., \"params\": {{..}}}}"
                    ),
                },
            })
            .to_string())
        }
        Err(error) => Err(parse_error(
            Value::Null,
            &format!("the message is not JSON ({error}); send one JSON-RPC object per line"),
        )),
    }
}

fn parse_error(id: Value, message: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": -32700, "message": message },
    })
    .to_string()
}

/// Writes rmcp's lines and the guard's answers to `output`, one whole line at a time.
async fn write_output(
    from_rmcp: impl AsyncRead + Unpin,
    mut answers: mpsc::UnboundedReceiver<String>,
    mut output: impl AsyncWrite + Unpin,
) -> io::Result<()> {
    let mut lines = BufReader::new(from_rmcp).lines();
    let mut answers_open = true;
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line? {
                Some(line) => line,
                None => return output.flush().await,
            },
            answer = answers.recv(), if answers_open => match answer {
                Some(answer) => answer,
                None => {
                    answers_open = false;
                    continue;
                }
            },
        };
        output.write_all(line.as_bytes()).await?;
        output.write_all(b"\n").await?;
        output.flush().await?;
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn readable_messages_pass() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_ok());
    }

    #[test]
    fn invalid_utf8_is_answered_with_the_id() {
        let answer = check(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\",\"params\":\"\xff\"}")
            .unwrap_err();
        let answer: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], -32700);
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("offset 47"),
            "{answer}"
        );
    }

    #[test]
    fn junk_and_scalars_are_answered() {
        let junk: serde_json::Value = serde_json::from_str(&check(b"hello").unwrap_err()).unwrap();
        assert_eq!(junk["error"]["code"], -32700);
        assert_eq!(junk["id"], serde_json::Value::Null);
        let scalar: serde_json::Value = serde_json::from_str(&check(b"42").unwrap_err()).unwrap();
        assert_eq!(scalar["error"]["code"], -32600);
        let array_params = check(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}"#);
        let array_params: serde_json::Value =
            serde_json::from_str(&array_params.unwrap_err()).unwrap();
        assert_eq!(array_params["id"], 3);
        assert_eq!(array_params["error"]["code"], -32600);
    }
}
