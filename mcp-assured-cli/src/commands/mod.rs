//! The one-shot commands: `check`, `list`, `call`, `read`, `prompt`, `complete`, `ping`,
//! `snapshot`, `diff`, `coverage`, `fuzz`, `bench`, `relay` (the stdio face of an MCP double), `record` (a proxy
//! that records a session), and the shell's `completions` and `man`.

mod arguments;
pub(crate) mod bench;
pub(crate) mod call;
pub(crate) mod check;
pub(crate) mod coverage;
pub(crate) mod diff;
pub(crate) mod fuzz;
mod html;
pub(crate) mod lint;
pub(crate) mod list;
pub(crate) mod outcome;
pub(crate) mod pin;
pub(crate) mod progress;
pub(crate) mod record;
pub(crate) mod relay;
pub(crate) mod replay;
pub(crate) mod requests;
mod sarif;
pub(crate) mod shell;
pub(crate) mod snapshot;
mod stdout;
mod target;
