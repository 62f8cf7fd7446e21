//! The rules of mcp-assured's own: what fails a server where no sentence of a specification
//! does. Every failing entry names its ground in [`Entry::clause`]: the sentence of a
//! specification it tests ([`Clause::spec`] is `MCP 2025-11-25`, `JSON-RPC 2.0`, …), or one
//! of these rules ([`Clause::spec`] is [`SPEC`], [`Clause::section`] the rule's id, and
//! [`Clause::text`] the reason). A server's own test (`mcp.test.*`), a property of yours and
//! a threshold you set are their own grounds, named in their entries.
//!
//! | id | what fails | why |
//! | --- | --- | --- |
//! | `MA-VALID-SERVED` | fuzz `jsonrpc_error`: a tool answers input its `inputSchema` admits with a JSON-RPC error | The schema is the tool's promise of what it serves; MCP lets a server answer its own failure with a JSON-RPC error, so no sentence is broken, but a client that sends valid arguments gets no answer. |
//! | `MA-INVALID-REFUSED` | fuzz `internal_error`: input the schema refuses is answered with an error other than -32602 or a tool error | A client tells a mistake of its own from the server's failure by -32602 (or a tool error it can show the model); -32603 or a crash-like error says the server broke. |
//! | `MA-NO-INTERNALS` | fuzz `leaked_internals`: an answer shows a stack trace or a source path of the server's | What an error shows its caller goes to a model and its user: internals help an attacker and nobody else (CWE-209). |
//! | `MA-READABLE-ANSWER` | fuzz `broken_answer`: an answer no client can read (not JSON-RPC, not UTF-8 JSON, not the method's result, an HTTP error where an answer was due) | A client refuses such an answer, or the connection ends with it. |
//! | `MA-NO-CRASH` | fuzz `crash_as_tool_error`: valid input crashed the tool, answered as a tool error by the SDK | The SDKs turn a crash into a tool error so the connection lives, but it is a bug: the model reads an error for input the tool said it takes. |
//! | `MA-TIMELY` | fuzz `slow` (a warning; strict fails it): progress kept coming, but no answer within six per-call timeouts; or no answer within one, by a tool that reports progress on other inputs, or by an open-world tool answered when sent again alone | A client gives up on a call in the end; a tool slow by design should say how long it takes or run as a task. |
//! | `MA-PARITY` | `parity.*`: a hybrid server's REST face and its MCP face answer the same call differently | A hybrid server serves one set of tools twice: a call must not succeed on one face and fail (or go unanswered) on the other, nor list different tools. |
//! | `MA-HYBRID-HONOURED` | `hybrid.*`: a hybrid server does not honour what it declares of a tool (its permissions, limits, streaming), or its faces declare it differently | A client reads a tool's permissions and limits to plan its calls, and an operator declares them to protect the server: declared but not enforced is worse than undeclared. |
//! | `MA-LOAD-MATCHED` | `load.answers_match_requests`, `load.sessions_isolated`: under many calls at once, an answer carries another request's or another session's data | Every answer must be its own request's: a mix-up under load leaks one user's data to another. |
//! | `MA-LOAD-FREED` | `load.cancellation_frees`, `load.sessions_freed`: memory kept after cancelled calls or closed sessions | What a server keeps for each call or session it no longer serves grows until it falls over. |
//! | `MA-LOAD-LIMIT` | `load.session_limit`: many sessions at once neither served nor refused clearly | A server at its limit must say so (an HTTP 429/503, a JSON-RPC error), not hang or drop connections. |
//! | `MA-LOAD-MEASURED` | a load run's `run` entry, when no call was measured | A run that sent nothing (every call in the warm-up, a plan of no calls, a server gone at once) shows nothing of how the server holds up. |
//! | `MA-PINNED` | `check --pinned FILE`'s `pinned` entry: a definition changed since `mcp-assured pin` wrote FILE | A user approves a server's tools once; a definition that changes afterwards (a "rug pull") tells the model what the user never saw. |
//! | `MA-LOAD-NO-ERRORS` | a load run (`client.load()`, `mcp-assured bench`) in which a call failed, with no error rate allowed | A load run that only measured failures would otherwise pass; allow failures with `.max_error_rate(r)` or `--max-error-rate R`. |
//!
//! [`Entry::clause`]: crate::report::Entry::clause

use crate::report::{Clause, Level};

/// [`Clause::spec`] of a rule of ours.
pub const SPEC: &str = "mcp-assured rules";

/// Where the rules are told.
const URL: &str = "https://docs.rs/mcp-assured/latest/mcp_assured/rules/index.html";

const fn rule(id: &'static str, level: Level, text: &'static str) -> Clause {
    Clause {
        level,
        spec: SPEC,
        section: id,
        url: URL,
        text,
    }
}

