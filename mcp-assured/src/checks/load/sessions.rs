//! Opening and closing sessions, and `load.session_limit`: many held open at once.

use std::{fmt::Write as _, time::Duration};

use futures::{StreamExt, future::join_all, stream};

use super::{OPENING_AT_ONCE, listed};
use crate::{checks::recorder::Recorder, client::McpClient, error::Error};

/// Opens `count` more sessions, [`OPENING_AT_ONCE`] at a time; what could not be opened
/// says why.
pub(super) async fn open_sessions(
    client: &McpClient,
    count: usize,
) -> (Vec<McpClient>, Vec<String>) {
    let limit = open_timeout(client);
    let opened: Vec<Result<McpClient, String>> = stream::iter(0..count)
        .map(|_| async move {
            match tokio::time::timeout(limit, client.reconnect()).await {
                Ok(Ok(session)) => Ok(session),
                Ok(Err(error)) => Err(error.to_string()),
                Err(_) => Err(format!("not opened within {limit:?}")),
            }
        })
        .buffer_unordered(OPENING_AT_ONCE)
        .collect()
        .await;
    let mut sessions = Vec::new();
    let mut errors = Vec::new();
    for session in opened {
        match session {
            Ok(session) => sessions.push(session),
            Err(error) => errors.push(error),
        }
    }
    (sessions, errors)
}

/// How long opening a session may take: the request timeout, and some for a process to start.
pub(super) fn open_timeout(client: &McpClient) -> Duration {
    client.timeout() + Duration::from_secs(10)
}

pub(super) async fn close_all(sessions: Vec<McpClient>) {
    stream::iter(sessions)
        .for_each_concurrent(OPENING_AT_ONCE, |session| async move {
            let _ = session.close().await;
        })
        .await;
}

pub(super) async fn session_limit(client: &McpClient, wanted: usize, report: &mut Recorder) {
    const NAME: &str = "load.session_limit";
    let limit = open_timeout(client);
    let opened: Vec<Result<McpClient, Error>> = stream::iter(0..wanted)
        .map(|_| async move {
            tokio::time::timeout(limit, client.reconnect())
                .await
                .unwrap_or_else(|_| {
                    Err(Error::Timeout {
                        method: "initialize".to_owned(),
                        timeout: limit,
                        stderr_tail: None,
                    })
                })
        })
        .buffer_unordered(OPENING_AT_ONCE)
        .collect()
        .await;
    let mut sessions = Vec::new();
    let mut hung = Vec::new();
    let mut clear = Vec::new();
    let mut unclear = Vec::new();
    for session in opened {
        match session {
            Ok(session) => sessions.push(session),
            Err(error) if error.is_timeout() => hung.push(error.to_string()),
            Err(error) if error.http_status().is_some() || error.code().is_some() => {
                clear.push(error.to_string());
            }
            Err(error) => unclear.push(error.to_string()),
        }
    }
    // Every session held open answers, all at once.
    let silent: Vec<String> = join_all(sessions.iter().map(|session| session.ping()))
        .await
        .into_iter()
        .filter_map(|answer| answer.err().map(|error| error.to_string()))
        .collect();
    let open = sessions.len();
    close_all(sessions).await;
    let after = client.ping().await.err();

    let mut message = format!("{open} of {wanted} sessions open at once");
    if !clear.is_empty() {
        let _ = write!(
            message,
            "; {} refused clearly ({})",
            clear.len(),
            listed(&clear)
        );
    }
    let mut problems = Vec::new();
    if !hung.is_empty() {
        problems.push(format!(
            "{} got no answer within {limit:?} (a refusal must be an error, not a hang): {}",
            hung.len(),
            listed(&hung)
        ));
    }
    if !silent.is_empty() {
        problems.push(format!(
            "{} of the open sessions did not answer a ping: {}",
            silent.len(),
            listed(&silent)
        ));
    }
    if let Some(error) = after {
        problems.push(format!(
            "afterwards the first session did not answer: {error}"
        ));
    }
    if !problems.is_empty() {
        report.fail(NAME, format!("{message}; {}", problems.join("; ")));
    } else if !unclear.is_empty() {
        report.warn(
            NAME,
            format!(
                "{message}; {} refused without an HTTP status or JSON-RPC error: {}",
                unclear.len(),
                listed(&unclear)
            ),
        );
    } else {
        report.pass(NAME, format!("{message}, each answering a ping"));
    }
}
