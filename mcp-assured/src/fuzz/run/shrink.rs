//! Shrinking a failure to the smallest input that still fails the same way.

use super::*;

/// The smallest input that fails as `failed` did: proptest's shrinking first (simplify
/// while it still fails, complicate back when it stops), then [`polish`] on the JSON.
///
/// A hang is shrunk with candidates in flight together (a batch costs one wait), each judged
/// hung after a shorter timeout (ten times the slowest answers seen, between 100 ms and a
/// quarter of the per-call timeout), for two per-call timeouts at most; each smaller input
/// found is confirmed with the full timeout at once, while shrinking goes on, and the
/// smallest confirmed wins. It skips proptest's shrinking, each of whose one-character steps
/// would cost a wait, for the polish's halving. So a hang costs two per-call timeouts and a
/// bit: one to see it, one to confirm its smallest input, and the few short waits between.
pub(super) async fn shrink(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    generator: &Generator,
    failed: &Failed,
    slowest: Duration,
) -> (Failed, u32) {
    // Slowness is the tool's design or its load, no input's: each step would cost the cap.
    if failed.failure.kind == FindingKind::Slow {
        return (failed.clone(), 0);
    }
    let hang = failed.failure.kind == FindingKind::Hang;
    if hang {
        return shrink_hang(context, oracle, failed, slowest).await;
    }
    // What takes the server or its connection down is tried apart: it would take the calls
    // of other subjects in flight down with it.
    let place = if failed.outcome.lost_the_server() {
        Place::Apart
    } else {
        Place::Shared
    };
    // Half the budget for proptest's trees, half for the polish.
    let proptest_budget = context.shrink_calls / 2;
    let mut smallest = failed.clone();
    let mut steps = 0;
    if let Some(mut current) = failed.case.step(generator, true) {
        while steps < proptest_budget && !stopped(context).await {
            steps += 1;
            let still =
                try_candidate(context, oracle, &current, &failed.failure, place, None).await;
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
    let (polished, tried) = polish_failure(
        context,
        oracle,
        &smallest,
        &failed.failure,
        Polishing {
            place,
            timeout: None,
            width: 1,
            budget: context.shrink_calls / 2,
            patience: None,
        },
        |_| {},
    )
    .await;
    (polished, steps + tried)
}

/// Where a candidate is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// With no other call on its server process ([`Context::send_apart`]): what takes the
    /// server down.
    Apart,
    /// Alongside other calls, taking a place among those in flight.
    Shared,
    /// Alongside other calls, beside the bound on calls in flight: a hang's candidates, each
    /// mostly waiting, shrunk while the other subjects' calls go on.
    Beside,
}

/// How [`polish_failure`] tries its candidates.
#[derive(Debug, Clone, Copy)]
struct Polishing {
    place: Place,
    /// The timeout each is judged hung after, if not the per-call one.
    timeout: Option<Duration>,
    /// How many in flight together.
    width: usize,
    /// How many to try at most.
    budget: u32,
    /// When to stop trying.
    patience: Option<Instant>,
}

/// [`polish`] on `smallest`'s arguments, keeping it valid or invalid as it is: the smallest
/// candidate that still fails as `failure` did (each smaller one taken also handed to
/// `found` as it is), and how many were tried.
async fn polish_failure(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    smallest: &Failed,
    failure: &Failure,
    how: Polishing,
    found: impl Fn(&Failed),
) -> (Failed, u32) {
    let keeps_valid = smallest.case.phase == Phase::Valid;
    let schema = &oracle.argument_schema;
    let keeps = |candidate: &Value| schema.violations(candidate).is_empty() == keeps_valid;
    // Every candidate of a batch that failed: the first in order is the one taken.
    let failing = std::sync::Mutex::new(Vec::<Failed>::new());
    let mut last = smallest.clone();
    let base = &smallest.case;
    let out_of_patience = || how.patience.is_some_and(|at| Instant::now() >= at);
    let (_, tried) = polish(
        smallest.case.arguments.clone(),
        how.budget,
        keeps,
        how.width,
        |candidate| {
            let described = (!keeps_valid).then(|| describe(&schema.violations(&candidate)));
            let case = base.with_arguments(candidate, described);
            let failing = &failing;
            async move {
                if stopped(context).await || out_of_patience() {
                    return false;
                }
                let tried = try_candidate(context, oracle, &case, failure, how.place, how.timeout);
                match tried.await {
                    Some(smaller) => {
                        failing.lock().expect("never poisoned").push(smaller);
                        true
                    }
                    None => false,
                }
            }
        },
        |taken| {
            let mut failing = failing.lock().expect("never poisoned");
            if let Some(at) = failing.iter().position(|f| &f.case.arguments == taken) {
                last = failing.swap_remove(at);
                found(&last);
            }
            failing.clear();
        },
    )
    .await;
    (last, tried)
}

/// [`shrink`] for a hang (see there): candidates in flight together with a short timeout for
/// two per-call timeouts at most, each smaller one confirmed with the full timeout while the shrinking
/// goes on; the smallest confirmed, else the input first found (it hung the full timeout).
async fn shrink_hang(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    failed: &Failed,
    slowest: Duration,
) -> (Failed, u32) {
    let short = hang_wait(context.session.call_timeout(), slowest);
    let patience = context.session.call_timeout() * 2;
    let (smallest, tried) =
        shrink_hang_within(context, oracle, failed, short, patience, false).await;
    (smallest.unwrap_or_else(|| failed.clone()), tried)
}

/// How long a hang's shrinking waits for each candidate before it counts as hung: ten times
/// the slowest answers seen, between 100 ms and a quarter of the per-call timeout.
pub(super) fn hang_wait(call_timeout: Duration, slowest: Duration) -> Duration {
    let longest = (call_timeout / 4)
        .max(Duration::from_millis(100))
        .min(call_timeout);
    (slowest * 10).clamp(Duration::from_millis(100).min(longest), longest)
}

/// The shrinking of [`shrink_hang`], each candidate judged hung after `short`, for
/// `patience` at most: the smallest input confirmed hung with the full timeout, if any
/// smaller one was (`live_only`: only by a hang on a server that answered a `ping` right
/// after, so that candidates stuck behind another call confirm nothing), and how many
/// candidates were tried.
pub(super) async fn shrink_hang_within(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    failed: &Failed,
    short: Duration,
    patience: Duration,
    live_only: bool,
) -> (Option<Failed>, u32) {
    let (found, candidates) = tokio::sync::mpsc::unbounded_channel::<Failed>();
    let shrinking = async {
        let found = found;
        polish_failure(
            context,
            oracle,
            failed,
            &failed.failure,
            Polishing {
                place: Place::Beside,
                timeout: Some(short),
                width: context.concurrency,
                // Time bounds it: a batch of candidates costs one wait, however many.
                budget: context.shrink_calls * context.concurrency as u32,
                patience: Some(Instant::now() + patience),
            },
            |smaller| {
                let _ = found.send(smaller.clone());
            },
        )
        .await
    };
    // Each smaller input found is confirmed with the full timeout as soon as it is, beside
    // the bound on calls in flight (it waits a whole timeout): numbered in the order found,
    // so the last confirmed is the smallest.
    let smaller = stream::unfold(candidates, |mut candidates| async move {
        let candidate = candidates.recv().await?;
        Some((candidate, candidates))
    });
    let confirming = smaller
        .enumerate()
        .map(|(order, candidate)| async move {
            let outcome = context
                .send_beside(oracle.subject, &candidate.case, None)
                .await;
            if live_only && !outcome.hung_on_a_live_server() {
                return None;
            }
            still_fails(context, oracle, &candidate.case, &failed.failure, outcome)
                .await
                .map(|confirmed| (order, confirmed))
        })
        .buffer_unordered(usize::MAX)
        .filter_map(|confirmed| async move { confirmed })
        .collect::<Vec<_>>();
    let ((_, tried), confirmed) = tokio::join!(shrinking, confirming);
    let smallest = confirmed
        .into_iter()
        .max_by_key(|(order, _)| *order)
        .map(|(_, smallest)| smallest);
    (smallest, tried)
}

/// Whether shrinking must stop: the time budget ran out, or the server is gone.
async fn stopped(context: &Context<'_>) -> bool {
    context.out_of_time() || context.session.gone().await.is_some()
}

/// Sends `case` at its `place` and returns it as a failure when it fails as `failure` did.
/// A crash is sent apart whatever the place; a hang that left the server deaf restarts it.
async fn try_candidate(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    case: &Case,
    failure: &Failure,
    place: Place,
    timeout: Option<Duration>,
) -> Option<Failed> {
    let place = if failure.kind == FindingKind::Crash {
        Place::Apart
    } else {
        place
    };
    let outcome = match place {
        Place::Apart => {
            let (outcome, _) = context
                .send_apart(oracle.subject, case, timeout, || true)
                .await
                .expect("always needed");
            if is_stuck(&outcome) {
                context.session.restart_deaf().await;
            }
            outcome
        }
        Place::Shared => context.send(oracle.subject, case, false, timeout).await,
        Place::Beside => context.send_beside(oracle.subject, case, timeout).await,
    };
    still_fails(context, oracle, case, failure, outcome).await
}

/// `case` as a failure, when `outcome` fails as `failure` did; a hang that left the server
/// deaf restarts it.
async fn still_fails(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    case: &Case,
    failure: &Failure,
    outcome: Outcome,
) -> Option<Failed> {
    if is_stuck(&outcome) {
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
