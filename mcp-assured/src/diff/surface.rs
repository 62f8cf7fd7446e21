//! [`Surface`]: what a server offers, from wherever it is known: a live client, the files
//! `mcp-assured snapshot` writes, a JSON document, or the raw results of the list methods
//! (what a cassette of a recorded session holds).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{change::Item, compare::key_of};
use crate::{
    cassette::Cassette,
    client::{McpClient, ServerInfo},
    error::{Error, Result, code},
    results::listed::{Listed, ListedItem},
    snapshot::redact,
};

/// What a server offers clients: its tools (with input and output schemas and
/// annotations), resources, resource templates, prompts (with arguments), and capabilities;
/// and who it says it is ([`SurfaceServer`]). Each item is its JSON as listed (an element of
/// `tools/list`'s `tools`, ...).
///
/// Its JSON, which [`from_json`](Self::from_json) reads back:
///
/// ```json
/// {
///   "server": {"name": "weather", "version": "1.2.0"},
///   "capabilities": {"tools": {"listChanged": true}, "resources": {"subscribe": true}},
///   "tools": [{"name": "weather", "inputSchema": {"type": "object"}}],
///   "resources": [{"uri": "file:///readme", "name": "readme"}],
///   "resourceTemplates": [{"uriTemplate": "file:///{path}", "name": "file"}],
///   "prompts": [{"name": "greet", "arguments": [{"name": "style", "required": false}]}]
/// }
/// ```
///
/// Every member may be left out; without `capabilities` they are unknown, and not compared.
/// The `server` is never compared ([`compare`](super::compare) reports what clients see
/// change, not a name): reports name the server by it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Surface {
    /// Who the server says it is; `None` when unknown (snapshot files do not record it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<SurfaceServer>,
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

/// Who a server says it is: its `initialize` result's `serverInfo` and `instructions`.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SurfaceServer {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `serverInfo.title`, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The server's instructions for clients, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

impl SurfaceServer {
    /// The server a `serverInfo` object names (`{"name", "version", "title", ..}`, as
    /// `initialize` sends it and `mcp-assured list --json` prints it), with `instructions`;
    /// leniently: `None` without a string `name`, and a member that is not a string left
    /// out.
    ///
    /// ```
    /// use mcp_assured::diff::SurfaceServer;
    /// use serde_json::json;
    ///
    /// let server = SurfaceServer::from_info(&json!({"name": "weather", "version": "1.2.0", "icons": []}), None).unwrap();
    /// assert_eq!((server.name.as_str(), server.version.as_deref()), ("weather", Some("1.2.0")));
    /// assert_eq!(SurfaceServer::from_info(&json!({"version": "1"}), None), None);
    /// ```
    pub fn from_info(info: &Value, instructions: Option<&str>) -> Option<SurfaceServer> {
        let text = |key: &str| info.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(SurfaceServer {
            name: text("name")?,
            version: text("version"),
            title: text("title"),
            instructions: instructions
                .map(str::to_owned)
                .or_else(|| text("instructions")),
        })
    }

    /// `name version`, or the name alone when the version is unknown.
    pub fn described(&self) -> String {
        match &self.version {
            Some(version) => format!("{} {version}", self.name),
            None => self.name.clone(),
        }
    }
}

