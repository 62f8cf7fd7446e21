//! A call that looks hung, shrunk while it waits out its timeout.
//!
//! A hang costs a run two per-call timeouts: one to see it, one to confirm its smallest
//! input. Waiting for the first before shrinking adds the shrinking itself. So a call sent
//! alongside others that has not been answered in ten times the subject's slowest answers
//! is a suspect: it gives up its place among the calls in flight (it may keep it a whole
//! timeout), its subject draws no more inputs this round, and the first suspect of a phase
//! has its input shrunk as a hang while its own call waits. Kept only when the call then
//! hangs on a server that answers a `ping` right after; an answer, a crash or a stuck
//! server drops what the shrinking found.

use std::sync::Mutex;

use super::{
    shrink::{hang_wait, shrink_hang_within},
    *,
};

/// A hang's input shrunk before its own call gave up: the smallest input confirmed hung with
/// the full timeout, if a smaller one was, and how many candidates were tried.
#[derive(Debug)]
pub(super) struct EarlyShrink {
    /// The index of the case it was shrunk from.
    pub(super) index: u32,
    pub(super) smallest: Option<Failed>,
    pub(super) tried: u32,
}

/// What one phase of one subject knows while its calls are out: how long its answers take,
/// whether a suspect is being shrunk, and what that found.
#[derive(Debug, Default)]
pub(super) struct Watch {
    latencies: Mutex<Vec<Duration>>,
    shrinking: AtomicBool,
    early: Mutex<Option<EarlyShrink>>,
    /// The indices of the cases that were suspects.
    suspects: Mutex<BTreeSet<u32>>,
    /// The server client each case last went out on.
    sent_on: Mutex<BTreeMap<u32, u64>>,
}

impl Watch {
    /// How long a call goes unanswered before it is a suspect: [`hang_wait`] of the slowest
    /// answers so far (the 90th percentile), and at least twice them (a tool slow on every
    /// input is no suspect on each); a quarter of the per-call timeout before any answer.
    fn suspect_after(&self, call_timeout: Duration) -> Duration {
        if self.latencies.lock().expect("never poisoned").is_empty() {
            return hang_wait(call_timeout, call_timeout);
        }
        let slowest = self.slowest();
        hang_wait(call_timeout, slowest).max(slowest * 2)
    }

    fn answered(&self, outcome: &Outcome) {
        if let Outcome::Answered { elapsed, .. } = outcome {
            self.latencies
                .lock()
                .expect("never poisoned")
                .push(*elapsed);
        }
    }

    fn slowest(&self) -> Duration {
        let mut latencies = self.latencies.lock().expect("never poisoned").clone();
        latencies.sort_unstable();
        latencies
            .get(latencies.len() * 9 / 10)
            .or(latencies.last())
            .copied()
            .unwrap_or_default()
    }

    /// Whether case `index` went unanswered long enough to be a suspect: one that then died
    /// with the server was waiting, not killing it (an input that kills a server does so at
    /// once).
    pub(super) fn was_suspect(&self, index: u32) -> bool {
        self.suspects
            .lock()
            .expect("never poisoned")
            .contains(&index)
    }

    /// The server client case `index` last went out on, if it went out.
    pub(super) fn sent_on(&self, index: u32) -> Option<u64> {
        self.sent_on
            .lock()
            .expect("never poisoned")
            .get(&index)
            .copied()
    }

    fn went_out(&self, index: u32, sent: &crate::fuzz::session::Sent) {
        if let Some(generation) = sent.generation() {
            self.sent_on
                .lock()
                .expect("never poisoned")
                .insert(index, generation);
        }
    }

    /// What the shrinking of a suspect found, once its call hung.
    pub(super) fn into_early(self) -> Option<EarlyShrink> {
        self.early.into_inner().expect("never poisoned")
    }
}

/// Sends `case` alongside other calls, as [`Context::send`] does, watched by `watch`: once
/// it is a suspect (see the module), `suspected` is called and, first of the watch, its
/// input is shrunk as a hang meanwhile. Not sent (`None`) when `wanted` says no once its
/// turn came: a call that waited for its place, or for a restart, may no longer be.
pub(super) async fn send_watched(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    case: &Case,
    watch: &Watch,
    wanted: impl Fn() -> bool,
    suspected: impl FnOnce(),
) -> Option<Outcome> {
    let subject = oracle.subject;
    let call_timeout = context.session.call_timeout();
    let permit = context
        .in_flight
        .acquire()
        .await
        .expect("the semaphore is never closed");
    let shared = context.session.shared().await;
    if !wanted() {
        return None;
    }
    let sent = crate::fuzz::session::Sent::default();
    let call = async {
        let _shared = shared;
        context.call_telling(subject, case, None, Some(&sent)).await
    };
    tokio::pin!(call);
    // The clock starts once the request is out: a call may first wait for a call alone, a
    // restart, or the server's `Retry-After`. One whose server died meanwhile waits for
    // the restart, not for its answer: no suspect.
    let unanswered = async {
        let generation = sent.wait().await;
        tokio::time::sleep(watch.suspect_after(call_timeout)).await;
        if !context.session.still_serving(generation).await {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        outcome = &mut call => {
            watch.answered(&outcome);
            watch.went_out(case.index, &sent);
            return Some(outcome);
        }
        () = unanswered => {}
    }
    drop(permit);
    suspected();
    watch
        .suspects
        .lock()
        .expect("never poisoned")
        .insert(case.index);
    let hung = Outcome::Hung {
        timeout: call_timeout,
        stuck: Some(false),
    };
    let failure = oracle.judge(&case.arguments, &expect_of(case), &hung);
    let first_suspect = || {
        watch
            .shrinking
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    };
    let Some(failure) = failure.filter(|_| first_suspect()) else {
        let outcome = call.await;
        watch.answered(&outcome);
        watch.went_out(case.index, &sent);
        return Some(outcome);
    };
    tracing::debug!(%subject, index = case.index, "a suspect: shrinking it as a hang while it waits");
    let provisional = Failed {
        case: case.clone(),
        failure,
        outcome: hung,
    };
    let short = hang_wait(call_timeout, watch.slowest());
    // As long as a hang's shrinking gets after its call ([`super::shrink`]), begun earlier.
    // Boxed: inside every call's future, its type would nest too deep for the compiler.
    let mut shrinking = Box::pin(shrink_hang_within(
        context,
        oracle,
        &provisional,
        short,
        call_timeout * 2,
        true,
    ));
    let mut shrunk = None;
    let outcome = loop {
        tokio::select! {
            outcome = &mut call => break outcome,
            done = &mut shrinking, if shrunk.is_none() => shrunk = Some(done),
        }
    };
    watch.answered(&outcome);
    watch.went_out(case.index, &sent);
    if !outcome.hung_on_a_live_server() {
        tracing::debug!(%subject, index = case.index, ?outcome, "the suspect was no hang");
        watch.shrinking.store(false, Ordering::Release);
        return Some(outcome);
    }
    let (smallest, tried) = match shrunk {
        Some(done) => done,
        None => shrinking.await,
    };
    *watch.early.lock().expect("never poisoned") = Some(EarlyShrink {
        index: case.index,
        smallest,
        tried,
    });
    Some(outcome)
}
