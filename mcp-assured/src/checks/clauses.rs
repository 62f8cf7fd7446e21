//! The sentence of the specification each check tests, by the revision the connection
//! speaks: its keyword grades what the check finds (a MUST broken fails, a SHOULD broken
//! warns). Quoted from the MCP specification (`docs/specification/<revision>/` of
//! modelcontextprotocol/modelcontextprotocol), JSON-RPC 2.0 and the RFCs MCP names.

use crate::report::{Clause, Level};

/// A clause of the MCP specification of `revision`, at `path` of its site.
macro_rules! mcp {
    ($level:ident, $revision:literal, $section:literal, $path:literal, $text:literal $(,)?) => {
        Clause {
            level: Level::$level,
            spec: concat!("MCP ", $revision),
            section: $section,
            url: concat!(
                "https://modelcontextprotocol.io/specification/",
                $revision,
                "/",
                $path
            ),
            text: $text,
        }
    };
}

/// The same words in both revisions: `[2025-11-25, 2026-07-28]`, picked with [`by`]; at
/// one path of each revision's site, or at a path of each where the pages moved.
macro_rules! both {
    ($level:ident, $section:literal, $path:literal, $text:literal $(,)?) => {
        both!($level, $section, $path, $path, $text)
    };
    (
        $level:ident,
        $section:literal,
        $path_2025:literal,
        $path_2026:literal,
        $text:literal $(,)?
    ) => {
        [
            mcp!($level, "2025-11-25", $section, $path_2025, $text),
            mcp!($level, "2026-07-28", $section, $path_2026, $text),
        ]
    };
}

/// The clause of `revision` among the same words in both.
pub(super) fn by(revision: Revision, clauses: &[Clause; 2]) -> Clause {
    match revision {
        Revision::Handshake => clauses[0],
        Revision::Stateless => clauses[1],
    }
}

/// The revision a connection speaks, as the clauses tell them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Revision {
    /// 2025-11-25 and older: the `initialize` handshake.
    Handshake,
    /// 2026-07-28: `server/discover` and per-request metadata.
    Stateless,
}

impl Revision {
    pub(super) fn of(protocol_version: &str) -> Revision {
        let handshake = rmcp::model::ProtocolVersion::KNOWN_VERSIONS
            .iter()
            .find(|known| known.as_str() == protocol_version)
            .is_none_or(|known| known.has_initialize());
        if handshake {
            Revision::Handshake
        } else {
            Revision::Stateless
        }
    }
}

pub(super) const SERVER_INFO: Clause = mcp!(
    Must,
    "2025-11-25",
    "Basic › Lifecycle › Initialization",
    "basic/lifecycle#initialization",
    "The server MUST respond with its own capabilities and information",
);

/// An empty `serverInfo.name`: the schema asks for a string, and no sentence for a
/// non-empty one, but it identifies nothing.
pub(super) const SERVER_NAME: Clause = mcp!(
    NoKeyword,
    "2025-11-25",
    "Basic › Lifecycle › Initialization",
    "basic/lifecycle#initialization",
    "The server MUST respond with its own capabilities and information (Implementation \
     { name: string; version: string }: no sentence asks for a non-empty name)",
);

/// `supportedVersions` names the version in use: what the client chose from it.
pub(super) const SUPPORTED_VERSIONS: Clause = mcp!(
    NoKeyword,
    "2026-07-28",
    "Server › Discovery › DiscoverResult",
    "server/discover#discoverresult",
    "supportedVersions: MCP Protocol Versions this server supports. The client should choose \
     a version from this list for use in subsequent requests.",
);

pub(super) const SERVER_INFO_2026: Clause = mcp!(
    Should,
    "2026-07-28",
    "Server › Discovery › DiscoverResult",
    "server/discover#discoverresult",
    "_meta['io.modelcontextprotocol/serverInfo']: … Servers SHOULD include this field.",
);

pub(super) const VERSION_NEGOTIATION: Clause = mcp!(
    Must,
    "2025-11-25",
    "Basic › Lifecycle › Version Negotiation",
    "basic/lifecycle#version-negotiation",
    "If the server supports the requested protocol version, it MUST respond with the same \
     version. Otherwise, the server MUST respond with another protocol version it supports.",
);

