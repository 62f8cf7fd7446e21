//! What the companion's stdio does with lines rmcp cannot read: rmcp skips a line that is not
//! UTF-8 or not JSON without a word, leaving the client waiting for an answer that never
//! comes. The guard reads stdin itself and answers such a line with a JSON-RPC error
//! (`-32700`, the request's id when one can be read), so every request gets an answer and
//! the session goes on.
//!
//! It is rmcp's transport, not a filter in front of one: each line is parsed once, into the
//! message rmcp gets, and each answer serialised once, straight to stdout, with no task or
//! pipe in between (the companion adds one hop to every call, so it must add nothing else).

use std::{io, pin::Pin, sync::Arc};

use futures::{Sink, Stream};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader},
    sync::Mutex,
};

/// The largest line read, 16 MiB; a longer one is answered with an error.
const MAX_LINE: usize = 16 * 1024 * 1024;

type Output = Arc<Mutex<Pin<Box<dyn AsyncWrite + Send>>>>;
/// Where rmcp sends its answers.
pub(crate) type Answers = Pin<Box<dyn Sink<ServerJsonRpcMessage, Error = io::Error> + Send>>;
/// The messages rmcp reads.
pub(crate) type Messages = Pin<Box<dyn Stream<Item = ClientJsonRpcMessage> + Send>>;

/// rmcp's transport over `input`/`output` (the process's stdin/stdout): the messages read
/// from `input`, lines that are not messages answered on `output`; and where rmcp's answers
/// go, one line each. The stream ends when `input` closes.
pub(crate) fn guard(
    input: impl AsyncRead + Send + 'static,
    output: impl AsyncWrite + Send + 'static,
) -> (Answers, Messages) {
    let output: Output = Arc::new(Mutex::new(Box::pin(output)));
    let answers = futures::sink::unfold(
        output.clone(),
        |output, message: ServerJsonRpcMessage| async move {
            let mut line = serde_json::to_vec(&message).map_err(io::Error::other)?;
            line.push(b'\n');
            write_line(&output, &line).await?;
            Ok::<_, io::Error>(output)
        },
    );
    let reader = (Box::pin(BufReader::new(input)), output, Vec::new());
    let messages = futures::stream::unfold(reader, |(mut input, output, mut line)| async move {
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line).await.unwrap_or(0) == 0 {
                // stdin closed: rmcp sees the end of its input and ends the session.
                return None;
            }
            let trimmed = line.trim_ascii();
            if trimmed.is_empty() {
                continue;
            }
            match read(trimmed) {
                Ok(message) => return Some((message, (input, output, line))),
                Err(mut answer) => {
                    answer.push('\n');
                    if write_line(&output, answer.as_bytes()).await.is_err() {
                        return None;
                    }
                }
            }
        }
    });
    (Box::pin(answers), Box::pin(messages))
}

/// Writes one whole line and flushes it.
async fn write_line(output: &Output, line: &[u8]) -> io::Result<()> {
    let mut output = output.lock().await;
    output.write_all(line).await?;
    output.flush().await
}

/// The message on a line, else the error answer to send back.
fn read(line: &[u8]) -> Result<ClientJsonRpcMessage, String> {
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
    if let Ok(message) = mcp_assured::__private::client_message(text.as_bytes()) {
        return Ok(message);
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

#[cfg(test)]
mod tests {
    use super::read as check;

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
