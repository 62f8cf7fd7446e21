//! A hang that is no bug of the subject's: a tool slow by design that says so on other
//! inputs, or an open-world tool whose outside world was slow once. Either is reported
//! `slow` (a warning), saying why; any other hang stands.

use super::*;

/// How many more times an open-world tool's hang is sent alone before it stands.
const OPEN_WORLD_TRIES: u32 = 2;

/// Judges `smallest` again, once every subject has sent all the rest, when it is a hang on
/// a server that answered a `ping` right after (not stuck), and says whether it was excused
/// (it is `slow` now):
/// - its subject reported progress about another call of the run: it is slow by design, and
///   tells so, only not within one timeout on this input: `slow`;
/// - it is a tool annotated `openWorldHint: true`: its input is sent again alone, up to
///   [`OPEN_WORLD_TRIES`] times; answered (or reporting progress) in time once, the hang was
///   the outside world's (a slow DNS lookup, an unreachable host): `slow`. Hung every time,
///   it stands, saying so.
pub(super) async fn excuse_hang(
    context: &Context<'_>,
    oracle: &Oracle<'_>,
    smallest: &mut Failed,
) -> bool {
    let Outcome::Hung { timeout, .. } = smallest.outcome else {
        return false;
    };
    if smallest.failure.kind != FindingKind::Hang || !smallest.outcome.hung_on_a_live_server() {
        return false;
    }
    let subject = oracle.subject;
    if context.reported_progress(subject) {
        smallest.failure = Failure::new(
            FindingKind::Slow,
            format!(
                "no answer and no progress within {timeout:?}, but the server answers and \
                 this tool reports progress on other inputs: slow by design, not hung"
            ),
        );
        return true;
    }
    if !subject.is_open_world() {
        return false;
    }
    for attempt in 1..=OPEN_WORLD_TRIES {
        let outcome = send_checked(context, subject, &smallest.case, true, None).await;
        tracing::debug!(%subject, attempt, ?outcome, "an open-world hang sent again alone");
        let answered = match &outcome {
            Outcome::Answered { elapsed, .. } => Some(format!("was answered in {elapsed:.1?}")),
            Outcome::Refused { .. } => Some("was answered".to_owned()),
            Outcome::Slow { progress, .. } => Some(format!("reported progress {progress} times")),
            _ => None,
        };
        if let Some(answered) = answered {
            smallest.failure = Failure::new(
                FindingKind::Slow,
                format!(
                    "no answer within {timeout:?} once, but sent again alone it \
                     {answered} (try {attempt} of {OPEN_WORLD_TRIES}): the tool is open-world \
                     (openWorldHint), and its answer waits on systems outside the server, \
                     which were slow or unreachable"
                ),
            );
            return true;
        }
        if !matches!(outcome, Outcome::Hung { .. }) {
            // Never served, or the server died: nothing more is learnt.
            return false;
        }
    }
    smallest.failure.what.push_str(&format!(
        "; the tool is open-world (openWorldHint), but sent again alone {OPEN_WORLD_TRIES} \
         more times it hung each time: no slow outside system explains it"
    ));
    false
}
