//! An LLM-style sample (prefill, then three teacher-forced decode calls)
//! written into a package, read back and verified against a small
//! deterministic stateful model written in Rust.

use pte_ptn::{Dtype, PtnFile, PtnTensor};
use pte_samples::*;

const VOCAB: usize = 8;

/// A toy language model: its state is the key/value cache (here, the tokens
/// seen so far); each call appends its tokens and returns next-token logits
/// that depend on the whole history.
#[derive(Default)]
struct TinyLm {
    cache: Vec<i64>,
}

impl TinyLm {
    fn logits(&self) -> Vec<f32> {
        let h = self
            .cache
            .iter()
            .enumerate()
            .fold(0.0f32, |acc, (pos, &t)| acc * 0.5 + (t as f32 + 1.0) * (pos as f32 + 1.0));
        (0..VOCAB).map(|v| (h * 0.1 + v as f32).sin()).collect()
    }
}

impl Runner for TinyLm {
    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
        if method != "forward" {
            return Err(format!("no method {method}").into());
        }
        let [Value::Tensor(tokens), Value::Int(start)] = inputs else {
            return Err("expected (tokens, start_pos)".into());
        };
        if *start != self.cache.len() as i64 {
            return Err(format!("start_pos {start} but the cache holds {} tokens", self.cache.len()).into());
        }
        self.cache.extend(tokens.data.chunks_exact(8).map(|b| i64::from_le_bytes(b.try_into().unwrap())));
        Ok(vec![Value::Tensor(f32s(&self.logits()))])
    }
}

fn f32s(v: &[f32]) -> PtnTensor<'static> {
    PtnTensor::new(Dtype::F32, vec![v.len() as u64], v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap()
}

fn i64s(v: &[i64]) -> PtnTensor<'static> {
    PtnTensor::new(Dtype::I64, vec![v.len() as u64], v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap()
}

/// Records a sample: prefill `prompt`, then one decode call per forced token
/// (the recorded next token, not the model's own choice).
fn record(name: &str, prompt: &[i64], forced: &[i64]) -> Sample<'static> {
    let mut model = TinyLm::default();
    let mut calls = Vec::new();
    let mut step = |tokens: &[i64], calls: &mut Vec<Call<'static>>| {
        let inputs = vec![Value::Tensor(i64s(tokens)), Value::Int(model.cache.len() as i64)];
        let outputs = model.execute("forward", &inputs).unwrap();
        calls.push(Call { inputs, outputs, tolerance: None });
    };
    step(prompt, &mut calls);
    for &t in forced {
        step(&[t], &mut calls);
    }
    Sample { name: Some(name.into()), tolerance: None, calls }
}

fn llm_set() -> SampleSet<'static> {
    SampleSet {
        method: "forward".into(),
        name: "teacher-forced".into(),
        tolerance: Some(Tolerance { atol: 1e-6, rtol: 1e-5 }),
        samples: vec![record("hello", &[1, 5, 2], &[7, 3, 6]), record("bye", &[4, 4], &[0, 1, 2])],
    }
}

fn package_with(set: &SampleSet<'_>) -> Vec<u8> {
    let bytes = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let mut ptn = PtnFile::from_bytes(&bytes).unwrap();
    assert!(write_samples(&mut ptn, std::slice::from_ref(set)).unwrap().is_empty());
    ptn.to_bytes().unwrap()
}

#[test]
fn prefill_and_teacher_forced_decode_verify() {
    let set = llm_set();
    assert_eq!(set.samples[0].calls.len(), 4);
    let bytes = package_with(&set);
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    assert_eq!(read_samples(&ptn).unwrap(), vec![set]);
    let report = verify_samples(&ptn, || Ok(TinyLm::default())).unwrap();
    assert!(report.passed(), "{report}");
    assert_eq!((report.sets, report.samples, report.calls, report.outputs), (1, 2, 8, 8));
}

#[test]
fn state_is_fresh_per_sample_and_carried_across_calls() {
    let set = llm_set();
    // A runner that keeps its state between samples breaks the second one:
    // its prefill would start at position 6.
    let shared = std::rc::Rc::new(std::cell::RefCell::new(TinyLm::default()));
    struct Shared(std::rc::Rc<std::cell::RefCell<TinyLm>>);
    impl Runner for Shared {
        fn execute(&mut self, m: &str, i: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
            self.0.borrow_mut().execute(m, i)
        }
    }
    let report = verify_sets(std::slice::from_ref(&set), || Ok(Shared(shared.clone())));
    assert_eq!(report.failures.len(), 1, "{report}");
    assert_eq!((report.failures[0].sample, report.failures[0].call), (1, Some(0)));
    assert!(matches!(report.failures[0].problem, Problem::Run(_)));
    // A model that forgot its state between calls gives wrong logits from the first decode on.
    struct Forgetful;
    impl Runner for Forgetful {
        fn execute(&mut self, m: &str, i: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
            let mut fresh = TinyLm::default();
            let Value::Int(start) = i[1] else { panic!() };
            fresh.cache = vec![0; start as usize];
            fresh.execute(m, i)
        }
    }
    let report = verify_sets(&[set], || Ok(Forgetful));
    let failed_calls: Vec<_> = report.failures.iter().map(|f| (f.sample, f.call)).collect();
    assert!(failed_calls.contains(&(0, Some(1))), "{report}");
    assert!(!failed_calls.contains(&(0, Some(0))), "prefill has no prior state to forget");
}

/// Adds `by` to logit `index` of the expected output of call `call` of
/// sample `sample`.
fn nudge_logit(set: &mut SampleSet<'_>, (sample, call): (usize, usize), index: usize, by: f32) {
    let call = &mut set.samples[sample].calls[call];
    let Value::Tensor(t) = &call.outputs[0] else { panic!() };
    let mut logits: Vec<f32> = t.data.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    logits[index] += by;
    call.outputs[0] = Value::Tensor(f32s(&logits));
}

#[test]
fn a_logit_changed_beyond_tolerance_fails_naming_the_call() {
    let mut set = llm_set();
    nudge_logit(&mut set, (0, 2), 5, 1e-3);
    let bytes = package_with(&set);
    let ptn = PtnFile::from_bytes(&bytes).unwrap();
    let report = verify_samples(&ptn, || Ok(TinyLm::default())).unwrap();
    assert_eq!(report.failures.len(), 1, "{report}");
    let f = &report.failures[0];
    assert_eq!(
        (f.method.as_str(), f.set.as_str(), f.sample, f.sample_name.as_deref(), f.call),
        ("forward", "teacher-forced", 0, Some("hello"), Some(2))
    );
    let Problem::Output { output: 0, mismatch: Mismatch::Float { index: 5, error, allowed, count: 1, .. } } =
        &f.problem
    else {
        panic!("{f}")
    };
    assert!(error > allowed);
    let text = f.to_string();
    assert!(text.contains("sample 0 (\"hello\") call 2: output 0"), "{text}");
}

#[test]
fn a_logit_changed_within_tolerance_passes() {
    let mut set = llm_set();
    nudge_logit(&mut set, (1, 3), 0, 5e-7);
    let report = verify_sets(&[set], || Ok(TinyLm::default()));
    assert!(report.passed(), "{report}");
}
