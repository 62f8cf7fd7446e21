//! The one-shot commands: `check`, `list`, `call`.

pub(crate) mod call;
pub(crate) mod check;
pub(crate) mod list;
mod target;
