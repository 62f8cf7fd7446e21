//! Breaking-change diff: two [`Surface`]s of a server (what it offers: tools with their
//! schemas and annotations, resources, resource templates, prompts, capabilities) compared
//! by [`compare`] into a typed list of [`Change`]s, each [`Breaking`](Severity::Breaking) or
//! [`Compatible`](Severity::Compatible) for a client written against the old one.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use mcp_assured::{McpAssured, diff::{self, ChangeKind, Surface}};
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! let old = Surface::from_client(&client).await?;
//! client.close().await?;
//!
//! // The next version: `echo` is gone, and `weather` needs `units`.
//! let mut new = old.clone();
//! new.tools.retain(|tool| tool["name"] != "echo");
//! let schema = &mut new.tool_mut("weather").unwrap()["inputSchema"];
//! schema["properties"]["units"] = json!({"type": "string", "enum": ["C", "F"]});
//! schema["required"] = json!(["city", "units"]);
//!
//! let changes = diff::compare(&old, &new);
//! assert!(changes.is_breaking());
//! let kinds: Vec<ChangeKind> = changes.iter().map(|change| change.kind).collect();
//! assert_eq!(kinds, [ChangeKind::ToolRemoved, ChangeKind::RequiredArgumentAdded]);
//! assert_eq!(
//!     changes[1].to_string(),
//!     "tool `weather` at /inputSchema/properties/units: required argument `units` added: \
//!      clients that do not send it are refused"
//! );
//! assert!(diff::compare(&old, &old).is_empty());
//! # Ok(()) }
//! ```
//!
//! # Where a surface comes from
//!
//! - a live server: [`Surface::from_client`] lists everything, through every page;
//! - the files `mcp-assured snapshot` writes: [`Surface::from_snapshot`] (a directory and a
//!   name) or [`Surface::from_snapshot_file`] (one of them). Snapshots are redacted and do
//!   not record capabilities; compare them with a [`redacted`](Surface::redacted) surface;
//! - a JSON document: [`Surface::from_json`] (its shape is in [`Surface`]'s docs; a
//!   `Surface` serialises to it), or `mcp-assured list --json`'s output;
//! - the raw results of the list methods, as a cassette of a recorded session holds them:
//!   [`Surface::from_list_results`], the constructor a cassette reader calls.
//!
//! Each knows who the server is ([`Surface::server`], a [`SurfaceServer`]) where its source
//! does (all but snapshots); it is never compared, and reports name the server by it
//! (`Changes::to_sarif_between`, with the `sarif` feature).
//!
//! [`Surface::from_path`] reads a file or directory, choosing by what it holds; `mcp-assured
//! diff OLD NEW` compares two of these, or live servers, from the shell.
//!
//! # What is breaking
//!
//! A change is breaking when a client that worked with the old surface may fail with the
//! new one. A tool's `inputSchema` describes what clients send, so a change that refuses
//! values once accepted (a *narrowing*) breaks them; its `outputSchema` describes what they
//! receive, so a change that lets the server send values once ruled out (a *widening*)
//! breaks consumers. The same kinds thus have the severity of their schema:
//!
//! | change | in `inputSchema` | in `outputSchema` |
//! |---|---|---|
//! | type narrowed (a type removed from `type`, or `type` added), `enum` added or a value removed, `const` added, a bound added or tightened (`minimum`, `maximum`, their exclusive forms, `minLength`, `maxLength`, `minItems`, `maxItems`, `minProperties`, `maxProperties`, `multipleOf`, `uniqueItems`), `pattern` or `format` added, an `anyOf`/`oneOf` alternative removed | breaking | compatible |
//! | the reverse: type widened, `enum` value added or `enum` removed, `const` removed, bound loosened or removed, `pattern` or `format` removed, alternative added | compatible | breaking |
//! | type changed both ways, `const`, `pattern` or `format` changed, `multipleOf` changed neither way, and any change of a keyword not classified (`not`, `if`/`then`/`else`, `allOf` of another length, `patternProperties`, a `$ref` out of the document, ...): [`SchemaChanged`](ChangeKind::SchemaChanged), to review | breaking | breaking |
//! | property added | required: breaking; optional: compatible | compatible |
//! | property removed | breaking if the schema refuses unknown properties (`additionalProperties` or `unevaluatedProperties` `false`), else compatible: the server ignores it (the message says so) | breaking |
//! | made required | breaking | compatible |
//! | made optional | compatible | breaking |
//! | `additionalProperties: false` added | breaking | compatible (consumers tolerate unknown members) |
//!
//! Nested objects (`properties`), arrays (`items`, tuples), `additionalProperties`
//! schemas and union alternatives are compared all the way down; `$ref`s within the
//! document (`#/$defs/..`, `#/definitions/..`, any `#/` pointer) are expanded before
//! comparing, recursive schemas included. A `$ref` elsewhere is compared as written.
//!
//! Elsewhere:
//!
//! - a tool, resource (by URI), resource template (by URI template) or prompt removed is
//!   breaking, added compatible; so is an output schema removed, added;
//! - a prompt argument added as required, made required, or removed is breaking (prompts
//!   have no schema saying unknown arguments are welcome, and SDKs differ); added as
//!   optional, or made optional, compatible;
//! - a capability dropped, or a flag of one (`tools`, `resources`, `resources.subscribe`,
//!   `prompts`, `completions`, `logging`, each `listChanged`, `experimental.*`), is
//!   breaking, one added compatible; compared only when both sides know them;
//! - a tool's annotations that promise less are breaking
//!   ([`HintWeakened`](ChangeKind::HintWeakened)): no longer read-only, now destructive, no
//!   longer idempotent, now open-world, MCP's defaults standing for hints left out (a
//!   client may run a read-only tool without asking; it must now ask). Promising more is
//!   compatible;
//! - a resource's `mimeType` changed from one to another is breaking (a client may parse by
//!   it); stated or no longer stated, compatible;
//! - titles, descriptions, and names of resources, and schemas' `default`s, are reported as
//!   compatible ([`DescriptionChanged`](ChangeKind::DescriptionChanged),
//!   [`DefaultChanged`](ChangeKind::DefaultChanged)): they change no client's success, but
//!   they change what a model reads, so they are shown. Filter them out with
//!   `changes.iter().filter(|c| c.kind != ChangeKind::DescriptionChanged)` if unwanted.
//!
//! Not compared: icons, `_meta`, resource sizes and annotations, schema annotations such as
//! `examples` and `deprecated`.

mod change;
mod compare;
mod found;
mod schema;
mod surface;

pub use change::{Change, ChangeKind, Changes, Item, Location, Severity};
pub use compare::compare;
pub use surface::{Surface, SurfaceServer};

#[cfg(test)]
mod tests;
