//! `pte size` and `pte diff` read programs and bundles in place: under an
//! address-space limit (`ulimit -v`) that holds the mapped files and the
//! process but not a decoded program or bundle beside them. (How fast and
//! in how much resident memory: CHANGELOG.md, scripts/bench/hostile-bench.sh.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pte_file::bpte::BundledFile;
use pte_file::test_programs::{program_heavy, program_heavy_legacy_bytes, to_bytes};
use pte_schema::bundled::BundledValue;

use crate::support::{corpus_bytes, PTE};

/// Address space every run here fits in: 52 MiB at most was needed by
/// these runs, and 78 MiB at least (1.2 GiB for a diff of the programs)
/// before they read in place.
const LIMIT_KIB: u64 = 64 << 10;

/// `pte ARGS` with at most `kib` KiB of address space.
fn limited(kib: u64, args: &[&Path]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(PTE);
    cmd.args(args).output().unwrap()
}

/// What `pte ARGS` printed, run under [`LIMIT_KIB`]; it must exit `code`.
fn run(code: i32, args: &[&Path]) -> String {
    let o = limited(LIMIT_KIB, args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The inputs: 200,000 values with their constants in a segment (17.6 MB)
/// and inline (18.8 MB), and the corpus bundle's first case 60,000 times
/// (12.7 MB); each beside a copy with one stored value changed.
struct Inputs {
    _dir: tempfile::TempDir,
    heavy: [PathBuf; 2],
    legacy: [PathBuf; 2],
    cases: [PathBuf; 2],
}

fn inputs() -> Inputs {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(path(name), bytes).unwrap();
        path(name)
    };
    let heavy = write("heavy.pte", &to_bytes(&program_heavy(200_000)));
    let mut parts = program_heavy(200_000);
    parts.constants[50_000] = vec![7u8; 16].into();
    let heavy_b = write("heavy-b.pte", &to_bytes(&parts));
    let mut legacy = program_heavy_legacy_bytes(200_000);
    let legacy_a = write("legacy.pte", &legacy);
    // an inline constant: a 16-byte vector of one byte value
    let at =
        legacy.windows(20).position(|w| w[..4] == [16, 0, 0, 0] && w[4..].iter().all(|&x| x == w[4] && x > 9)).unwrap();
    legacy[at + 9] ^= 1;
    let legacy_b = write("legacy-b.pte", &legacy);
    let bundle = corpus_bytes("bundled/model.bpte");
    let bundle = BundledFile::from_bytes(&bundle).unwrap();
    let mut suites = bundle.method_test_suites.clone().unwrap();
    let case = suites[0].test_cases.as_ref().unwrap()[0].clone();
    suites[0].test_cases = Some(vec![case; 60_000]);
    let cases = write("cases.bpte", &BundledFile::new(bundle.program.clone(), suites.clone()).to_bytes().unwrap());
    let changed = &mut suites[0].test_cases.as_mut().unwrap()[30_000];
    let Some(BundledValue::Tensor(t)) = changed.inputs.as_mut().and_then(|v| v.first_mut()) else { panic!() };
    let mut data = t.data.as_deref().unwrap().to_vec();
    data[5] ^= 1;
    t.data = Some(data.into());
    let cases_b = write("cases-b.bpte", &BundledFile::new(bundle.program.clone(), suites).to_bytes().unwrap());
    Inputs { _dir: dir, heavy: [heavy, heavy_b], legacy: [legacy_a, legacy_b], cases: [cases, cases_b] }
}

#[test]
fn size_of_200k_values_and_60k_cases_fits_in_64_mib_of_address_space() {
    let i = inputs();
    let (size, json) = (Path::new("size"), Path::new("--json"));
    let text = run(0, &[size, &i.heavy[0]]);
    assert!(text.contains("\n  17600496        16    0.0%  constant  constant[100000]\n"), "{text:.400}");
    let v: serde_json::Value = serde_json::from_str(&run(0, &[size, json, &i.heavy[0]])).unwrap();
    assert_eq!(v["file_size"], 17_600_512);
    assert!(v["parts"].as_array().unwrap().len() > 100_000);
    let text = run(0, &[size, &i.legacy[0]]);
    assert!(text.contains("  constant  constant[100000]\n"), "{text:.400}");
    let text = run(0, &[size, &i.cases[0]]);
    assert!(text.contains("  test_data  forward.cases[59999].inputs[0]\n"), "{text:.400}");
}

#[test]
fn diff_of_200k_values_and_60k_cases_fits_in_64_mib_of_address_space() {
    let i = inputs();
    let diff = Path::new("diff");
    let text = run(1, &[diff, &i.heavy[0], &i.heavy[1]]);
    assert!(
        text.contains("\n[data] execution_plan[0].values[99998]: constant[50000] float32 [4]: 4 / 4 elements differ\n")
    );
    assert!(text.ends_with("\n1 difference: 0 layout, 0 program, 1 data\n"), "{text}");
    let text = run(0, &[diff, &i.heavy[0], &i.heavy[0]]);
    assert!(text.contains("bitwise equal"), "{text}");
    let text = run(1, &[diff, &i.legacy[0], &i.legacy[1]]);
    assert!(text.contains(": 1 / 4 elements differ\n") && text.ends_with(" 1 data\n"), "{text}");
    let text = run(1, &[diff, &i.cases[0], &i.cases[1]]);
    let case =
        "method_test_suites[\"forward\"].test_cases[30000].inputs[0]: tensor float32 [2, 4]: 1 / 8 elements differ";
    assert!(text.contains(&format!("\n[data] {case}\n")), "{text}");
}
