//! [`Mock`]: which requests it answers, how, and how often it expects them.

use std::{
    fmt,
    ops::{Range, RangeFrom, RangeInclusive, RangeToInclusive},
    sync::Arc,
};

use super::{
    MockServer,
    matchers::{Match, Matchers},
    reply::Respond,
    request::McpRequest,
};

/// One scripted behaviour of a [`MockServer`]: the requests it matches, what it replies,
/// and how many times it expects to be used (checked when the server is dropped, or by
/// [`MockServer::verify`]).
///
/// ```no_run
/// use mcp_assured::double::{Mock, MockServer, Reply, matchers::{tool, arguments_include}};
/// use serde_json::json;
///
/// # async fn demo() {
/// let upstream = MockServer::start().await;
/// Mock::given(tool("search"))
///     .and(arguments_include(json!({"query": "rust"})))
///     .respond_with(Reply::text("3 results"))
///     .expect(1)
///     .mount(&upstream)
///     .await;
/// # }
/// ```
#[must_use]
pub struct Mock {
    pub(crate) matchers: Matchers,
    pub(crate) respond: Arc<dyn Respond>,
    pub(crate) expected: Option<Times>,
    pub(crate) up_to: Option<u64>,
    pub(crate) priority: u8,
    pub(crate) name: Option<String>,
}

impl Mock {
    /// A mock matching requests that meet `matcher` (more with [`and`](MockBuilder::and)).
    pub fn given(matcher: impl Match) -> MockBuilder {
        MockBuilder {
            matchers: vec![Box::new(matcher)],
        }
    }

    /// How many times it must be used, checked when the server is dropped: a number or a
    /// range (`1..`, `2..=3`).
    pub fn expect(mut self, times: impl Into<Times>) -> Mock {
        self.expected = Some(times.into());
        self
    }

    /// Answers at most `n` requests; later ones go to the next matching mock.
    pub fn up_to_n_times(mut self, n: u64) -> Mock {
        self.up_to = Some(n);
        self
    }

    /// Which of several matching mocks answers: the lowest priority first (default 5),
    /// then the first mounted.
    pub fn with_priority(mut self, priority: u8) -> Mock {
        self.priority = priority;
        self
    }

    /// A name for failure messages.
    pub fn named(mut self, name: impl Into<String>) -> Mock {
        self.name = Some(name.into());
        self
    }

    /// Adds it to `server`; its expectations are checked when the server is dropped.
    pub async fn mount(self, server: &MockServer) {
        server.register(self).await;
    }

    /// Adds it to `server` until the guard is dropped, when its expectations are checked.
    #[must_use = "the mock is removed when the guard is dropped"]
    pub async fn mount_as_scoped(self, server: &MockServer) -> MockGuard {
        let id = server.register(self).await;
        MockGuard {
            server: server.clone(),
            id,
        }
    }

    pub(crate) fn describe(&self) -> String {
        match &self.name {
            Some(name) => format!("{name} ({})", self.matchers),
            None => self.matchers.to_string(),
        }
    }
}

impl fmt::Debug for Mock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mock")
            .field("given", &self.matchers)
            .field("expected", &self.expected)
            .field("up_to", &self.up_to)
            .field("priority", &self.priority)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A [`Mock`] being given its matchers.
#[must_use]
#[derive(Debug)]
pub struct MockBuilder {
    matchers: Vec<Box<dyn Match>>,
}

impl MockBuilder {
    /// Another condition; all must hold.
    pub fn and(mut self, matcher: impl Match) -> MockBuilder {
        self.matchers.push(Box::new(matcher));
        self
    }

    /// What the mock answers: a [`Reply`](super::Reply), or a closure making one from the
    /// request.
    pub fn respond_with(self, respond: impl Respond) -> Mock {
        Mock {
            matchers: Matchers(self.matchers),
            respond: Arc::new(respond),
            expected: None,
            up_to: None,
            priority: 5,
            name: None,
        }
    }
}

/// How many times a mock expects to be used: `Times::from(2)`, `(1..).into()`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Times {
    min: u64,
    max: Option<u64>,
}

impl Times {
    pub(crate) fn contains(&self, n: u64) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }
}

impl fmt::Display for Times {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(max) if max == self.min => write!(f, "exactly {max}"),
            Some(max) if self.min == 0 => write!(f, "at most {max}"),
            Some(max) => write!(f, "between {} and {max}", self.min),
            None => write!(f, "at least {}", self.min),
        }
    }
}

impl From<u64> for Times {
    fn from(n: u64) -> Times {
        Times {
            min: n,
            max: Some(n),
        }
    }
}

impl From<RangeFrom<u64>> for Times {
    fn from(range: RangeFrom<u64>) -> Times {
        Times {
            min: range.start,
            max: None,
        }
    }
}

impl From<Range<u64>> for Times {
    fn from(range: Range<u64>) -> Times {
        Times {
            min: range.start,
            max: Some(range.end.saturating_sub(1)),
        }
    }
}

impl From<RangeInclusive<u64>> for Times {
    fn from(range: RangeInclusive<u64>) -> Times {
        Times {
            min: *range.start(),
            max: Some(*range.end()),
        }
    }
}

impl From<RangeToInclusive<u64>> for Times {
    fn from(range: RangeToInclusive<u64>) -> Times {
        Times {
            min: 0,
            max: Some(range.end),
        }
    }
}

/// A mock mounted with [`Mock::mount_as_scoped`]: dropped, it removes the mock and checks
/// its expectations (panicking, unless the thread is already panicking).
#[derive(Debug)]
pub struct MockGuard {
    server: MockServer,
    id: u64,
}

impl MockGuard {
    /// The requests this mock answered so far.
    pub fn received_requests(&self) -> Vec<McpRequest> {
        self.server.answered_by(self.id)
    }
}

impl Drop for MockGuard {
    fn drop(&mut self) {
        let unmet = self.server.unmount(self.id);
        // A second panic while unwinding would abort the test binary.
        if let Some(unmet) = unmet
            && !std::thread::panicking()
        {
            panic!("{unmet}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_written() {
        assert!(Times::from(2).contains(2) && !Times::from(2).contains(3));
        assert!(Times::from(1..).contains(40) && !Times::from(1..).contains(0));
        assert!(Times::from(1..3).contains(2) && !Times::from(1..3).contains(3));
        assert_eq!(Times::from(..=2).to_string(), "at most 2");
        assert_eq!(Times::from(2..=4).to_string(), "between 2 and 4");
    }
}