/// The schema is normative: the specification defines every message by it, and the official
/// JSON schema is generated from it. (A sentence of the overview, and the schema's own
/// `MUST` in descriptions such as `resultType`'s.)
pub(super) const WIRE_SCHEMA: [Clause; 2] = both!(
    Must,
    "Basic › Overview",
    "basic",
    "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 \
     specification. (The protocol's messages are those of its schema, schema.ts, the source \
     of truth for all protocol messages and structures, published as schema.json.)",
);

pub(super) const PING: Clause = mcp!(
    Must,
    "2025-11-25",
    "Basic › Utilities › Ping › Behavior Requirements",
    "basic/utilities/ping#behavior-requirements",
    "The receiver MUST respond promptly with an empty response",
);

pub(super) const DISCOVER: Clause = mcp!(
    Must,
    "2026-07-28",
    "Server › Discovery",
    "server/discover",
    "`server/discover` lets a client query a server's supported protocol versions, \
     capabilities, and identity before sending any other requests. Servers MUST implement it.",
);

/// `capabilities.<name>`: a server that answers a feature's requests declares it.
pub(super) fn declared(capability: &str, revision: Revision) -> Clause {
    const TOOLS: [Clause; 2] = both!(
        Must,
        "Server › Tools › Capabilities",
        "server/tools#capabilities",
        "Servers that support tools MUST declare the `tools` capability",
    );
    const RESOURCES: [Clause; 2] = both!(
        Must,
        "Server › Resources › Capabilities",
        "server/resources#capabilities",
        "Servers that support resources MUST declare the `resources` capability",
    );
    const PROMPTS: [Clause; 2] = both!(
        Must,
        "Server › Prompts › Capabilities",
        "server/prompts#capabilities",
        "Servers that support prompts MUST declare the `prompts` capability",
    );
    const COMPLETIONS: [Clause; 2] = both!(
        Must,
        "Server › Utilities › Completion › Capabilities",
        "server/utilities/completion#capabilities",
        "Servers that support completions MUST declare the `completions` capability",
    );
    const LOGGING: Clause = mcp!(
        Must,
        "2025-11-25",
        "Server › Utilities › Logging › Capabilities",
        "server/utilities/logging#capabilities",
        "Servers that emit log message notifications MUST declare the `logging` capability",
    );
    match capability {
        "tools" => by(revision, &TOOLS),
        "resources" => by(revision, &RESOURCES),
        "prompts" => by(revision, &PROMPTS),
        "completions" => by(revision, &COMPLETIONS),
        _ => LOGGING,
    }
}

/// `capabilities.<name>`: a declared feature answers its listing. 2026-07-28 says it; the
/// 2025-11-25 text implies it by the declaration, and the official conformance suite fails
/// a listing that errors on either revision.
pub(super) fn lists(capability: &str) -> Clause {
    match capability {
        "tools" => mcp!(
            Must,
            "2026-07-28",
            "Server › Tools › Capabilities",
            "server/tools#capabilities",
            "Servers that declare the `tools` capability MUST respond to `tools/list` requests \
             with the set of tools currently available to the requesting client.",
        ),
        "resources" => mcp!(
            Must,
            "2026-07-28",
            "Server › Resources › Capabilities",
            "server/resources#capabilities",
            "Servers that declare the `resources` capability MUST respond to `resources/list` \
             requests …",
        ),
        "prompts" => mcp!(
            Must,
            "2026-07-28",
            "Server › Prompts › Capabilities",
            "server/prompts#capabilities",
            "Servers that declare the `prompts` capability MUST respond to `prompts/list` \
             requests …",
        ),
        _ => METHOD_NOT_FOUND,
    }
}

/// A declared feature's other requests (`logging/setLevel`, `completion/complete`) work: the
/// session runs by the capabilities negotiated (the official conformance suite fails a
/// declared `logging` whose `logging/setLevel` fails, too).
pub(super) const ADVERTISED_WORKS: Clause = mcp!(
    Must,
    "2025-11-25",
    "Basic › Lifecycle › Operation",
    "basic/lifecycle#operation",
    "During the operation phase, the client and server exchange messages according to the \
     negotiated capabilities. Both parties MUST: Respect the negotiated protocol version; \
     Only use capabilities that were successfully negotiated",
);

