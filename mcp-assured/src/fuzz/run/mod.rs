//! One subject fuzzed: past findings replayed, valid then invalid inputs sent many at a
//! time, each answer judged, a crash or a hang told from what it took down with it, and
//! the first failure of each kind shrunk to the smallest input that still fails.

use std::{
    collections::{BTreeMap, BTreeSet},
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
    reproduce::{Found, reproduction},
    session::{Outcome, Session},
    subject::{Subject, SubjectKind},
};
use crate::{
    report::{Finding, FindingKind},
    transport::Reached,
};

mod excuse;
mod resolve;
mod sample;
mod shrink;
mod suspect;

use self::{
    excuse::excuse_hang,
    resolve::{describe, is_stuck, resolve, send_checked},
    sample::{Sampled, sample},
    shrink::shrink,
    suspect::{EarlyShrink, Watch, send_watched},
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
    /// The official schema of the revision spoken, each answer is held to.
    pub(crate) wire: Option<crate::wire_schema::WireSchema>,
    /// The client's roots, as paths: what a file tool may answer.
    pub(crate) roots: Vec<String>,
    /// The folders the server runs from, whose source files it must not show.
    pub(crate) own_folders: super::leak::OwnFolders,
    /// Passed once every subject has sent all it will but the calls sent again alone.
    pub(crate) all_sent: tokio::sync::Barrier,
    /// Calls sent so far, for progress.
    pub(crate) calls: std::sync::atomic::AtomicU64,
    /// Failures seen so far (each kind once per subject), for progress.
    pub(crate) failures: std::sync::atomic::AtomicU64,
    /// Subjects finished, for progress.
    pub(crate) subjects_done: std::sync::atomic::AtomicUsize,
    /// The subjects that reported progress about a call: evidence that one of their hangs
    /// is slowness by design ([`excuse_hang`]).
    pub(crate) reporting_progress: std::sync::Mutex<BTreeSet<(SubjectKind, String)>>,
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
        if alone {
            let _alone = self.session.alone().await;
            self.call(subject, case, timeout).await
        } else {
            let _permit = self
                .in_flight
                .acquire()
                .await
                .expect("the semaphore is never closed");
            let _shared = self.session.shared().await;
            self.call(subject, case, timeout).await
        }
    }

    /// Sends `case` with no other call on the same server process: on the second process of
    /// a stdio server ([`Session::call_on_probe`]), so that it waits for no call in flight on
    /// the first, a hang's say, and holds none back; else alone on the first. Whether it
    /// went to the second process comes with the outcome; `None` when, its turn come,
    /// `needed` says it no longer is.
    async fn send_apart(
        &self,
        subject: &Subject,
        case: &Case,
        timeout: Option<Duration>,
        needed: impl Fn() -> bool,
    ) -> Option<(Outcome, bool)> {
        let (method, params) = subject.request(&case.arguments);
        let watch_stderr = case.invalidity().is_none();
        let on_probe = self
            .session
            .call_on_probe(method, &params, timeout, watch_stderr, &needed)
            .await;
        match on_probe {
            Some(super::session::Probed::Sent(outcome)) => {
                self.calls.fetch_add(1, Ordering::Relaxed);
                Some((outcome, true))
            }
            Some(super::session::Probed::NotNeeded) => None,
            None if !needed() => None,
            None => Some((self.send(subject, case, true, timeout).await, false)),
        }
    }

    /// Sends `case` alongside other calls, beside the bound on calls in flight: for a hang's
    /// candidates and confirmations, which wait out a timeout and must not hold a place
    /// meanwhile.
    async fn send_beside(
        &self,
        subject: &Subject,
        case: &Case,
        timeout: Option<Duration>,
    ) -> Outcome {
        let _shared = self.session.shared().await;
        self.call(subject, case, timeout).await
    }

    async fn call(&self, subject: &Subject, case: &Case, timeout: Option<Duration>) -> Outcome {
        self.call_telling(subject, case, timeout, None).await
    }

    /// [`Context::call`], telling `sent` once the request has gone out.
    async fn call_telling(
        &self,
        subject: &Subject,
        case: &Case,
        timeout: Option<Duration>,
        sent: Option<&super::session::Sent>,
    ) -> Outcome {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let (method, params) = subject.request(&case.arguments);
        // Only valid input's tool error can be a crash answered as one.
        let watch_stderr = case.invalidity().is_none();
        let outcome = self
            .session
            .call(method, &params, timeout, watch_stderr, sent)
            .await;
        if outcome.reported_progress() {
            self.reporting_progress
                .lock()
                .expect("never poisoned")
                .insert((subject.kind(), subject.name().to_owned()));
        }
        outcome
    }

    /// Whether `subject` reported progress about any call so far.
    fn reported_progress(&self, subject: &Subject) -> bool {
        self.reporting_progress
            .lock()
            .expect("never poisoned")
            .contains(&(subject.kind(), subject.name().to_owned()))
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
    let oracle = Oracle::new(
        &subject,
        context.properties,
        context.wire.as_ref(),
        (&context.roots, &context.own_folders),
    );
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
    context
        .failures
        .fetch_add(valid.first.len() as u64, Ordering::Relaxed);
    // A subject that hung (or was slow) gets no more generated inputs: each would cost a
    // timeout (or six) and show the same.
    let stuck = valid
        .first
        .iter()
        .find_map(|(failed, _)| match failed.failure.kind {
            FindingKind::Hang => Some("it hung on a valid one"),
            FindingKind::Slow => Some("it was slow on a valid one"),
            _ => None,
        });
    if let Some(why) = stuck
        && subject.kind() != SubjectKind::Template
    {
        run.notes.push(format!(
            "its invalid inputs were not sent: {why}, and each would cost a timeout"
        ));
    }
    let shrinking = shrink_all(context, &oracle, &generator, valid);
    let (mut shrunk, invalid) = if subject.kind() == SubjectKind::Template || stuck.is_some() {
        (shrinking.await, None)
    } else {
        let (found, invalid) = tokio::join!(
            shrinking,
            sample(context, &oracle, &generator, Phase::Invalid, &run)
        );
        (found, Some(invalid))
    };
    if let Some(mut invalid) = invalid {
        run.record(&invalid);
        invalid.first.retain(|(failed, _)| {
            let failure = &failed.failure;
            !run.has(failure.kind, &failure.property)
                && !shrunk.iter().any(|s| s.smallest.failure.same_as(failure))
        });
        context
            .failures
            .fetch_add(invalid.first.len() as u64, Ordering::Relaxed);
        shrunk.extend(shrink_all(context, &oracle, &generator, invalid).await);
    }
    // Sent again alone once no subject sends any more: alone, a call waits for every call in
    // flight to end, a hang's for its whole timeout, and holds back every other call while
    // it waits.
    context.all_sent.wait().await;
    let mut excused = Vec::new();
    for mut one in std::mem::take(&mut shrunk) {
        if excuse_hang(context, &oracle, &mut one.smallest).await {
            excused.push(one);
        } else {
            shrunk.push(one);
        }
    }
    // A hang excused as slow, beside a call slow of its own (or one replayed): the latter's
    // warning says it.
    excused.retain(|one| {
        let failure = &one.smallest.failure;
        !run.has(failure.kind, &failure.property)
            && !shrunk.iter().any(|s| s.smallest.failure.same_as(failure))
    });
    for shrunk in shrunk.into_iter().chain(excused) {
        let alone = reproduced_alone(context, &oracle, &shrunk.smallest).await;
        if alone == Alone::NotTheSubjects {
            continue;
        }
        let mut found = finding(
            context,
            oracle.subject,
            &shrunk.failed,
            &shrunk.smallest,
            shrunk.steps,
            shrunk.occurrences,
        );
        found.concurrent_only = alone == Alone::Answered;
        run.findings.push(found);
    }
    context.subjects_done.fetch_add(1, Ordering::Relaxed);
    run
}

