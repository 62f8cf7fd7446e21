//! Resources: a text document, an image, a subscribable counter and the greeting template;
//! and the session's resource subscriptions.

use std::{
    collections::HashSet,
    sync::{Mutex, MutexGuard, PoisonError, atomic::Ordering},
};

use rmcp::{
    ErrorData,
    model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate},
};
use serde_json::json;

use crate::server::Session;

pub(crate) const README: &str = "example://static/readme";
pub(crate) const LOGO: &str = "example://static/logo.png";
pub(crate) const COUNTER: &str = "example://counter";
pub(crate) const GREETING_TEMPLATE: &str = "example://greeting/{name}";
const GREETING_PREFIX: &str = "example://greeting/";

const README_TEXT: &str = "# mcp-assured example server\n\n\
    The MCP server that mcp-assured's tests talk to. It has a tool for each protocol feature \
    a client must handle.\n";

/// A 1×1 PNG, small enough to keep inline.
const LOGO_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mOQ7yr4DwAD/gIZzFqJ9wAAAABJRU5ErkJggg==";

pub(crate) fn list() -> Vec<Resource> {
    vec![
        Resource::new(README, "readme")
            .with_title("README")
            .with_description("What this server is for.")
            .with_mime_type("text/markdown"),
        Resource::new(LOGO, "logo")
            .with_title("Logo")
            .with_description("A 1×1 PNG image, returned as a base64 blob.")
            .with_mime_type("image/png"),
        Resource::new(COUNTER, "counter")
            .with_title("Counter")
            .with_description(
                "How often `touch_resource` touched this resource in this session. \
                 Subscribe to hear about each touch.",
            )
            .with_mime_type("text/plain"),
    ]
}

pub(crate) fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(GREETING_TEMPLATE, "greeting")
            .with_title("Greeting")
            .with_description("`Hello, {name}!`. `name` has completions.")
            .with_mime_type("text/plain"),
    ]
}

pub(crate) fn read(uri: &str, session: &Session) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        README => ResourceContents::text(README_TEXT, uri).with_mime_type("text/markdown"),
        LOGO => ResourceContents::blob(LOGO_PNG_BASE64, uri).with_mime_type("image/png"),
        COUNTER => ResourceContents::text(session.counter.load(Ordering::Acquire).to_string(), uri),
        _ => match greeting_name(uri) {
            Some(name) => ResourceContents::text(format!("Hello, {name}!"), uri),
            None => return Err(not_found(uri)),
        },
    };
    Ok(ReadResourceResult::new(vec![contents]))
}

fn greeting_name(uri: &str) -> Option<&str> {
    uri.strip_prefix(GREETING_PREFIX)
        .filter(|name| !name.is_empty() && !name.contains('/'))
}

fn exists(uri: &str) -> bool {
    matches!(uri, README | LOGO | COUNTER) || greeting_name(uri).is_some()
}

/// rmcp turns `RESOURCE_NOT_FOUND` (-32002) into `INVALID_PARAMS` for protocol 2026-07-28.
fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(
        format!("Resource not found: {uri}"),
        Some(json!({ "uri": uri })),
    )
}

/// URIs this session subscribed to (`resources/subscribe`).
#[derive(Debug, Default)]
pub(crate) struct Subscriptions(Mutex<HashSet<String>>);

impl Subscriptions {
    /// Only existing resources can be subscribed to.
    pub(crate) fn subscribe(&self, uri: &str) -> Result<(), ErrorData> {
        if !exists(uri) {
            return Err(not_found(uri));
        }
        self.uris().insert(uri.to_owned());
        Ok(())
    }

    pub(crate) fn unsubscribe(&self, uri: &str) {
        self.uris().remove(uri);
    }

    pub(crate) fn contains(&self, uri: &str) -> bool {
        self.uris().contains(uri)
    }

    fn uris(&self) -> MutexGuard<'_, HashSet<String>> {
        // A set of strings stays consistent even if a holder panicked.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
