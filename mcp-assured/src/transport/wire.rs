//! Every message as the server sent it, from the moment a transport reads it until the
//! client takes it beside rmcp's decoding of it: a response by its id when its request's
//! result is awaited, a request of the server's by its id when it is answered, a
//! notification by its method as it is recorded.
//!
//! Each transport hands over the text of every message it reads (`arrived`), before rmcp
//! decodes it, so the text is always here by the time the typed message is.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex, PoisonError},
};

use rmcp::{
    RoleClient,
    model::{JsonRpcMessage, RequestId},
    service::RxJsonRpcMessage,
};
use serde::{Deserialize, de::IgnoredAny};
use serde_json::Value;

/// How many messages wait at most; the oldest go first. Every message the client decodes is
/// taken; only those nobody asks for (the answer to a request given up on, say) wait here.
const KEPT: usize = 256;

/// What a message is taken by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Key {
    /// A response or error to the request with this id.
    Answer(AnswerId),
    /// A request of the server's, by its id (as JSON text: `7` or `"abc"`).
    Request(String),
    /// A notification, by its method.
    Notification(String),
}

impl Key {
    /// The key of the answer to a request with this id.
    pub(crate) fn answer(id: &RequestId) -> Key {
        Key::Answer(AnswerId::Read(id.clone()))
    }
}

/// The id an answer carries, in the form rmcp's decoding of it is compared by (`1.0` is
/// rmcp's `1`): no text is written for it on every call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnswerId {
    /// An id rmcp reads.
    Read(RequestId),
    /// Any other id (none, `null`, `true`, `1.5`), as JSON text.
    Unread(String),
}

impl AnswerId {
    /// An id as sent.
    pub(crate) fn of(id: Value) -> AnswerId {
        match RequestId::deserialize(&id) {
            Ok(id) => AnswerId::Read(id),
            Err(_) => AnswerId::Unread(id.to_string()),
        }
    }

    /// The id as JSON text.
    fn text(&self) -> String {
        match self {
            AnswerId::Read(id) => id_text(id),
            AnswerId::Unread(text) => text.clone(),
        }
    }
}

/// An id as sent, in the form rmcp's decoding of it is keyed by (`1.0` is rmcp's `1`).
fn canonical_id(id: Value) -> String {
    match RequestId::deserialize(&id) {
        Ok(id) => id_text(&id),
        Err(_) => id.to_string(),
    }
}

/// A request id as JSON text, the form a server's requests are keyed by.
pub(crate) fn id_text(id: &impl serde::Serialize) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// Just enough of a message to know its key; the rest is skipped unread.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    result: Option<IgnoredAny>,
    #[serde(default)]
    error: Option<IgnoredAny>,
}

#[derive(Debug, Default)]
pub(crate) struct WireInbox {
    waiting: Mutex<VecDeque<(Key, Arc<str>)>>,
    /// Every message again, until it is held to its revision's schema.
    #[cfg(feature = "schema")]
    pub(crate) log: super::wire_log::WireLog,
}

impl WireInbox {
    fn waiting(&self) -> std::sync::MutexGuard<'_, VecDeque<(Key, Arc<str>)>> {
        // What it guards stays whole whatever panicked while holding it.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A message read off the transport: any JSON-RPC message's bytes (anything else is not
    /// kept; the transport reports it).
    pub(crate) fn arrived(&self, bytes: &[u8]) {
        let Ok(head) = serde_json::from_slice::<Head>(bytes) else {
            return;
        };
        let key = match (head.method, head.id) {
            (Some(_), Some(id)) => Key::Request(canonical_id(id)),
            (Some(method), None) => Key::Notification(method),
            (None, id) if head.result.is_some() || head.error.is_some() => {
                Key::Answer(AnswerId::of(id.unwrap_or(Value::Null)))
            }
            _ => return,
        };
        self.keep(key, bytes);
    }

    /// A message read off the transport that rmcp decoded as `message`: keyed by that
    /// decoding, so that the text of a response or a request is not parsed a second time
    /// on every call (the id rmcp read is the one [`arrived`](Self::arrived) would find). A
    /// notification is keyed by the method its text names, as `arrived` does.
    pub(crate) fn arrived_decoded(&self, bytes: &[u8], message: &RxJsonRpcMessage<RoleClient>) {
        let key = match message {
            JsonRpcMessage::Response(response) => Key::answer(&response.id),
            JsonRpcMessage::Error(error) => match &error.id {
                Some(id) => Key::answer(id),
                // Without an id it is keyed `null`, as `arrived` keys it.
                None => Key::Answer(AnswerId::of(Value::Null)),
            },
            JsonRpcMessage::Request(request) => Key::Request(id_text(&request.id)),
            JsonRpcMessage::Notification(_) => return self.arrived(bytes),
        };
        self.keep(key, bytes);
    }

