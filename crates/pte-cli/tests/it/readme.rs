//! The README's first lines are what a newcomer types first: the main job on
//! a bundled example file, then the tests. The first is run here as written
//! (through the `pte` this test built, since `cargo run` would build it
//! again), so a renamed command, flag or example file fails the build.

use std::path::Path;
use std::process::Command;

use crate::support::{stderr, stdout, PTE};

fn workspace() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The command lines of the README's first code block (indented by four).
fn first_block() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    readme
        .lines()
        .skip_while(|l| !l.starts_with("    "))
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_readme_opens_with_the_main_job_and_the_test_command() {
    let lines = first_block();
    assert_eq!(lines.len(), 2, "the README's first block: {lines:?}");
    assert!(lines[0].starts_with("cargo run --release -p pte-cli -- "), "{}", lines[0]);
    assert_eq!(lines[1], "cargo test --workspace");
}

#[test]
fn the_readme_main_job_runs_as_written() {
    let lines = first_block();
    let args: Vec<&str> = lines[0].split_once(" -- ").unwrap().1.split_whitespace().collect();
    let out = Command::new(PTE).current_dir(workspace()).args(&args).output().unwrap();
    assert!(out.status.success(), "pte {args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("forward"), "the summary names the example's method: {text}");
}
