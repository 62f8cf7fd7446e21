//! The weather API's answers kept for a short time (`--cache-ttl`, 30 s by default;
//! `WeatherServer::with_cache`): the same call made again within it does not ask the API
//! again, on either face; other arguments do; an error answer is never kept; after the time
//! to live, or with a time to live of 0, the API is asked again. A wiremock server stands in
//! for the API and counts what it received.

mod support;

use std::time::Duration;

use mcp_assured::{
    McpAssured, McpClient,
    fixture::ServerProcess,
    mcp_test,
    prelude::*,
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path, query_param},
    },
};
use serde_json::{Value, json};
use support::weather_in_london;
use weather_server::{WeatherServer, cache::AnswerCache};

/// The time to live of the server that lets answers expire.
const SHORT_TTL: Duration = Duration::from_millis(200);

/// What the API received, as `path?query`, in order.
async fn received(backend: &MockServer) -> Vec<String> {
    backend
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|request| {
            let query = request.url.query().unwrap_or_default();
            format!("{}?{query}", request.url.path())
        })
        .collect()
}

/// Calls `current_weather` with `args`, which must succeed; its structured content.
async fn weather(client: &McpClient, args: Value) -> Value {
    let result = client.call_tool("current_weather", args).await.unwrap();
    result.assert().is_success();
    result
        .structured_content
        .clone()
        .expect("structured content")
}

#[mcp_test(
    server = [service(WeatherServer::new(backend.uri())), bin("weather-server")],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
mod by_default {
    use super::*;

    #[mcp_test]
    async fn the_same_call_again_asks_the_api_once(client: McpClient, backend: &MockServer) {
        Mock::given(method("GET"))
            .and(path("/weather"))
            .and(query_param("city", "London"))
            .respond_with(ResponseTemplate::new(200).set_body_json(
                json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            ))
            .expect(1)
            .mount(backend)
            .await;
        let first = weather(&client, json!({"city": "London"})).await;
        let again = weather(&client, json!({"city": "London"})).await;
        assert_eq!(first, again);
        assert_eq!(first["temperature"], 15);
        assert_eq!(
            received(backend).await,
            ["/weather?city=London&units=metric"]
        );
    }

    #[mcp_test]
    async fn other_arguments_ask_the_api_again(client: McpClient, backend: &MockServer) {
        weather_in_london(backend).await;
        weather(&client, json!({"city": "London"})).await;
        weather(&client, json!({"city": "Oslo"})).await;
        let imperial = weather(&client, json!({"city": "London", "units": "imperial"})).await;
        assert_eq!(imperial["units"], "imperial");
        // Each of the three again: all from the cache.
        weather(&client, json!({"city": "London", "units": "metric"})).await;
        weather(&client, json!({"city": "Oslo"})).await;
        weather(&client, json!({"city": "London", "units": "imperial"})).await;
        assert_eq!(
            received(backend).await,
            [
                "/weather?city=London&units=metric",
                "/weather?city=Oslo&units=metric",
                "/weather?city=London&units=imperial",
            ]
        );
    }

    #[mcp_test]
    async fn an_error_answer_is_not_kept(client: McpClient, backend: &MockServer) {
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(503).set_body_string("maintenance"))
            .up_to_n_times(1)
            .with_priority(1)
            .mount(backend)
            .await;
        weather_in_london(backend).await;
        client
            .call_tool("current_weather", json!({"city": "London"}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_contains("answered 503");
        weather(&client, json!({"city": "London"})).await;
        weather(&client, json!({"city": "London"})).await;
        assert_eq!(
            received(backend).await.len(),
            2,
            "the 503, then one 200 kept"
        );
    }
}

#[mcp_test(
    server = [
        service(WeatherServer::new(backend.uri()).with_cache(AnswerCache::new(SHORT_TTL, 16))),
        bin("weather-server"),
    ],
    transport = [stdio, http(args("--port", "{port}"))],
    env(WEATHER_API_URL = "{backend}", WEATHER_CACHE_TTL = "200ms"),
    timeout = "30s",
)]
async fn after_the_time_to_live_the_api_is_asked_again(client: McpClient, backend: &MockServer) {
    weather_in_london(backend).await;
    weather(&client, json!({"city": "London"})).await;
    assert_eq!(received(backend).await.len(), 1);
    tokio::time::sleep(SHORT_TTL + Duration::from_millis(50)).await;
    weather(&client, json!({"city": "London"})).await;
    assert_eq!(received(backend).await.len(), 2);
}

#[mcp_test(
    server = [
        service(WeatherServer::new(backend.uri()).with_cache(AnswerCache::off())),
        bin("weather-server"),
    ],
    transport = [stdio, http(args("--port", "{port}"))],
    args("--cache-ttl", "0"),
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
async fn a_time_to_live_of_0_asks_the_api_every_time(client: McpClient, backend: &MockServer) {
    weather_in_london(backend).await;
    for _ in 0..3 {
        weather(&client, json!({"city": "London"})).await;
    }
    assert_eq!(received(backend).await.len(), 3);
}

/// One cache behind both faces: a call over MCP, then the same over REST (and from another
/// MCP session), asks the API once.
#[mcp_test(
    server = bin("weather-server"),
    transport = http(args("--port", "{port}", "--rest")),
    env(WEATHER_API_URL = "{backend}"),
    timeout = "30s",
)]
async fn both_faces_share_the_answers(
    client: McpClient,
    server: &ServerProcess,
    backend: &MockServer,
) {
    weather_in_london(backend).await;
    let base = format!("http://127.0.0.1:{}", server.port().unwrap());
    let over_mcp = weather(&client, json!({"city": "London"})).await;
    let rest = McpAssured::rest().base_uri(&base).build().unwrap();
    let over_rest = rest
        .execute("current_weather", json!({"city": "London"}))
        .await
        .unwrap();
    over_rest.assert().is_success();
    assert_eq!(over_rest.result, Some(over_mcp.clone()));
    let other_session = McpAssured::client()
        .base_uri(format!("{base}/mcp"))
        .build()
        .await
        .unwrap();
    assert_eq!(
        weather(&other_session, json!({"city": "London"})).await,
        over_mcp
    );
    assert_eq!(received(backend).await.len(), 1);
}