/// A method the server does not have, or one behind a capability it did not declare, is
/// refused with -32601: JSON-RPC's table, without a keyword.
pub(super) const METHOD_NOT_FOUND: Clause = Clause {
    level: Level::NoKeyword,
    spec: "JSON-RPC 2.0",
    section: "5.1 Error object",
    url: "https://www.jsonrpc.org/specification#error_object",
    text: "-32601 Method not found: The method does not exist / is not available.",
};

/// 2026-07-28 over HTTP: an unknown (or removed) method gets 404 with -32601.
pub(super) const METHOD_NOT_FOUND_OVER_HTTP: Clause = mcp!(
    Must,
    "2026-07-28",
    "Basic › Transports › Streamable HTTP › Protocol Version Header",
    "basic/transports/streamable-http#protocol-version-header",
    "If the server does not implement the requested RPC method, it MUST respond with 404 Not \
     Found and a JSON-RPC error with code -32601 (Method not found).",
);

/// A method nobody has, answered with a result: the server claims to have run it.
pub(super) const JSON_RPC: [Clause; 2] = both!(
    Must,
    "Basic › Messages",
    "basic#messages",
    "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 \
     specification. (JSON-RPC 2.0: -32601 Method not found: The method does not exist / is \
     not available.)",
);

pub(super) const COMPLETION_ERRORS: [Clause; 2] = both!(
    Should,
    "Server › Utilities › Completion › Error Handling",
    "server/utilities/completion#error-handling",
    "Servers SHOULD return standard JSON-RPC errors for common failure cases: Method not \
     found: -32601 (Capability not supported)",
);

pub(super) const PAGINATION: [Clause; 2] = both!(
    Should,
    "Server › Utilities › Pagination › Implementation Guidelines",
    "server/utilities/pagination#implementation-guidelines",
    "Servers SHOULD: Provide stable cursors; Handle invalid cursors gracefully",
);

pub(super) const TOOL_NAMES: [Clause; 2] = both!(
    Should,
    "Server › Tools › Tool Names",
    "server/tools#tool-names",
    "Tool names SHOULD be between 1 and 128 characters in length (inclusive). … SHOULD be \
     the only allowed characters: A-Z, a-z, 0-9, _, -, . … Tool names SHOULD be unique \
     within a server.",
);

pub(super) const INPUT_SCHEMA: [Clause; 2] = both!(
    Must,
    "Server › Tools › Tool",
    "server/tools#tool",
    "inputSchema: JSON Schema defining expected parameters … MUST be a valid JSON Schema \
     object (not null)",
);

pub(super) const OUTPUT_SCHEMA: Clause = mcp!(
    Must,
    "2025-11-25",
    "Basic › JSON Schema Usage › Schema Validation",
    "basic#schema-validation",
    "Schemas MUST be valid according to their declared or default dialect (and the schema \
     restricts outputSchema to type: \"object\" at the root)",
);

pub(super) const OUTPUT_SCHEMA_2026: Clause = mcp!(
    Must,
    "2026-07-28",
    "Basic › JSON Schema Usage › Schema Validation",
    "basic#schema-validation",
    "Schemas MUST be valid according to their declared or default dialect (an outputSchema \
     can be any valid JSON Schema 2020-12)",
);

pub(super) const UNKNOWN_TOOL: [Clause; 2] = both!(
    NoKeyword,
    "Server › Tools › Error Handling",
    "server/tools#error-handling",
    "Protocol Errors: Standard JSON-RPC errors for issues like: Unknown tools … (example: \
     -32602 \"Unknown tool: invalid_tool_name\")",
);

pub(super) const UNKNOWN_RESOURCE: Clause = mcp!(
    Should,
    "2025-11-25",
    "Server › Resources › Error Handling",
    "server/resources#error-handling",
    "Servers SHOULD return standard JSON-RPC errors for common failure cases: Resource not \
     found: -32002",
);

pub(super) const UNKNOWN_RESOURCE_2026: Clause = mcp!(
    Must,
    "2026-07-28",
    "Server › Resources › Error Handling",
    "server/resources#error-handling",
    "If the requested resource does not exist, servers MUST return a JSON-RPC error with \
     code -32602 (Invalid Params).",
);

pub(super) const UNKNOWN_PROMPT: [Clause; 2] = both!(
    Should,
    "Server › Prompts › Error Handling",
    "server/prompts#error-handling",
    "Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid prompt \
     name: -32602 (Invalid params)",
);

