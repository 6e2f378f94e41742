//! read(write(x)) == x, bit for bit: tensor bytes, value order, every value
//! kind, tolerances and multi-call samples, in memory and through a package.

use proptest::prelude::*;
use pte_ptn::{Dtype, PtnFile, PtnTensor, SUPPORTED_DTYPES};
use pte_samples::*;

const CORPUS: &str = "native_ptn/model.ptn";

fn tensor() -> impl Strategy<Value = PtnTensor<'static>> {
    (proptest::sample::select(SUPPORTED_DTYPES.to_vec()), proptest::collection::vec(0u64..4, 0..4)).prop_flat_map(
        |(dtype, shape)| {
            let numel: u64 = shape.iter().product();
            let len = usize::try_from(numel).unwrap() * dtype.bitsize() / 8;
            proptest::collection::vec(any::<u8>(), len)
                .prop_map(move |bytes| PtnTensor::new(dtype, shape.clone(), bytes).unwrap())
        },
    )
}

/// Uniform bits rarely hit the non-finite corner, so draw it explicitly.
fn float_bits() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        // Any NaN: sign, quiet bit and payload.
        (any::<bool>(), 1u64..(1 << 52))
            .prop_map(|(neg, payload)| (u64::from(neg) << 63) | 0x7ff0_0000_0000_0000 | payload),
        proptest::sample::select(vec![
            0x7ff8_0000_0000_0000,
            f64::INFINITY.to_bits(),
            f64::NEG_INFINITY.to_bits(),
            (-0.0f64).to_bits(),
            1
        ]),
    ]
}

fn value() -> impl Strategy<Value = Value<'static>> {
    prop_oneof![
        tensor().prop_map(Value::Tensor),
        any::<i64>().prop_map(Value::Int),
        // Any bit pattern: NaN payloads, signed zeros, subnormals, infinities.
        float_bits().prop_map(|b| Value::Float(f64::from_bits(b))),
        any::<bool>().prop_map(Value::Bool),
        ".{0,12}".prop_map(Value::String),
        Just(Value::None),
        proptest::collection::vec(tensor(), 0..3).prop_map(Value::TensorList),
    ]
}

fn tolerance() -> impl Strategy<Value = Option<Tolerance>> {
    proptest::option::of((0.0f64..1.0, 0.0f64..1.0).prop_map(|(atol, rtol)| Tolerance { atol, rtol }))
}

fn call() -> impl Strategy<Value = Call<'static>> {
    (proptest::collection::vec(value(), 0..4), proptest::collection::vec(value(), 0..4), tolerance())
        .prop_map(|(inputs, outputs, tolerance)| Call { inputs, outputs, tolerance })
}

fn sample() -> impl Strategy<Value = Sample<'static>> {
    (proptest::option::of(".{0,8}"), tolerance(), proptest::collection::vec(call(), 0..4))
        .prop_map(|(name, tolerance, calls)| Sample { name, tolerance, calls })
}

