//! `weather-server`: an example MCP server whose tools call an HTTP weather API, built the
//! way larger servers are: each tool is a self-contained module exposing
//! `tool_definition()` (name, schemas, annotations), `policy()` (permissions and resource
//! limits) and `handle_call(api, args, context)`, with lifecycle hooks around it; the server
//! only lists them and runs calls through one [`policy::Runner`], the same for MCP and the
//! REST face. The weather API's answers are kept for 30 s ([`cache`]), so the same call
//! made again soon does not ask the API again.
//!
//! Its test suite (`tests/weather.rs`) runs every test in-process and as a child process over
//! stdio and streamable HTTP with `#[mcp_test]`, with a wiremock server standing in for the
//! weather API.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use rmcp::ServiceExt;
//! use weather_server::WeatherServer;
//!
//! let server = WeatherServer::new("https://weather.example.com");
//! server.serve(rmcp::transport::stdio()).await?.waiting().await?;
//! # Ok(()) }
//! ```

pub mod api;
pub mod audit;
pub mod cache;
pub mod policy;
pub mod rest;
pub mod serve;
mod server;
pub mod tools;

pub use server::WeatherServer;
