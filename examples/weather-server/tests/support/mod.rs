//! The weather API as the tests stand it in: wiremock answers that more than one test file
//! mounts.

#![allow(dead_code)] // each test file uses part of this

use mcp_assured::wiremock::{
    Mock, MockServer, ResponseTemplate,
    matchers::{method, path, path_regex},
};
use serde_json::json;

/// `GET /weather` answers London's weather, whatever the query.
pub async fn weather_in_london(backend: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/weather"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(
                json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            ),
        )
        .mount(backend)
        .await;
}

/// The API answering every endpoint the tools call.
pub async fn every_endpoint_answers(backend: &MockServer) {
    weather_in_london(backend).await;
    Mock::given(method("GET"))
        .and(path("/forecast"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "city": "London",
            "days": [{"date": "2026-11-23", "high": 11, "low": 4, "conditions": "rain"}],
        })))
        .mount(backend)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/alerts/"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"alerts": []})))
        .mount(backend)
        .await;
}
