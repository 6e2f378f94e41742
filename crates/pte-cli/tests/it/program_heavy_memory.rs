//! `pte info` of a program-heavy file reads the program in place: under an
//! address-space limit (`ulimit -v`) a few times the program's size, which a
//! decoded model (and a JSON tree of its tensor table) cannot fit in. (How
//! fast and in how much resident memory: docs/performance.md.)

use std::path::Path;
use std::process::{Command, Output};

use pte_file::test_programs::{program_heavy, to_bytes};

/// `pte ARGS` with at most `kib` KiB of address space.
fn limited(kib: u64, args: &[&Path]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_pte"));
    cmd.args(args).output().unwrap()
}

/// 100,000 values: an 8 MB program (8.8 MB file) whose decoded model and
/// summary took over 96 MiB of address space (450 MB resident with the
/// tensor table). 48 MiB holds the mapped file, the process and the output
/// being written, not a model beside them.
#[test]
fn info_of_100k_values_fits_in_48_mib_of_address_space() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("heavy.pte");
    std::fs::write(&file, to_bytes(&program_heavy(100_000))).unwrap();
    let (json, tensors) = (Path::new("--json"), Path::new("--tensors"));
    let run = |args: &[&Path]| {
        let o = limited(48 << 10, args);
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let info = Path::new("info");
    let text = run(&[info, &file]);
    assert!(text.contains("method \"forward\": 100000 values, 100000 instructions\n"), "{text:.300}");
    assert!(text.contains("\nconstants: 50001 (placeholder included), 800000 bytes\n"));
    let v: serde_json::Value = serde_json::from_str(&run(&[info, json, &file])).unwrap();
    assert_eq!(v["methods"][0]["kernel_calls"], 100_000);
    assert_eq!(v["constants"].as_array().unwrap().len(), 50_001);
    let table = run(&[info, tensors, &file]);
    assert!(table.contains("\ntensors (50000):\n"));
    assert!(
        table
            .ends_with("  constant[50000]  constant 8800496..8800512  float32  [4]    [0]        16\nverdict: valid\n"),
        "{}",
        {
            let tail = table.len().saturating_sub(200);
            &table[tail..]
        }
    );
    let v: serde_json::Value = serde_json::from_str(&run(&[info, json, tensors, &file])).unwrap();
    let rows = v["tensors"].as_array().unwrap();
    assert_eq!(rows.len(), 50_000);
    assert_eq!(rows[1]["users"], serde_json::json!([{"method": "forward", "value": 2}]));
    // the memory plan walks the same program in place
    let v: serde_json::Value = serde_json::from_str(&run(&[Path::new("memory"), json, &file])).unwrap();
    let allocator = &v["methods"][0]["method_allocator"];
    assert_eq!(allocator["parts"]["values"], 16 * 100_000);
    assert_eq!(allocator["parts"]["arguments"], 8 * 2 * 100_000);
}

/// `dump --exir` of the same program: written from the file's views with
/// exir's folding applied on the way, not through a decoded model (0.29 GB
/// resident for this program through a JSON tree, then 444 MiB for ten
/// times as many values through the model encoded again). 48 MiB, as for
/// `info`: the mapped file, the process and the output buffer.
#[test]
fn exir_dump_of_100k_values_fits_in_48_mib_of_address_space() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("heavy.pte");
    std::fs::write(&file, to_bytes(&program_heavy(100_000))).unwrap();
    let o = limited(48 << 10, &[Path::new("dump"), Path::new("--exir"), &file]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["execution_plan"][0]["values"].as_array().unwrap().len(), 100_000);
    let plain = limited(48 << 10, &[Path::new("dump"), &file]);
    let stored: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(v["execution_plan"], stored["execution_plan"]);
}
