//! [`Surface`]: what a server offers, from wherever it is known: a live client, the files
//! `mcp-assured snapshot` writes, a JSON document, or the raw results of the list methods
//! (what a cassette of a recorded session holds).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{change::Item, compare::key_of};
use crate::{
    cassette::Cassette,
    client::McpClient,
    error::{Error, Result, code},
    results::listed::{Listed, ListedItem},
    snapshot::redact,
};

/// What a server offers clients: its tools (with input and output schemas and
/// annotations), resources, resource templates, prompts (with arguments), and capabilities.
/// Each item is its JSON as listed (an element of `tools/list`'s `tools`, ...).
///
/// Its JSON, which [`from_json`](Self::from_json) reads back:
///
/// ```json
/// {
///   "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
///   "tools": [{"name": "weather", "inputSchema": {"type": "object"}}],
///   "resources": [{"uri": "file:///readme", "name": "readme"}],
///   "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "file"}],
///   "prompts": [{"name": "greet", "arguments": [{"name": "style", "required": false}]}]
/// }
/// ```
///
/// Every member may be left out; without `capabilities` they are unknown, and not compared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Surface {
    /// The `capabilities` of the server's `initialize` (or `server/discover`) result, as
    /// sent; `None` when unknown (snapshot files do not record them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Value>,
    /// The tools, as listed.
    #[serde(default)]
    pub tools: Vec<Value>,
    /// The resources, as listed.
    #[serde(default)]
    pub resources: Vec<Value>,
    /// The resource templates, as listed.
    #[serde(default, alias = "resource_templates")]
    pub resource_templates: Vec<Value>,
    /// The prompts, as listed.
    #[serde(default)]
    pub prompts: Vec<Value>,
}

/// The members of a surface's JSON, one of which a document must have to be read as one.
const MEMBERS: [&str; 6] = [
    "capabilities",
    "tools",
    "resources",
    "resourceTemplates",
    "resource_templates",
    "prompts",
];

/// The lists `mcp-assured snapshot` writes, by the expression in their file names
/// (`NAME__tools.snap`).
const SNAPSHOT_LISTS: [&str; 4] = ["tools", "resources", "resource_templates", "prompts"];

impl Surface {
    /// Lists everything `client`'s server offers, through every page: the lists of the
    /// capabilities it advertises; a list it does not advertise, or refuses as an unknown
    /// method (`-32601`), is empty. Its capabilities are kept as sent.
    ///
    /// # Errors
    ///
    /// When a listing the server advertises fails otherwise.
    pub async fn from_client(client: &McpClient) -> Result<Surface> {
        let capabilities = client.server_capabilities().clone();
        let offers = |name: &str| {
            capabilities
                .get(name)
                .is_some_and(|value| !matches!(value, Value::Null | Value::Bool(false)))
        };
        let mut surface = Surface {
            capabilities: Some(capabilities.clone()),
            ..Surface::default()
        };
        if offers("tools") {
            surface.tools = as_sent(client.list_tools()).await?;
        }
        if offers("resources") {
            surface.resources = as_sent(client.list_resources()).await?;
            surface.resource_templates = as_sent(client.list_resource_templates()).await?;
        }
        if offers("prompts") {
            surface.prompts = as_sent(client.list_prompts()).await?;
        }
        Ok(surface)
    }

