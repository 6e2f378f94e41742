//! `.bpte` bundled programs: the corpus bundle, round trips with the
//! schema's alignments, and the case-against-method rules.

use proptest::prelude::*;
use pte_file::bpte::BundledFile;
use pte_schema::bundled::*;
use pte_schema::ScalarType;
use pte_verify::verify_bpte_bytes;

fn corpus(case: &str, file: &str) -> Vec<u8> {
    pte_testkit::corpus_bytes(&format!("{case}/{file}"))
}

fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

#[test]
fn the_corpus_bundle_embeds_the_plain_program_and_verifies() {
    let bytes = corpus("bundled", "model.bpte");
    let b = BundledFile::from_bytes(&bytes).unwrap();
    assert_eq!(&b.program[..], &corpus("bundled", "model.pte")[..]);
    assert_eq!(b.pte().unwrap(), pte_file::PteFile::from_bytes(&corpus("bundled", "model.pte")).unwrap());
    assert!(matches!(b.program, std::borrow::Cow::Borrowed(_)), "zero-copy");
    let cases = b.suites()[0].test_cases.as_ref().unwrap();
    assert_eq!(cases.len(), 3);
    for c in cases {
        let [BundledValue::Tensor(x)] = c.inputs.as_deref().unwrap() else { panic!() };
        let [BundledValue::Tensor(y)] = c.expected_outputs.as_deref().unwrap() else { panic!() };
        assert_eq!((x.scalar_type, x.sizes.as_deref()), (ScalarType::FLOAT, Some(&[2, 4][..])));
        assert_eq!((y.scalar_type, y.sizes.as_deref()), (ScalarType::FLOAT, Some(&[2, 3][..])));
    }
    let report = verify_bpte_bytes(&bytes, &Default::default());
    assert!(report.is_ok() && report.warnings.is_empty(), "{report:?}");
}

fn tensor() -> impl Strategy<Value = BundledTensor<'static>> {
    (
        prop_oneof![Just(ScalarType::FLOAT), Just(ScalarType::LONG), Just(ScalarType::BOOL), Just(ScalarType(99))],
        proptest::collection::vec(0i32..4, 0..3),
        proptest::option::of(proptest::collection::vec(any::<u8>(), 0..40)),
    )
        .prop_map(|(scalar_type, sizes, data)| BundledTensor {
            scalar_type,
            dim_order: Some((0..sizes.len() as u8).collect()),
            sizes: Some(sizes),
            data: data.map(Into::into),
        })
}

fn value() -> impl Strategy<Value = BundledValue<'static>> {
    prop_oneof![
        tensor().prop_map(BundledValue::Tensor),
        any::<i64>().prop_map(BundledValue::Int),
        any::<bool>().prop_map(BundledValue::Bool),
        any::<u64>().prop_map(|b| BundledValue::Double(f64::from_bits(b))),
        Just(BundledValue::None),
    ]
}

fn suites() -> impl Strategy<Value = Option<Vec<TestSuite<'static>>>> {
    let case = (
        proptest::option::of(proptest::collection::vec(value(), 0..3)),
        proptest::option::of(proptest::collection::vec(value(), 0..3)),
    )
        .prop_map(|(inputs, expected_outputs)| TestCase { inputs, expected_outputs });
    let suite = (proptest::option::of("[a-z]{0,8}"), proptest::option::of(proptest::collection::vec(case, 0..3)))
        .prop_map(|(method_name, test_cases)| TestSuite { method_name, test_cases });
    proptest::option::of(proptest::collection::vec(suite, 0..3))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn read_of_write_is_identity_with_aligned_program_and_tensor_data(version in any::<u32>(), suites in suites(), program_case in 0usize..3) {
        let case = ["linear", "add", "xnnpack_mlp"][program_case];
        let b = BundledFile { version, program: corpus(case, "model.pte").into(), method_test_suites: suites };
        let bytes = b.to_bytes().unwrap();
        let back = BundledFile::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&back, &b);
        prop_assert_eq!(offset_in(&bytes, &back.program) % 32, 0);
        for s in back.suites() {
            for c in s.test_cases.iter().flatten() {
                for v in c.inputs.iter().chain(c.expected_outputs.iter()).flatten() {
                    if let BundledValue::Tensor(BundledTensor { data: Some(d), .. }) = v {
                        prop_assert_eq!(offset_in(&bytes, d) % 16, 0);
                    }
                }
            }
        }
        prop_assert_eq!(back.to_bytes().unwrap(), bytes);
    }
}

/// The corpus bundle with one case changed.
fn mutated(change: impl FnOnce(&mut TestSuite<'static>)) -> Vec<u8> {
    let bytes = corpus("bundled", "model.bpte");
    let mut b = BundledFile::from_bytes(&bytes).unwrap().into_owned();
    change(&mut b.method_test_suites.as_mut().unwrap()[0]);
    b.to_bytes().unwrap()
}

fn violation(bytes: &[u8]) -> (String, String) {
    let r = verify_bpte_bytes(bytes, &Default::default());
    assert!(!r.is_ok(), "expected a violation");
    (r.violations[0].rule.to_string(), r.violations[0].path.clone())
}

fn first_case<'s>(s: &'s mut TestSuite<'static>) -> &'s mut TestCase<'static> {
    &mut s.test_cases.as_mut().unwrap()[1]
}

