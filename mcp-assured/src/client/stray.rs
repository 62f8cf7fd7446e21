//! The responses that answer no request. rmcp drops a response whose id it is not waiting
//! for without a word; a harness keeps it, for
//! [`McpClient::stray_responses`](crate::McpClient::stray_responses). A request the client
//! cancelled (`notifications/cancelled`, sent on a timeout too) is no longer waited for, so
//! a late answer to it is stray.

use std::{
    collections::VecDeque,
    sync::{Mutex, MutexGuard},
};

use rmcp::{RoleClient, model::RequestId, service::RxJsonRpcMessage};
use serde_json::Value;

/// The ids of the client's requests not answered yet, and the responses that matched none.
///
/// The ids waiting are one per request in flight, mostly answered in the order sent: a queue
/// searched from its oldest costs less than hashing every id twice.
#[derive(Debug, Default)]
pub(crate) struct StrayResponses {
    waiting: Mutex<VecDeque<RequestId>>,
    stray: Mutex<Vec<Value>>,
}

impl StrayResponses {
    /// rmcp sent a request: its ids are numbered in turn, so never one waiting already.
    pub(super) fn sent(&self, id: &RequestId) {
        lock(&self.waiting).push_back(id.clone());
    }

    /// A request was sent by hand: its id may be one waiting already, then waited for once.
    pub(super) fn sent_by_hand(&self, id: &RequestId) {
        let mut waiting = lock(&self.waiting);
        if !waiting.contains(id) {
            waiting.push_back(id.clone());
        }
    }

    /// The client cancelled a request: rmcp stops waiting for it, and so do we.
    pub(super) fn cancelled(&self, id: &RequestId) {
        self.answered(id);
    }

    /// A response arrived: stray unless it answers a request still waiting.
    pub(super) fn received(&self, id: &RequestId, message: &RxJsonRpcMessage<RoleClient>) {
        if !self.answered(id) {
            lock(&self.stray).push(serde_json::to_value(message).unwrap_or(Value::Null));
        }
    }

    /// Stops waiting for `id`; whether it was waited for.
    fn answered(&self, id: &RequestId) -> bool {
        let mut waiting = lock(&self.waiting);
        let Some(at) = waiting.iter().position(|waiting| waiting == id) else {
            return false;
        };
        waiting.remove(at);
        true
    }

    pub(crate) fn all(&self) -> Vec<Value> {
        lock(&self.stray).clone()
    }

    /// How many requests are waiting for their answer.
    #[cfg(test)]
    pub(super) fn waiting(&self) -> usize {
        lock(&self.waiting).len()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::client) fn response(id: i64) -> (RequestId, RxJsonRpcMessage<RoleClient>) {
        let message: RxJsonRpcMessage<RoleClient> =
            serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}))
                .unwrap();
        (RequestId::Number(id), message)
    }

    #[test]
    fn a_response_is_stray_unless_its_request_is_waiting() {
        let responses = StrayResponses::default();
        responses.sent(&RequestId::Number(1));
        responses.sent_by_hand(&RequestId::Number(1));
        let (id, answer) = response(1);
        responses.received(&id, &answer);
        assert!(responses.all().is_empty());
        // Answered twice, and never asked.
        responses.received(&id, &answer);
        let (unknown, stray) = response(7);
        responses.received(&unknown, &stray);
        let ids: Vec<_> = responses.all().iter().map(|r| r["id"].clone()).collect();
        assert_eq!(ids, [1, 7]);
    }
}
