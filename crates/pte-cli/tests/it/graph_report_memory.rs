//! `pte graph` and `pte report` of a program-heavy file hold neither the
//! decoded program nor a graph the size of it: under an address-space limit
//! (`ulimit -v`) the graph is written as it is walked and the page decides
//! what it draws and lists before building anything that grows with the
//! program. (How fast and in how much resident memory: docs/performance.md.)

use std::path::Path;
use std::process::{Command, Output};

use pte_file::test_programs::{program_heavy, program_heavy_legacy_bytes, to_bytes};

/// `pte ARGS` with at most `kib` KiB of address space.
fn limited(kib: u64, args: &[&Path]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_pte"));
    cmd.args(args).output().unwrap()
}

/// The address space every run gets: the mapped file (9 MB), the process
/// and a value's producer, not a graph of 150,000 nodes with a string per
/// node and edge, nor the decoded program, as before (which needed over
/// 64 MiB for the graph and 96 MiB for the page, release build).
const KIB: u64 = 48 << 10;

fn check(name: &str, bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, bytes).unwrap();
    let run = |args: &[&Path]| {
        let o = limited(KIB, args);
        assert!(o.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let graph = Path::new("graph");
    let dot = run(&[graph, &file]);
    assert!(dot.starts_with("digraph \"forward\" {\n"), "{:.200}", dot);
    // every call is a node; each even value is a constant node of its own
    assert!(dot.contains("\n  op99999 [label=\"aten::add.out\", "));
    assert!(dot.contains("\n  v99998 [label=\"constant 50000\", shape=note"));
    assert!(dot.contains("\n  v0 -> op99999 [label=\"float32 [4]\"];\n"));
    // the output is value 0, the constant every call reads
    assert!(dot.ends_with("  v0 -> out0 [label=\"float32 [4]\"];\n}\n"));
    assert_eq!(dot.matches(" -> ").count(), 150_001);
    let mermaid = run(&[graph, Path::new("--format"), Path::new("mermaid"), &file]);
    assert!(mermaid.starts_with("flowchart TD\n"));
    assert!(mermaid.contains("\n  v99998[(\"constant 50000\")]\n"));
    assert_eq!(mermaid.matches(" -->|").count(), 150_001);
    let page = dir.path().join("report.html");
    let out = run(&[Path::new("report"), &file, Path::new("-o"), &page]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(out, format!("wrote {} ({} bytes)\n", page.display(), html.len()));
    // too many nodes to draw: counted, the first listed, the rest said
    assert!(html.contains("data-method=\"forward\" data-nodes=\"0\" data-edges=\"0\""), "{html:.2000}");
    assert!(html.contains("forward: 150,001 nodes, 150,001 edges; calls aten::add.out ×100000"));
    assert!(html.contains("… 140,001 more nodes not listed"));
    assert!(html.contains(" data-tensors=\"50000\" "));
    assert!(html.contains("… 40,000 more tensors not listed"));
    assert!(html.contains("too many to break down on this page"));
}

#[test]
fn graph_and_report_of_100k_values_fit_in_48_mib_of_address_space() {
    check("heavy.pte", &to_bytes(&program_heavy(100_000)));
}

#[test]
fn graph_and_report_of_100k_legacy_values_fit_in_48_mib_of_address_space() {
    check("heavy-legacy.pte", &program_heavy_legacy_bytes(100_000));
}
