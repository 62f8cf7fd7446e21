//! The tools as the client last listed them, each input schema compiled on first use, so that
//! checking a call's arguments needs neither a `tools/list` nor a compilation every time
//! (compiling a schema costs far more than checking a value against it). The list goes stale
//! when the server sends `notifications/tools/list_changed`.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use rmcp::model::Tool;
use serde_json::Value;

use crate::schema::{Schema, Violation};

/// Shared by the recording transport (which sees `list_changed`) and the client (which lists).
#[derive(Debug, Default)]
pub(crate) struct ListedTools {
    /// How many `notifications/tools/list_changed` the server has sent.
    changes: AtomicU64,
    last: Mutex<Option<Arc<Listing>>>,
}

impl ListedTools {
    /// The server said its tools changed: the list held is stale.
    pub(crate) fn changed(&self) {
        self.changes.fetch_add(1, Ordering::AcqRel);
    }

    /// Taken before sending `tools/list`; a `list_changed` that arrives while the list is on
    /// its way makes it stale too.
    pub(crate) fn stamp(&self) -> u64 {
        self.changes.load(Ordering::Acquire)
    }

    /// Keeps the tools listed after `stamp`, replacing any list held.
    pub(crate) fn keep(&self, stamp: u64, tools: Vec<Tool>) -> Arc<Listing> {
        let listing = Arc::new(Listing::new(stamp, tools));
        *self.lock() = Some(Arc::clone(&listing));
        listing
    }

    /// The list held, unless the server said its tools changed since it was asked for.
    pub(crate) fn current(&self) -> Option<Arc<Listing>> {
        self.lock()
            .as_ref()
            .filter(|listing| listing.stamp == self.stamp())
            .cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Arc<Listing>>> {
        self.last.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One complete `tools/list`.
#[derive(Debug)]
pub(crate) struct Listing {
    stamp: u64,
    /// In the server's order.
    tools: Vec<ListedTool>,
    by_name: HashMap<String, usize>,
}

#[derive(Debug)]
struct ListedTool {
    tool: Tool,
    input_schema: OnceLock<Schema>,
}

impl Listing {
    fn new(stamp: u64, tools: Vec<Tool>) -> Self {
        let by_name = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (tool.name.to_string(), index))
            .collect();
        let tools = tools
            .into_iter()
            .map(|tool| ListedTool {
                tool,
                input_schema: OnceLock::new(),
            })
            .collect();
        Listing {
            stamp,
            tools,
            by_name,
        }
    }

    /// Where the tool called `name` is, if listed.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The tool at `index` (from [`position`](Self::position)).
    pub(crate) fn tool(&self, index: usize) -> &Tool {
        &self.tools[index].tool
    }

    /// Every violation of the input schema of the tool at `index` by `arguments`.
    pub(crate) fn violations(&self, index: usize, arguments: &Value) -> Vec<Violation> {
        let listed = &self.tools[index];
        listed
            .input_schema
            .get_or_init(|| {
                Schema::compile(&Value::Object(listed.tool.input_schema.as_ref().clone()))
            })
            .violations(arguments)
    }

    pub(crate) fn names(&self) -> Vec<String> {
        self.tools
            .iter()
            .map(|listed| listed.tool.name.to_string())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, schema: Value) -> Tool {
        Tool::new(name.to_owned(), "", schema.as_object().unwrap().clone())
    }

    #[test]
    fn a_list_changed_while_listing_makes_the_list_stale() {
        let listed = ListedTools::default();
        let stamp = listed.stamp();
        listed.changed();
        listed.keep(stamp, vec![tool("a", json!({"type": "object"}))]);
        assert!(listed.current().is_none());
        let stamp = listed.stamp();
        listed.keep(stamp, vec![tool("a", json!({"type": "object"}))]);
        assert!(listed.current().is_some());
        listed.changed();
        assert!(listed.current().is_none());
    }

    #[test]
    #[cfg(feature = "schema")]
    fn checks_arguments_against_the_listed_schema() {
        let required = json!({"type": "object", "required": ["city"]});
        let listing = Listing::new(0, vec![tool("a", json!({})), tool("b", required)]);
        assert_eq!(listing.names(), ["a", "b"]);
        let b = listing.position("b").unwrap();
        assert_eq!(listing.tool(b).name, "b");
        assert!(listing.violations(b, &json!({"city": "Oslo"})).is_empty());
        assert_eq!(listing.violations(b, &json!({})).len(), 1);
        assert!(listing.position("c").is_none());
    }
}
