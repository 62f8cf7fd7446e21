//! One change between two surfaces: its kind, how it affects clients, where it is, and a
//! sentence; and [`Changes`], all of them, breaking first.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// Whether a change can break a client written against the old surface.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "json-schema", schemars(rename = "ChangeSeverity"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A client that worked with the old surface may fail with the new one.
    Breaking,
    /// Every client that worked with the old surface still works.
    Compatible,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Breaking => "breaking",
            Severity::Compatible => "compatible",
        })
    }
}

/// What changed. Serialised as its [`name`](Self::name) (`required_argument_added`).
///
/// The kinds about a schema's values (types, enums, bounds, patterns, formats, consts,
/// alternatives) are breaking or compatible by the schema they are in: in a tool's
/// `inputSchema` a narrowing breaks clients (arguments they send may now be refused), in an
/// `outputSchema` a widening does (the server may now send what a consumer was not promised).
/// See the [module docs](super#what-is-breaking) for each kind's severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A tool is gone.
    ToolRemoved,
    /// A new tool.
    ToolAdded,
    /// A resource (by URI) is gone.
    ResourceRemoved,
    /// A new resource.
    ResourceAdded,
    /// A resource template (by URI template) is gone.
    ResourceTemplateRemoved,
    /// A new resource template.
    ResourceTemplateAdded,
    /// A prompt is gone.
    PromptRemoved,
    /// A new prompt.
    PromptAdded,

    /// An input property that must be sent, new.
    RequiredArgumentAdded,
    /// An input property that may be sent, new.
    OptionalArgumentAdded,
    /// An input property is no longer declared.
    ArgumentRemoved,
    /// An input property that was optional is required.
    ArgumentMadeRequired,
    /// An input property that was required is optional.
    ArgumentMadeOptional,

    /// A tool now declares an output schema.
    OutputSchemaAdded,
    /// A tool no longer declares its output schema.
    OutputSchemaRemoved,
    /// An output property, new.
    OutputPropertyAdded,
    /// An output property is no longer declared.
    OutputPropertyRemoved,
    /// An output property that was always sent (required) may now be left out.
    OutputPropertyMadeOptional,
    /// An output property that could be left out is now always sent.
    OutputPropertyMadeRequired,

    /// Fewer types allowed (`"type"` lost one, or was added).
    TypeNarrowed,
    /// More types allowed (`"type"` gained one, or was removed).
    TypeWidened,
    /// Types both lost and gained (`string` became `integer`).
    TypeChanged,
    /// `enum` added where any value was allowed.
    EnumAdded,
    /// `enum` removed: any value allowed.
    EnumRemoved,
    /// A value of an `enum` is gone.
    EnumValueRemoved,
    /// A value added to an `enum`.
    EnumValueAdded,
    /// `const` added.
    ConstAdded,
    /// `const` removed.
    ConstRemoved,
    /// `const` changed.
    ConstChanged,
    /// A bound is stricter: `minimum`, `maximum`, their exclusive forms, `minLength`,
    /// `maxLength`, `minItems`, `maxItems`, `minProperties`, `maxProperties`, `multipleOf`,
    /// `uniqueItems`, added or tightened.
    BoundTightened,
    /// A bound is looser, or gone.
    BoundLoosened,
    /// A bound changed neither way (`multipleOf: 2` became `multipleOf: 3`).
    BoundChanged,
    /// `pattern` added.
    PatternAdded,
    /// `pattern` removed.
    PatternRemoved,
    /// `pattern` changed.
    PatternChanged,
    /// `format` added.
    FormatAdded,
    /// `format` removed.
    FormatRemoved,
    /// `format` changed.
    FormatChanged,
    /// `additionalProperties` (or `unevaluatedProperties`) became `false`.
    AdditionalPropertiesForbidden,
    /// `additionalProperties` (or `unevaluatedProperties`) is no longer `false`.
    AdditionalPropertiesAllowed,
    /// An alternative of `anyOf` or `oneOf` is gone.
    AlternativeRemoved,
    /// An alternative of `anyOf` or `oneOf`, new.
    AlternativeAdded,
    /// A keyword this comparison does not classify changed (`not`, `if`, `allOf` of
    /// another length, a `$ref` out of the document, ...): reported as breaking, to be
    /// reviewed.
    SchemaChanged,
    /// A `default` changed: what the server assumes for an argument left out.
    DefaultChanged,

    /// A prompt argument that must be given, new.
    RequiredPromptArgumentAdded,
    /// A prompt argument that may be given, new.
    OptionalPromptArgumentAdded,
    /// A prompt argument is gone.
    PromptArgumentRemoved,
    /// A prompt argument that was optional is required.
    PromptArgumentMadeRequired,
    /// A prompt argument that was required is optional.
    PromptArgumentMadeOptional,

    /// A resource's or template's `mimeType` changed.
    MimeTypeChanged,

    /// A server capability (or a flag of one: `listChanged`, `subscribe`) is gone.
    CapabilityRemoved,
    /// A server capability (or a flag of one), new.
    CapabilityAdded,

    /// A tool's annotations promise less: no longer read-only, now destructive, no longer
    /// idempotent, now open-world.
    HintWeakened,
    /// A tool's annotations promise more.
    HintStrengthened,

    /// A title or description changed (of an item, an argument, a schema).
    DescriptionChanged,
}

