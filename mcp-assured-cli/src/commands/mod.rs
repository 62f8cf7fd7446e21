//! The one-shot commands: `check`, `list`, `call`, `read`, `prompt`, `complete`, `ping`,
//! `snapshot`, `fuzz`, and the shell's `completions` and `man`.

mod arguments;
pub(crate) mod call;
pub(crate) mod check;
pub(crate) mod fuzz;
pub(crate) mod list;
pub(crate) mod outcome;
pub(crate) mod requests;
pub(crate) mod shell;
pub(crate) mod snapshot;
mod target;
