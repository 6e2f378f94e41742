//! A package's samples read through the C calls: sets, samples, calls,
//! every kind of value, tensors in place, tolerances resolved.

use std::mem::MaybeUninit;

use pte_c::*;
use pte_ptn::{Dtype, PtnTensor};
use pte_samples::{Call, Sample, SampleSet, Tolerance, Value};

use crate::support::{last_error, open, open_bytes, slice, text};

fn tensor(shape: Vec<u64>, fill: u8) -> PtnTensor<'static> {
    let n = shape.iter().product::<u64>() as usize * 4;
    PtnTensor::new(Dtype::F32, shape, vec![fill; n]).unwrap()
}

/// native_ptn with one set holding every kind of value and a tolerance at each level.
fn package(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("model.ptn");
    std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path).unwrap();
    let loose = Tolerance { atol: 1e-4, rtol: 0.0 };
    let set = SampleSet {
        tolerance: Some(Tolerance { atol: 1e-6, rtol: 1e-6 }),
        samples: vec![
            Sample {
                name: Some("first".into()),
                tolerance: None,
                calls: vec![
                    Call {
                        inputs: vec![Value::Tensor(tensor(vec![2, 16], 1))],
                        outputs: vec![Value::Tensor(tensor(vec![2, 8], 2))],
                        tolerance: None,
                    },
                    Call {
                        inputs: vec![
                            Value::Int(-7),
                            Value::Float(0.5),
                            Value::Bool(true),
                            Value::String("hi".into()),
                            Value::None,
                            Value::TensorList(vec![tensor(vec![3], 3), tensor(vec![1, 2], 4)]),
                        ],
                        outputs: vec![Value::Tensor(tensor(vec![2, 8], 5))],
                        tolerance: Some(loose),
                    },
                ],
            },
            Sample { name: None, tolerance: Some(Tolerance { atol: 1e-5, rtol: 0.0 }), calls: vec![Call::default()] },
        ],
        ..SampleSet::new("forward", "smoke")
    };
    pte_samples::put_set_in_file(&path, &set, false).unwrap();
    path
}

fn ok(status: PteStatus) {
    assert_eq!(status, PteStatus::Ok, "{}", last_error());
}

