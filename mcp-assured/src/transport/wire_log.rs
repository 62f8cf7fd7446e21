//! Every message the server sent, as sent, kept until the client holds it to its revision's
//! schema ([`McpClient::wire_violations`](crate::McpClient::wire_violations)), and the
//! method of each request the client sent, by id, to know what an answer answers.
//!
//! Keeping costs a message a lock and a reference count; the schema is only read when the
//! violations are asked for. At most [`KEPT`] messages wait: past that the oldest are
//! counted, not kept, so a long run that never asks holds no more than that.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use crate::wire_schema::WireViolation;

/// How many messages wait at most to be held to the schema.
pub(crate) const KEPT: usize = 4096;

/// How many bytes of messages wait at most; a message larger alone is not kept (it is
/// counted): a server answering megabytes would otherwise be held in memory until asked.
pub(crate) const KEPT_BYTES: usize = 16 << 20;

/// How many requests' methods are remembered at most before their answers come.
const METHODS_KEPT: usize = 4096;

#[derive(Debug, Default)]
pub(crate) struct WireLog {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    waiting: VecDeque<Arc<str>>,
    /// The bytes of the messages waiting.
    bytes: usize,
    /// The methods of requests sent, by id as JSON text, until their answer is held.
    methods: HashMap<String, String>,
    /// What was found so far.
    tally: WireTally,
}

/// What holding the messages to the schema found so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WireTally {
    /// How many messages were held to a schema.
    pub(crate) held: usize,
    /// How many were not held: they came while [`KEPT`] others (or [`KEPT_BYTES`]) waited,
    /// or were larger than that alone.
    pub(crate) not_kept: usize,
    /// Every violation found, in the order the messages came.
    pub(crate) violations: Vec<WireViolation>,
}

impl WireLog {
    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A message the server sent.
    pub(crate) fn received(&self, text: &Arc<str>) {
        let mut inner = self.inner();
        if text.len() > KEPT_BYTES {
            inner.tally.not_kept += 1;
            return;
        }
        while inner.waiting.len() == KEPT || inner.bytes + text.len() > KEPT_BYTES {
            let Some(oldest) = inner.waiting.pop_front() else {
                break;
            };
            inner.bytes -= oldest.len();
            inner.tally.not_kept += 1;
        }
        inner.bytes += text.len();
        inner.waiting.push_back(text.clone());
    }

    /// A request the client sent, by its id as JSON text.
    pub(crate) fn sent(&self, id: String, method: &str) {
        let mut inner = self.inner();
        if inner.methods.len() == METHODS_KEPT {
            // Requests never answered: their answers, if they come, are held to the
            // envelope alone.
            inner.methods.clear();
        }
        inner.methods.insert(id, method.to_owned());
    }

    /// The messages waiting, taken, with `method_of` to find what each answer answers.
    pub(crate) fn hold(
        &self,
        check: impl FnOnce(
            Vec<Arc<str>>,
            &mut dyn FnMut(&str) -> Option<String>,
        ) -> (usize, Vec<WireViolation>),
    ) -> WireTally {
        let waiting: Vec<Arc<str>> = {
            let mut inner = self.inner();
            inner.bytes = 0;
            inner.waiting.drain(..).collect()
        };
        let (held, found) = check(waiting, &mut |id| self.inner().methods.remove(id));
        let mut inner = self.inner();
        inner.tally.held += held;
        inner.tally.violations.extend(found);
        inner.tally.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_and_counts_the_rest() {
        let log = WireLog::default();
        for n in 0..KEPT + 3 {
            log.received(&Arc::from(n.to_string()));
        }
        log.sent("7".into(), "tools/call");
        let tally = log.hold(|waiting, method_of| {
            assert_eq!(waiting.len(), KEPT);
            assert_eq!(&*waiting[0], "3");
            assert_eq!(method_of("7").as_deref(), Some("tools/call"));
            assert_eq!(method_of("7"), None, "taken once");
            (waiting.len(), Vec::new())
        });
        assert_eq!(tally.held, KEPT);
        assert_eq!(tally.not_kept, 3);
        let again = log.hold(|waiting, _| (waiting.len(), Vec::new()));
        assert_eq!(again, tally, "nothing new");
    }

    #[test]
    fn keeps_no_more_than_its_bytes() {
        let log = WireLog::default();
        let big: Arc<str> = "x".repeat(KEPT_BYTES / 2).into();
        for _ in 0..3 {
            log.received(&big);
        }
        log.received(&Arc::from("y".repeat(KEPT_BYTES + 1)));
        let tally = log.hold(|waiting, _| {
            assert_eq!(waiting.len(), 2);
            (waiting.len(), Vec::new())
        });
        assert_eq!(tally.not_kept, 2, "the oldest, and the one too large alone");
    }
}
