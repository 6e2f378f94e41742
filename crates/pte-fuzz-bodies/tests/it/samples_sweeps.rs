//! Smoke run of the samples fuzz target: a written set, every truncation
//! and every single-bit flip of it, through the target's body.

use pte_ptn::{Dtype, PtnTensor};
use pte_samples::*;

fn seed() -> (Vec<u8>, usize) {
    let t = |d: Dtype, n: u64| PtnTensor::new(d, vec![n], vec![1u8; (n as usize) * d.bitsize() / 8]).unwrap();
    let mut set = SampleSet::new("forward", "smoke");
    set.tolerance = Some(Tolerance { atol: 1e-4, rtol: 0.0 });
    set.samples.push(Sample {
        name: Some("n".into()),
        tolerance: None,
        calls: vec![Call {
            inputs: vec![
                Value::Tensor(t(Dtype::F32, 2)),
                Value::Int(-3),
                Value::Float(f64::NAN),
                Value::String("s".into()),
            ],
            outputs: vec![Value::TensorList(vec![t(Dtype::I64, 1), t(Dtype::BF16, 3)]), Value::Bool(true), Value::None],
            tolerance: Some(DEFAULT_TOLERANCE),
        }],
    });
    let enc = encode_set(&set, &SampleLimits::default()).unwrap();
    let mut input = (enc.index.len() as u32).to_le_bytes().to_vec();
    input.extend_from_slice(&enc.index);
    input.extend_from_slice(&enc.data);
    (input, enc.index.len())
}

#[test]
fn the_seed_reads_through_the_target() {
    let (input, at) = seed();
    let rest = &input[4..];
    assert!(
        parse_set(&rest[..at], &rest[at..], None, &SampleLimits::default()).is_ok(),
        "the seed must exercise the full path"
    );
    pte_fuzz_bodies::samples(&input);
}

#[test]
fn every_truncation_and_bit_flip_is_a_value_or_an_error() {
    let (input, _) = seed();
    for len in 0..input.len() {
        pte_fuzz_bodies::samples(&input[..len]);
    }
    for byte in 0..input.len() {
        for bit in 0..8 {
            let mut m = input.clone();
            m[byte] ^= 1 << bit;
            pte_fuzz_bodies::samples(&m);
        }
    }
}
