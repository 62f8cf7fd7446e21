//! Sending one phase's inputs, many at a time and in rounds, and keeping the first failure
//! of each kind.

use super::*;

/// What sending one phase's inputs found: the first failure of each kind, and how often it
/// came.
#[derive(Debug)]
pub(super) struct Sampled {
    pub(super) phase: Phase,
    pub(super) calls: u32,
    pub(super) notes: Vec<String>,
    pub(super) first: Vec<(Failed, u32)>,
    /// How long the slowest answers took (the 90th percentile: one stalled answer under
    /// load does not set it), which sets the timeout of a hang's shrinking.
    pub(super) slowest: Duration,
    /// The hang among `first` whose input was shrunk while its call waited.
    pub(super) early: Option<EarlyShrink>,
}

/// One phase of one subject: `cases` inputs, sent `in_flight` at a time, each answer
/// judged; failures of a kind `run` already found are left out.
pub(super) async fn sample(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    generator: &Generator,
    phase: Phase,
    run: &SubjectRun,
) -> Sampled {
    let subject = oracle.subject;
    let mut sampled = Sampled {
        phase,
        calls: 0,
        notes: Vec::new(),
        first: Vec::new(),
        slowest: Duration::ZERO,
        early: None,
    };
    if let Some(gone) = context.session.gone().await {
        sampled.notes.push(format!("not fuzzed further: {gone}"));
        return sampled;
    }
    // No first input, no other: the schema admits nothing invalid (or nothing at all).
    let barren = AtomicBool::new(false);
    let mut next = 0;
    // Drawn, but not sent when a round stopped: sent first in the next one.
    let mut held_back: Vec<Case> = Vec::new();
    let mut latencies: Vec<Duration> = Vec::new();
    let mut resolved: Vec<(Case, Outcome)> = Vec::new();
    let mut sent = 0;
    let watch = Watch::default();
    // Rounds: a hang or a crash seen in flight stops a round (each more would cost a
    // timeout or a restart); once told apart, only this subject's own ends the phase, so a
    // crash of another tool's (which every call in flight sees) does not cut it short.
    let ended = loop {
        let stop = AtomicBool::new(false);
        let reached = AtomicU32::new(next);
        let skipped = std::sync::Mutex::new(Vec::new());
        // Drawn as calls are sent, so a time budget also bounds generation.
        let fresh = (next..context.cases)
            .take_while(|index| {
                let go = !stop.load(Ordering::Relaxed)
                    && !barren.load(Ordering::Relaxed)
                    && !context.out_of_time();
                if go {
                    reached.store(index + 1, Ordering::Relaxed);
                }
                go
            })
            .filter_map(|index| {
                let case = cases::draw(generator, context.seed, subject.name(), phase, index);
                if case.is_none() && index == 0 {
                    barren.store(true, Ordering::Relaxed);
                }
                case
            })
            .filter(|case| keeps(subject, case));
        let inputs = std::mem::take(&mut held_back).into_iter().chain(fresh);
        let answered: Vec<(Case, Outcome)> = stream::iter(inputs)
            .map(|case| {
                let (stop, skipped, watch) = (&stop, &skipped, &watch);
                async move {
                    if stop.load(Ordering::Relaxed) || context.out_of_time() {
                        skipped.lock().expect("never poisoned").push(case);
                        return None;
                    }
                    // A suspect of a hang ends the round too: each more input that hangs
                    // would hold its place a whole timeout.
                    let wanted = || !stop.load(Ordering::Relaxed);
                    let suspected = || stop.store(true, Ordering::Relaxed);
                    let sending = send_watched(context, oracle, &case, watch, wanted, suspected);
                    let Some(outcome) = Box::pin(sending).await else {
                        skipped.lock().expect("never poisoned").push(case);
                        return None;
                    };
                    if outcome.lost_the_server()
                        || matches!(
                            outcome,
                            Outcome::Hung { .. }
                                | Outcome::Slow { .. }
                                | Outcome::Unreachable { .. }
                        )
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                    Some((case, outcome))
                }
            })
            .buffer_unordered(context.concurrency)
            .filter_map(|done| async move { done })
            .collect()
            .await;
        next = reached.load(Ordering::Relaxed);
        held_back = skipped.into_inner().expect("never poisoned");
        held_back.sort_by_key(|case| case.index);
        sent += answered.len() as u32;
        latencies.extend(answered.iter().filter_map(|(_, outcome)| match outcome {
            Outcome::Answered { elapsed, .. } => Some(*elapsed),
            _ => None,
        }));
        latencies.sort_unstable();
        let typical = latencies
            .get(latencies.len() / 2)
            .copied()
            .unwrap_or_default();
        tracing::debug!(subject = %subject, ?phase, sent, "inputs sent; telling crashes and hangs apart");
        // Boxed, as the calls are: nested in each subject's future, the types of these
        // futures would grow past what the compiler lays out.
        let told = Box::pin(resolve(context, oracle, &watch, answered, typical)).await;
        let own = told.iter().find_map(|(_, outcome)| match outcome {
            Outcome::Hung { .. } => Some("it hung"),
            Outcome::Slow { .. } => Some("it was slow (progress, but no answer within the cap)"),
            Outcome::Crashed { .. } => Some("it crashed the server"),
            Outcome::Broken { lost: true, .. } => {
                Some("it answered what no client can read, which ended the connection")
            }
            Outcome::Unreachable { .. } => Some("the server is gone"),
            _ => None,
        });
        resolved.extend(told);
        let all_sent = next >= context.cases && held_back.is_empty();
        if let Some(own) = own {
            break (!all_sent).then_some(own);
        }
        if all_sent || barren.load(Ordering::Relaxed) {
            break None;
        }
        if context.out_of_time() {
            break Some("the time budget ran out");
        }
    };
    resolved.sort_by_key(|(case, _)| case.index);
    sampled.calls = sent;
    let which = if phase == Phase::Valid {
        "valid"
    } else {
        "invalid"
    };
    if barren.load(Ordering::Relaxed) && phase == Phase::Valid {
        sampled
            .notes
            .push("no valid input could be generated".to_owned());
    }
    if let Some(why) = ended {
        sampled.notes.push(format!(
            "{sent} of {} {which} inputs sent: {why}",
            context.cases
        ));
    }
    let slowest = latencies
        .get(latencies.len() * 9 / 10)
        .or(latencies.last())
        .copied()
        .unwrap_or_default();
    let early = watch.into_early();
    let mut first: BTreeMap<(FindingKind, Option<String>), (Failed, u32)> = BTreeMap::new();
    for (case, outcome) in resolved {
        let expect = expect_of(&case);
        let Some(failure) = oracle.judge(&case.arguments, &expect, &outcome) else {
            continue;
        };
        if run.has(failure.kind, &failure.property) {
            continue;
        }
        let key = (failure.kind, failure.property.clone());
        // The first of a kind is shrunk; a hang shrunk early is reported from its own input.
        let shrunk_early = failure.kind == FindingKind::Hang
            && early
                .as_ref()
                .is_some_and(|early| early.index == case.index);
        let failed = Failed {
            case,
            failure,
            outcome,
        };
        match first.entry(key) {
            std::collections::btree_map::Entry::Vacant(entry) => {
                entry.insert((failed, 1));
            }
            std::collections::btree_map::Entry::Occupied(mut entry) => {
                let (kept, count) = entry.get_mut();
                *count += 1;
                if shrunk_early {
                    *kept = failed;
                }
            }
        }
    }
    sampled.first = first.into_values().collect();
    sampled.early = early.filter(|early| {
        sampled
            .first
            .iter()
            .any(|(failed, _)| failed.case.index == early.index)
    });
    sampled.slowest = slowest;
    sampled
}

/// Whether `case` is one to send: a prompt's arguments are refused for a missing required
/// one only (their values are strings by the protocol, not by a schema).
fn keeps(subject: &Subject, case: &Case) -> bool {
    match (subject.kind(), &case.mutation) {
        (SubjectKind::Prompt, Some(mutation)) => mutation.kind() == "missing_required",
        _ => true,
    }
}