impl ChangeKind {
    /// The kind's name as serialised: `required_argument_added`.
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::ToolRemoved => "tool_removed",
            ChangeKind::ToolAdded => "tool_added",
            ChangeKind::ResourceRemoved => "resource_removed",
            ChangeKind::ResourceAdded => "resource_added",
            ChangeKind::ResourceTemplateRemoved => "resource_template_removed",
            ChangeKind::ResourceTemplateAdded => "resource_template_added",
            ChangeKind::PromptRemoved => "prompt_removed",
            ChangeKind::PromptAdded => "prompt_added",
            ChangeKind::RequiredArgumentAdded => "required_argument_added",
            ChangeKind::OptionalArgumentAdded => "optional_argument_added",
            ChangeKind::ArgumentRemoved => "argument_removed",
            ChangeKind::ArgumentMadeRequired => "argument_made_required",
            ChangeKind::ArgumentMadeOptional => "argument_made_optional",
            ChangeKind::OutputSchemaAdded => "output_schema_added",
            ChangeKind::OutputSchemaRemoved => "output_schema_removed",
            ChangeKind::OutputPropertyAdded => "output_property_added",
            ChangeKind::OutputPropertyRemoved => "output_property_removed",
            ChangeKind::OutputPropertyMadeOptional => "output_property_made_optional",
            ChangeKind::OutputPropertyMadeRequired => "output_property_made_required",
            ChangeKind::TypeNarrowed => "type_narrowed",
            ChangeKind::TypeWidened => "type_widened",
            ChangeKind::TypeChanged => "type_changed",
            ChangeKind::EnumAdded => "enum_added",
            ChangeKind::EnumRemoved => "enum_removed",
            ChangeKind::EnumValueRemoved => "enum_value_removed",
            ChangeKind::EnumValueAdded => "enum_value_added",
            ChangeKind::ConstAdded => "const_added",
            ChangeKind::ConstRemoved => "const_removed",
            ChangeKind::ConstChanged => "const_changed",
            ChangeKind::BoundTightened => "bound_tightened",
            ChangeKind::BoundLoosened => "bound_loosened",
            ChangeKind::BoundChanged => "bound_changed",
            ChangeKind::PatternAdded => "pattern_added",
            ChangeKind::PatternRemoved => "pattern_removed",
            ChangeKind::PatternChanged => "pattern_changed",
            ChangeKind::FormatAdded => "format_added",
            ChangeKind::FormatRemoved => "format_removed",
            ChangeKind::FormatChanged => "format_changed",
            ChangeKind::AdditionalPropertiesForbidden => "additional_properties_forbidden",
            ChangeKind::AdditionalPropertiesAllowed => "additional_properties_allowed",
            ChangeKind::AlternativeRemoved => "alternative_removed",
            ChangeKind::AlternativeAdded => "alternative_added",
            ChangeKind::SchemaChanged => "schema_changed",
            ChangeKind::DefaultChanged => "default_changed",
            ChangeKind::RequiredPromptArgumentAdded => "required_prompt_argument_added",
            ChangeKind::OptionalPromptArgumentAdded => "optional_prompt_argument_added",
            ChangeKind::PromptArgumentRemoved => "prompt_argument_removed",
            ChangeKind::PromptArgumentMadeRequired => "prompt_argument_made_required",
            ChangeKind::PromptArgumentMadeOptional => "prompt_argument_made_optional",
            ChangeKind::MimeTypeChanged => "mime_type_changed",
            ChangeKind::CapabilityRemoved => "capability_removed",
            ChangeKind::CapabilityAdded => "capability_added",
            ChangeKind::HintWeakened => "hint_weakened",
            ChangeKind::HintStrengthened => "hint_strengthened",
            ChangeKind::DescriptionChanged => "description_changed",
        }
    }
}

