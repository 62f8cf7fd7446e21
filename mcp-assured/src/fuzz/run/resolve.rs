//! Telling crashes and hangs apart: an input that killed the server from those that died
//! with it, an input that hangs from those stuck behind it.

use super::*;

/// The outcomes of `answered` told apart, in the order of the cases: each crash (or answer
/// that ended the connection) sent again alone (every call in flight dies with the server,
/// so only alone does one show which input killed it; after the first confirmed, the others
/// are left out), each hang kept when the server answered a `ping` right after it (it was
/// not stuck behind another call), or sent again alone, to a server started anew when it
/// was stuck.
pub(super) async fn resolve(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    watch: &Watch,
    answered: Vec<(Case, Outcome)>,
    typical: Duration,
) -> Vec<(Case, Outcome)> {
    // Alone, a crash suspect waits little (five times the median answer, at least 100 ms):
    // an input that kills the server does so at once, and one that hangs (collateral of the
    // crash) must not hold every other call back for a whole timeout. Those are sent again
    // alongside the others, all at once; one that crashes the server then is found too.
    let subject = oracle.subject;
    let short = (typical * 5).clamp(
        Duration::from_millis(100),
        context.session.call_timeout().min(Duration::from_secs(1)),
    );
    let mut resolved = Vec::new();
    let mut again_together = Vec::new();
    let mut confirmed_crash = false;
    // A stuck server is started again once in this pass, however many hangs it left.
    let mut restarted = false;
    // The hangs first: once one is the subject's own, a call that died with the server and
    // hangs sent again shows only the same, and is not sent again for a whole timeout.
    let (hangs, others): (Vec<_>, Vec<_>) = answered
        .into_iter()
        .partition(|(_, outcome)| matches!(outcome, Outcome::Hung { .. }));
    let mut own_hang = false;
    for (case, outcome) in hangs.into_iter().chain(others) {
        if outcome.lost_the_server() || matches!(outcome, Outcome::Hung { .. }) {
            tracing::debug!(%subject, index = case.index, ?outcome, "telling apart");
        }
        match outcome {
            died if died.lost_the_server() && confirmed_crash => {}
            // It had waited long unanswered when the server died: sent again with the others.
            // Should it be what kills the server after all, it dies again there and is sent
            // again alone then.
            died if died.lost_the_server() && watch.was_suspect(case.index) => {
                again_together.push(case);
            }
            died if died.lost_the_server() => {
                let sent_on = watch.sent_on(case.index);
                // The input that killed the server this call went out to was found (another
                // subject's, say) while it waited: it died with the server.
                let needed = || !sent_on.is_some_and(|g| context.session.explained(g));
                let Some((again, on_probe)) = context
                    .send_apart(subject, &case, Some(short), needed)
                    .await
                else {
                    again_together.push(case);
                    continue;
                };
                if is_stuck(&again) {
                    context.session.restart_deaf().await;
                }
                match again {
                    Outcome::Hung { .. } if own_hang => {}
                    Outcome::Hung { .. } => again_together.push(case),
                    // What the second process answered is judged on the first, with the
                    // others: only a crash is believed of it.
                    again if on_probe && !again.lost_the_server() => again_together.push(case),
                    again => {
                        confirmed_crash = again.lost_the_server();
                        if let (true, Some(generation)) = (confirmed_crash, sent_on) {
                            context.session.explain(generation);
                        }
                        resolved.push((case, again));
                    }
                }
            }
            // The server answered a ping right after: the hang is the input's.
            Outcome::Hung {
                stuck: Some(false), ..
            } => {
                own_hang = true;
                resolved.push((case, outcome));
            }
            // Stuck (behind this call, or another), or started again since: sent again
            // alone, to a server that answers.
            Outcome::Hung { stuck, .. } => {
                if stuck == Some(true) && !restarted {
                    context.session.restart_deaf().await;
                    restarted = true;
                }
                let again = send_checked(context, subject, &case, true, None).await;
                own_hang |= matches!(again, Outcome::Hung { .. });
                resolved.push((case, again));
            }
            other => resolved.push((case, other)),
        }
    }
    let sent_again: Vec<(Case, Outcome)> = stream::iter(again_together)
        .map(|case| async move {
            let outcome = Box::pin(send_watched(context, oracle, &case, watch, || true, || {}))
                .await
                .expect("always wanted");
            if is_stuck(&outcome) {
                context.session.restart_deaf().await;
            }
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
            died if died.lost_the_server() && confirmed_crash => {}
            died if died.lost_the_server() => {
                let again = send_checked(context, subject, &case, true, None).await;
                confirmed_crash = again.lost_the_server();
                if let (true, Some(generation)) = (confirmed_crash, watch.sent_on(case.index)) {
                    context.session.explain(generation);
                }
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
pub(super) fn describe(violations: &[crate::schema::Violation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether `outcome` is a hang that left the server deaf to a `ping`.
pub(super) fn is_stuck(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Hung {
            stuck: Some(true),
            ..
        }
    )
}

/// [`Context::send`], then, when the call hung and the server no longer answers a `ping`
/// (one that handles a request at a time is stuck behind it), the server started again so
/// the next call is not judged for it.
pub(super) async fn send_checked(
    context: &Context<'_>,
    subject: &Subject,
    case: &Case,
    alone: bool,
    timeout: Option<Duration>,
) -> Outcome {
    let outcome = context.send(subject, case, alone, timeout).await;
    if is_stuck(&outcome) {
        context.session.restart_deaf().await;
    }
    outcome
}