    /// The surface from the raw results of a session's requests, each `(method, result)`:
    /// every page of `tools/list`, `resources/list`, `resources/templates/list` and
    /// `prompts/list`, and `initialize` (or `server/discover`) for the capabilities. Other
    /// methods are passed over, so a recorded session's exchanges can be given whole: this
    /// is how a cassette becomes a surface. An item listed again (by name, URI or URI
    /// template) replaces the earlier one.
    ///
    /// ```
    /// use mcp_assured::diff::Surface;
    /// use serde_json::json;
    ///
    /// let surface = Surface::from_list_results([
    ///     ("initialize", json!({"capabilities": {"tools": {}}, "protocolVersion": "2025-11-25"})),
    ///     ("tools/list", json!({"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "b"})),
    ///     ("tools/list", json!({"tools": [{"name": "b", "inputSchema": {}}]})),
    ///     ("tools/call", json!({"content": []})),
    /// ])?;
    /// assert_eq!(surface.tools.len(), 2);
    /// assert_eq!(surface.capabilities, Some(json!({"tools": {}})));
    /// # Ok::<(), mcp_assured::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A list result without its list (`tools` for `tools/list`), or an item without its
    /// name.
    pub fn from_list_results<M: AsRef<str>>(
        results: impl IntoIterator<Item = (M, Value)>,
    ) -> Result<Surface> {
        let mut surface = Surface::default();
        for (method, result) in results {
            let method = method.as_ref();
            let (item, member) = match method {
                "initialize" | "server/discover" => {
                    if let Some(capabilities) = result.get("capabilities") {
                        surface.capabilities = Some(capabilities.clone());
                    }
                    continue;
                }
                "tools/list" => (Item::Tool, "tools"),
                "resources/list" => (Item::Resource, "resources"),
                "resources/templates/list" => (Item::ResourceTemplate, "resourceTemplates"),
                "prompts/list" => (Item::Prompt, "prompts"),
                _ => continue,
            };
            let Some(Value::Array(items)) = result.get(member) else {
                return Err(Error::invalid(
                    format!("{method} result"),
                    format!("it has no `{member}` array"),
                ));
            };
            let list = surface.list_mut(item);
            for listed in items {
                let key = key_of(item);
                match list.iter().position(|known| known[key] == listed[key]) {
                    Some(at) => list[at] = listed.clone(),
                    None => list.push(listed.clone()),
                }
            }
        }
        surface.checked()
    }

    /// The surface a recorded session saw: the capabilities of its server's answer to
    /// `initialize` (or `server/discover`) and the results of the list requests it made
    /// (every page), as [`from_list_results`](Self::from_list_results) reads them.
    ///
    /// # Errors
    ///
    /// When the session did not list something its server advertises (say `prompts/list`
    /// with the `prompts` capability): the surface would lack it. Record one that lists
    /// everything, e.g. `mcp-assured list --record FILE`.
    pub fn from_cassette(cassette: &Cassette) -> Result<Surface> {
        let capabilities = &cassette.server.capabilities;
        let listed: Vec<&str> = cassette
            .interactions
            .iter()
            .filter(|interaction| interaction.result.is_some())
            .map(|interaction| interaction.method.as_str())
            .collect();
        let advertised_not_listed: Vec<&str> = [
            ("tools", "tools/list"),
            ("resources", "resources/list"),
            ("resources", "resources/templates/list"),
            ("prompts", "prompts/list"),
        ]
        .into_iter()
        .filter(|(capability, method)| {
            capabilities.get(capability).is_some() && !listed.contains(method)
        })
        .map(|(_, method)| method)
        .collect();
        if !advertised_not_listed.is_empty() {
            return Err(Error::invalid(
                "cassette",
                format!(
                    "its session never listed {} though the server advertises them, so the \
                     surface would lack them; record one that lists everything, e.g. \
                     `mcp-assured list --record FILE`",
                    advertised_not_listed.join(", ")
                ),
            ));
        }
        let initialize = (
            "initialize",
            serde_json::json!({"capabilities": capabilities}),
        );
        let lists = cassette
            .interactions
            .iter()
            .filter(|interaction| interaction.method.ends_with("/list"))
            .filter_map(|interaction| {
                let result = interaction.result.clone()?;
                Some((interaction.method.as_str(), result))
            });
        Surface::from_list_results(std::iter::once(initialize).chain(lists))
    }

    /// Reads a surface's JSON (see [`Surface`]). The output of `mcp-assured list --json`
    /// reads as one too: its `resource_templates`, and the capabilities in its `server`.
    ///
    /// # Errors
    ///
    /// When `value` is not an object with at least one of the members, or an item has no
    /// name (URI, URI template).
    pub fn from_json(value: Value) -> Result<Surface> {
        let Value::Object(mut map) = value else {
            return Err(Error::invalid("surface", not_a_surface()));
        };
        if !MEMBERS.iter().any(|member| map.contains_key(*member)) {
            return Err(Error::invalid("surface", not_a_surface()));
        }
        if !map.contains_key("capabilities")
            && let Some(capabilities) = map
                .get("server")
                .and_then(|server| server.get("capabilities"))
                .cloned()
        {
            map.insert("capabilities".to_owned(), capabilities);
        }
        let surface: Surface = serde_json::from_value(Value::Object(map))
            .map_err(|error| Error::invalid("surface", error.to_string()))?;
        surface.checked()
    }

