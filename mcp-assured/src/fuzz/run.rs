//! One subject fuzzed: past findings replayed, valid then invalid inputs sent many at a
//! time, each answer judged, a crash or a hang told from what it took down with it, and
//! the first failure of each kind shrunk to the smallest input that still fails.

use std::{
    collections::BTreeMap,
    sync::atomic::{AtomicBool, AtomicU32, Ordering},
    time::{Duration, Instant},
};

use futures::{StreamExt, stream};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::{
    cases::{self, Case, Phase},
    generate::Generator,
    oracle::{Expect, Failure, Oracle},
    polish::polish,
    property::Property,
    regressions::Regression,
    reproduce::reproduction,
    session::{Outcome, Session},
    subject::{Subject, SubjectKind},
};
use crate::{
    report::{Finding, FindingKind},
    transport::Reached,
};

/// What every subject of a run shares.
#[derive(Debug)]
pub(crate) struct Context<'a> {
    pub(crate) session: &'a Session,
    /// Bounds the calls in flight across subjects.
    pub(crate) in_flight: Semaphore,
    /// Its size.
    pub(crate) concurrency: usize,
    pub(crate) seed: u64,
    pub(crate) cases: u32,
    pub(crate) shrink_calls: u32,
    pub(crate) deadline: Option<Instant>,
    pub(crate) properties: &'a [Property],
    pub(crate) reached: Option<Reached>,
    /// Set when the time budget ran out, for the run's summary.
    pub(crate) out_of_time: AtomicBool,
}

/// What fuzzing one subject found.
#[derive(Debug)]
pub(crate) struct SubjectRun {
    pub(crate) subject: Subject,
    pub(crate) valid_calls: u32,
    pub(crate) invalid_calls: u32,
    pub(crate) findings: Vec<Finding>,
    /// Why fewer cases ran than asked, or none.
    pub(crate) notes: Vec<String>,
}

/// A call that went wrong, with the case that made it.
#[derive(Debug, Clone)]
struct Failed {
    case: Case,
    failure: Failure,
    outcome: Outcome,
}

impl Context<'_> {
    fn out_of_time(&self) -> bool {
        let out = self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline);
        if out {
            self.out_of_time.store(true, Ordering::Relaxed);
        }
        out
    }

    /// Sends `case` alongside other calls, or alone.
    async fn send(
        &self,
        subject: &Subject,
        case: &Case,
        alone: bool,
        timeout: Option<Duration>,
    ) -> Outcome {
        let (method, params) = subject.request(&case.arguments);
        if alone {
            let _alone = self.session.alone().await;
            self.session.call(method, &params, timeout).await
        } else {
            let _permit = self
                .in_flight
                .acquire()
                .await
                .expect("the semaphore is never closed");
            let _shared = self.session.shared().await;
            self.session.call(method, &params, timeout).await
        }
    }
}

fn expect_of(case: &Case) -> Expect {
    match case.invalidity() {
        None => Expect::Valid,
        Some(how) => Expect::Invalid(how),
    }
}

/// Fuzzes `subject`: `regressions` first, then generated cases.
pub(crate) async fn fuzz_subject(
    context: &Context<'_>,
    subject: Subject,
    generator: Generator,
    regressions: &[Regression],
) -> SubjectRun {
    let oracle = Oracle::new(&subject, context.properties);
    let mut run = SubjectRun {
        subject: subject.clone(),
        valid_calls: 0,
        invalid_calls: 0,
        findings: Vec::new(),
        notes: Vec::new(),
    };
    replay(context, &oracle, &mut run, regressions).await;
    // The valid inputs' failures shrink while the invalid inputs are sent.
    let valid = sample(context, &oracle, &generator, Phase::Valid, &run).await;
    run.record(&valid);
    let shrinking = shrink_all(context, &oracle, &generator, valid);
    let (found, invalid) = if subject.kind() == SubjectKind::Template {
        (shrinking.await, None)
    } else {
        let (found, invalid) = tokio::join!(
            shrinking,
            sample(context, &oracle, &generator, Phase::Invalid, &run)
        );
        (found, Some(invalid))
    };
    run.findings.extend(found);
    if let Some(mut invalid) = invalid {
        run.record(&invalid);
        invalid
            .first
            .retain(|(failed, _)| !run.has(failed.failure.kind, &failed.failure.property));
        let found = shrink_all(context, &oracle, &generator, invalid).await;
        run.findings.extend(found);
    }
    run
}

impl SubjectRun {
    fn has(&self, kind: FindingKind, property: &Option<String>) -> bool {
        self.findings
            .iter()
            .any(|finding| finding.kind == kind && &finding.property == property)
    }