#[test]
fn sets_samples_calls_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = package(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    for h in [open(&path), open_bytes(&bytes).unwrap()] {
        let h = h.0 as *const PteHandle;
        let mut n = 0;
        unsafe {
            ok(pte_sample_set_count(h, &mut n));
            assert_eq!(n, 1);
            let mut set = MaybeUninit::uninit();
            ok(pte_sample_set(h, 0, set.as_mut_ptr()));
            let set = set.assume_init();
            assert_eq!((text(set.method), text(set.name), set.sample_count), ("forward".into(), "smoke".into(), 2));
            assert!(set.has_tolerance && set.tolerance == PteTolerance { atol: 1e-6, rtol: 1e-6 });

            let mut s = MaybeUninit::uninit();
            ok(pte_sample(h, 0, 0, s.as_mut_ptr()));
            let s = s.assume_init();
            assert_eq!((text(s.name), s.call_count, s.has_tolerance), ("first".into(), 2, false));
            let mut s1 = MaybeUninit::uninit();
            ok(pte_sample(h, 0, 1, s1.as_mut_ptr()));
            assert!(s1.assume_init().name.is_null());

            // tolerances resolve call, sample, set
            let mut c = MaybeUninit::uninit();
            ok(pte_call(h, 0, 0, 0, c.as_mut_ptr()));
            let c0 = c.assume_init();
            assert_eq!((c0.input_count, c0.output_count, c0.tolerance_level), (1, 1, PteToleranceLevel::Set));
            ok(pte_call(h, 0, 0, 1, c.as_mut_ptr()));
            let c1 = c.assume_init();
            assert_eq!(
                (c1.tolerance_level, c1.tolerance),
                (PteToleranceLevel::Call, PteTolerance { atol: 1e-4, rtol: 0.0 })
            );
            ok(pte_call(h, 0, 1, 0, c.as_mut_ptr()));
            assert_eq!(c.assume_init().tolerance_level, PteToleranceLevel::Sample);

            let mut v = MaybeUninit::uninit();
            ok(pte_call_input(h, 0, 0, 0, 0, v.as_mut_ptr()));
            let v0 = v.assume_init();
            assert_eq!((v0.kind, v0.tensor_count), (PteValueKind::Tensor, 1));
            let mut t = MaybeUninit::uninit();
            ok(pte_call_input_tensor(h, 0, 0, 0, 0, 0, t.as_mut_ptr()));
            let t0 = t.assume_init();
            assert_eq!(text(t0.dtype), "F32");
            assert_eq!(std::slice::from_raw_parts(t0.shape, t0.ndim), &[2, 16]);
            assert_eq!(slice(t0.data, t0.nbytes), &[1u8; 128][..]);
            let (mut base, mut len) = (std::ptr::null(), 0);
            ok(pte_bytes(h, &mut base, &mut len));
            if t0.in_file {
                assert!(t0.data as usize >= base as usize && (t0.data as usize) + t0.nbytes <= base as usize + len);
            }
            assert_eq!(pte_call_input_tensor(h, 0, 0, 0, 0, 1, t.as_mut_ptr()), PteStatus::OutOfRange);
            ok(pte_call_output_tensor(h, 0, 0, 0, 0, 0, t.as_mut_ptr()));
            assert_eq!(slice(t.assume_init().data, 64), &[2u8; 64][..]);

            let kinds: Vec<PteValue> = (0..6)
                .map(|i| {
                    ok(pte_call_input(h, 0, 0, 1, i, v.as_mut_ptr()));
                    v.assume_init()
                })
                .collect();
            assert_eq!((kinds[0].kind, kinds[0].int_value), (PteValueKind::Int, -7));
            assert_eq!((kinds[1].kind, kinds[1].float_value), (PteValueKind::Float, 0.5));
            assert_eq!((kinds[2].kind, kinds[2].bool_value), (PteValueKind::Bool, true));
            assert_eq!((kinds[3].kind, text(kinds[3].string_value)), (PteValueKind::String, "hi".into()));
            assert_eq!(kinds[4].kind, PteValueKind::None);
            assert_eq!((kinds[5].kind, kinds[5].tensor_count), (PteValueKind::TensorList, 2));
            ok(pte_call_input_tensor(h, 0, 0, 1, 5, 1, t.as_mut_ptr()));
            let listed = t.assume_init();
            assert_eq!(std::slice::from_raw_parts(listed.shape, listed.ndim), &[1, 2]);
            assert_eq!(pte_call_input_tensor(h, 0, 0, 1, 0, 0, t.as_mut_ptr()), PteStatus::OutOfRange);

            // indices past the end at every level
            assert_eq!(pte_sample_set(h, 1, MaybeUninit::uninit().as_mut_ptr()), PteStatus::OutOfRange);
            assert_eq!(pte_sample(h, 0, 2, MaybeUninit::uninit().as_mut_ptr()), PteStatus::OutOfRange);
            assert_eq!(pte_call(h, 0, 0, 2, c.as_mut_ptr()), PteStatus::OutOfRange);
            assert_eq!(pte_call_input(h, 0, 0, 0, 1, v.as_mut_ptr()), PteStatus::OutOfRange);
            assert_eq!(pte_call_output(h, 0, 0, 0, 1, v.as_mut_ptr()), PteStatus::OutOfRange);
            assert_eq!(pte_call_output(h, 0, 0, 0, 0, std::ptr::null_mut()), PteStatus::NullPointer);
        }
    }
}

#[test]
fn bundles_list_their_test_cases() {
    let h = open(&pte_testkit::corpus("bundled/model.bpte"));
    let mut n = 0;
    unsafe {
        ok(pte_sample_set_count(h.0, &mut n));
        assert_eq!(n, 1);
        let mut set = MaybeUninit::uninit();
        ok(pte_sample_set(h.0, 0, set.as_mut_ptr()));
        let set = set.assume_init();
        assert_eq!(text(set.method), "forward");
        assert_eq!(set.sample_count, 3);
    }
}

#[test]
fn a_package_without_samples_has_no_sets() {
    let h = open(&pte_testkit::corpus("native_ptn/model.ptn"));
    let mut n = 9;
    ok(unsafe { pte_sample_set_count(h.0, &mut n) });
    assert_eq!(n, 0);
}
