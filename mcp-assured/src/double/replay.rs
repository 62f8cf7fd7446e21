//! A double that answers from a cassette: each recorded interaction made a [`Reply`], with
//! the notifications and server requests it brought sent again before the answer.

use crate::cassette::Interaction;

use super::reply::{Answer, Effect, Reply};

/// What `interaction` answered, as a reply: its result or error (a request recorded
/// without an answer, cancelled say, hangs), after its notifications and server requests in
/// the order they came. A progress notification is sent with the new request's token.
pub(crate) fn reply_of(interaction: &Interaction) -> Reply {
    let answer = match (&interaction.result, &interaction.error) {
        (Some(result), _) => Answer::Result(result.clone()),
        (None, Some(error)) => Answer::Error {
            code: i32::try_from(error.code).unwrap_or(i32::MIN),
            message: error.message.clone(),
            data: error.data.clone(),
        },
        (None, None) => Answer::Hang,
    };
    let mut before: Vec<(f64, Effect)> = interaction
        .notifications
        .iter()
        .map(|notification| {
            let params = &notification.params;
            let effect = if notification.method == "notifications/progress" {
                Effect::Progress {
                    progress: params["progress"].as_f64().unwrap_or_default(),
                    total: params["total"].as_f64(),
                    message: params["message"].as_str().map(str::to_owned),
                }
            } else {
                Effect::Notify {
                    method: notification.method.clone(),
                    params: params.clone(),
                }
            };
            (notification.at_ms, effect)
        })
        .chain(interaction.server_requests.iter().map(|request| {
            (
                request.at_ms,
                Effect::Ask {
                    method: request.method.clone(),
                    params: request.params.clone(),
                },
            )
        }))
        .collect();
    before.sort_by(|a, b| a.0.total_cmp(&b.0));
    Reply {
        answer,
        delay: None,
        before: before.into_iter().map(|(_, effect)| effect).collect(),
    }
}
