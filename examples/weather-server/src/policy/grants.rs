//! [`Grants`]: which scopes each bearer token grants, and [`Grant`], what one caller may do.

use std::collections::{BTreeMap, BTreeSet};

/// What one caller may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// Everything: no token is configured (stdio, an open HTTP server), or the server's one
    /// `--bearer-token`, which predates scopes and keeps granting every tool.
    All,
    /// The scopes of the caller's token (none for an unknown one).
    Scopes(BTreeSet<String>),
}

impl Grant {
    /// The permissions of `required` this grant lacks, in order.
    pub fn missing<'a>(&self, required: &'a [String]) -> Vec<&'a str> {
        match self {
            Grant::All => Vec::new(),
            Grant::Scopes(scopes) => required
                .iter()
                .filter(|permission| !scopes.contains(*permission))
                .map(String::as_str)
                .collect(),
        }
    }

    /// The scopes granted, for a refusal's details (`["*"]` for all).
    pub fn describe(&self) -> Vec<String> {
        match self {
            Grant::All => vec!["*".to_owned()],
            Grant::Scopes(scopes) => scopes.iter().cloned().collect(),
        }
    }
}

/// The server's tokens and their scopes.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Grants {
    /// The one token that grants everything, if any.
    all: Option<String>,
    /// Tokens that grant only their scopes.
    scoped: BTreeMap<String, BTreeSet<String>>,
}

impl std::fmt::Debug for Grants {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Tokens are secrets: only how many there are, and the scopes.
        f.debug_struct("Grants")
            .field("all", &self.all.as_ref().map(|_| "<redacted>"))
            .field("scoped", &self.scoped.values().collect::<Vec<_>>())
            .finish()
    }
}

impl Grants {
    /// No token: every caller may do everything.
    pub fn open() -> Self {
        Self::default()
    }

    /// `token` grants every tool.
    #[must_use]
    pub fn all(mut self, token: impl Into<String>) -> Self {
        self.all = Some(token.into());
        self
    }

    /// `token` grants `scopes` only.
    #[must_use]
    pub fn scoped<S: Into<String>>(
        mut self,
        token: impl Into<String>,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.scoped
            .insert(token.into(), scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Whether any token is configured (then every request needs one).
    pub fn requires_token(&self) -> bool {
        self.all.is_some() || !self.scoped.is_empty()
    }

    /// Whether `token` is one of the server's.
    pub fn knows(&self, token: &str) -> bool {
        self.all.as_deref() == Some(token) || self.scoped.contains_key(token)
    }

    /// What the caller with `authorization` (the header's value, if any) may do.
    pub fn grant(&self, authorization: Option<&[u8]>) -> Grant {
        if !self.requires_token() {
            return Grant::All;
        }
        let token = authorization
            .and_then(|value| value.strip_prefix(b"Bearer "))
            .and_then(|token| std::str::from_utf8(token).ok());
        match token {
            Some(token) if self.all.as_deref() == Some(token) => Grant::All,
            Some(token) => Grant::Scopes(self.scoped.get(token).cloned().unwrap_or_default()),
            None => Grant::Scopes(BTreeSet::new()),
        }
    }

    /// Every token that opens the server.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.all
            .iter()
            .map(String::as_str)
            .chain(self.scoped.keys().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_grants_its_scopes_and_the_old_token_everything() {
        let grants = Grants::open()
            .all("root")
            .scoped("reader", ["weather:read"]);
        let required = vec!["weather:read".to_owned(), "alerts:read".to_owned()];
        assert!(
            grants
                .grant(Some(b"Bearer root"))
                .missing(&required)
                .is_empty()
        );
        assert_eq!(
            grants.grant(Some(b"Bearer reader")).missing(&required),
            ["alerts:read"]
        );
        assert_eq!(grants.grant(None).missing(&required).len(), 2);
        assert_eq!(Grants::open().grant(None), Grant::All);
        assert!(!format!("{grants:?}").contains("root"));
    }
}
