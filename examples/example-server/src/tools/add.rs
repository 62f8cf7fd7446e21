//! `add`: structured output with a declared output schema.

use rmcp::{
    handler::server::wrapper::{Json, Parameters},
    tool, tool_router,
};
use serde::{Deserialize, Serialize};

use crate::ExampleServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: f64,
    /// The second addend.
    b: f64,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
struct Sum {
    /// `a + b`.
    #[serde(serialize_with = "super::whole_number::serialize")]
    sum: f64,
}

#[tool_router(router = add_router, vis = "pub(super)")]
impl ExampleServer {
    // `Json` makes rmcp declare `Sum`'s schema as the tool's outputSchema and return the value
    // as structuredContent plus the same JSON as text.
    #[tool(
        description = "Adds two numbers. Returns structured content `{\"sum\": a + b}` \
                       (declared in the output schema) and the same JSON as text."
    )]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> Json<Sum> {
        Json(Sum { sum: a + b })
    }
}