/// `MA-VALID-SERVED` (see the table).
pub const VALID_SERVED: Clause = rule(
    "MA-VALID-SERVED",
    Level::Must,
    "A tool serves the input its inputSchema admits: a JSON-RPC error on valid input leaves \
     the client with no answer.",
);

/// `MA-INVALID-REFUSED` (see the table).
pub const INVALID_REFUSED: Clause = rule(
    "MA-INVALID-REFUSED",
    Level::Must,
    "Input the inputSchema refuses is refused with -32602 (Invalid params) or a tool error, \
     not an error that says the server broke.",
);

/// `MA-NO-INTERNALS` (see the table).
pub const NO_INTERNALS: Clause = rule(
    "MA-NO-INTERNALS",
    Level::MustNot,
    "An answer does not show the server's stack traces or source paths (CWE-209).",
);

/// `MA-READABLE-ANSWER` (see the table).
pub const READABLE_ANSWER: Clause = rule(
    "MA-READABLE-ANSWER",
    Level::Must,
    "Every answer is a JSON-RPC response a client can read, with the method's result.",
);

/// `MA-NO-CRASH` (see the table).
pub const NO_CRASH: Clause = rule(
    "MA-NO-CRASH",
    Level::MustNot,
    "Valid input does not crash the tool, even where the SDK answers the crash as a tool \
     error.",
);

/// `MA-TIMELY` (see the table).
pub const TIMELY: Clause = rule(
    "MA-TIMELY",
    Level::Should,
    "A call is answered within six per-call timeouts, however much progress it reports.",
);

/// `MA-PARITY` (see the table).
pub const PARITY: Clause = rule(
    "MA-PARITY",
    Level::Must,
    "A hybrid server's REST and MCP faces list the same tools and answer the same call \
     alike: served on both, or refused on both.",
);

/// `MA-HYBRID-HONOURED` (see the table).
pub const HYBRID_HONOURED: Clause = rule(
    "MA-HYBRID-HONOURED",
    Level::Must,
    "A hybrid server enforces what it declares of each tool, on both faces alike: a call \
     without the tool's permissions is refused, its limits hold, its streams stream.",
);

/// `MA-LOAD-MATCHED` (see the table).
pub const LOAD_MATCHED: Clause = rule(
    "MA-LOAD-MATCHED",
    Level::Must,
    "Under many calls at once, every answer is its own request's and its own session's.",
);

/// `MA-LOAD-FREED` (see the table).
pub const LOAD_FREED: Clause = rule(
    "MA-LOAD-FREED",
    Level::MustNot,
    "A server does not keep memory for calls cancelled or sessions closed.",
);

/// `MA-LOAD-LIMIT` (see the table).
pub const LOAD_LIMIT: Clause = rule(
    "MA-LOAD-LIMIT",
    Level::Must,
    "Sessions beyond a server's limit are refused clearly (HTTP 429/503 or a JSON-RPC \
     error), never left hanging.",
);

/// `MA-LOAD-MEASURED` (see the table).
pub const LOAD_MEASURED: Clause = rule(
    "MA-LOAD-MEASURED",
    Level::Must,
    "A load run measures at least one call.",
);

/// `MA-LOAD-NO-ERRORS` (see the table).
pub const LOAD_NO_ERRORS: Clause = rule(
    "MA-LOAD-NO-ERRORS",
    Level::Must,
    "Every call of a load run succeeds, unless an error rate allows failures.",
);

#[cfg(feature = "fuzz")]
/// The rule a fuzz finding of `kind` breaks, where no clause of the specification is its
/// ground (`property`: the property of yours it names is).
pub(crate) fn of_finding(kind: &str) -> Option<Clause> {
    Some(match kind {
        "jsonrpc_error" => VALID_SERVED,
        "internal_error" | "accepted_invalid" => INVALID_REFUSED,
        "leaked_internals" => NO_INTERNALS,
        "broken_answer" => READABLE_ANSWER,
        "crash_as_tool_error" => NO_CRASH,
        "slow" => TIMELY,
        _ => return None,
    })
}

#[cfg(feature = "checks")]
/// The rule check `name` tests, where no clause of the specification is its ground.
pub(crate) fn of_check(name: &str) -> Option<Clause> {
    Some(match name {
        "load.answers_match_requests" | "load.sessions_isolated" => LOAD_MATCHED,
        "load.cancellation_frees" | "load.sessions_freed" => LOAD_FREED,
        "load.session_limit" => LOAD_LIMIT,
        parity if parity.starts_with("parity.") => PARITY,
        hybrid if hybrid.starts_with("hybrid.") => HYBRID_HONOURED,
        _ => return None,
    })
}

/// `MA-PINNED` (see the table).
pub const PINNED: Clause = rule(
    "MA-PINNED",
    Level::Must,
    "A server's definitions do not change after they were pinned: the model would read what \
     the user never approved.",
);
