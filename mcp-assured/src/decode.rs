//! Decoding a message in one pass where that is rmcp's answer: a tool's result, the hot path
//! of a client, and a `tools/call` request, the hot path of a server in front of one.
//!
//! rmcp decodes a [`ServerJsonRpcMessage`] by buffering the whole message and trying each
//! shape in turn: the JSON-RPC envelope is an untagged enum, and so is the result, where a
//! tool's result is the 15th of 19 shapes. Every shape that does not match formats an error
//! first, which was half of what a `tools/call` round trip cost the client over stdio
//! (`BENCHMARKS.md`, "Instructions per call", the fourth pass).
//!
//! [`server_message`] decodes a response whose result can only be a tool's result in one
//! pass, straight into [`CallToolResult`] with rmcp's own deserializer, and sends
//! everything else to rmcp's decode. The one pass is taken only where its answer is rmcp's:
//!
//! - the envelope has `jsonrpc`, an `id` and a `result`, none of them twice, and no `method`
//!   or `error`; any other key's value is read whole, as rmcp's buffer reads it;
//! - every key of the result is one of `CallToolResult`'s own, none twice, and rmcp's
//!   `CallToolResult` deserializer accepts it (so at least one of `content`,
//!   `structuredContent`, `isError`, and a `resultType` of `complete`);
//! - the result does not also read as a subscription's result (`resultType` with a
//!   subscription id in `_meta`), the one shape before a tool's result that needs no key of
//!   its own.
//!
//! Any doubt falls back to rmcp's decode of the whole message, so the message, or the error,
//! is always the one rmcp gives. Whether rmcp still decodes as this module assumes is checked
//! once per process on the shapes where a newer rmcp could differ ([`one_pass_agrees`]):
//! with another rmcp that reads one of them otherwise, every message takes rmcp's path.
//! [`client_message`] does the same for a client's `tools/call` request (its rule there).
//!
//! The tests hold both to rmcp's decode on generated messages near the rule's edges.

use std::{fmt, sync::OnceLock};

use rmcp::model::{
    CallToolRequest, CallToolResult, ClientJsonRpcMessage, ClientRequest, JsonRpcVersion2_0,
    RequestId, ServerJsonRpcMessage, ServerResult,
};
use serde::{
    Deserialize, Deserializer,
    de::{self, DeserializeSeed, MapAccess, Visitor, value::BorrowedStrDeserializer},
};

/// The `_meta` key that marks a subscription's result (rmcp's `SUBSCRIPTION_ID_META_KEY`).
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The keys of a tool's result, in the order of `TOOL_RESULT_KEY` bits.
const TOOL_RESULT_KEYS: [&str; 5] = [
    "resultType",
    "content",
    "structuredContent",
    "isError",
    "_meta",
];

/// A server's message as rmcp decodes it, in one pass where it is a tool's result.
///
/// # Errors
///
/// rmcp's own decoding error, when the bytes are not a message rmcp reads.
pub(crate) fn server_message(bytes: &[u8]) -> serde_json::Result<ServerJsonRpcMessage> {
    if one_pass_agrees()
        && let Some(message) = tool_result_in_one_pass(bytes)
    {
        return Ok(message);
    }
    serde_json::from_slice(bytes)
}

/// The one pass alone: `None` where the message is not certainly a tool's result.
fn tool_result_in_one_pass(bytes: &[u8]) -> Option<ServerJsonRpcMessage> {
    let Response { id, result } = serde_json::from_slice::<Response>(bytes).ok()?;
    let ToolResult(result) = result;
    let reads_as_subscription = result.result_type.is_some()
        && result
            .meta
            .as_ref()
            .is_some_and(|meta| meta.contains_key(SUBSCRIPTION_ID));
    if reads_as_subscription {
        return None;
    }
    Some(ServerJsonRpcMessage::response(
        ServerResult::CallToolResult(result),
        id,
    ))
}

