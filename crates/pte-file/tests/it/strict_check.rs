//! The checks that read in place, `PteView::read` and `BundledFile::check`,
//! refuse exactly the inputs the decoding readers refuse, with the same
//! error: on the corpus programs and bundles, every truncation of them,
//! seeded byte flips anywhere in the file, and the regression files.

use pte_file::bpte::BundledFile;
use pte_file::view::{PteView, SegmentTable};
use pte_file::PteFile;
use pte_schema::bundled::{encode_bundled_program, BundledProgram, BundledTensor, BundledValue, TestCase, TestSuite};
use pte_schema::ScalarType;

/// What an error shows: its kind and its text (message, path, offset).
fn shown(r: Result<(), pte_file::Error>) -> Option<(pte_file::ErrorKind, String)> {
    r.err().map(|e| (e.kind(), e.to_string()))
}

/// Truncations (every length of a small file, a spread of a large one) and
/// `flips` copies with one to three bytes overwritten, from a fixed seed.
fn damaged(bytes: &[u8], flips: usize, seed: u64) -> Vec<Vec<u8>> {
    let step = (bytes.len() / 2000).max(1);
    let mut out: Vec<Vec<u8>> = (0..bytes.len()).step_by(step).map(|n| bytes[..n].to_vec()).collect();
    let mut next = pte_testkit::xorshift(seed);
    for _ in 0..flips {
        let mut b = bytes.to_vec();
        for _ in 0..=next() % 3 {
            let i = (next() as usize) % b.len();
            b[i] = [0, 1, 2, 0xff, 0x7f, 0x80, next() as u8][(next() % 7) as usize];
        }
        out.push(b);
    }
    out
}

fn regressions(ext: &str) -> Vec<Vec<u8>> {
    pte_testkit::regressions()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// Counts `(read, refused)` after asserting the two readers agree on `bytes`.
fn same_pte_verdict(at: &str, bytes: &[u8], tally: &mut (usize, usize)) {
    let want = shown(PteFile::from_bytes(bytes).map(drop));
    let got = shown(PteView::read(bytes, SegmentTable::Whole).map(drop));
    assert_eq!(got, want, "{at} ({} bytes)", bytes.len());
    if want.is_some() {
        tally.1 += 1;
    } else {
        tally.0 += 1;
    }
}

fn same_bundle_verdict(at: &str, bytes: &[u8], tally: &mut (usize, usize)) {
    let want = shown(BundledFile::from_bytes(bytes).map(drop));
    let got = shown(BundledFile::check(bytes));
    assert_eq!(got, want, "{at} ({} bytes)", bytes.len());
    if want.is_some() {
        tally.1 += 1;
    } else {
        tally.0 += 1;
    }
}

#[test]
fn a_program_read_in_place_is_refused_with_the_decoders_error() {
    let mut tally = (0, 0);
    let mut inputs = vec![];
    for (name, bytes) in pte_testkit::corpus_program_bytes() {
        inputs.extend(damaged(&bytes, 400, 0x5eed ^ bytes.len() as u64).into_iter().map(|b| (name.clone(), b)));
        inputs.push((name, bytes));
    }
    inputs.extend(regressions("pte").into_iter().map(|b| ("a regression file".to_string(), b)));
    for (name, bytes) in &inputs {
        same_pte_verdict(name, bytes, &mut tally);
    }
    // both outcomes are exercised many times, or the agreement says little
    assert!(tally.0 > 500 && tally.1 > 5000, "{tally:?} (read, refused)");
}

/// The corpus bundle's program with cases of every value kind, tensors with
/// and without data and dim order, absent and empty tables.
fn varied_bundle() -> Vec<u8> {
    let program = pte_testkit::corpus_bytes("bundled/model.pte");
    let tensor = |data: Option<Vec<u8>>| {
        BundledValue::Tensor(BundledTensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(vec![1, 2]),
            data: data.map(Into::into),
            dim_order: Some(vec![0, 1]),
        })
    };
    let values = vec![
        tensor(Some(vec![0, 0, 128, 63, 0, 0, 0, 64])),
        tensor(None),
        BundledValue::Int(-7),
        BundledValue::Bool(true),
        BundledValue::Double(0.5),
        BundledValue::None,
    ];
    let cases = vec![
        TestCase { inputs: Some(values.clone()), expected_outputs: Some(values.into_iter().rev().collect()) },
        TestCase { inputs: None, expected_outputs: Some(vec![]) },
    ];
    let suites = vec![
        TestSuite { method_name: Some("forward".into()), test_cases: Some(cases) },
        TestSuite { method_name: None, test_cases: None },
    ];
    BundledFile::new(program, suites).to_bytes().unwrap()
}

#[test]
fn a_bundle_checked_in_place_is_refused_with_the_decoders_error() {
    let mut tally = (0, 0);
    let corpus = pte_testkit::corpus_bytes("bundled/model.bpte");
    let varied = varied_bundle();
    let no_program = encode_bundled_program(&BundledProgram { version: 2, ..BundledProgram::default() }).unwrap();
    let mut inputs = vec![];
    for (name, bytes) in [("the corpus bundle", &corpus), ("a bundle of every value kind", &varied)] {
        inputs.extend(damaged(bytes, 3000, 0xb47e ^ bytes.len() as u64).into_iter().map(|b| (name, b)));
        inputs.push((name, bytes.clone()));
    }
    inputs.push(("a bundle without program", no_program));
    inputs.extend(regressions("bpte").into_iter().map(|b| ("a regression file", b)));
    for (name, bytes) in &inputs {
        same_bundle_verdict(name, bytes, &mut tally);
    }
    assert!(tally.0 > 100 && tally.1 > 3000, "{tally:?} (read, refused)");
    // the checks reach past the envelope: into a case value and into the program
    let texts: Vec<String> =
        inputs.iter().filter_map(|(_, b)| BundledFile::from_bytes(b).err()).map(|e| e.to_string()).collect();
    for part in ["test_cases[", "at program"] {
        assert!(texts.iter().any(|t| t.contains(part)), "no error names {part}");
    }
}
