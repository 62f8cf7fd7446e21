//! The breaking-change diff on surfaces of real servers: the example server (rmcp, with
//! every MCP feature, one page or many) and the weather server (rmcp, tools only), listed
//! live, stored as JSON or as snapshot files, and changed as a next version would.

use mcp_assured::{
    McpAssured, McpClient,
    diff::{self, ChangeKind, Item, Severity, Surface},
    snapshot::{Snapshot, redact},
};
use mcp_assured_examples::ExampleServer;
use serde_json::{Value, json};
use weather_server::WeatherServer;

async fn example(server: ExampleServer) -> McpClient {
    McpAssured::client()
        .service(server)
        .build()
        .await
        .expect("the example server connects")
}

async fn surface_of(client: &McpClient) -> Surface {
    Surface::from_client(client)
        .await
        .expect("the server lists everything")
}

/// The example server's surface, stored as JSON and read back, as a file of it would be.
async fn stored_example() -> Surface {
    let client = example(ExampleServer::new()).await;
    let surface = surface_of(&client).await;
    client.close().await.unwrap();
    let text = serde_json::to_string_pretty(&surface).unwrap();
    Surface::from_json(serde_json::from_str(&text).unwrap()).unwrap()
}

#[tokio::test]
async fn the_example_servers_surface_has_no_changes_from_itself_paged_or_not() {
    let stored = stored_example().await;
    assert!(stored.tool("weather").is_some());
    assert!(!stored.resources.is_empty());
    assert!(!stored.resource_templates.is_empty());
    assert!(!stored.prompts.is_empty());
    assert!(stored.capabilities.is_some());
    // Who the server said it is, in `initialize`, kept through the file.
    let server = stored.server.as_ref().expect("the server's name");
    assert_eq!(server.name, "mcp-assured-example");
    assert_eq!(server.version.as_deref(), Some(env!("CARGO_PKG_VERSION")));
    assert_eq!(
        server.instructions.as_deref(),
        Some("Example server for mcp-assured tests.")
    );

    // Tools in pages of two: followed to the end, the same surface.
    let paged = example(ExampleServer::new().with_page_size(2)).await;
    let live = surface_of(&paged).await;
    paged.close().await.unwrap();
    assert_eq!(live.tools.len(), stored.tools.len());
    let changes = diff::compare(&stored, &live);
    assert!(changes.is_empty(), "{changes}");
}