/// A client's message as rmcp decodes it, in one pass where it is a `tools/call` request:
/// what a server in front of a client (an MCP double, the companion) reads most.
///
/// The one pass reads the request with rmcp's own deserializer, the envelope's `jsonrpc` and
/// `id` taken aside as rmcp's `JsonRpcRequest` takes them; it gives up at a `result` or
/// `error` key (rmcp reads no request then), a `jsonrpc` or `id` given twice, a key written
/// with escapes, or a method other than `tools/call`. Only `tools/call` itself or rmcp's
/// catch-all custom request could read a request whose method is `tools/call`, and the
/// catch-all comes last: where rmcp's `tools/call` deserializer accepts it, that is rmcp's
/// answer.
///
/// # Errors
///
/// rmcp's own decoding error, when the bytes are not a message rmcp reads.
pub fn client_message(bytes: &[u8]) -> serde_json::Result<ClientJsonRpcMessage> {
    if let Some(message) = tool_call_in_one_pass(bytes) {
        return Ok(message);
    }
    serde_json::from_slice(bytes)
}

/// The one pass alone: `None` where the message is not certainly a `tools/call` request.
fn tool_call_in_one_pass(bytes: &[u8]) -> Option<ClientJsonRpcMessage> {
    let ToolCall { id, request } = serde_json::from_slice::<ToolCall>(bytes).ok()?;
    Some(ClientJsonRpcMessage::request(
        ClientRequest::CallToolRequest(request),
        id,
    ))
}

/// A `tools/call` request, read the way rmcp reads one.
struct ToolCall {
    id: RequestId,
    request: CallToolRequest,
}

impl<'de> Deserialize<'de> for ToolCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ToolCallVisitor)
    }
}

struct ToolCallVisitor;

impl<'de> Visitor<'de> for ToolCallVisitor {
    type Value = ToolCall;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a tools/call request")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ToolCall, A::Error> {
        let mut envelope = RequestEnvelope {
            map,
            version: None,
            id: None,
        };
        let request =
            CallToolRequest::deserialize(de::value::MapAccessDeserializer::new(&mut envelope))?;
        match (envelope.version, envelope.id) {
            (Some(_), Some(id)) => Ok(ToolCall { id, request }),
            _ => Err(give_up()),
        }
    }
}

/// A request's entries with `jsonrpc` and `id` taken aside, and any key but `method` and
/// `params` read and dropped: what rmcp's request deserializer sees.
struct RequestEnvelope<A> {
    map: A,
    version: Option<JsonRpcVersion2_0>,
    id: Option<RequestId>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for RequestEnvelope<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(key) = self.map.next_key::<&'de str>()? else {
                return Ok(None);
            };
            match key {
                "jsonrpc" => once(&mut self.version, self.map.next_value()?)?,
                "id" => once(&mut self.id, self.map.next_value()?)?,
                // An answer's key: rmcp reads no request with it.
                "result" | "error" => return Err(give_up()),
                "method" | "params" => {
                    return seed
                        .deserialize(BorrowedStrDeserializer::<A::Error>::new(key))
                        .map(Some);
                }
                // rmcp's request deserializer would skip it leniently; rmcp's buffer reads
                // it whole first, so it is read whole here too.
                _ => {
                    self.map.next_value::<AnyValue>()?;
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// Whether the one pass gives rmcp's answer on the shapes where this rmcp could read a tool's
/// result otherwise (another result type taking it first). Checked once per process.
fn one_pass_agrees() -> bool {
    static AGREES: OnceLock<bool> = OnceLock::new();
    *AGREES.get_or_init(|| {
        let agrees = CANARIES.iter().all(|canary| {
            let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{canary}}}"#);
            same_as_rmcp(line.as_bytes())
        });
        if !agrees {
            tracing::debug!(
                "this rmcp reads a tool's result otherwise than mcp-assured's one-pass decode \
                 assumes: every message takes rmcp's decode"
            );
        }
        agrees
    })
}

/// Tool results with the fewest keys each shape may have: what another result type with
/// optional fields only would take first.
const CANARIES: [&str; 9] = [
    r#"{"content":[]}"#,
    r#"{"content":[{"type":"text","text":"a"}]}"#,
    r#"{"isError":true}"#,
    r#"{"isError":false,"content":[]}"#,
    r#"{"structuredContent":null}"#,
    r#"{"structuredContent":{}}"#,
    r#"{"resultType":"complete","content":[]}"#,
    r#"{"_meta":{},"content":[]}"#,
    r#"{"resultType":"complete","structuredContent":{"a":1},"isError":false,"_meta":{"k":"v"},"content":[]}"#,
];