    fn record(&mut self, sampled: &Sampled) {
        match sampled.phase {
            Phase::Valid => self.valid_calls += sampled.calls,
            Phase::Invalid => self.invalid_calls += sampled.calls,
        }
        self.notes.extend(sampled.notes.iter().cloned());
    }
}

/// What sending one phase's inputs found: the first failure of each kind, and how often it
/// came.
#[derive(Debug)]
struct Sampled {
    phase: Phase,
    calls: u32,
    notes: Vec<String>,
    first: Vec<(Failed, u32)>,
    /// The slowest answer, which sets the timeout of a hang's shrinking.
    slowest: Duration,
}

/// Shrinks each failure of `sampled` into a finding.
async fn shrink_all(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    generator: &Generator,
    sampled: Sampled,
) -> Vec<Finding> {
    let mut found = Vec::new();
    for (failed, occurrences) in sampled.first {
        tracing::debug!(subject = %oracle.subject, kind = %failed.failure.kind, "shrinking");
        let (smallest, steps) = shrink(context, oracle, generator, &failed, sampled.slowest).await;
        tracing::debug!(subject = %oracle.subject, kind = %failed.failure.kind, steps, "shrunk");
        found.push(finding(
            context,
            oracle.subject,
            &failed,
            &smallest,
            steps,
            occurrences,
        ));
    }
    found
}

async fn replay(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    run: &mut SubjectRun,
    regressions: &[Regression],
) {
    for regression in regressions {
        // Valid or invalid as the schema says today, whatever the finding was.
        let violations = oracle.argument_schema.violations(&regression.arguments);
        let phase = if violations.is_empty() {
            Phase::Valid
        } else {
            Phase::Invalid
        };
        let mut case = Case::given(phase, regression.arguments.clone());
        if phase == Phase::Invalid {
            case.described = Some(describe(&violations));
        }
        let outcome = send_checked(context, oracle.subject, &case, true, None).await;
        match phase {
            Phase::Valid => run.valid_calls += 1,
            Phase::Invalid => run.invalid_calls += 1,
        }
        let expect = expect_of(&case);
        if let Some(failure) = oracle.judge(&case.arguments, &expect, &outcome)
            && failure.kind == regression.kind
            && !run.has(failure.kind, &failure.property)
        {
            let failed = Failed {
                case,
                failure,
                outcome,
            };
            let mut finding = finding(context, oracle.subject, &failed, &failed, 0, 1);
            finding.replayed = true;
            run.findings.push(finding);
        }
    }
}

