//! Prompts: `greet` (one user message) and `code_review` (a user and an assistant message).

use rmcp::{
    handler::server::wrapper::Parameters,
    model::{PromptMessage, Role},
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
    fn code_review(&self, Parameters(args): Parameters<CodeReviewArgs>) -> Vec<PromptMessage> {
        let language = args.language.unwrap_or_default();
        let request = match language.as_str() {
            "" => "Please review this code:".to_owned(),
            language => format!("Please review this {language} code:"),
        };
        vec![
            PromptMessage::new_text(
                Role::User,
                format!("{request}\n\n```{language}\n{}\n```", args.code),
            ),
            PromptMessage::new_text(
                Role::Assistant,
                "I will review the code for correctness, readability and style.",
            ),
        ]
    }
}