/// Whether the one pass decodes `line` as a tool's result, and rmcp to the same message.
fn same_as_rmcp(line: &[u8]) -> bool {
    let Some(one_pass) = tool_result_in_one_pass(line) else {
        return false;
    };
    let Ok(rmcp) = serde_json::from_slice::<ServerJsonRpcMessage>(line) else {
        return false;
    };
    is_tool_result(&rmcp)
        && serde_json::to_value(&one_pass).ok() == serde_json::to_value(&rmcp).ok()
}

fn is_tool_result(message: &ServerJsonRpcMessage) -> bool {
    matches!(
        message,
        ServerJsonRpcMessage::Response(response)
            if matches!(response.result, ServerResult::CallToolResult(_))
    )
}

/// Anything that makes the one pass give up; only its occurrence matters.
fn give_up<E: de::Error>() -> E {
    E::custom("not certainly a tool's result")
}

/// A JSON-RPC response, read the way rmcp reads one.
struct Response {
    id: RequestId,
    result: ToolResult,
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum EnvelopeKey {
    Jsonrpc,
    Id,
    Result,
    Error,
    Method,
    #[serde(other)]
    Other,
}

impl<'de> Deserialize<'de> for Response {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ResponseVisitor)
    }
}

struct ResponseVisitor;

impl<'de> Visitor<'de> for ResponseVisitor {
    type Value = Response;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON-RPC response")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Response, A::Error> {
        let (mut version, mut id, mut result) = (None, None, None);
        while let Some(key) = map.next_key::<EnvelopeKey>()? {
            match key {
                EnvelopeKey::Jsonrpc => once(&mut version, map.next_value::<JsonRpcVersion2_0>()?)?,
                EnvelopeKey::Id => once(&mut id, map.next_value::<RequestId>()?)?,
                EnvelopeKey::Result => once(&mut result, map.next_value::<ToolResult>()?)?,
                // A request, a notification or an error: rmcp's to tell apart.
                EnvelopeKey::Error | EnvelopeKey::Method => return Err(give_up()),
                // Read as rmcp's buffer reads it (every value parsed), not skipped, so that
                // a value rmcp refuses is refused here too.
                EnvelopeKey::Other => {
                    map.next_value::<AnyValue>()?;
                }
            }
        }
        match (version, id, result) {
            (Some(_), Some(id), Some(result)) => Ok(Response { id, result }),
            _ => Err(give_up()),
        }
    }
}

/// Keeps the first value of a key; a second one gives up.
fn once<T, E: de::Error>(slot: &mut Option<T>, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(give_up());
    }
    *slot = Some(value);
    Ok(())
}

/// Any JSON value, read with `deserialize_any` at every level as serde's buffer reads it.
struct AnyValue;

impl<'de> Deserialize<'de> for AnyValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(AnyValueVisitor)
    }
}

struct AnyValueVisitor;