/// A failure shrunk, to be sent again alone.
#[derive(Debug)]
struct Shrunk {
    /// As first seen.
    failed: Failed,
    /// The smallest input that still failed the same way.
    smallest: Failed,
    steps: u32,
    occurrences: u32,
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

/// Shrinks each failure of `sampled`.
async fn shrink_all(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    generator: &Generator,
    sampled: Sampled,
) -> Vec<Shrunk> {
    let mut shrunk = Vec::new();
    let mut early = sampled.early;
    for (failed, occurrences) in sampled.first {
        tracing::debug!(subject = %oracle.subject, kind = %failed.failure.kind, "shrinking");
        // A hang whose input was shrunk while its call waited ([`suspect`]).
        let shrunk_early = early
            .take_if(|early| {
                failed.failure.kind == FindingKind::Hang && early.index == failed.case.index
            })
            .map(|early| {
                (
                    early.smallest.unwrap_or_else(|| failed.clone()),
                    early.tried,
                )
            });
        let (smallest, steps) = match shrunk_early {
            Some(done) => done,
            None => shrink(context, oracle, generator, &failed, sampled.slowest).await,
        };
        tracing::debug!(subject = %oracle.subject, kind = %failed.failure.kind, steps, "shrunk");
        shrunk.push(Shrunk {
            failed,
            smallest,
            steps,
            occurrences,
        });
    }
    shrunk
}

/// What a failure's shrunk input does sent again alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alone {
    /// It fails the same way: the subject's.
    Fails,
    /// It is answered as it should be: seen only with other calls in flight.
    Answered,
    /// It is answered as it should be, and what failed it was never its own: a stack trace
    /// on the server's stderr, which any call in flight beside it may have written.
    NotTheSubjects,
}