impl ChangeKind {
    /// Every kind, in the order of the module's table.
    pub const ALL: [ChangeKind; 55] = [
        ChangeKind::ToolRemoved,
        ChangeKind::ToolAdded,
        ChangeKind::ResourceRemoved,
        ChangeKind::ResourceAdded,
        ChangeKind::ResourceTemplateRemoved,
        ChangeKind::ResourceTemplateAdded,
        ChangeKind::PromptRemoved,
        ChangeKind::PromptAdded,
        ChangeKind::RequiredArgumentAdded,
        ChangeKind::OptionalArgumentAdded,
        ChangeKind::ArgumentRemoved,
        ChangeKind::ArgumentMadeRequired,
        ChangeKind::ArgumentMadeOptional,
        ChangeKind::OutputSchemaAdded,
        ChangeKind::OutputSchemaRemoved,
        ChangeKind::OutputPropertyAdded,
        ChangeKind::OutputPropertyRemoved,
        ChangeKind::OutputPropertyMadeOptional,
        ChangeKind::OutputPropertyMadeRequired,
        ChangeKind::TypeNarrowed,
        ChangeKind::TypeWidened,
        ChangeKind::TypeChanged,
        ChangeKind::EnumAdded,
        ChangeKind::EnumRemoved,
        ChangeKind::EnumValueRemoved,
        ChangeKind::EnumValueAdded,
        ChangeKind::ConstAdded,
        ChangeKind::ConstRemoved,
        ChangeKind::ConstChanged,
        ChangeKind::BoundTightened,
        ChangeKind::BoundLoosened,
        ChangeKind::BoundChanged,
        ChangeKind::PatternAdded,
        ChangeKind::PatternRemoved,
        ChangeKind::PatternChanged,
        ChangeKind::FormatAdded,
        ChangeKind::FormatRemoved,
        ChangeKind::FormatChanged,
        ChangeKind::AdditionalPropertiesForbidden,
        ChangeKind::AdditionalPropertiesAllowed,
        ChangeKind::AlternativeRemoved,
        ChangeKind::AlternativeAdded,
        ChangeKind::SchemaChanged,
        ChangeKind::DefaultChanged,
        ChangeKind::RequiredPromptArgumentAdded,
        ChangeKind::OptionalPromptArgumentAdded,
        ChangeKind::PromptArgumentRemoved,
        ChangeKind::PromptArgumentMadeRequired,
        ChangeKind::PromptArgumentMadeOptional,
        ChangeKind::MimeTypeChanged,
        ChangeKind::CapabilityRemoved,
        ChangeKind::CapabilityAdded,
        ChangeKind::HintWeakened,
        ChangeKind::HintStrengthened,
        ChangeKind::DescriptionChanged,
    ];
}

/// A kind's schema: one of the names, as it is serialised.
#[cfg(feature = "json-schema")]
impl schemars::JsonSchema for ChangeKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ChangeKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = ChangeKind::ALL.iter().map(|kind| kind.name()).collect();
        schemars::json_schema!({
            "description": "What changed, by its name (see the `diff` module's table).",
            "type": "string",
            "enum": names,
        })
    }
}

impl Serialize for ChangeKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of thing a change is in.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// A tool, named by its name.
    Tool,
    /// A resource, named by its URI.
    Resource,
    /// A resource template, named by its URI template.
    ResourceTemplate,
    /// A prompt, named by its name.
    Prompt,
    /// The server's capabilities.
    Capabilities,
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Item::Tool => "tool",
            Item::Resource => "resource",
            Item::ResourceTemplate => "resource template",
            Item::Prompt => "prompt",
            Item::Capabilities => "capabilities",
        })
    }
}

