//! [`RestOptions`]: token, body limit, rate limit and the deliberate [`Drift`]s.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt,
};

use crate::policy::Grants;

/// The spec's `maxPayloadSize`: 10 MB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// How the REST surface behaves.
#[derive(Clone)]
#[non_exhaustive]
pub struct RestOptions {
    /// If set, a request to an endpoint (MCP and REST, when served by
    /// [`serve_hybrid`](crate::serve::serve_hybrid)) without `Authorization: Bearer <token>`
    /// gets 401. Except: a path that is no endpoint gets its 404 without a token, and with
    /// [`Drift::Auth`] the execute endpoint is open and MCP takes any bearer token.
    pub bearer_token: Option<String>,
    /// Tokens that grant only their scopes (token → scopes): a tool whose `permissions`
    /// the caller's token lacks is refused with `PERMISSION_ERROR` (403 over REST, a tool
    /// error over MCP). [`bearer_token`](Self::bearer_token) grants every scope.
    pub scoped_tokens: BTreeMap<String, Vec<String>>,
    /// The largest request body, in bytes (default [`DEFAULT_MAX_BODY_BYTES`]); larger gets
    /// 413 with a `VALIDATION_ERROR` envelope.
    pub max_body_bytes: usize,
    /// Executions allowed per minute, if limited; more get 429 with `Retry-After` and a
    /// `RATE_LIMIT_ERROR` envelope.
    pub rate_limit: Option<u32>,
    /// Where the REST surface deliberately drifts from the MCP side (for parity checks).
    pub drift: BTreeSet<Drift>,
}

/// One deliberate difference between the REST surface and the MCP side, each caught by one
/// parity check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum)]
#[non_exhaustive]
pub enum Drift {
    /// `forecast` allows 14 days over REST (7 over MCP): `parity.input_schemas`.
    Schema,
    /// An unknown tool is a 500 `EXECUTION_ERROR`, not `TOOL_NOT_FOUND`: `parity.unknown_tool`.
    UnknownTool,
    /// `weather_alerts` is called `alerts` over REST: `parity.tool_names`.
    Names,
    /// `current_weather` is described differently over REST: `parity.descriptions`.
    Descriptions,
    /// `current_weather`'s result lacks `units`; a tool error is a success whose result is the
    /// message, except the API's 404, which becomes `TOOL_NOT_FOUND`: `parity.execution`.
    Execution,
    /// `params` are not checked against the schema, so missing arguments reach the tool and
    /// come back as `EXECUTION_ERROR`: `parity.validation`.
    Validation,
    /// The execute endpoint needs no token and MCP takes any bearer token: `parity.auth`.
    Auth,
    /// `forecast`'s metadata over REST breaks the protocol's types (its tags one string) and
    /// differs from MCP's (`deprecates` a version newer than its own): `parity.metadata`.
    Metadata,
}

impl Default for RestOptions {
    fn default() -> Self {
        Self {
            bearer_token: None,
            scoped_tokens: BTreeMap::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            rate_limit: None,
            drift: BTreeSet::new(),
        }
    }
}

impl fmt::Debug for RestOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RestOptions")
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field(
                "scoped_tokens",
                &self.scoped_tokens.values().collect::<Vec<_>>(),
            )
            .field("max_body_bytes", &self.max_body_bytes)
            .field("rate_limit", &self.rate_limit)
            .field("drift", &self.drift)
            .finish()
    }
}

impl RestOptions {
    /// Requires `Authorization: Bearer <token>`.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// Also accepts `token`, granting only `scopes`.
    #[must_use]
    pub fn scoped_token<S: Into<String>>(
        mut self,
        token: impl Into<String>,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.scoped_tokens
            .insert(token.into(), scopes.into_iter().map(Into::into).collect());
        self
    }

    /// The tokens as the server checks them.
    pub fn grants(&self) -> Grants {
        let mut grants = Grants::open();
        if let Some(token) = &self.bearer_token {
            grants = grants.all(token);
        }
        for (token, scopes) in &self.scoped_tokens {
            grants = grants.scoped(token, scopes.iter().cloned());
        }
        grants
    }

    /// Sets the largest request body.
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// Allows `per_minute` executions a minute.
    #[must_use]
    pub fn rate_limit(mut self, per_minute: u32) -> Self {
        self.rate_limit = Some(per_minute);
        self
    }

    /// Adds one deliberate difference from the MCP side.
    #[must_use]
    pub fn drift(mut self, drift: Drift) -> Self {
        self.drift.insert(drift);
        self
    }

    /// The classic drifting variant: one schema changed ([`Drift::Schema`]) and one error
    /// code mapped wrong ([`Drift::UnknownTool`]).
    #[must_use]
    pub fn drifting(self) -> Self {
        self.drift(Drift::Schema).drift(Drift::UnknownTool)
    }

    /// Whether the surface drifts in this way.
    pub fn drifts(&self, drift: Drift) -> bool {
        self.drift.contains(&drift)
    }
}