    /// The surface `mcp-assured snapshot` wrote into `dir` for `name` (the files'
    /// prefix): `NAME__tools.snap`, `NAME__resources.snap`, `NAME__resource_templates.snap`,
    /// `NAME__prompts.snap`. A list without its file (the server did not advertise it) is
    /// empty. Snapshots do not record capabilities: they are unknown.
    ///
    /// The snapshots are redacted; compare them with a [`redacted`](Self::redacted) surface.
    ///
    /// # Errors
    ///
    /// When none of the files is there, or one cannot be read or holds no JSON list.
    pub fn from_snapshot(dir: impl AsRef<Path>, name: &str) -> Result<Surface> {
        let dir = dir.as_ref();
        let mut surface = Surface::default();
        let mut any = false;
        for (list, item) in SNAPSHOT_LISTS.iter().zip([
            Item::Tool,
            Item::Resource,
            Item::ResourceTemplate,
            Item::Prompt,
        ]) {
            let path = dir.join(format!("{name}__{list}.snap"));
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => return Err(unreadable(&path, &error)),
            };
            any = true;
            *surface.list_mut(item) = snapshot_list(&path, &text)?;
        }
        if !any {
            return Err(Error::invalid(
                format!("snapshot `{name}` in {}", dir.display()),
                format!(
                    "none of {name}__tools.snap, {name}__resources.snap, \
                     {name}__resource_templates.snap, {name}__prompts.snap is there"
                ),
            ));
        }
        surface.checked()
    }

    /// The surface of which `file` is one snapshot (`NAME__tools.snap`, or any
    /// `NAME__*.snap`): [`from_snapshot`](Self::from_snapshot) of its directory and name.
    ///
    /// # Errors
    ///
    /// As [`from_snapshot`](Self::from_snapshot), and when the file's name is not
    /// `NAME__WHAT.snap`.
    pub fn from_snapshot_file(file: impl AsRef<Path>) -> Result<Surface> {
        let file = file.as_ref();
        let (dir, name) = snapshot_name(file).ok_or_else(|| {
            Error::invalid(
                format!("snapshot file {}", file.display()),
                "its name is not NAME__WHAT.snap, as `mcp-assured snapshot` writes",
            )
        })?;
        Surface::from_snapshot(dir, &name)
    }

    /// A surface from a file or directory, by what it holds: a directory of snapshots
    /// written by `mcp-assured snapshot` (of one server), a snapshot file (`---` header),
    /// a cassette ([`from_cassette`](Self::from_cassette)), or the surface's JSON.
    ///
    /// # Errors
    ///
    /// When it cannot be read, is none of these, or a directory holds the snapshots of
    /// several servers (then name one with [`from_snapshot`](Self::from_snapshot)).
    pub fn from_path(path: impl AsRef<Path>) -> Result<Surface> {
        let path = path.as_ref();
        if path.is_dir() {
            let names = snapshot_names(path)?;
            return match names.as_slice() {
                [name] => Surface::from_snapshot(path, name),
                [] => Err(Error::invalid(
                    format!("directory {}", path.display()),
                    "it holds no snapshots of a surface (NAME__tools.snap, ...)",
                )),
                several => Err(Error::invalid(
                    format!("directory {}", path.display()),
                    format!(
                        "it holds the snapshots of several servers ({}): name one",
                        several.join(", ")
                    ),
                )),
            };
        }
        let text = std::fs::read_to_string(path).map_err(|error| unreadable(path, &error))?;
        if text.starts_with("---") {
            return Surface::from_snapshot_file(path);
        }
        let value: Value = serde_json::from_str(&text).map_err(|error| {
            Error::invalid(
                format!("surface file {}", path.display()),
                format!(
                    "it is neither a snapshot written by `mcp-assured snapshot` nor JSON: \
                     {error}"
                ),
            )
        })?;
        if value.get("cassette").is_some() && value.get("interactions").is_some() {
            let cassette: Cassette = serde_json::from_value(value).map_err(|error| {
                Error::invalid(
                    format!("cassette {}", path.display()),
                    format!("it is not a cassette `mcp-assured record` writes: {error}"),
                )
            })?;
            return Surface::from_cassette(&cassette).map_err(|error| match error {
                Error::InvalidInput { reason, .. } => {
                    Error::invalid(format!("cassette {}", path.display()), reason)
                }
                other => other,
            });
        }
        Surface::from_json(value).map_err(|error| match error {
            Error::InvalidInput { reason, .. } => {
                Error::invalid(format!("surface file {}", path.display()), reason)
            }
            other => other,
        })
    }

    /// The surface with the redactions of snapshots applied (timestamps, UUIDs, loopback
    /// ports, volatile keys; see [`redact`](crate::snapshot::redact)), so that it compares
    /// with one read from snapshot files without differences that are only theirs.
    #[must_use = "this returns the redacted surface and leaves `self` unchanged"]
    pub fn redacted(self) -> Surface {
        let all = |list: Vec<Value>| list.into_iter().map(redact).collect();
        Surface {
            capabilities: self.capabilities.map(redact),
            tools: all(self.tools),
            resources: all(self.resources),
            resource_templates: all(self.resource_templates),
            prompts: all(self.prompts),
        }
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&Value> {
        self.tools.iter().find(|tool| tool["name"] == name)
    }

    /// The tool named `name`, to change it.
    pub fn tool_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.tools.iter_mut().find(|tool| tool["name"] == name)
    }

    /// The surface as its JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn list_mut(&mut self, item: Item) -> &mut Vec<Value> {
        match item {
            Item::Tool => &mut self.tools,
            Item::Resource => &mut self.resources,
            Item::ResourceTemplate => &mut self.resource_templates,
            _ => &mut self.prompts,
        }
    }

    /// The surface, if every item has its name (URI, URI template) and the capabilities
    /// are an object.
    fn checked(self) -> Result<Surface> {
        if let Some(capabilities) = &self.capabilities
            && !capabilities.is_object()
        {
            return Err(Error::invalid(
                "surface",
                format!("its capabilities are not an object: {capabilities}"),
            ));
        }
        let lists = [
            (Item::Tool, &self.tools),
            (Item::Resource, &self.resources),
            (Item::ResourceTemplate, &self.resource_templates),
            (Item::Prompt, &self.prompts),
        ];
        for (item, list) in lists {
            let key = key_of(item);
            if let Some(nameless) = list.iter().find(|value| !value[key].is_string()) {
                return Err(Error::invalid(
                    "surface",
                    format!("a {item} has no `{key}`: {nameless}"),
                ));
            }
        }
        Ok(self)
    }
}

