//! What a listing method (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list`) returned through every page: rmcp's typed items, each beside
//! the JSON it arrived as.

use std::ops::Deref;

use rmcp::model::{Prompt, Resource, ResourceTemplate, Tool};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The items of every page, in the server's order. Derefs to `Vec<T>`, so it reads as one;
/// [`wire`](Self::wire) has each item exactly as the server sent it (fields rmcp's types do
/// not model included).
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// let tools = client.list_tools().await?;
/// assert!(tools.iter().any(|tool| tool.name == "echo"));
/// let sent = tools.wire_of("echo").expect("listed");
/// assert_eq!(sent["name"], "echo");
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    items: Vec<T>,
    wire: Vec<Value>,
}

/// What names an item in its list: a tool's or prompt's `name`, a resource's `uri`, a
/// template's `uriTemplate`.
pub trait ListedItem: Serialize {
    /// The member of the item's JSON that names it.
    const KEY: &'static str;
    /// The item's name, URI or URI template.
    fn key(&self) -> &str;
}

impl ListedItem for Tool {
    const KEY: &'static str = "name";
    fn key(&self) -> &str {
        &self.name
    }
}

impl ListedItem for Prompt {
    const KEY: &'static str = "name";
    fn key(&self) -> &str {
        &self.name
    }
}

impl ListedItem for Resource {
    const KEY: &'static str = "uri";
    fn key(&self) -> &str {
        &self.uri
    }
}

impl ListedItem for ResourceTemplate {
    const KEY: &'static str = "uriTemplate";
    fn key(&self) -> &str {
        &self.uri_template
    }
}

impl<T: ListedItem> Listed<T> {
    /// Pairs typed items with the JSON they came as. When the JSON does not match the items
    /// one for one (a page whose text could not be had), every item gets its typed value's
    /// JSON instead.
    pub(crate) fn new(items: Vec<T>, mut wire: Vec<Value>) -> Self {
        if wire.len() != items.len() {
            wire = items
                .iter()
                .map(|item| serde_json::to_value(item).unwrap_or(Value::Null))
                .collect();
        }
        Listed { items, wire }
    }

    /// Each item as the server sent it, in the same order as the typed items.
    pub fn wire(&self) -> &[Value] {
        &self.wire
    }

    /// The item named `key` (a name, a URI or a URI template) as the server sent it.
    pub fn wire_of(&self, key: &str) -> Option<&Value> {
        let at = self.items.iter().position(|item| item.key() == key)?;
        self.wire.get(at)
    }

    /// Each typed item with its JSON as sent.
    pub fn with_wire(&self) -> impl Iterator<Item = (&T, &Value)> {
        self.items.iter().zip(&self.wire)
    }

    /// The typed items.
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

/// An empty list.
impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            items: Vec::new(),
            wire: Vec::new(),
        }
    }
}

impl<T> Deref for Listed<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> From<Listed<T>> for Vec<T> {
    fn from(listed: Listed<T>) -> Vec<T> {
        listed.items
    }
}

impl<T> IntoIterator for Listed<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Listed<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for Listed<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        &self.items == other
    }
}

/// Serializes as the items the server sent.
impl<T> Serialize for Listed<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.wire.serialize(serializer)
    }
}
