//! Bundled test cases through the samples API, and back.

use pte_file::bpte::BundledFile;
use pte_samples::*;

fn corpus(case: &str, file: &str) -> Vec<u8> {
    pte_testkit::corpus_bytes(&format!("{case}/{file}"))
}

#[test]
fn the_corpus_cases_are_one_call_samples_with_the_runtime_defaults() {
    let bytes = corpus("bundled", "model.bpte");
    let bundle = BundledFile::from_bytes(&bytes).unwrap();
    let sets = bundled_sets(&bundle, None).unwrap();
    assert_eq!(sets.len(), 1);
    let set = &sets[0];
    assert_eq!(set.tolerance, Some(Tolerance { atol: 1e-8, rtol: 1e-5 }));
    assert_eq!(set.samples.len(), 3);
    for s in &set.samples {
        assert_eq!(s.calls.len(), 1);
        let Value::Tensor(x) = &s.calls[0].inputs[0] else { panic!() };
        let Value::Tensor(y) = &s.calls[0].outputs[0] else { panic!() };
        assert_eq!((x.shape.as_slice(), y.shape.as_slice()), (&[2, 4][..], &[2, 3][..]));
        assert!(matches!(x.data, std::borrow::Cow::Borrowed(_)));
    }
    let loose = bundled_sets(&bundle, Some(Tolerance { atol: 0.1, rtol: 0.0 })).unwrap();
    assert_eq!(loose[0].tolerance.unwrap().atol, 0.1);
    // The sidecar form reads back equal, and converts back to the same bundle.
    let enc = encode_set(set, &SampleLimits::default()).unwrap();
    let back = parse_set(&enc.index, &enc.data, None, &SampleLimits::default()).unwrap();
    assert_eq!(&back, set);
    let rebuilt = bundle_from_sets(bundle.program.clone(), &[back]).unwrap();
    assert_eq!(rebuilt, bundle);
    // Expected outputs compared against themselves pass; a change fails.
    let mut actual = std::collections::BTreeMap::new();
    for (si, s) in set.samples.iter().enumerate() {
        let Value::Tensor(y) = &s.calls[0].outputs[0] else { panic!() };
        actual.insert(format!("{si}.0.out.0"), y.clone());
    }
    assert!(check_actual(&sets, &actual).passed());
}

#[test]
fn only_single_calls_of_bpte_kinds_convert() {
    let pte = corpus("linear", "model.pte");
    let mut set = SampleSet::new("forward", "s");
    set.samples.push(Sample {
        calls: vec![Call { inputs: vec![Value::String("x".into())], outputs: vec![], tolerance: None }],
        ..Default::default()
    });
    let e = bundle_from_sets(pte.clone(), &[set]).unwrap_err();
    assert_eq!(e.rule(), SampleRule::InvalidUse);
    assert!(e.path().ends_with("calls[0].inputs[0]"), "{}", e.path());
    let mut multi = SampleSet::new("forward", "s");
    multi.samples.push(Sample { calls: vec![Call::default(); 3], ..Default::default() });
    let e = bundle_from_sets(pte.clone(), &[multi]).unwrap_err();
    assert!(e.message().contains("3 calls cannot be expressed"), "{e}");
    // Two sets of one method merge into one suite, in order.
    let one = |v: i64| {
        let mut s = SampleSet::new("forward", format!("s{v}"));
        s.samples.push(Sample {
            calls: vec![Call { inputs: vec![Value::Int(v)], outputs: vec![], tolerance: None }],
            ..Default::default()
        });
        s
    };
    let b = bundle_from_sets(pte, &[one(1), one(2)]).unwrap();
    assert_eq!(b.suites().len(), 1);
    assert_eq!(b.suites()[0].test_cases.as_ref().unwrap().len(), 2);
}
