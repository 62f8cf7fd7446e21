//! The recorder fed messages as a session sends and receives them, the merge, the report's
//! tallies and the directory's errors.

use serde_json::{Value, json};

use super::{
    Coverage, CoverageError, Record, ServerCoverage, ServerId,
    recorder::{CoverageSink, Kind},
};

fn dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-coverage-unit-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn server() -> ServerId {
    ServerId {
        name: "weather".into(),
        version: "2.0.0".into(),
    }
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn answer(id: u64, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn forecast_tool() -> Value {
    json!({
        "name": "forecast",
        "inputSchema": {"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string"},
            "units": {"type": "string", "enum": ["metric", "imperial"]},
            "hourly": {"type": "boolean"},
        }},
        "outputSchema": {"type": "object", "required": ["temperature"],
            "properties": {"temperature": {"type": "number"}}},
    })
}

/// One session through the recorder: initialize, two pages of tools, calls, a prompt, a
/// read and a notification; the record written when the sink goes.
fn recorded_session(dir: &std::path::Path) -> ServerCoverage {
    let sink = CoverageSink::in_dir(dir).unwrap();
    let mut session = sink.session(None);
    session.sent(&request(0, "initialize", json!({})));
    session.received(&answer(
        0,
        json!({"serverInfo": {"name": "weather", "version": "2.0.0"}}),
    ));
    session.sent(&request(1, "tools/list", json!({})));
    session.received(&answer(
        1,
        json!({"tools": [forecast_tool()], "nextCursor": "2"}),
    ));
    assert!(sink.unlisted(&server()).contains(&Kind::Tools));
    session.sent(&request(2, "tools/list", json!({"cursor": "2"})));
    session.received(&answer(
        2,
        json!({"tools": [{"name": "alerts", "inputSchema": {}}]}),
    ));
    assert!(!sink.unlisted(&server()).contains(&Kind::Tools));
    let call = |id, arguments| {
        request(
            id,
            "tools/call",
            json!({"name": "forecast", "arguments": arguments}),
        )
    };
    session.sent(&call(
        3,
        json!({"city": "Oslo", "units": "metric", "hourly": true}),
    ));
    session.received(&answer(
        3,
        json!({"content": [], "structuredContent": {"temperature": 3}}),
    ));
    session.sent(&call(4, json!({"city": "Oslo", "extra": 1})));
    session.received(&answer(
        4,
        json!({"content": [], "structuredContent": {"temp": 3}}),
    ));
    session.sent(&call(5, json!({"city": ""})));
    session.received(&answer(5, json!({"content": [], "isError": true})));
    session.sent(&call(6, json!({"city": [1]})));
    session
        .received(&json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message": "no"}}));
    session.sent(&request(7, "prompts/get", json!({"name": "brief"})));
    session.received(&answer(7, json!({"messages": []})));
    session.sent(&request(
        8,
        "resources/read",
        json!({"uri": "weather://oslo"}),
    ));
    session.received(&answer(8, json!({"contents": []})));
    session.received(&json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {}}));
    drop(session);
    drop(sink);
    let coverage = Coverage::load(dir).unwrap();
    let servers: Vec<&ServerCoverage> = coverage.servers().collect();
    assert_eq!(servers.len(), 1);
    servers[0].clone()
}