pub(super) const STRUCTURED_OUTPUT: [Clause; 2] = both!(
    Must,
    "Server › Tools › Output Schema",
    "server/tools#output-schema",
    "If an output schema is provided: Servers MUST provide structured results that conform \
     to this schema.",
);

pub(super) const VALIDATE_INPUTS: [Clause; 2] = both!(
    Must,
    "Server › Tools › Security Considerations",
    "server/tools#security-considerations",
    "Servers MUST: Validate all tool inputs",
);

pub(super) const DISCOVER_RESULT: Clause = mcp!(
    Must,
    "2026-07-28",
    "Server › Discovery › DiscoverResult",
    "server/discover#discoverresult",
    "DiscoverResult { supportedVersions: string[]; capabilities: ServerCapabilities } … \
     Servers MUST implement it.",
);

pub(super) const UNSUPPORTED_VERSION: Clause = mcp!(
    Must,
    "2026-07-28",
    "Basic › Versioning › Protocol Version Negotiation",
    "basic/versioning#protocol-version-negotiation",
    "If the server does not implement the requested version … it MUST respond with an \
     UnsupportedProtocolVersionError listing the versions it does support",
);

pub(super) const REQUEST_METADATA: Clause = mcp!(
    Must,
    "2026-07-28",
    "Basic › _meta › Per-request protocol fields",
    "basic/index#meta",
    "A request missing any required field is malformed; the server MUST reject it with \
     JSON-RPC error code -32602 (Invalid params).",
);

pub(super) const STANDARD_HEADERS: Clause = mcp!(
    Must,
    "2026-07-28",
    "Basic › Transports › Streamable HTTP › Server Validation",
    "basic/transports/streamable-http#server-validation",
    "When rejecting a request due to header validation failure, servers MUST return HTTP \
     status 400 Bad Request and MUST include a JSON-RPC error response using … -32020 \
     HeaderMismatch",
);

pub(super) const DEPRECATED_LOGGING: Clause = mcp!(
    ShouldNot,
    "2026-07-28",
    "Server › Utilities › Logging",
    "server/utilities/logging",
    "The Logging feature is deprecated as of protocol version 2026-07-28 (SEP-2577). … New \
     implementations SHOULD NOT adopt it",
);

#[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
pub(super) const PROMPT_ARGUMENTS: [Clause; 2] = both!(
    Should,
    "Server › Prompts › Error Handling",
    "server/prompts#error-handling",
    "Servers SHOULD return standard JSON-RPC errors for common failure cases: Invalid prompt \
     name: -32602 (Invalid params); Missing required arguments: -32602 (Invalid params); \
     Internal errors: -32603 (Internal error)",
);

/// The clause a fuzz finding breaks, on the revision `protocol_version` names: `kind` is
/// the finding's (`accepted_invalid`, `output_schema`, ...), `subject` what was called
/// (`tool`, `template`, `prompt`). `None` for bugs no sentence names (a crash on valid
/// input breaks no clause but [`REPLY`] when it leaves the request unanswered).
#[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
pub(crate) fn of_finding(kind: &str, subject: &str, protocol_version: &str) -> Option<Clause> {
    let revision = Revision::of(protocol_version);
    Some(match (kind, subject) {
        ("accepted_invalid" | "internal_error" | "jsonrpc_error", "prompt") => {
            by(revision, &PROMPT_ARGUMENTS)
        }
        // A template's variable that names nothing is a resource not found.
        ("jsonrpc_error", "template") if revision == Revision::Stateless => UNKNOWN_RESOURCE_2026,
        ("jsonrpc_error", "template") => UNKNOWN_RESOURCE,
        ("accepted_invalid", "tool") => by(revision, &VALIDATE_INPUTS),
        ("output_schema", _) => by(revision, &STRUCTURED_OUTPUT),
        ("hang" | "crash", _) => REPLY,
        ("wire_schema", _) => by(revision, &WIRE_SCHEMA),
        _ => return None,
    })
}

/// A JSON-RPC request gets a response: a server that hangs on one, or drops the connection,
/// breaks this whatever else the check asks.
pub(super) const REPLY: Clause = Clause {
    level: Level::Must,
    spec: "JSON-RPC 2.0",
    section: "5 Response object",
    url: "https://www.jsonrpc.org/specification#response_object",
    text: "When a rpc call is made, the Server MUST reply with a Response, except for in the \
           case of Notifications.",
};

