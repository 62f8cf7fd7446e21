//! Prompts: `greet` (one user message) and `code_review` (a user and an assistant message,
//! described for the language asked).

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{GetPromptResult, PromptMessage, Role},
    prompt, prompt_router,
};
use serde::Deserialize;

use crate::ExampleServer;

pub(crate) const GREET: &str = "greet";
/// The values of `greet`'s `style`, offered as completions.
pub(crate) const STYLES: &[&str] = &["formal", "casual"];

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct GreetArgs {
    /// Who to greet.
    name: String,
    /// `formal` or `casual` (the default).
    style: Option<Style>,
}

#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Style {
    Formal,
    #[default]
    Casual,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CodeReviewArgs {
    /// The code to review.
    code: String,
    /// The code's language, e.g. `rust`.
    language: Option<String>,
}

#[prompt_router(vis = "pub(crate)")]
impl ExampleServer {
    /// Returns one user message: "Please greet <name> in a <style> style."
    #[prompt(name = "greet")]
    fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> Vec<PromptMessage> {
        let style = match args.style.unwrap_or_default() {
            Style::Formal => "formal",
            Style::Casual => "casual",
        };
        vec![PromptMessage::new_text(
            Role::User,
            format!("Please greet {} in a {style} style.", args.name),
        )]
    }

    /// Returns a user message asking for a review of `code`, and the assistant's first reply.
    #[prompt(name = "code_review")]
    fn code_review(&self, Parameters(args): Parameters<CodeReviewArgs>) -> GetPromptResult {
        let language = args.language.unwrap_or_default();
        let (request, description) = match language.as_str() {
            "" => (
                "Please review this code:".to_owned(),
                "A review of a piece of code".to_owned(),
            ),
            language => (
                format!("Please review this {language} code:"),
                format!("A review of a piece of {language} code"),
            ),
        };
        // A description of its own, for the language asked (`greet` gives none).
        GetPromptResult::new(vec![
            PromptMessage::new_text(
                Role::User,
                format!("{request}\n\n```{language}\n{}\n```", args.code),
            ),
            PromptMessage::new_text(
                Role::Assistant,
                "I will review the code for correctness, readability and style.",
            ),
        ])
        .with_description(description)
    }
}