/// Where a change is: the item, and a JSON pointer into the item as listed.
///
/// The pointer follows the item's JSON (`/inputSchema/properties/city/type`,
/// `/annotations/readOnlyHint`, `/arguments/0/required`; for capabilities
/// `/resources/subscribe`), with `$ref`s expanded: a change inside a `$defs` entry is
/// reported where it is used. An array index is the new side's, or the old side's for what
/// is gone.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Location {
    /// What kind of item.
    pub item: Item,
    /// Its name, URI or URI template (empty for the capabilities).
    pub name: String,
    /// A JSON pointer into it; empty for the item itself.
    pub pointer: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Item::Capabilities => write!(f, "capabilities")?,
            item => write!(f, "{item} `{}`", self.name)?,
        }
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        Ok(())
    }
}

/// One change between two surfaces.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// What changed.
    pub kind: ChangeKind,
    /// Whether it can break a client of the old surface.
    pub severity: Severity,
    /// Where.
    pub location: Location,
    /// What, in a sentence: ``required argument `units` added``.
    pub message: String,
    /// The old value at the location, where there is one to show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The new value at the location, where there is one to show.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
}

impl Change {
    /// Whether it is [`Severity::Breaking`].
    pub fn is_breaking(&self) -> bool {
        self.severity == Severity::Breaking
    }
}

impl fmt::Display for Change {
    /// `tool `weather` at /inputSchema/properties/units: required argument `units` added`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Every change between two surfaces, the breaking ones first, each group in the order
/// found (capabilities, tools, resources, templates, prompts, each sorted by name). Derefs
/// to `[Change]`; serialises as the list.
///
/// Its `Display` is the report `mcp-assured diff` prints: the breaking changes, the
/// compatible ones, and a summary line.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Changes {
    changes: Vec<Change>,
}

impl Changes {
    /// Sorts `changes` breaking first, keeping the order within each group.
    pub(crate) fn new(mut changes: Vec<Change>) -> Self {
        changes.sort_by_key(|change| change.severity);
        Changes { changes }
    }

    /// Whether any change is breaking.
    pub fn is_breaking(&self) -> bool {
        self.changes.iter().any(Change::is_breaking)
    }

    /// The breaking changes.
    pub fn breaking(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|change| change.is_breaking())
    }

    /// The compatible changes.
    pub fn compatible(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|change| !change.is_breaking())
    }

    /// The changes of `kind`.
    pub fn of_kind(&self, kind: ChangeKind) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(move |change| change.kind == kind)
    }

    /// `2 breaking, 1 compatible change(s)`, or `no changes`.
    pub fn summary(&self) -> String {
        if self.changes.is_empty() {
            return "no changes".to_owned();
        }
        let breaking = self.breaking().count();
        let compatible = self.changes.len() - breaking;
        let noun = if self.changes.len() == 1 {
            "change"
        } else {
            "changes"
        };
        format!("{breaking} breaking, {compatible} compatible {noun}")
    }

    /// The changes, as a `Vec`.
    pub fn into_vec(self) -> Vec<Change> {
        self.changes
    }
}

impl std::ops::Deref for Changes {
    type Target = [Change];
    fn deref(&self) -> &[Change] {
        &self.changes
    }
}

impl IntoIterator for Changes {
    type Item = Change;
    type IntoIter = std::vec::IntoIter<Change>;
    fn into_iter(self) -> Self::IntoIter {
        self.changes.into_iter()
    }
}

impl<'a> IntoIterator for &'a Changes {
    type Item = &'a Change;
    type IntoIter = std::slice::Iter<'a, Change>;
    fn into_iter(self) -> Self::IntoIter {
        self.changes.iter()
    }
}

impl fmt::Display for Changes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (severity, label) in [
            (Severity::Breaking, "Breaking"),
            (Severity::Compatible, "Compatible"),
        ] {
            let group: Vec<&Change> = self.iter().filter(|c| c.severity == severity).collect();
            if group.is_empty() {
                continue;
            }
            writeln!(f, "{label} ({}):", group.len())?;
            for change in group {
                writeln!(f, "  {change} [{}]", change.kind)?;
            }
            writeln!(f)?;
        }
        writeln!(f, "{}", self.summary())
    }
}
