//! A result of one of rmcp's types beside the message it came in: what the client's methods
//! without a result type of their own return (a page of a listing, a completion).

use std::ops::Deref;

use serde::{Serialize, Serializer};

use super::wire::Wire;

/// rmcp's result, and the message it was decoded from. Derefs to the result, so its fields
/// read as before; [`wire`](Self::wire) is the JSON as the server sent it.
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// use mcp_assured::model::Reference;
/// let done = client.complete(Reference::for_prompt("greet"), "style", "fo").await?;
/// assert_eq!(done.completion.values, ["formal"]);
/// let sent = done.wire().map(|wire| wire.json());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sent<T> {
    result: T,
    wire: Option<Wire>,
}

impl<T> Sent<T> {
    pub(crate) fn new(result: T, wire: Option<Wire>) -> Self {
        Sent { result, wire }
    }

    /// The message the result came in, as the server sent it.
    pub fn wire(&self) -> Option<&Wire> {
        self.wire.as_ref()
    }

    /// rmcp's result.
    pub fn into_inner(self) -> T {
        self.result
    }

    /// rmcp's result and the message it came in.
    pub fn into_parts(self) -> (T, Option<Wire>) {
        (self.result, self.wire)
    }
}

impl<T> Deref for Sent<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.result
    }
}

/// Serializes as the server sent it (as rmcp encodes the result when that is not known).
impl<T: Serialize> Serialize for Sent<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.wire {
            Some(wire) => wire.serialize(serializer),
            None => self.result.serialize(serializer),
        }
    }
}
