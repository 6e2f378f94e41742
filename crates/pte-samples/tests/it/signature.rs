//! Recorded calls are checked against the signature of the method they call.

use pte_ptn::{Dtype, PtnFile, PtnTensor};
use pte_samples::*;

const CORPUS: &str = "native_ptn/model.ptn";

fn tensor(dtype: Dtype, shape: Vec<u64>) -> Value<'static> {
    let mut t = PtnTensor { dtype, shape, data: std::borrow::Cow::Owned(vec![]) };
    t.data = std::borrow::Cow::Owned(vec![0u8; t.expected_len().unwrap() as usize]);
    Value::Tensor(t)
}

fn set_with(inputs: Vec<Value<'static>>, outputs: Vec<Value<'static>>) -> SampleSet<'static> {
    let mut set = SampleSet::new("forward", "s");
    set.samples.push(Sample { calls: vec![Call { inputs, outputs, tolerance: None }], ..Default::default() });
    set
}

/// The corpus method declares x: F32 [2, 16] and returns F32 [2, 8].
fn problems(set: &SampleSet<'_>) -> Vec<Error> {
    let bytes = pte_testkit::corpus_bytes(CORPUS);
    let program = PtnFile::from_bytes(&bytes).unwrap().native_program(&Default::default()).unwrap();
    check_signature(&program, set)
}

#[test]
fn a_call_matching_the_signature_passes() {
    let ok = set_with(vec![tensor(Dtype::F32, vec![2, 16])], vec![tensor(Dtype::F32, vec![2, 8])]);
    assert!(problems(&ok).is_empty());
}

#[test]
fn count_dtype_rank_and_static_sizes_are_each_a_signature_error() {
    let out = || vec![tensor(Dtype::F32, vec![2, 8])];
    let cases = [
        ("count", set_with(vec![], out()), "0 inputs recorded"),
        ("dtype", set_with(vec![tensor(Dtype::F16, vec![2, 16])], out()), "dtype F16"),
        ("rank", set_with(vec![tensor(Dtype::F32, vec![32])], out()), "rank 1"),
        ("size", set_with(vec![tensor(Dtype::F32, vec![1, 16])], out()), "dimension 0 is 1"),
        ("scalar", set_with(vec![Value::Int(3)], out()), "a int where the method declares a tensor"),
        ("outputs", set_with(vec![tensor(Dtype::F32, vec![2, 16])], vec![]), "0 outputs recorded"),
    ];
    for (what, set, expect) in cases {
        let found = problems(&set);
        assert_eq!(found.len(), 1, "{what}: {found:?}");
        let e = &found[0];
        assert_eq!(e.rule(), SampleRule::Signature, "{what}");
        assert_eq!(e.rule().verifier_rule(), "ptn.samples.signature");
        assert!(e.message().contains(expect), "{what}: {e}");
        assert!(e.path().starts_with("samples/forward/s/index.json:samples[0].calls[0]."), "{what}: {}", e.path());
    }
}

#[test]
fn check_sidecar_reports_a_stored_set_that_contradicts_the_signature() {
    let bytes = pte_testkit::corpus_bytes(CORPUS);
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap();
    let wrong = set_with(vec![tensor(Dtype::F32, vec![1, 16])], vec![tensor(Dtype::F32, vec![1, 8])]);
    put_set(&mut ptn, &wrong, false).unwrap();
    let again = ptn.to_bytes().unwrap();
    let found = check_sidecar(&PtnFile::from_bytes(&again).unwrap());
    assert_eq!(found.iter().filter(|e| e.rule() == SampleRule::Signature).count(), 2, "{found:?}");
}