#[test]
fn mismatched_cases_are_reported_with_suite_case_and_value() {
    let count = mutated(|s| first_case(s).inputs.as_mut().unwrap().clear());
    assert_eq!(violation(&count), ("bpte.case_count".into(), "method_test_suites[0].test_cases[1].inputs".into()));
    let extra = mutated(|s| first_case(s).expected_outputs.as_mut().unwrap().push(BundledValue::Int(1)));
    assert_eq!(violation(&extra).0, "bpte.case_count");
    let dtype = mutated(|s| {
        let BundledValue::Tensor(t) = &mut first_case(s).inputs.as_mut().unwrap()[0] else { panic!() };
        t.scalar_type = ScalarType::DOUBLE;
    });
    assert_eq!(violation(&dtype), ("bpte.tensor".into(), "method_test_suites[0].test_cases[1].inputs[0]".into()));
    let shape = mutated(|s| {
        let BundledValue::Tensor(t) = &mut first_case(s).expected_outputs.as_mut().unwrap()[0] else { panic!() };
        t.sizes = Some(vec![3, 2]);
    });
    assert_eq!(
        violation(&shape),
        ("bpte.tensor".into(), "method_test_suites[0].test_cases[1].expected_outputs[0]".into())
    );
    let short = mutated(|s| {
        let BundledValue::Tensor(t) = &mut first_case(s).inputs.as_mut().unwrap()[0] else { panic!() };
        t.data = Some(vec![0u8; 4].into());
    });
    assert_eq!(violation(&short).0, "bpte.tensor");
    let kind = mutated(|s| first_case(s).inputs.as_mut().unwrap()[0] = BundledValue::Double(1.0));
    assert_eq!(violation(&kind), ("bpte.value_kind".into(), "method_test_suites[0].test_cases[1].inputs[0]".into()));
    let none = mutated(|s| first_case(s).inputs.as_mut().unwrap()[0] = BundledValue::None);
    assert_eq!(violation(&none).0, "bpte.value_kind");
    let method = mutated(|s| s.method_name = Some("backward".into()));
    assert_eq!(violation(&method), ("bpte.suite_method".into(), "method_test_suites[0].method_name".into()));
}

#[test]
fn a_bad_embedded_program_is_reported_inside_the_bundle() {
    let mut pte = corpus("bundled", "model.pte");
    pte[4] = b'X';
    let b = BundledFile { version: 2, program: pte.into(), method_test_suites: None };
    let bytes = b.to_bytes().unwrap();
    let r = verify_bpte_bytes(&bytes, &Default::default());
    assert!(!r.is_ok());
    assert!(r.violations[0].path.starts_with("program"), "{:?}", r.violations);
    assert!(BundledFile::from_bytes(&bytes).unwrap_err().path().starts_with("program"));
    assert!(verify_bpte_bytes(b"\x08\0\0\0BP07xxxx", &Default::default()).breaks("bpte.structure"));
}

/// Truncations and bit flips of the corpus bundle: what still reads writes
/// back and reads equal (the `bpte` fuzz body runs on the same inputs in
/// pte-fuzz-bodies' `file_sweeps`).
#[test]
fn truncations_and_bit_flips_never_panic() {
    let bytes = corpus("bundled", "model.bpte");
    for len in 0..bytes.len() {
        let _ = BundledFile::from_bytes(&bytes[..len]);
    }
    for i in 0..bytes.len().min(4096) {
        let mut m = bytes.clone();
        m[i] ^= 1 << (i % 8);
        if let Ok(b) = BundledFile::from_bytes(&m) {
            let again = b.to_bytes().unwrap();
            assert_eq!(BundledFile::from_bytes(&again).unwrap(), b);
        }
    }
}

#[test]
fn misplaced_programs_and_missing_programs_are_reported() {
    use pte_oracle::bundled::{encode, schema};
    let pte = corpus("linear", "model.pte");
    let mut fired = (false, false);
    for pad in 0..16 {
        let b = schema::BundledProgram {
            version: 2,
            method_test_suites: Some(vec![schema::BundledMethodTestSuite {
                method_name: Some("x".repeat(pad)),
                test_cases: None,
            }]),
            program: Some(pte.clone()),
        };
        let bytes = encode(&b);
        let decoded = decode_bundled_program(&bytes, &Default::default()).unwrap();
        let off = offset_in(&bytes, decoded.program.as_deref().unwrap());
        let r = verify_bpte_bytes(&bytes, &Default::default());
        if !off.is_multiple_of(16) {
            assert!(r.violations.iter().any(|v| v.rule == "bpte.alignment" && v.offset == Some(off as u64)), "{r:?}");
            fired.0 = true;
        } else if !off.is_multiple_of(32) {
            assert!(r.warnings.iter().any(|v| v.rule == "bpte.alignment"), "{r:?}");
            fired.1 = true;
        }
    }
    assert!(fired.0, "no padding produced a misaligned program");
    let none = encode(&schema::BundledProgram { version: 2, method_test_suites: None, program: None });
    assert!(verify_bpte_bytes(&none, &Default::default()).breaks("bpte.program"));
    assert_eq!(BundledFile::from_bytes(&none).unwrap_err().path(), "program");
}

/// docs/verifier.md is generated from the catalogues (pte-cli checks it),
/// so a rule in the bundle catalogue is a documented rule.
#[test]
fn every_bpte_rule_is_in_the_bundle_catalogue() {
    use pte_verify::rules::BPTE;
    let names: Vec<&str> = BPTE.rules.iter().map(|r| r.name()).collect();
    assert_eq!(
        names,
        [
            "bpte.structure",
            "bpte.program",
            "bpte.alignment",
            "bpte.suite_method",
            "bpte.case_count",
            "bpte.value_kind",
            "bpte.tensor"
        ]
    );
}
