//! The minimum supported Rust version we state (`rust-version` in the workspace) is not below
//! what the published crates' dependencies state: a dependency update that needs a newer
//! compiler fails here, not in a user's build. (Our own code is held to it by clippy's
//! `incompatible_msrv` lint, which reads the same field; the 1.88 toolchain itself does not
//! install from the package registries CI reaches, so no build with it runs here.)

use std::{collections::BTreeSet, process::Command};

use serde_json::Value;

const PUBLISHED: [&str; 3] = ["mcp-assured-macros", "mcp-assured", "mcp-assured-cli"];

/// `1.88` and `1.88.0` alike, as `[1, 88, 0]`.
fn version(text: &str) -> [u64; 3] {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    [(); 3].map(|()| parts.next().unwrap_or(0))
}

#[test]
fn no_dependency_needs_a_newer_rust_than_we_state() {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let package = |id: &str| packages.iter().find(|p| p["id"] == id).unwrap();
    let ours: Vec<&Value> = packages
        .iter()
        .filter(|p| p["source"].is_null() && PUBLISHED.contains(&p["name"].as_str().unwrap()))
        .collect();
    assert_eq!(ours.len(), PUBLISHED.len());
    let stated = ours[0]["rust_version"]
        .as_str()
        .expect("rust-version is set");
    for crate_ in &ours {
        assert_eq!(crate_["rust_version"], stated, "{}", crate_["name"]);
    }

    // Everything the published crates build with: normal and build dependencies, not
    // dev-dependencies.
    let nodes = metadata["resolve"]["nodes"].as_array().unwrap();
    let node = |id: &str| nodes.iter().find(|n| n["id"] == id).unwrap();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = ours
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect();
    while let Some(id) = stack.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        for dep in node(&id)["deps"].as_array().unwrap() {
            let built = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|kind| kind["kind"].is_null() || kind["kind"] == "build");
            if built {
                stack.push(dep["pkg"].as_str().unwrap().to_owned());
            }
        }
    }
    let newer: Vec<String> = seen
        .iter()
        .map(|id| package(id))
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            let name = p["name"].as_str().unwrap_or_default();
            let at = p["version"].as_str().unwrap_or_default();
            (version(needs) > version(stated)).then(|| format!("{name} {at} needs {needs}"))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "we state rust-version {stated}, but these dependencies need newer: {newer:#?}"
    );
    assert!(seen.len() > 100, "only {} crates found", seen.len());
}
