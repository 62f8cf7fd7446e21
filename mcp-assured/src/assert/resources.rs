//! Checks on `resources/list` and on what `resources/read` returned.

use rmcp::model::{ReadResourceResult, Resource, ResourceContents};
use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check},
    listed::RESOURCES,
};
use crate::results::mcp::ResourceResult;

/// Checks on a list of resources; from `resources.assert()`.
#[derive(Debug, Clone, Copy)]
pub struct ResourceListAssert<'a> {
    resources: &'a [Resource],
}

/// `.assert()` on a list of resources.
pub trait AssertResources {
    /// Starts a chain of checks on the list.
    fn assert(&self) -> ResourceListAssert<'_>;
}

impl AssertResources for [Resource] {
    fn assert(&self) -> ResourceListAssert<'_> {
        ResourceListAssert { resources: self }
    }
}

impl ResourceListAssert<'_> {
    fn uris(&self) -> Vec<String> {
        self.resources.iter().map(|r| r.uri.clone()).collect()
    }

    /// The list has a resource with this URI.
    #[track_caller]
    pub fn contains_uri(self, uri: &str) -> Self {
        check(self.try_contains_uri(uri))
    }

    /// [`contains_uri`](Self::contains_uri), returning the failure.
    pub fn try_contains_uri(self, uri: &str) -> Result<Self, AssertionError> {
        if !self.resources.iter().any(|r| r.uri == uri) {
            return RESOURCES.missing(uri, &self.uris());
        }
        Ok(self)
    }

    /// The list has no resource with this URI.
    #[track_caller]
    pub fn does_not_contain_uri(self, uri: &str) -> Self {
        check(self.try_does_not_contain_uri(uri))
    }

    /// [`does_not_contain_uri`](Self::does_not_contain_uri), returning the failure.
    pub fn try_does_not_contain_uri(self, uri: &str) -> Result<Self, AssertionError> {
        if self.resources.iter().any(|r| r.uri == uri) {
            return RESOURCES.unwanted(uri, &self.uris());
        }
        Ok(self)
    }

    /// The list has exactly `count` resources.
    #[track_caller]
    pub fn has_count(self, count: usize) -> Self {
        check(self.try_has_count(count))
    }

    /// [`has_count`](Self::has_count), returning the failure.
    pub fn try_has_count(self, count: usize) -> Result<Self, AssertionError> {
        if self.resources.len() != count {
            return RESOURCES.wrong_count(count, &self.uris());
        }
        Ok(self)
    }
}

/// Checks on a `resources/read` result; from `result.assert()`.
#[derive(Debug, Clone, Copy)]
pub struct ResourceResultAssert<'a> {
    uri: &'a str,
    result: &'a ReadResourceResult,
}

/// `.assert()` on a `resources/read` result.
pub trait AssertResourceResult {
    /// Starts a chain of checks on the result.
    fn assert(&self) -> ResourceResultAssert<'_>;
}

impl AssertResourceResult for ResourceResult {
    fn assert(&self) -> ResourceResultAssert<'_> {
        ResourceResultAssert {
            uri: self.uri(),
            result: self,
        }
    }
}

impl ResourceResultAssert<'_> {
    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline).fact("resource", self.uri).json(
            "contents",
            &serde_json::to_value(&self.result.contents).unwrap_or(Value::Null),
        )
    }

    fn texts(&self) -> Vec<(&str, Option<&str>)> {
        self.result
            .contents
            .iter()
            .filter_map(|c| match c {
                ResourceContents::TextResourceContents {
                    text, mime_type, ..
                } => Some((text.as_str(), mime_type.as_deref())),
                _ => None,
            })
            .collect()
    }

    /// The result has a text content of MIME type `mime_type`.
    #[track_caller]
    pub fn has_text(self, mime_type: &str) -> Self {
        check(self.try_has_text(mime_type))
    }

    /// [`has_text`](Self::has_text), returning the failure.
    pub fn try_has_text(self, mime_type: &str) -> Result<Self, AssertionError> {
        if !self.texts().iter().any(|(_, m)| *m == Some(mime_type)) {
            return self
                .failure(format!(
                    "Expected resource `{}` to have a text content of MIME type `{mime_type}`.",
                    self.uri
                ))
                .err();
        }
        Ok(self)
    }

    /// A text content contains `needle`.
    #[track_caller]
    pub fn text_contains(self, needle: &str) -> Self {
        check(self.try_text_contains(needle))
    }

    /// [`text_contains`](Self::text_contains), returning the failure.
    pub fn try_text_contains(self, needle: &str) -> Result<Self, AssertionError> {
        if !self.texts().iter().any(|(t, _)| t.contains(needle)) {
            return self
                .failure(format!(
                    "Expected the text of resource `{}` to contain `{needle}`.",
                    self.uri
                ))
                .err();
        }
        Ok(self)
    }

    /// The result has a blob (binary, base64) content of MIME type `mime_type`.
    #[track_caller]
    pub fn has_blob(self, mime_type: &str) -> Self {
        check(self.try_has_blob(mime_type))
    }

    /// [`has_blob`](Self::has_blob), returning the failure.
    pub fn try_has_blob(self, mime_type: &str) -> Result<Self, AssertionError> {
        let found = self.result.contents.iter().any(|c| {
            matches!(c, ResourceContents::BlobResourceContents { mime_type: Some(m), .. } if m == mime_type)
        });
        if !found {
            return self
                .failure(format!(
                    "Expected resource `{}` to have a blob content of MIME type `{mime_type}`.",
                    self.uri
                ))
                .err();
        }
        Ok(self)
    }
}
