//! [`McpClient::lint`]: the server's surface, as a model sees it, through [`crate::lint`].

use super::{Lint, LintReport};
use crate::{client::McpClient, diff::Surface, error::Result};

impl McpClient {
    /// Lists everything the server offers (tools, prompts, resources, templates, through
    /// every page) and lints it with every rule at its default severity: see
    /// [`mcp_assured::lint`](crate::lint).
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// let report = client.lint().await?;
    /// report.assert_clean(); // panics listing each finding that fails
    /// println!("the tools cost {} tokens a turn", report.tokens.total);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When a listing the server advertises fails.
    pub async fn lint(&self) -> Result<LintReport> {
        self.lint_with(&Lint::new()).await
    }

    /// [`lint`](Self::lint) with settings: provider profiles that fail, strictness, a
    /// token budget.
    ///
    /// ```no_run
    /// use mcp_assured::lint::{Lint, Profile};
    ///
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// let lint = Lint::new().profile(Profile::OpenAiStrict).max_surface_tokens(8_000);
    /// client.lint_with(&lint).await?.assert_clean();
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When a listing the server advertises fails.
    pub async fn lint_with(&self, lint: &Lint) -> Result<LintReport> {
        let surface = Surface::from_client(self).await?;
        Ok(lint.run(&surface))
    }
}
