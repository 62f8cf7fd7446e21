//! `completion/complete`: suggestions for the greeting template's `name` and the `greet`
//! prompt's `style`.

use rmcp::model::{CompleteRequestParams, CompletionInfo, Reference};

use crate::{prompts, resources};

const NAMES: &[&str] = &["Ada", "Alan", "Grace"];

/// Candidates starting with the typed value, ignoring case; none for anything else.
pub(crate) fn complete(request: &CompleteRequestParams) -> CompletionInfo {
    let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
        (Reference::Resource(template), "name") if template.uri == resources::GREETING_TEMPLATE => {
            NAMES
        }
        (Reference::Prompt(prompt), "style") if prompt.name == prompts::GREET => prompts::STYLES,
        _ => &[],
    };
    let typed = request.argument.value.to_lowercase();
    let values = candidates
        .iter()
        .filter(|candidate| candidate.to_lowercase().starts_with(&typed))
        .map(|candidate| candidate.to_string())
        .collect();
    CompletionInfo::with_all_values(values).expect("a few fixed candidates fit in one response")
}
