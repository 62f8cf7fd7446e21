//! The one-shot commands: `check`, `list`, `call`, `read`, `prompt`, `complete`, `ping`,
//! and the shell's `completions` and `man`.

mod arguments;
pub(crate) mod call;
pub(crate) mod check;
pub(crate) mod list;
pub(crate) mod outcome;
pub(crate) mod requests;
pub(crate) mod shell;
mod target;
