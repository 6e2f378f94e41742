//! The `structured` target: the fuzzer's bytes drive `pte-gen`'s generator
//! of valid programs.

use pte_file::PteFile;

use pte_gen::generate_from;

/// Builds a program from `data`, writes it, and checks that the file passes
/// `pte verify` under default limits, reads back as the aggregate that was
/// written (segments included), and rewrites to the same bytes.
///
/// ```
/// pte_fuzz_bodies::structured(b"any bytes at all");
/// pte_fuzz_bodies::structured(&[]);
/// ```
pub fn structured(data: &[u8]) {
    let mut u = arbitrary::Unstructured::new(data);
    let g = match generate_from(&mut u) {
        Ok(g) => g,
        Err(e) => panic!("the generator failed: {e}"),
    };
    let bytes = match g.to_bytes() {
        Ok(b) => b,
        Err(e) => panic!("a generated program does not write: {e}"),
    };
    let report = pte_verify::verify_bytes(&bytes, &Default::default());
    if let Some(v) = report.violations.iter().chain(&report.warnings).next() {
        panic!("a generated program fails verification: {v}");
    }
    let back = match PteFile::from_bytes(&bytes) {
        Ok(p) => p,
        Err(e) => panic!("a generated program does not read: {e}"),
    };
    if back != g.file {
        panic!("the program read back differs from the one written");
    }
    let again = match back.to_bytes(&g.options) {
        Ok(b) => b,
        Err(e) => panic!("a program read back does not rewrite: {e}"),
    };
    if again != bytes {
        panic!("rewriting a generated program changed its bytes");
    }
}