#[test]
fn the_recorder_pairs_answers_with_requests_and_keeps_every_page() {
    let dir = dir("session");
    let coverage = recorded_session(&dir);
    assert_eq!(coverage.server, server());
    let tools = coverage.listed.tools.as_ref().unwrap();
    assert_eq!(tools.keys().collect::<Vec<_>>(), ["alerts", "forecast"]);
    assert_eq!(
        tools["forecast"].arguments["units"].values,
        [json!("metric"), json!("imperial")]
    );
    assert_eq!(
        tools["forecast"].arguments["hourly"].values,
        [json!(false), json!(true)]
    );
    assert!(tools["forecast"].arguments["city"].required);
    let forecast = &coverage.exercised.tools["forecast"];
    assert_eq!(forecast.calls, 4);
    assert_eq!(forecast.arguments["city"].present, 4);
    assert_eq!(forecast.arguments["units"].values["\"metric\""], 1);
    assert_eq!(forecast.arguments["extra"].present, 1);
    // An array is no value to count.
    assert!(!forecast.arguments["city"].values.contains_key("[1]"));
    let outcomes = &forecast.outcomes;
    assert_eq!(
        (outcomes.success, outcomes.is_error, outcomes.protocol_error),
        (2, 1, 1)
    );
    #[cfg(feature = "schema")]
    assert_eq!((forecast.output.valid, forecast.output.invalid), (1, 1));
    #[cfg(not(feature = "schema"))]
    assert_eq!(forecast.output.unchecked, 2);
    assert_eq!(coverage.exercised.prompts["brief"], 1);
    assert_eq!(coverage.exercised.resources["weather://oslo"], 1);
    assert_eq!(coverage.exercised.notifications["notifications/message"], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_report_counts_against_what_was_listed() {
    let dir = dir("report");
    let report = super::ServerReport::of(&recorded_session(&dir));
    let tally = |tally: super::Tally| (tally.covered, tally.total);
    assert_eq!(tally(report.tools), (1, 2));
    assert_eq!(tally(report.arguments), (3, 3));
    assert_eq!(tally(report.values), (2, 4));
    assert_eq!(tally(report.outcomes), (2, 4));
    assert_eq!(report.uncovered.tools, ["alerts"]);
    assert_eq!(report.unlisted.arguments[0].argument, "extra");
    // Prompts and resources were never listed: what was got is not listed either.
    assert_eq!(report.never_listed, ["prompts", "resources", "templates"]);
    assert_eq!(report.unlisted.prompts, ["brief"]);
    assert_eq!(report.unlisted.resources, ["weather://oslo"]);
    let text = report.to_string();
    assert!(text.contains("tools      1/2 (50.0%)"), "{text}");
    assert!(
        text.contains("value \"imperial\" of `forecast.units`: never sent"),
        "{text}"
    );
    assert!(
        text.contains("argument `extra` of `forecast`: sent but not in its input schema"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tool_never_called_is_one_line_of_the_table_not_one_per_argument() {
    let mut coverage = ServerCoverage::new(server());
    let tool = super::ToolSurface::from_tool(&forecast_tool());
    coverage.listed.tools = Some([("forecast".to_owned(), tool)].into());
    let report = super::ServerReport::of(&coverage);
    assert_eq!(report.uncovered.arguments.len(), 3);
    let text = report.to_string();
    assert!(text.contains("tool `forecast`: never called"), "{text}");
    assert!(!text.contains("argument `city`"), "{text}");
}

#[test]
fn a_template_is_covered_by_a_uri_it_matches() {
    let mut coverage = ServerCoverage::new(server());
    coverage.listed.resources = Some(["weather://today".to_owned()].into());
    coverage.listed.templates = Some(["weather://city/{name}".to_owned()].into());
    coverage.exercised.resources = [("weather://city/oslo".to_owned(), 2)].into();
    let report = super::ServerReport::of(&coverage);
    assert_eq!((report.templates.covered, report.templates.total), (1, 1));
    assert_eq!(report.uncovered.resources, ["weather://today"]);
    assert!(report.unlisted.resources.is_empty());
}

#[test]
fn values_outside_the_schema_are_kept_up_to_a_bound_and_listed_ones_always() {
    let dir = dir("values");
    let sink = CoverageSink::in_dir(&dir).unwrap();
    let mut session = sink.session(Some(server()));
    session.sent(&request(1, "tools/list", json!({})));
    session.received(&answer(1, json!({"tools": [forecast_tool()]})));
    for id in 0..super::MAX_VALUES as u64 + 10 {
        let arguments = json!({"city": "x", "units": format!("unit {id}")});
        session.sent(&request(
            id + 2,
            "tools/call",
            json!({"name": "forecast", "arguments": arguments}),
        ));
    }
    let arguments = json!({"units": "imperial"});
    session.sent(&request(
        999,
        "tools/call",
        json!({"name": "forecast", "arguments": arguments}),
    ));
    drop((session, sink));
    let coverage = Coverage::load(&dir).unwrap();
    let forecast = &coverage.servers().next().unwrap().exercised.tools["forecast"];
    let units = &forecast.arguments["units"].values;
    assert_eq!(units.len(), super::MAX_VALUES + 1);
    assert_eq!(units["\"imperial\""], 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_merge_the_same_in_any_grouping() {
    let mut records = Vec::new();
    for (calls, tool) in [(1, "a"), (2, "b"), (3, "a")] {
        let mut coverage = ServerCoverage::new(server());
        let listed =
            json!({"name": tool, "inputSchema": {"properties": {"x": {"type": "boolean"}}}});
        coverage.listed.tools =
            Some([(tool.to_owned(), super::ToolSurface::from_tool(&listed))].into());
        let use_ = coverage.exercised.tools.entry(tool.to_owned()).or_default();
        use_.calls = calls;
        use_.outcomes.success = calls;
        records.push(Record::new(vec![coverage]));
    }
    let whole = Coverage::from_records(records.clone()).report();
    let mut first = Coverage::from_records(records[..1].to_vec());
    for record in records[1..].iter().rev() {
        first.add(record.clone());
    }
    assert_eq!(first.report(), whole);
    let server = &whole.servers[0];
    assert_eq!(server.records, 3);
    assert_eq!(server.tool_calls[0].calls, 4);
    assert_eq!((server.tools.covered, server.tools.total), (2, 2));
}

#[test]
fn a_directory_without_records_is_an_error_that_says_how_to_record() {
    let dir = dir("empty");
    std::fs::create_dir_all(&dir).unwrap();
    let error = Coverage::load(&dir).unwrap_err();
    assert!(matches!(error, CoverageError::NoRecords { .. }));
    assert!(
        error.to_string().contains("MCP_ASSURED_COVERAGE="),
        "{error}"
    );
    std::fs::write(
        dir.join("x.coverage.json"),
        r#"{"format": "other/9", "servers": []}"#,
    )
    .unwrap();
    let error = Coverage::load(&dir).unwrap_err().to_string();
    assert!(
        error.contains("x.coverage.json") && error.contains("other/9"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_a_server_recorded_can_be_chosen() {
    let coverage = Coverage::from_records([Record::new(vec![ServerCoverage::new(server())])]);
    assert!(coverage.clone().only("weather").is_ok());
    let error = coverage.only("wether").unwrap_err().to_string();
    assert!(
        error.contains("`wether`") && error.contains("weather 2.0.0"),
        "{error}"
    );
}

#[cfg(feature = "schema")]
#[test]
fn outputs_of_calls_made_before_the_tools_were_listed_are_checked_once_they_are() {
    let dir = dir("waiting");
    let sink = CoverageSink::in_dir(&dir).unwrap();
    let mut session = sink.session(Some(server()));
    let call = |id| {
        request(
            id,
            "tools/call",
            json!({"name": "forecast", "arguments": {"city": "x"}}),
        )
    };
    session.sent(&call(1));
    session.received(&answer(
        1,
        json!({"content": [], "structuredContent": {"temperature": 1}}),
    ));
    session.sent(&call(2));
    session.received(&answer(2, json!({"content": []})));
    session.sent(&request(3, "tools/list", json!({})));
    session.received(&answer(3, json!({"tools": [forecast_tool()]})));
    drop((session, sink));
    let coverage = Coverage::load(&dir).unwrap();
    let output = &coverage.servers().next().unwrap().exercised.tools["forecast"].output;
    assert_eq!((output.valid, output.invalid, output.unchecked), (1, 1, 0));
    std::fs::remove_dir_all(&dir).unwrap();
}