/// One phase of one subject: `cases` inputs, sent `in_flight` at a time, each answer
/// judged; failures of a kind `run` already found are left out.
async fn sample(
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
                let (stop, skipped) = (&stop, &skipped);
                async move {
                    if stop.load(Ordering::Relaxed) || context.out_of_time() {
                        skipped.lock().expect("never poisoned").push(case);
                        return None;
                    }
                    let outcome = context.send(subject, &case, false, None).await;
                    if matches!(
                        outcome,
                        Outcome::Hung { .. }
                            | Outcome::Crashed { .. }
                            | Outcome::Unreachable { .. }
                    ) {
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
        let told = resolve(context, subject, answered, typical).await;
        let own = told.iter().find_map(|(_, outcome)| match outcome {
            Outcome::Hung { .. } => Some("it hung"),
            Outcome::Crashed { .. } => Some("it crashed the server"),
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
    let slowest = latencies.last().copied().unwrap_or_default();
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
        first
            .entry(key)
            .and_modify(|(_, count)| *count += 1)
            .or_insert((
                Failed {
                    case,
                    failure,
                    outcome,
                },
                1,
            ));
    }
    sampled.first = first.into_values().collect();
    sampled.slowest = slowest;
    sampled
}

/// The outcomes of `answered` told apart, in the order of the cases: each crash sent again
/// alone (every call in flight dies with the server, so only alone does one show which input
/// killed it; after the first confirmed, the others are left out), each hang kept when the
/// server still answers a `ping` (it was not stuck behind another call), or sent again alone
/// to a server started anew when it does not.
async fn resolve(
    context: &Context<'_>,
    subject: &Subject,
    answered: Vec<(Case, Outcome)>,
    typical: Duration,
) -> Vec<(Case, Outcome)> {
    // Alone, a crash suspect waits little (five times the median answer, at least 100 ms):
    // an input that kills the server does so at once, and one that hangs (collateral of the
    // crash) must not hold every other call back for a whole timeout. Those are sent again
    // alongside the others, all at once; one that crashes the server then is found too.
    let short = (typical * 5).clamp(
        Duration::from_millis(100),
        context.session.call_timeout().min(Duration::from_secs(1)),
    );
    let mut resolved = Vec::new();
    let mut again_together = Vec::new();
    let mut confirmed_crash = false;
    // Once the server was started again in this pass, a later hang's ping proves nothing
    // (the fresh server answers it): such a hang is sent again, alone.
    let mut restarted = false;
    for (case, outcome) in answered {
        match outcome {
            Outcome::Crashed { .. } if confirmed_crash => {}
            Outcome::Crashed { .. } => {
                match send_checked(context, subject, &case, true, Some(short)).await {
                    Outcome::Hung { .. } => again_together.push(case),
                    again => {
                        confirmed_crash = again.lost_the_server();
                        resolved.push((case, again));
                    }
                }
            }
            Outcome::Hung { .. } if !restarted && context.session.answers().await => {
                resolved.push((case, outcome));
            }
            Outcome::Hung { .. } => {
                if !restarted {
                    context.session.restart_deaf().await;
                    restarted = true;
                }
                let again = send_checked(context, subject, &case, true, None).await;
                resolved.push((case, again));
            }
            other => resolved.push((case, other)),
        }
    }
    let sent_again: Vec<(Case, Outcome)> = stream::iter(again_together)
        .map(|case| async move {
            let outcome = send_checked(context, subject, &case, false, None).await;
            (case, outcome)
        })
        .buffer_unordered(context.concurrency)
        .collect()
        .await;
    // Sent together, one of them may take the others down: each crash is sent once more,
    // alone.
    let mut sent_again_told = Vec::new();
    for (case, outcome) in sent_again {
        match outcome {
            Outcome::Crashed { .. } if confirmed_crash => {}
            Outcome::Crashed { .. } => {
                let again = send_checked(context, subject, &case, true, None).await;
                confirmed_crash = again.lost_the_server();
                sent_again_told.push((case, again));
            }
            other => sent_again_told.push((case, other)),
        }
    }
    let sent_again = sent_again_told;
    resolved.extend(sent_again);
    resolved.sort_by_key(|(case, _)| case.index);
    resolved
}

/// How arguments break the schema, in words.
fn describe(violations: &[crate::schema::Violation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// [`Context::send`], then, when the call hung and the server no longer answers a `ping`
/// (one that handles a request at a time is stuck behind it), the server started again so
/// the next call is not judged for it.
async fn send_checked(
    context: &Context<'_>,
    subject: &Subject,
    case: &Case,
    alone: bool,
    timeout: Option<Duration>,
) -> Outcome {
    let outcome = context.send(subject, case, alone, timeout).await;
    if matches!(outcome, Outcome::Hung { .. }) && !context.session.answers().await {
        context.session.restart_deaf().await;
    }
    outcome
}

/// Whether `case` is one to send: a prompt's arguments are refused for a missing required
/// one only (their values are strings by the protocol, not by a schema).
fn keeps(subject: &Subject, case: &Case) -> bool {
    match (subject.kind(), &case.mutation) {
        (SubjectKind::Prompt, Some(mutation)) => mutation.kind() == "missing_required",
        _ => true,
    }
}

/// The smallest input that fails as `failed` did: proptest's shrinking first (simplify
/// while it still fails, complicate back when it stops), then [`polish`] on the JSON. A hang
/// is judged with a shorter timeout while shrinking (many times the slowest answer seen), and
/// the result confirmed with the full one; a hang skips proptest's shrinking, each of whose
/// one-character steps would cost that timeout, for the polish's halving.
async fn shrink(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    generator: &Generator,
    failed: &Failed,
    slowest: Duration,
) -> (Failed, u32) {
    let hang = failed.failure.kind == FindingKind::Hang;
    let timeout = hang
        .then(|| (slowest * 20).clamp(Duration::from_millis(250), context.session.call_timeout()));
    // Half the budget for proptest's trees, half for the polish.
    let proptest_budget = if hang { 0 } else { context.shrink_calls / 2 };
    // A hang's every step may cost up to the per-call timeout (a tool whose answers grow
    // slow with its input): its shrinking stops after five of them.
    let hang_deadline = hang.then(|| Instant::now() + context.session.call_timeout() * 5);
    let out_of_patience = || hang_deadline.is_some_and(|deadline| Instant::now() >= deadline);
    let mut smallest = failed.clone();
    let mut steps = 0;
    if let Some(mut current) = failed.case.step(generator, true) {
        while steps < proptest_budget && !stopped(context).await {
            steps += 1;
            let still = try_candidate(context, oracle, &current, &failed.failure, timeout).await;
            let next = match still {
                Some(smaller) => {
                    smallest = smaller;
                    current.step(generator, true)
                }
                None => current.step(generator, false),
            };
            match next {
                Some(next) => current = next,
                None => break,
            }
        }
    }
    let keeps_valid = smallest.case.phase == Phase::Valid;
    let schema = &oracle.argument_schema;
    let keeps = |candidate: &Value| schema.violations(candidate).is_empty() == keeps_valid;
    // Every smaller input that still failed, in order: a hang judged with the short timeout
    // is confirmed from the smallest back.
    let accepted = std::sync::Mutex::new(vec![smallest.clone()]);
    let base = smallest.case.clone();
    let (_, polished) = polish(
        smallest.case.arguments.clone(),
        context.shrink_calls / 2,
        keeps,
        |candidate| {
            let described = (!keeps_valid).then(|| describe(&schema.violations(&candidate)));
            let case = base.with_arguments(candidate, described);
            let accepted = &accepted;
            async move {
                if stopped(context).await || out_of_patience() {
                    return false;
                }
                match try_candidate(context, oracle, &case, &failed.failure, timeout).await {
                    Some(smaller) => {
                        accepted.lock().expect("never poisoned").push(smaller);
                        true
                    }
                    None => false,
                }
            }
        },
    )
    .await;
    steps += polished;
    let mut accepted = accepted.into_inner().expect("never poisoned");
    if !hang {
        return (accepted.pop().unwrap_or(smallest), steps);
    }
    // A candidate slow under load may have passed for hung: the smallest that still hangs
    // for the full timeout wins, else the input first found.
    while let Some(candidate) = accepted.pop() {
        if candidate.case == failed.case {
            break;
        }
        let outcome = send_checked(context, oracle.subject, &candidate.case, false, None).await;
        let expect = expect_of(&candidate.case);
        if let Some(confirmed) = oracle
            .judge(&candidate.case.arguments, &expect, &outcome)
            .filter(|confirmed| confirmed.same_as(&failed.failure))
        {
            let confirmed = Failed {
                failure: confirmed,
                outcome,
                ..candidate
            };
            return (confirmed, steps);
        }
    }
    (failed.clone(), steps)
}

/// Whether shrinking must stop: the time budget ran out, or the server is gone.
async fn stopped(context: &Context<'_>) -> bool {
    context.out_of_time() || context.session.gone().await.is_some()
}

/// Sends `case` and returns it as a failure when it fails as `failure` did. A crash is sent
/// alone; a hang that left the server deaf restarts it.
async fn try_candidate(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    case: &Case,
    failure: &Failure,
    timeout: Option<Duration>,
) -> Option<Failed> {
    let crash = failure.kind == FindingKind::Crash;
    let outcome = context.send(oracle.subject, case, crash, timeout).await;
    if matches!(outcome, Outcome::Hung { .. }) && !context.session.answers().await {
        context.session.restart_deaf().await;
    }
    let still = oracle
        .judge(&case.arguments, &expect_of(case), &outcome)
        .filter(|found| found.same_as(failure))?;
    Some(Failed {
        case: case.clone(),
        failure: still,
        outcome,
    })
}

fn finding(
    context: &Context<'_>,
    subject: &Subject,
    found: &Failed,
    smallest: &Failed,
    shrink_steps: u32,
    occurrences: u32,
) -> Finding {
    let answer = match &smallest.outcome {
        Outcome::Answered { result, .. } => result.clone(),
        Outcome::Refused {
            code,
            message,
            data,
        } => {
            let mut error = json!({"code": code, "message": message});
            if let Some(data) = data {
                error["data"] = data.clone();
            }
            json!({ "error": error })
        }
        Outcome::Crashed {
            stderr_tail: Some(tail),
            ..
        } => json!({ "stderr_tail": tail }),
        Outcome::Hung { .. }
        | Outcome::Crashed { .. }
        | Outcome::Broken { .. }
        | Outcome::Unreachable { .. } => Value::Null,
    };
    Finding {
        kind: smallest.failure.kind,
        subject: subject.kind().as_str().to_owned(),
        name: subject.name().to_owned(),
        seed: context.seed,
        arguments: smallest.case.arguments.clone(),
        found_with: found.case.arguments.clone(),
        shrink_steps,
        mutation: smallest.case.invalidity(),
        property: smallest.failure.property.clone(),
        what: smallest.failure.what.clone(),
        answer,
        occurrences,
        replayed: false,
        reproduce: reproduction(
            context.reached.as_ref(),
            subject,
            smallest.failure.kind,
            smallest.failure.property.as_deref(),
            smallest.failure.shown.as_deref(),
            &smallest.case.arguments,
        ),
    }
}