/// A listing's items as the server sent them, or none when it does not know the method.
async fn as_sent<T: ListedItem>(
    listing: impl Future<Output = Result<Listed<T>>>,
) -> Result<Vec<Value>> {
    match listing.await {
        Ok(listed) => Ok(listed.wire().to_vec()),
        Err(error) if error.code() == Some(code::METHOD_NOT_FOUND) => Ok(Vec::new()),
        Err(error) => Err(error),
    }
}

fn not_a_surface() -> String {
    "expected a JSON object with `tools`, `resources`, `resourceTemplates`, `prompts` or \
     `capabilities`"
        .to_owned()
}

fn unreadable(path: &Path, error: &std::io::Error) -> Error {
    Error::invalid(
        format!("surface file {}", path.display()),
        format!("it cannot be read: {error}"),
    )
}

/// The JSON list in a snapshot file, after its `---` header.
fn snapshot_list(path: &Path, text: &str) -> Result<Vec<Value>> {
    let body = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n"))
        .map_or(text, |(_, body)| body);
    match serde_json::from_str(body) {
        Ok(Value::Array(items)) => Ok(items),
        Ok(_) => Err(Error::invalid(
            format!("snapshot file {}", path.display()),
            "it does not hold a JSON list",
        )),
        Err(error) => Err(Error::invalid(
            format!("snapshot file {}", path.display()),
            format!("its content is not JSON: {error}"),
        )),
    }
}

/// The directory and name (prefix) of a snapshot file `NAME__WHAT.snap`.
fn snapshot_name(file: &Path) -> Option<(PathBuf, String)> {
    let file_name = file.file_name()?.to_str()?;
    let stem = file_name.strip_suffix(".snap")?;
    let name = SNAPSHOT_LISTS
        .iter()
        .find_map(|list| stem.strip_suffix(&format!("__{list}")))
        .or_else(|| stem.rsplit_once("__").map(|(name, _)| name))?;
    let dir = file
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Some((dir.to_path_buf(), name.to_owned()))
}

/// The names of the surfaces whose snapshots are in `dir`.
fn snapshot_names(dir: &Path) -> Result<Vec<String>> {
    let entries = std::fs::read_dir(dir).map_err(|error| unreadable(dir, &error))?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|file| {
            SNAPSHOT_LISTS
                .iter()
                .find_map(|list| file.strip_suffix(&format!("__{list}.snap")))
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}