impl From<&ServerInfo> for SurfaceServer {
    /// Who a connected client's server said it is (an empty version is none).
    fn from(info: &ServerInfo) -> SurfaceServer {
        SurfaceServer {
            name: info.name.clone(),
            version: Some(info.version.clone()).filter(|version| !version.is_empty()),
            title: info.title.clone(),
            instructions: info.instructions.clone(),
        }
    }
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
    /// method (`-32601`), is empty. Its capabilities are kept as sent, and who it is taken
    /// from its `initialize` result.
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
            server: Some(SurfaceServer::from(client.server_info())),
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
    /// `prompts/list`, and `initialize` (or `server/discover`) for the capabilities and who
    /// the server is (its `serverInfo` and `instructions`). Other
    /// methods are passed over, so a recorded session's exchanges can be given whole: this
    /// is how a cassette becomes a surface. An item listed again (by name, URI or URI
    /// template) replaces the earlier one.
    ///
    /// ```
    /// use mcp_assured::diff::Surface;
    /// use serde_json::json;
    ///
    /// let surface = Surface::from_list_results([
    ///     ("initialize", json!({
    ///         "capabilities": {"tools": {}},
    ///         "protocolVersion": "2025-11-25",
    ///         "serverInfo": {"name": "calc", "version": "2.0.0"},
    ///     })),
    ///     ("tools/list", json!({"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "b"})),
    ///     ("tools/list", json!({"tools": [{"name": "b", "inputSchema": {}}]})),
    ///     ("tools/call", json!({"content": []})),
    /// ])?;
    /// assert_eq!(surface.tools.len(), 2);
    /// assert_eq!(surface.capabilities, Some(json!({"tools": {}})));
    /// assert_eq!(surface.server.unwrap().described(), "calc 2.0.0");
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
                    let instructions = result.get("instructions").and_then(Value::as_str);
                    if let Some(server) = result
                        .get("serverInfo")
                        .and_then(|info| SurfaceServer::from_info(info, instructions))
                    {
                        surface.server = Some(server);
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

    /// The surface a recorded session saw: the capabilities and `serverInfo` of its
    /// server's answer to `initialize` (or `server/discover`) and the results of the list
    /// requests it made (every page), as [`from_list_results`](Self::from_list_results)
    /// reads them.
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
        let recorded = &cassette.server;
        let mut initialize = serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": recorded.server_info,
        });
        if let Some(instructions) = &recorded.instructions {
            initialize["instructions"] = Value::String(instructions.clone());
        }
        let initialize = ("initialize", initialize);
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
    /// The `server` is read as [`SurfaceServer::from_info`] reads it: one without a `name`
    /// is unknown, and its other members (`protocolVersion`, `capabilities`, ..) ignored.
    ///
    /// ```
    /// use mcp_assured::diff::Surface;
    /// use serde_json::json;
    ///
    /// let listed = json!({
    ///     "server": {"name": "weather", "version": "1.2.0", "protocolVersion": "2025-11-25", "capabilities": {"tools": {}}},
    ///     "tools": [{"name": "forecast", "inputSchema": {"type": "object"}}],
    /// });
    /// let surface = Surface::from_json(listed)?;
    /// assert_eq!(surface.server.unwrap().described(), "weather 1.2.0");
    /// assert_eq!(surface.capabilities, Some(json!({"tools": {}})));
    /// # Ok::<(), mcp_assured::Error>(())
    /// ```
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
        let server = map.remove("server");
        if !map.contains_key("capabilities")
            && let Some(capabilities) = server
                .as_ref()
                .and_then(|server| server.get("capabilities"))
                .cloned()
        {
            map.insert("capabilities".to_owned(), capabilities);
        }
        let mut surface: Surface = serde_json::from_value(Value::Object(map))
            .map_err(|error| Error::invalid("surface", error.to_string()))?;
        surface.server = server
            .as_ref()
            .and_then(|server| SurfaceServer::from_info(server, None));
        surface.checked()
    }

    /// The surface `mcp-assured snapshot` wrote into `dir` for `name` (the files'
    /// prefix): `NAME__tools.snap`, `NAME__resources.snap`, `NAME__resource_templates.snap`,
    /// `NAME__prompts.snap`. A list without its file (the server did not advertise it) is
    /// empty. Snapshots do not record capabilities or who the server is: they are unknown.
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
    /// with one read from snapshot files without differences that are only theirs. The
    /// `server` is kept as it is: it is never compared, and reports name the server by it.
    #[must_use = "this returns the redacted surface and leaves `self` unchanged"]
    pub fn redacted(self) -> Surface {
        let all = |list: Vec<Value>| list.into_iter().map(redact).collect();
        Surface {
            server: self.server,
            capabilities: self.capabilities.map(redact),
            tools: all(self.tools),
            resources: all(self.resources),
            resource_templates: all(self.resource_templates),
            prompts: all(self.prompts),
        }
    }

    /// The name the server gives itself (`server.name`), when known.
    pub fn server_name(&self) -> Option<&str> {
        self.server.as_ref().map(|server| server.name.as_str())
    }

    /// When `old` names another server than this surface does, the sentence that says so:
    /// ``the two sides name different servers: `calc` (old) and `calculator` (new)``.
    /// `None` when the names are the same, or either is unknown.
    ///
    /// ```
    /// use mcp_assured::diff::{Surface, SurfaceServer};
    ///
    /// let named = |name: &str| Surface {
    ///     server: Some(SurfaceServer { name: name.into(), ..SurfaceServer::default() }),
    ///     ..Surface::default()
    /// };
    /// let said = named("calculator").renamed_from(&named("calc")).unwrap();
    /// assert!(said.contains("`calc` (old) and `calculator` (new)"), "{said}");
    /// assert_eq!(named("calc").renamed_from(&named("calc")), None);
    /// assert_eq!(named("calc").renamed_from(&Surface::default()), None);
    /// ```
    pub fn renamed_from(&self, old: &Surface) -> Option<String> {
        let (old, new) = (old.server_name()?, self.server_name()?);
        (old != new).then(|| {
            format!("the two sides name different servers: `{old}` (old) and `{new}` (new)")
        })
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
