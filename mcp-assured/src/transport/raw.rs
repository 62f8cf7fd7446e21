//! The exact JSON of responses, for what rmcp's types drop: fields a server adds that the
//! protocol's schema does not name (a tool's `testMetadata`, say), and numbers as sent.
//!
//! Kept only while a raw request is waiting, and only the last few, so ordinary traffic
//! pays a counter check and nothing more.

use std::{
    collections::VecDeque,
    sync::{
        Mutex,
        atomic::{AtomicUsize, Ordering},
    },
};

use serde_json::Value;

/// How many responses are kept at most.
const KEPT: usize = 32;

#[derive(Debug, Default)]
pub(crate) struct RawResponses {
    waiting: AtomicUsize,
    recent: Mutex<VecDeque<(String, Value)>>,
}

/// Keeps raw responses recorded while it lives.
#[derive(Debug)]
pub(crate) struct Wanted<'a>(&'a RawResponses);

impl Drop for Wanted<'_> {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::AcqRel);
    }
}

impl RawResponses {
    /// Starts recording, until the guard is dropped.
    pub(crate) fn want(&self) -> Wanted<'_> {
        self.waiting.fetch_add(1, Ordering::AcqRel);
        Wanted(self)
    }

    pub(crate) fn wanted(&self) -> bool {
        self.waiting.load(Ordering::Acquire) > 0
    }

    /// Records a message as received, if it is a response and one is wanted.
    pub(crate) fn record_bytes(&self, bytes: &[u8]) {
        if self.wanted()
            && let Ok(message) = serde_json::from_slice::<Value>(bytes)
        {
            self.record(message);
        }
    }

    pub(crate) fn record(&self, message: Value) {
        let is_response = message.get("result").is_some() || message.get("error").is_some();
        let Some(id) = message
            .get("id")
            .filter(|_| is_response)
            .map(Value::to_string)
        else {
            return;
        };
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if recent.len() == KEPT {
            recent.pop_front();
        }
        recent.push_back((id, message));
    }

    /// The response to the request with this id (as JSON text: `7` or `"abc"`), if recorded.
    pub(crate) fn take(&self, id: &str) -> Option<Value> {
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = recent.iter().position(|(recorded, _)| recorded == id)?;
        recent.remove(at).map(|(_, message)| message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_responses_only_while_wanted() {
        let raw = RawResponses::default();
        raw.record_bytes(br#"{"jsonrpc":"2.0","id":1,"result":{"x":1}}"#);
        assert_eq!(raw.take("1"), None);
        let wanted = raw.want();
        raw.record_bytes(br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#);
        raw.record_bytes(
            br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"testMetadata":{"priority":1}}]}}"#,
        );
        drop(wanted);
        assert_eq!(
            raw.take("2"),
            Some(
                json!({"jsonrpc":"2.0","id":2,"result":{"tools":[{"testMetadata":{"priority":1}}]}})
            )
        );
        assert_eq!(raw.take("2"), None);
    }
}