#[tokio::test]
async fn a_next_version_without_a_tool_or_with_a_required_argument_is_breaking() {
    let client = example(ExampleServer::new()).await;
    let live = surface_of(&client).await;
    client.close().await.unwrap();

    let mut without_echo = stored_example().await;
    without_echo.tools.retain(|tool| tool["name"] != "echo");
    let changes = diff::compare(&live, &without_echo);
    assert_eq!(changes.len(), 1, "{changes}");
    assert_eq!(changes[0].kind, ChangeKind::ToolRemoved);
    assert_eq!(changes[0].severity, Severity::Breaking);
    assert_eq!(
        (changes[0].location.item, changes[0].location.name.as_str()),
        (Item::Tool, "echo")
    );
    // The other way round, the tool is new: compatible.
    let back = diff::compare(&without_echo, &live);
    assert!(!back.is_breaking(), "{back}");
    assert_eq!(back[0].kind, ChangeKind::ToolAdded);

    let mut needs_units = stored_example().await;
    let schema = &mut needs_units.tool_mut("weather").unwrap()["inputSchema"];
    schema["properties"]["units"] = json!({"type": "string", "enum": ["C", "F"]});
    schema["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("units"));
    let changes = diff::compare(&live, &needs_units);
    assert!(changes.is_breaking(), "{changes}");
    let added: Vec<_> = changes.of_kind(ChangeKind::RequiredArgumentAdded).collect();
    assert_eq!(added.len(), 1, "{changes}");
    assert_eq!(
        added[0].location.pointer, "/inputSchema/properties/units",
        "{changes}"
    );
    assert_eq!(
        added[0].to_string(),
        "tool `weather` at /inputSchema/properties/units: required argument `units` added: \
         clients that do not send it are refused"
    );
}

#[tokio::test]
async fn a_tool_the_server_adds_during_the_session_is_a_compatible_change() {
    let client = example(ExampleServer::new()).await;
    let before = surface_of(&client).await;
    client.call_tool("add_tool", json!({})).await.unwrap();
    let after = surface_of(&client).await;
    client.close().await.unwrap();
    let changes = diff::compare(&before, &after);
    assert_eq!(changes.len(), 1, "{changes}");
    assert_eq!(changes[0].kind, ChangeKind::ToolAdded);
    assert_eq!(changes[0].location.name, "extra");
    assert!(!changes.is_breaking());
}

#[tokio::test]
async fn lists_a_server_does_not_offer_are_empty_and_dropping_them_is_breaking() {
    let client = McpAssured::client()
        .service(WeatherServer::new("http://127.0.0.1:9"))
        .build()
        .await
        .unwrap();
    let weather = surface_of(&client).await;
    client.close().await.unwrap();
    assert!(!weather.tools.is_empty());
    assert!(weather.resources.is_empty() && weather.resource_templates.is_empty());
    assert!(weather.prompts.is_empty());

    // From the example server to the weather server: its prompts and resources, and the
    // capabilities that offered them, are gone.
    let changes = diff::compare(&stored_example().await, &weather);
    let dropped: Vec<&str> = changes
        .of_kind(ChangeKind::CapabilityRemoved)
        .map(|change| change.location.pointer.as_str())
        .collect();
    for capability in ["/prompts", "/resources"] {
        assert!(dropped.contains(&capability), "{changes}");
    }
    assert!(changes.of_kind(ChangeKind::PromptRemoved).count() > 0);
    assert!(changes.of_kind(ChangeKind::ResourceRemoved).count() > 0);
    let removed = [
        ChangeKind::ToolRemoved,
        ChangeKind::ResourceRemoved,
        ChangeKind::ResourceTemplateRemoved,
        ChangeKind::PromptRemoved,
        ChangeKind::CapabilityRemoved,
    ];
    assert!(
        changes
            .iter()
            .filter(|change| removed.contains(&change.kind))
            .all(|change| change.severity == Severity::Breaking),
        "{changes}"
    );
}

/// The snapshot files `mcp-assured snapshot` writes, for the example server's lists.
fn write_snapshots(dir: &std::path::Path, lists: [(&str, Value); 4]) {
    std::fs::create_dir_all(dir).unwrap();
    for (list, value) in lists {
        let text = format!(
            "---\nsource: mcp-assured snapshot\nexpression: {list}\n---\n{}\n",
            serde_json::to_string_pretty(&redact(value)).unwrap()
        );
        std::fs::write(dir.join(format!("example__{list}.snap")), text).unwrap();
    }
}

#[tokio::test]
async fn snapshot_files_compare_with_the_live_server_redacted() {
    let client = example(ExampleServer::new()).await;
    let lists = [
        ("tools", client.list_tools().await.unwrap().snapshot_json()),
        (
            "resources",
            client.list_resources().await.unwrap().snapshot_json(),
        ),
        (
            "resource_templates",
            client
                .list_resource_templates()
                .await
                .unwrap()
                .snapshot_json(),
        ),
        (
            "prompts",
            client.list_prompts().await.unwrap().snapshot_json(),
        ),
    ];
    let live = surface_of(&client).await;
    client.close().await.unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-assured-diff-test-{}", std::process::id()));
    write_snapshots(&dir, lists);

    let snapshot = Surface::from_snapshot(&dir, "example").unwrap();
    let from_file = Surface::from_path(dir.join("example__tools.snap")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(snapshot, from_file);
    // Snapshots do not know the capabilities: they are not compared.
    assert_eq!(snapshot.capabilities, None);
    let changes = diff::compare(&snapshot, &live.redacted());
    assert!(changes.is_empty(), "{changes}");
}

/// A recorded session is a side too: what it listed, every page, with the capabilities of
/// its `initialize`; one that never listed what its server advertises is refused.
#[tokio::test]
async fn a_cassette_of_a_session_that_listed_everything_is_a_surface() {
    let dir = std::env::temp_dir().join(format!("mcp-assured-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let everything = dir.join("listed-everything.json");
    let client = McpAssured::client()
        .service(ExampleServer::new().with_page_size(2))
        .record_to(&everything)
        .build()
        .await
        .unwrap();
    let live = surface_of(&client).await;
    client.close().await.unwrap();
    let recorded = Surface::from_path(&everything).unwrap();
    assert_eq!(recorded.tools.len(), live.tools.len());
    assert_eq!(recorded.server, live.server, "the cassette's serverInfo");
    assert_eq!(recorded.server_name(), Some("mcp-assured-example"));
    let changes = diff::compare(&recorded, &live);
    assert!(changes.is_empty(), "{changes}");

    let tools_only = dir.join("listed-tools.json");
    let client = McpAssured::client()
        .service(ExampleServer::new())
        .record_to(&tools_only)
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    client.close().await.unwrap();
    let refused = Surface::from_path(&tools_only).unwrap_err().to_string();
    assert!(
        refused.contains("never listed resources/list, resources/templates/list, prompts/list"),
        "{refused}"
    );
}