/// The clause check `name` tests on `revision`: the one of its main condition (a check
/// that tests several names the others where it finds them broken).
pub(super) fn of(name: &str, revision: Revision) -> Option<Clause> {
    let stateless = revision == Revision::Stateless;
    Some(match name {
        "initialize" if stateless => SERVER_INFO_2026,
        "initialize" => SERVER_INFO,
        "ping" if stateless => DISCOVER,
        "ping" => PING,
        "capabilities.deprecated" => DEPRECATED_LOGGING,
        capability if capability.starts_with("capabilities.") => {
            declared(capability.trim_start_matches("capabilities."), revision)
        }
        paging if paging.starts_with("pagination.") => by(revision, &PAGINATION),
        "tools.names" => by(revision, &TOOL_NAMES),
        "tools.input_schemas" => by(revision, &INPUT_SCHEMA),
        "tools.output_schemas" if stateless => OUTPUT_SCHEMA_2026,
        "tools.output_schemas" => OUTPUT_SCHEMA,
        "errors.unknown_tool" => by(revision, &UNKNOWN_TOOL),
        "errors.unknown_resource" if stateless => UNKNOWN_RESOURCE_2026,
        "errors.unknown_resource" => UNKNOWN_RESOURCE,
        "errors.unknown_prompt" => by(revision, &UNKNOWN_PROMPT),
        "errors.unknown_method" => METHOD_NOT_FOUND,
        "tools.structured_output" => by(revision, &STRUCTURED_OUTPUT),
        "tools.invalid_arguments" => by(revision, &VALIDATE_INPUTS),
        "discover.result" => DISCOVER_RESULT,
        "discover.unsupported_version" => UNSUPPORTED_VERSION,
        "requests.missing_metadata" => REQUEST_METADATA,
        "http.standard_headers" => STANDARD_HEADERS,
        "wire.schema" => by(revision, &WIRE_SCHEMA),
        other => return super::transport_clauses::of(other, revision),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_names_the_clause_it_tests_on_either_revision() {
        for revision in [Revision::Handshake, Revision::Stateless] {
            for name in crate::checks::CHECKS {
                assert!(of(name, revision).is_some(), "{name} on {revision:?}");
            }
        }
    }

    /// A failing entry names its ground: the clause, or a rule of ours.
    #[test]
    fn every_load_and_parity_check_names_a_rule_of_ours() {
        for name in crate::checks::LOAD_CHECKS
            .iter()
            .chain(&crate::checks::PARITY_CHECKS)
        {
            let rule = crate::rules::of_check(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(rule.spec, crate::rules::SPEC);
            assert!(rule.section.starts_with("MA-"), "{name}: {rule}");
        }
    }

    #[cfg(feature = "fuzz")]
    #[test]
    fn every_fuzz_finding_but_a_property_names_its_ground() {
        use crate::report::FindingKind;
        for version in ["2025-11-25", "2026-07-28"] {
            for kind in FindingKind::ALL {
                if kind == FindingKind::Property {
                    continue; // a property of yours is its own ground
                }
                for subject in ["tool", "template", "prompt"] {
                    let ground = of_finding(kind.as_str(), subject, version)
                        .or_else(|| crate::rules::of_finding(kind.as_str()));
                    assert!(ground.is_some(), "{kind} of a {subject} on {version}");
                }
            }
        }
    }

    #[test]
    fn the_revision_is_told_by_its_lifecycle() {
        assert_eq!(Revision::of("2025-11-25"), Revision::Handshake);
        assert_eq!(Revision::of("2024-11-05"), Revision::Handshake);
        assert_eq!(Revision::of("2026-07-28"), Revision::Stateless);
    }

    #[test]
    fn urls_point_into_the_revision_quoted() {
        for clause in [
            SERVER_INFO,
            UNKNOWN_RESOURCE_2026,
            declared("tools", Revision::Stateless),
            by(Revision::Stateless, &TOOL_NAMES),
        ] {
            let revision = clause.spec.trim_start_matches("MCP ");
            assert!(clause.url.contains(revision), "{clause}");
        }
    }
}
