//! `load.answers_match_requests` and `load.sessions_isolated`: many calls in flight in
//! several sessions, each answer carrying its own request's marker.

use std::{collections::HashMap, fmt::Write as _};

use futures::future::join_all;

use super::{
    HTTP_SESSIONS, IN_FLIGHT, Reach, STDIO_SESSIONS, STRAGGLERS,
    echo::{Echo, carries, nonce, shorten},
    listed,
    sessions::{close_all, open_sessions},
};
use crate::{checks::recorder::Recorder, client::McpClient};

/// What came back for one call of the run.
enum Outcome {
    Right,
    /// The answer carries the marker of another request: (session, request).
    Swapped(usize, usize),
    Wrong(String),
    Lost(String),
}

pub(super) async fn answers_match(
    client: &McpClient,
    echo: &Echo,
    reach: Reach,
    report: &mut Recorder,
) {
    let wanted = match reach {
        Reach::InProcess => 1,
        Reach::Stdio => STDIO_SESSIONS,
        Reach::Http => HTTP_SESSIONS,
    };
    let (extra, not_opened) = open_sessions(client, wanted - 1).await;
    let mut sessions = vec![client.clone()];
    sessions.extend(extra.iter().cloned());
    let strays_before: Vec<usize> = sessions
        .iter()
        .map(|session| session.stray_responses().len())
        .collect();
    let nonce = nonce();
    let marker = |session: usize, request: usize| {
        format!("mcp-assured-load-{nonce}-s{session:03}-r{request:03}.")
    };
    let markers: HashMap<String, (usize, usize)> = (0..sessions.len())
        .flat_map(|s| (0..IN_FLIGHT).map(move |r| (s, r)))
        .map(|(s, r)| (marker(s, r), (s, r)))
        .collect();
    let runs = sessions.iter().enumerate().map(|(s, session)| {
        let marker = &marker;
        let markers = &markers;
        join_all((0..IN_FLIGHT).map(move |r| async move {
            let mine = marker(s, r);
            match session.call_tool(&echo.tool, echo.arguments(&mine)).await {
                Ok(result) if carries(&result, &mine) => Outcome::Right,
                Ok(result) => {
                    let text = result.text();
                    match markers
                        .iter()
                        .find(|(other, _)| text.contains(other.as_str()))
                    {
                        Some((_, &(session, request))) => Outcome::Swapped(session, request),
                        None if result.is_error == Some(true) => {
                            Outcome::Wrong(format!("a tool error: {}", shorten(&text)))
                        }
                        None => Outcome::Wrong(format!("no marker: {}", shorten(&text))),
                    }
                }
                Err(error) => Outcome::Lost(error.to_string()),
            }
        }))
    });
    let outcomes = join_all(runs).await;
    tokio::time::sleep(STRAGGLERS).await;
    let strays: usize = sessions
        .iter()
        .zip(&strays_before)
        .map(|(session, before)| session.stray_responses().len().saturating_sub(*before))
        .sum();

    let calls = sessions.len() * IN_FLIGHT;
    let mut swapped = Vec::new();
    let mut across = Vec::new();
    let mut wrong = Vec::new();
    let mut lost = Vec::new();
    for (s, session) in outcomes.iter().enumerate() {
        for (r, outcome) in session.iter().enumerate() {
            match outcome {
                Outcome::Right => {}
                Outcome::Swapped(other_s, other_r) => {
                    let what = format!("s{s}/r{r} got the answer of s{other_s}/r{other_r}");
                    if *other_s != s {
                        across.push(what.clone());
                    }
                    swapped.push(what);
                }
                Outcome::Wrong(what) => wrong.push(format!("s{s}/r{r}: {what}")),
                Outcome::Lost(error) => lost.push(format!("s{s}/r{r}: {error}")),
            }
        }
    }
    let mut problems = Vec::new();
    if !swapped.is_empty() {
        problems.push(format!(
            "{} of {calls} answers carry another request's result (ids right, content not): {}",
            swapped.len(),
            listed(&swapped)
        ));
    }
    if !wrong.is_empty() {
        problems.push(format!(
            "{} answers lack their request's marker: {}",
            wrong.len(),
            listed(&wrong)
        ));
    }
    if !lost.is_empty() {
        problems.push(format!(
            "{} of {calls} calls got no answer: {}",
            lost.len(),
            listed(&lost)
        ));
    }
    if strays > 0 {
        problems.push(format!(
            "{strays} responses answered no request in flight (a second answer, or an id never \
             sent; see McpClient::stray_responses)"
        ));
    }
    let mut run = format!(
        "{} session(s) × {IN_FLIGHT} `{}` calls in flight at once",
        sessions.len(),
        echo.tool
    );
    if !not_opened.is_empty() {
        let _ = write!(
            run,
            " ({} more session(s) could not be opened: {})",
            not_opened.len(),
            listed(&not_opened)
        );
    }
    if problems.is_empty() {
        report.pass(
            "load.answers_match_requests",
            format!("{run}: every answer came once, carrying its own request's marker"),
        );
    } else {
        report.fail(
            "load.answers_match_requests",
            format!("{run}: {}", problems.join("; ")),
        );
    }

    if sessions.len() < 2 {
        report.skip(
            "load.sessions_isolated",
            format!("one session only: {}", reach.why_one_process()),
        );
    } else if across.is_empty() {
        report.pass(
            "load.sessions_isolated",
            format!(
                "{} sessions at once: none got content of another session's request",
                sessions.len()
            ),
        );
    } else {
        report.fail(
            "load.sessions_isolated",
            format!(
                "{} answers carry content of a request sent in another session: {}",
                across.len(),
                listed(&across)
            ),
        );
    }
    close_all(extra).await;
}
