//! The binaries of the workspace's own packages, for tests that run them as processes.

use std::{
    collections::HashMap,
    path::PathBuf,
    process::Command,
    sync::{Mutex, PoisonError},
};

/// The binary `name` of workspace package `package`, built from the sources as they are.
///
/// It is built here, in a target directory of its own (`<target>/companion-test-servers`),
/// so as not to wait on the lock of the `cargo test` that runs us; `cargo build` finds it
/// up to date in a moment when nothing changed. A binary next to the test binary is not
/// used: `cargo test` builds only the binaries of packages with integration tests, so one
/// there may be left from an earlier build of older sources. (A package's own tests use
/// `CARGO_BIN_EXE_<name>` instead.)
///
/// # Panics
///
/// If it cannot be built.
pub fn workspace_binary(package: &str, name: &str) -> PathBuf {
    // Held while building, so tests of one process build each binary once, one at a time.
    static FOUND: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let found = found.get_or_insert_with(HashMap::new);
    if let Some(path) = found.get(name) {
        return path.clone();
    }
    // A test binary is `<target>/<profile>/deps/<name>-<hash>`.
    let exe = std::env::current_exe().expect("the path of the test binary");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary is in <target>/<profile>/deps");
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let target = profile_dir.parent().unwrap_or(profile_dir);
    let own = target.join("companion-test-servers");
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args(["build", "--quiet", "-p", package, "--bin", name])
        .arg("--target-dir")
        .arg(&own);
    if profile == "release" {
        cargo.arg("--release");
    }
    let status = cargo
        .status()
        .unwrap_or_else(|e| panic!("run cargo to build {name}: {e}"));
    assert!(status.success(), "building {name} failed: {status}");
    let path = own.join(profile).join(name);
    found.insert(name.to_owned(), path.clone());
    path
}
