//! Shrinking a failure to the smallest input that still fails the same way.

use super::*;

/// The smallest input that fails as `failed` did: proptest's shrinking first (simplify
/// while it still fails, complicate back when it stops), then [`polish`] on the JSON. A hang
/// is judged with a shorter timeout while shrinking (many times the slowest answer seen), and
/// the result confirmed with the full one; a hang skips proptest's shrinking, each of whose
/// one-character steps would cost that timeout, for the polish's halving.
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
    // What takes the server or its connection down is tried alone: it would take the calls
    // of other subjects in flight down with it.
    let alone = failed.outcome.lost_the_server();
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
            let still =
                try_candidate(context, oracle, &current, &failed.failure, alone, timeout).await;
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
                match try_candidate(context, oracle, &case, &failed.failure, alone, timeout).await {
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

/// Sends `case` and returns it as a failure when it fails as `failure` did. A crash, or
/// what ended the connection (`alone`), is sent alone; a hang that left the server deaf
/// restarts it.
async fn try_candidate(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    case: &Case,
    failure: &Failure,
    alone: bool,
    timeout: Option<Duration>,
) -> Option<Failed> {
    let alone = alone || failure.kind == FindingKind::Crash;
    let outcome = context.send(oracle.subject, case, alone, timeout).await;
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