/// What `smallest` does sent again alone (no other call in flight): a finding is blamed on
/// its subject only when it fails the same way. With calls in flight together, one call's
/// undecodable answer can fail the others, a server may mix answers up, and stderr is the
/// server's, not a call's. A crash was told alone already ([`resolve`]), and a hang would
/// cost another timeout: both stand (an open-world tool's hang [`excuse_hang`] sends again
/// alone).
async fn reproduced_alone(context: &Context<'_>, oracle: &Oracle<'_>, smallest: &Failed) -> Alone {
    if matches!(
        smallest.failure.kind,
        FindingKind::Crash | FindingKind::Hang | FindingKind::Slow
    ) || context.session.gone().await.is_some()
    {
        return Alone::Fails;
    }
    let outcome = send_checked(context, oracle.subject, &smallest.case, true, None).await;
    // Not served (the server is gone, or kept refusing with 429): nothing is learnt.
    if matches!(
        outcome,
        Outcome::Unreachable { .. } | Outcome::Throttled { .. }
    ) {
        return Alone::Fails;
    }
    let again = oracle.judge(
        &smallest.case.arguments,
        &expect_of(&smallest.case),
        &outcome,
    );
    match again {
        Some(again) if again.same_as(&smallest.failure) => Alone::Fails,
        _ if smallest.failure.kind == FindingKind::CrashAsToolError
            && smallest.failure.shown.is_some() =>
        {
            Alone::NotTheSubjects
        }
        _ => Alone::Answered,
    }
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
        | Outcome::Slow { .. }
        | Outcome::Crashed { .. }
        | Outcome::Broken { .. }
        | Outcome::Unreachable { .. }
        | Outcome::Throttled { .. } => Value::Null,
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
        concurrent_only: false,
        reproduce: reproduction(
            context.reached.as_ref(),
            Found {
                subject,
                kind: smallest.failure.kind,
                property: smallest.failure.property.as_deref(),
                shown: smallest.failure.shown.as_deref(),
                arguments: &smallest.case.arguments,
            },
        ),
    }
}