fn set(method: &'static str) -> impl Strategy<Value = SampleSet<'static>> {
    ("[a-zA-Z0-9_.-]{1,12}", tolerance(), proptest::collection::vec(sample(), 0..4)).prop_filter_map(
        "names must be path segments",
        move |(name, tolerance, samples)| {
            check_name(&name).ok()?;
            Some(SampleSet { method: method.to_string(), name, tolerance, samples })
        },
    )
}

fn bits(set: &SampleSet<'_>) -> Vec<u64> {
    // Equality of `Value::Float` is already bitwise; tolerances compare by
    // value, so check their bits separately.
    let mut out = Vec::new();
    let mut t = |t: &Option<Tolerance>| {
        if let Some(t) = t {
            out.extend([t.atol.to_bits(), t.rtol.to_bits()]);
        }
    };
    t(&set.tolerance);
    for s in &set.samples {
        t(&s.tolerance);
        for c in &s.calls {
            t(&c.tolerance);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_set_reads_back_as_written(set in set("forward")) {
        let enc = encode_set(&set, &SampleLimits::default()).unwrap();
        let back = parse_set(&enc.index, &enc.data, None, &SampleLimits::default()).unwrap();
        prop_assert_eq!(&back, &set);
        prop_assert_eq!(bits(&back), bits(&set));
        // Deterministic: encoding what was read gives the same bytes.
        let again = encode_set(&back, &SampleLimits::default()).unwrap();
        prop_assert_eq!(again.index, enc.index);
        prop_assert_eq!(again.data, enc.data);
    }

    #[test]
    fn sets_survive_a_package_round_trip(sets in proptest::collection::vec(set("forward"), 0..3)) {
        let mut sets = sets;
        sets.sort_by(|a, b| a.name.cmp(&b.name));
        sets.dedup_by(|a, b| a.name == b.name);
        let bytes = pte_testkit::corpus_bytes(CORPUS);
        let mut ptn = PtnFile::from_bytes(&bytes).unwrap();
        write_samples(&mut ptn, &sets).unwrap();
        prop_assert_eq!(&read_samples(&ptn).unwrap(), &sets);
        let written = ptn.to_bytes().unwrap();
        let reread = PtnFile::from_bytes(&written).unwrap();
        let back = read_samples(&reread).unwrap();
        prop_assert_eq!(&back, &sets);
        let got: Vec<u64> = back.iter().flat_map(bits).collect();
        let want: Vec<u64> = sets.iter().flat_map(bits).collect();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn a_stateful_multi_call_sample_keeps_its_order() {
    let f32s = |v: &[f32]| {
        PtnTensor::new(Dtype::F32, vec![v.len() as u64], v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
            .unwrap()
    };
    let calls = (0..5)
        .map(|i| Call {
            inputs: vec![Value::Int(i), Value::Tensor(f32s(&[i as f32]))],
            outputs: vec![
                Value::Tensor(f32s(&[i as f32 * 2.0, -0.0])),
                Value::TensorList(vec![f32s(&[]), f32s(&[f32::NAN])]),
            ],
            tolerance: (i % 2 == 0).then_some(Tolerance { atol: 1e-6, rtol: 0.0 }),
        })
        .collect();
    let set = SampleSet {
        method: "decode".into(),
        name: "steps".into(),
        tolerance: Some(DEFAULT_TOLERANCE),
        samples: vec![Sample { name: Some("greedy".into()), tolerance: None, calls }],
    };
    let enc = encode_set(&set, &SampleLimits::default()).unwrap();
    let back = parse_set(&enc.index, &enc.data, None, &SampleLimits::default()).unwrap();
    assert_eq!(back, set);
    for (i, c) in back.samples[0].calls.iter().enumerate() {
        assert_eq!(c.inputs[0], Value::Int(i as i64));
    }
}

#[test]
fn tensors_are_borrowed_from_the_package() {
    let bytes = pte_testkit::corpus_bytes(CORPUS);
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap();
    let t = PtnTensor::new(Dtype::U8, vec![4], vec![1u8, 2, 3, 4]).unwrap();
    let mut set = SampleSet::new("forward", "s");
    set.samples.push(Sample {
        calls: vec![Call { inputs: vec![Value::Tensor(t)], outputs: vec![], tolerance: None }],
        ..Default::default()
    });
    write_samples(&mut ptn, &[set]).unwrap();
    let written = ptn.to_bytes().unwrap();
    let reread = PtnFile::from_bytes(&written).unwrap();
    let sets = read_samples(&reread).unwrap();
    let Value::Tensor(t) = &sets[0].samples[0].calls[0].inputs[0] else { panic!() };
    assert!(matches!(t.data, std::borrow::Cow::Borrowed(_)));
    let range = written.as_ptr_range();
    assert!(range.contains(&t.data.as_ptr()), "tensor bytes point into the package");
}
