//! The README's library example: it is this file's [`readme_example`],
//! word for word, and it runs.

#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects, clippy::indexing_slicing, missing_docs)]

use std::error::Error;
use std::path::Path;

fn readme_example() -> Result<(), Box<dyn Error>> {
    // readme: begin
    let file = pte::open("model.pte")?; // any kind, known by its content
    let verdict = pte::Verdict::from(&file.verify(&[])?); // every rule, one verdict
    println!("{}: valid {}", file.kind(), verdict.valid);
    let options = pte::SummaryOptions { tensors: true, ..Default::default() };
    let summary = pte::Summary::read(file.bytes(), &options)?; // read in place, typed
    for t in summary.tensors(false) {
        println!("{} {} {:?} {:?}", t.storage, t.name, t.dtype, t.sizes);
    }
    let moved = pte::externalize(
        file.bytes(),
        Some("model.pte".as_ref()),
        "slim.pte".as_ref(),
        "weights.ptd".as_ref(),
        &pte::Externalize::new(pte::KeySelection::globs(&["*"])?),
    )?; // both written atomically, the input's layout kept
    println!("moved {} blobs into weights.ptd", moved.named.len());
    // readme: end
    assert!(verdict.valid);
    assert_eq!(moved.named.len(), 4);
    assert!(pte::open("slim.pte")?.verify(&[])?.is_ok());
    Ok(())
}

/// The lines between the markers above, unindented.
fn example_lines() -> Vec<String> {
    let me = include_str!("readme.rs");
    let begin = me.find("// readme: begin\n").map(|i| i + "// readme: begin\n".len()).unwrap();
    let end = me.find("    // readme: end").unwrap();
    me[begin..end].lines().map(|l| l.strip_prefix("    ").unwrap_or(l).to_string()).collect()
}

#[test]
fn the_readme_shows_this_example() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let section = &readme[readme.find("## Library in one example").unwrap()..];
    let start = section.find("```rust\n").unwrap() + "```rust\n".len();
    let block: Vec<String> =
        section[start..start + section[start..].find("```").unwrap()].lines().map(str::to_string).collect();
    assert_eq!(block, example_lines());
}

#[test]
fn the_readme_example_runs() {
    let dir = tempfile::tempdir().unwrap();
    let model = pte_testkit::corpus("xnnpack_mlp/model.pte");
    std::fs::copy(model, dir.path().join("model.pte")).unwrap();
    std::env::set_current_dir(dir.path()).unwrap();
    readme_example().unwrap();
}