    fn keep(&self, key: Key, bytes: &[u8]) {
        // Valid UTF-8 (every message but a broken one) is copied once, without the scan
        // `from_utf8_lossy` makes for replacements.
        let text: Arc<str> = match std::str::from_utf8(bytes) {
            Ok(text) => text.into(),
            Err(_) => String::from_utf8_lossy(bytes).into(),
        };
        #[cfg(feature = "schema")]
        self.log.received(&text);
        let mut waiting = self.waiting();
        if waiting.len() == KEPT {
            waiting.pop_front();
        }
        waiting.push_back((key, text));
    }

    /// The last answer waiting whose request id (as JSON text) `matches`, taken.
    pub(crate) fn take_last_answer(&self, matches: impl Fn(&str) -> bool) -> Option<Arc<str>> {
        let mut waiting = self.waiting();
        let at = waiting
            .iter()
            .rposition(|(key, _)| matches!(key, Key::Answer(id) if matches(&id.text())))?;
        waiting.remove(at).map(|(_, text)| text)
    }

    /// Forgets the notifications and requests of the server's waiting: sent before the client
    /// began to record (during the `server/discover` probe, which reads past them), they
    /// would otherwise be paired with later ones of the same method.
    pub(crate) fn forget_unanswered(&self) {
        self.waiting()
            .retain(|(key, _)| matches!(key, Key::Answer(_)));
    }

    /// The first message waiting under `key`, left for whoever takes it.
    pub(crate) fn peek(&self, key: &Key) -> Option<Arc<str>> {
        let waiting = self.waiting();
        let (_, text) = waiting.iter().find(|(waiting, _)| waiting == key)?;
        Some(text.clone())
    }

    /// The first message waiting under `key`, taken.
    pub(crate) fn take(&self, key: &Key) -> Option<Arc<str>> {
        let mut waiting = self.waiting();
        let at = waiting.iter().position(|(waiting, _)| waiting == key)?;
        waiting.remove(at).map(|(_, text)| text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_is_taken_by_its_key() {
        let inbox = WireInbox::default();
        inbox.arrived(
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#,
        );
        inbox.arrived(
            br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"testMetadata":{"priority":1}}]}}"#,
        );
        inbox.arrived(br#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
        inbox.arrived(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}"#);
        inbox.arrived(b"not json");
        assert_eq!(inbox.take(&Key::answer(&RequestId::Number(1))), None);
        assert!(
            inbox
                .take(&Key::answer(&RequestId::Number(2)))
                .unwrap()
                .contains("testMetadata")
        );
        assert_eq!(
            inbox.take(&Key::answer(&RequestId::Number(2))),
            None,
            "taken once"
        );
        assert!(
            inbox
                .take(&Key::answer(&RequestId::Number(3)))
                .unwrap()
                .contains("-32601")
        );
        assert!(
            inbox
                .take(&Key::Request(id_text(&"s1")))
                .unwrap()
                .contains("roots/list")
        );
        let progress = Key::Notification("notifications/progress".into());
        assert!(inbox.take(&progress).unwrap().contains("\"progress\":1"));
        assert!(inbox.waiting().is_empty());
    }

    #[test]
    fn a_decoded_message_is_keyed_as_its_text_would_be() {
        let messages: [&[u8]; 5] = [
            br#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"no"}}"#,
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}"#,
            br#"{"jsonrpc":"2.0","id":7,"method":"roots/list"}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
        ];
        for text in messages {
            let by_text = WireInbox::default();
            by_text.arrived(text);
            let decoded = WireInbox::default();
            let message: RxJsonRpcMessage<RoleClient> = serde_json::from_slice(text).unwrap();
            decoded.arrived_decoded(text, &message);
            assert_eq!(
                by_text
                    .waiting()
                    .iter()
                    .map(|(key, _)| key.clone())
                    .collect::<Vec<_>>(),
                decoded
                    .waiting()
                    .iter()
                    .map(|(key, _)| key.clone())
                    .collect::<Vec<_>>(),
                "{}",
                String::from_utf8_lossy(text)
            );
            assert_eq!(decoded.waiting().len(), 1);
        }
    }

    #[test]
    fn keeps_only_the_newest() {
        let inbox = WireInbox::default();
        for id in 0..KEPT + 1 {
            inbox.arrived(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#).as_bytes());
        }
        assert_eq!(inbox.take(&Key::answer(&RequestId::Number(0))), None);
        assert!(
            inbox
                .take(&Key::answer(&RequestId::Number(KEPT as i64)))
                .is_some()
        );
    }

    #[test]
    fn an_id_is_keyed_as_rmcp_reads_it() {
        let inbox = WireInbox::default();
        inbox.arrived(br#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#);
        assert!(inbox.take(&Key::answer(&RequestId::Number(1))).is_some());
        inbox.arrived(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#);
        inbox.arrived(br#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
        inbox.forget_unanswered();
        assert_eq!(
            inbox.take(&Key::Notification("notifications/message".into())),
            None
        );
        assert!(inbox.take(&Key::answer(&RequestId::Number(2))).is_some());
    }
}
