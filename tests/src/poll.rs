//! [`eventually`]: waiting for something that happens asynchronously (a process reaped, a
//! notification counted) without sleeping for a fixed time.

use std::{future::Future, time::Duration};

/// Polls `check` every 20 ms until it returns `true` (then `true`) or `limit` passes (then
/// `false`).
pub async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        if check().await {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