impl<'de> Visitor<'de> for AnyValueVisitor {
    type Value = AnyValue;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_i64<E>(self, _: i64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_u64<E>(self, _: u64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_f64<E>(self, _: f64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_str<E>(self, _: &str) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_unit<E>(self) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<AnyValue, A::Error> {
        while seq.next_element::<AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyValue, A::Error> {
        while map.next_entry::<AnyValue, AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }
}

/// A tool's result read by rmcp's own deserializer, from an object whose keys are all a
/// tool result's, none twice.
struct ToolResult(CallToolResult);

impl<'de> Deserialize<'de> for ToolResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // An object only: rmcp's derived helper would also take an array.
        deserializer.deserialize_map(ToolResultVisitor)
    }
}

struct ToolResultVisitor;

impl<'de> Visitor<'de> for ToolResultVisitor {
    type Value = ToolResult;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a tool's result")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ToolResult, A::Error> {
        let keys = ToolResultKeys { map, seen: 0 };
        CallToolResult::deserialize(de::value::MapAccessDeserializer::new(keys)).map(ToolResult)
    }
}

/// The result's entries as they come, giving up at a key that is not a tool result's or
/// comes twice.
struct ToolResultKeys<A> {
    map: A,
    /// One bit per key of `TOOL_RESULT_KEYS` already seen.
    seen: u8,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ToolResultKeys<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        // A key written with escapes cannot be borrowed: it gives up, and rmcp decodes it.
        let Some(key) = self.map.next_key::<&'de str>()? else {
            return Ok(None);
        };
        let bit = TOOL_RESULT_KEYS
            .iter()
            .position(|known| *known == key)
            .map(|index| 1u8 << index)
            .ok_or_else(give_up)?;
        if self.seen & bit != 0 {
            return Err(give_up());
        }
        self.seen |= bit;
        seed.deserialize(BorrowedStrDeserializer::<A::Error>::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;

    fn as_value(message: &ServerJsonRpcMessage) -> Value {
        serde_json::to_value(message).unwrap()
    }

    /// The one pass reads `line` as rmcp does, or gives up; and `server_message` is rmcp's
    /// decode either way, error included.
    fn check(line: &str) -> Result<(), TestCaseError> {
        let rmcp = serde_json::from_str::<ServerJsonRpcMessage>(line);
        if let Some(one_pass) = tool_result_in_one_pass(line.as_bytes()) {
            let Ok(rmcp) = &rmcp else {
                return Err(TestCaseError::fail(format!(
                    "the one pass read {line} as a tool's result; rmcp refuses it: {:?}",
                    rmcp.unwrap_err()
                )));
            };
            prop_assert!(
                is_tool_result(rmcp),
                "the one pass read {} as a tool's result; rmcp as {:?}",
                line,
                rmcp
            );
            prop_assert_eq!(as_value(&one_pass), as_value(rmcp), "{}", line);
        }
        match (server_message(line.as_bytes()), rmcp) {
            (Ok(ours), Ok(rmcp)) => prop_assert_eq!(as_value(&ours), as_value(&rmcp), "{}", line),
            (Err(ours), Err(rmcp)) => prop_assert_eq!(ours.to_string(), rmcp.to_string()),
            (ours, rmcp) => {
                return Err(TestCaseError::fail(format!(
                    "{line}: server_message gave {ours:?}, rmcp {rmcp:?}"
                )));
            }
        }
        Ok(())
    }

    fn takes_one_pass(line: &str) -> bool {
        tool_result_in_one_pass(line.as_bytes()).is_some()
    }

    #[test]
    fn this_rmcp_decodes_as_the_one_pass_assumes() {
        assert!(
            one_pass_agrees(),
            "a canary decodes otherwise in this rmcp: see `CANARIES`"
        );
    }

    #[test]
    fn tool_results_as_servers_write_them_take_the_one_pass() {
        let lines = [
            // rmcp and the Python SDK: jsonrpc, id, result.
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}],"isError":false}}"#,
            // The TypeScript SDK: result first.
            r#"{"result":{"content":[{"type":"text","text":"hi"}]},"jsonrpc":"2.0","id":"call-1"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"image","data":"AA==","mimeType":"image/png"}],"structuredContent":{"a":[1,2.5,null,{"b":"c"}]},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"x"}},{"type":"resource_link","uri":"file:///b","name":"b"}]}}"#,
        ];
        for line in lines {
            assert!(takes_one_pass(line), "{line}");
            check(line).unwrap();
        }
    }

    #[test]
    fn what_rmcp_reads_otherwise_is_left_to_rmcp() {
        let lines = [
            // Another result type's key beside a tool result's: an earlier shape takes it.
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"tools":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"contents":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"messages":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"action":"accept"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"isError":false,"task":{"taskId":"t","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":1000}}}"#,
            // A subscription's result with a tool result's key.
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}}"#,
            // A task instead of a result.
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task","content":[]}}"#,
            // Not a tool result at all.
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":[]}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{}}}"#,
            // Envelopes rmcp refuses or reads as something else.
            r#"{"jsonrpc":"2.0","result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":null,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"1.0","id":1,"result":{"content":[]}}"#,
            r#"{"id":1,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"x","result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"\u0063ontent":[]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"bogus"}]}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":"text"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},"x":"\ud800"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}"#,
            r#"not json"#,
        ];
        for line in lines {
            assert!(!takes_one_pass(line), "{line}");
            check(line).unwrap();
        }
    }

    #[test]
    fn nesting_near_serde_jsons_limit_is_read_as_rmcp_reads_it() {
        for depth in 120..132 {
            let nested = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            check(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{nested}}}}}"#
            ))
            .unwrap();
            check(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[]}},"x":{nested}}}"#
            ))
            .unwrap();
            check_client(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"e","arguments":{{"a":{nested}}}}}}}"#
            ))
            .unwrap();
            check_client(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"e"}},"x":{nested}}}"#
            ))
            .unwrap();
        }
    }

    fn client_as_value(message: &ClientJsonRpcMessage) -> Value {
        serde_json::to_value(message).unwrap()
    }

    fn is_tool_call(message: &ClientJsonRpcMessage) -> bool {
        matches!(
            message,
            ClientJsonRpcMessage::Request(request)
                if matches!(request.request, ClientRequest::CallToolRequest(_))
        )
    }

    /// As `check`, for a client's message.
    fn check_client(line: &str) -> Result<(), TestCaseError> {
        let rmcp = serde_json::from_str::<ClientJsonRpcMessage>(line);
        if let Some(one_pass) = tool_call_in_one_pass(line.as_bytes()) {
            let Ok(rmcp) = &rmcp else {
                return Err(TestCaseError::fail(format!(
                    "the one pass read {line} as tools/call; rmcp refuses it: {:?}",
                    rmcp.unwrap_err()
                )));
            };
            prop_assert!(
                is_tool_call(rmcp),
                "the one pass read {} as tools/call; rmcp as {:?}",
                line,
                rmcp
            );
            prop_assert_eq!(
                client_as_value(&one_pass),
                client_as_value(rmcp),
                "{}",
                line
            );
        }
        match (client_message(line.as_bytes()), rmcp) {
            (Ok(ours), Ok(rmcp)) => {
                prop_assert_eq!(client_as_value(&ours), client_as_value(&rmcp), "{}", line);
            }
            (Err(ours), Err(rmcp)) => prop_assert_eq!(ours.to_string(), rmcp.to_string()),
            (ours, rmcp) => {
                return Err(TestCaseError::fail(format!(
                    "{line}: client_message gave {ours:?}, rmcp {rmcp:?}"
                )));
            }
        }
        Ok(())
    }

    #[test]
    fn tool_calls_as_clients_write_them_take_the_one_pass() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
            r#"{"method":"tools/call","params":{"name":"echo"},"jsonrpc":"2.0","id":"a"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"call_tool","arguments":{"name":"echo","arguments":{"message":"hi"}},"_meta":{"progressToken":3,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        ];
        for line in lines {
            assert!(tool_call_in_one_pass(line.as_bytes()).is_some(), "{line}");
            check_client(line).unwrap();
        }
    }

    #[test]
    fn other_client_messages_are_left_to_rmcp() {
        let lines = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e"},"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"e"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"e"}}"#,
            r#"{"id":1,"method":"tools/call","params":{"name":"e"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e"}} x"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e"},"x":"\ud800"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"e","x":"\ud800"}}"#,
        ];
        for line in lines {
            assert!(tool_call_in_one_pass(line.as_bytes()).is_none(), "{line}");
            check_client(line).unwrap();
        }
    }

    fn client_envelope() -> impl Strategy<Value = String> {
        let params_entry = prop_oneof![
            3 => Just(r#""name":"echo""#.to_owned()),
            1 => Just(r#""name":3"#.to_owned()),
            2 => Just(r#""arguments":{"message":"hi"}"#.to_owned()),
            1 => Just(r#""arguments":[]"#.to_owned()),
            1 => Just(r#""arguments":null"#.to_owned()),
            1 => Just(r#""_meta":{"progressToken":1}"#.to_owned()),
            1 => Just(r#""_meta":null"#.to_owned()),
            1 => Just(r#""task":{"ttl":1000}"#.to_owned()),
            1 => Just(r#""x":[1,{"y":null}]"#.to_owned()),
        ];
        let params = prop::collection::vec(params_entry, 0..5)
            .prop_map(|entries| format!(r#""params":{{{}}}"#, entries.join(",")));
        let entry = prop_oneof![
            4 => Just(r#""jsonrpc":"2.0""#.to_owned()),
            1 => Just(r#""jsonrpc":"1.0""#.to_owned()),
            4 => Just(r#""id":1"#.to_owned()),
            1 => Just(r#""id":"a""#.to_owned()),
            1 => Just(r#""id":null"#.to_owned()),
            4 => Just(r#""method":"tools/call""#.to_owned()),
            1 => Just(r#""method":"tools/list""#.to_owned()),
            1 => Just(r#""result":{}"#.to_owned()),
            1 => Just(r#""error":{"code":1,"message":"m"}"#.to_owned()),
            1 => Just(r#""params":null"#.to_owned()),
            1 => Just(r#""extra":"\u00e9""#.to_owned()),
            1 => Just(r#""extra":"\ud800""#.to_owned()),
            5 => params,
        ];
        prop::collection::vec(entry, 0..7).prop_map(|entries| format!("{{{}}}", entries.join(",")))
    }

    const KEYS: [&str; 24] = [
        "resultType",
        "content",
        "structuredContent",
        "isError",
        "_meta",
        "tools",
        "contents",
        "messages",
        "action",
        "task",
        "taskId",
        "status",
        "completion",
        "prompts",
        "resources",
        "resourceTemplates",
        "nextCursor",
        "protocolVersion",
        "capabilities",
        "serverInfo",
        "supportedVersions",
        "skills",
        "description",
        "x",
    ];

    const VALUES: [&str; 22] = [
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1.5",
        r#""""#,
        r#""complete""#,
        r#""task""#,
        r#""input_required""#,
        r#""accept""#,
        "[]",
        r#"[{"type":"text","text":"hi"}]"#,
        r#"[{"type":"image","data":"AA==","mimeType":"image/png"}]"#,
        r#"[{"type":"bogus"}]"#,
        "{}",
        r#"{"a":[1,{"b":null}]}"#,
        r#"{"io.modelcontextprotocol/subscriptionId":"s1"}"#,
        r#"{"io.modelcontextprotocol/subscriptionId":3}"#,
        r#"{"taskId":"t","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttl":1000}"#,
        r#"{"name":"s","version":"1"}"#,
        r#"["2025-11-25"]"#,
    ];

    fn object(entries: &[(usize, usize)]) -> String {
        let entries: Vec<String> = entries
            .iter()
            .map(|&(key, value)| format!(r#""{}":{}"#, KEYS[key], VALUES[value]))
            .collect();
        format!("{{{}}}", entries.join(","))
    }

    fn result_object() -> impl Strategy<Value = String> {
        // Mostly a tool result's own keys, so that most cases are near the boundary.
        let key = prop_oneof![3 => 0..5usize, 1 => 0..KEYS.len()];
        let entry = key.prop_flat_map(|key| {
            let value = prop_oneof![1 => fitting(key), 1 => 0..VALUES.len()];
            (Just(key), value)
        });
        prop::collection::vec(entry, 0..6).prop_map(|entries| object(&entries))
    }

    /// Values a tool result's own key takes (indexes into `VALUES`), so that most results
    /// are tool results, some of them also another shape.
    fn fitting(key: usize) -> BoxedStrategy<usize> {
        let values: &[usize] = match KEYS[key] {
            "resultType" => &[7, 8, 9],
            "content" => &[11, 12, 13, 14],
            "structuredContent" => &[0, 15, 16],
            "isError" => &[1, 2],
            "_meta" => &[15, 17, 18],
            _ => &[0],
        };
        prop::sample::select(values.to_vec()).boxed()
    }

    fn envelope() -> impl Strategy<Value = String> {
        let entry = prop_oneof![
            4 => Just(r#""jsonrpc":"2.0""#.to_owned()),
            1 => Just(r#""jsonrpc":"1.0""#.to_owned()),
            4 => Just(r#""id":1"#.to_owned()),
            2 => Just(r#""id":"a""#.to_owned()),
            1 => Just(r#""id":null"#.to_owned()),
            1 => Just(r#""id":1.5"#.to_owned()),
            1 => Just(r#""method":"m""#.to_owned()),
            1 => Just(r#""error":{"code":1,"message":"m"}"#.to_owned()),
            1 => Just(r#""params":{}"#.to_owned()),
            1 => Just(r#""extra":[1,{"b":2}]"#.to_owned()),
            6 => result_object().prop_map(|result| format!(r#""result":{result}"#)),
        ];
        prop::collection::vec(entry, 0..6).prop_map(|entries| format!("{{{}}}", entries.join(",")))
    }

    fn well_formed() -> impl Strategy<Value = String> {
        (result_object(), prop::bool::ANY).prop_map(|(result, result_first)| {
            if result_first {
                format!(r#"{{"result":{result},"jsonrpc":"2.0","id":3}}"#)
            } else {
                format!(r#"{{"jsonrpc":"2.0","id":3,"result":{result}}}"#)
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn a_result_is_rmcps_whichever_path(line in well_formed()) {
            check(&line)?;
        }

        #[test]
        fn an_envelope_is_rmcps_whichever_path(line in envelope()) {
            check(&line)?;
        }

        #[test]
        fn a_client_message_is_rmcps_whichever_path(line in client_envelope()) {
            check_client(&line)?;
        }
    }
}
