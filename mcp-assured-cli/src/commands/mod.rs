//! The one-shot commands: `check`, `list`, `call`, and the shell's `completions` and `man`.

pub(crate) mod call;
pub(crate) mod check;
pub(crate) mod list;
pub(crate) mod outcome;
pub(crate) mod shell;
mod target;
