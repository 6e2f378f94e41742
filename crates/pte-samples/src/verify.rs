//! Replaying recorded calls through a runtime and checking its outputs.

use std::collections::BTreeMap;
use std::fmt;

use pte_ptn::{Dtype, PtnFile, PtnTensor};

use crate::compare::{compare, Mismatch};
use crate::model::{SampleSet, Tolerance, Value};
use crate::tolerance::resolve_at;
use crate::Result;

/// What a runtime reports when it cannot run a call.
pub type RunError = Box<dyn std::error::Error + Send + Sync>;

/// What [`Runner::execute`] returns.
pub type RunResult<T> = std::result::Result<T, RunError>;

/// A runtime that executes methods: the one thing verification needs.
/// A runner holds one program instance's state; [`verify_samples`] asks for
/// a fresh runner for every sample, so state carries across the calls of a
/// sample and never across samples.
///
/// ```
/// use pte_samples::*;
/// struct Echo;
/// impl Runner for Echo {
///     fn execute(&mut self, _method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
///         Ok(inputs.iter().cloned().map(Value::into_owned).collect())
///     }
/// }
/// let mut set = SampleSet::new("forward", "echo");
/// set.samples.push(Sample { calls: vec![Call { inputs: vec![Value::Int(4)], outputs: vec![Value::Int(4)], tolerance: None }], ..Default::default() });
/// let report = verify_sets(&[set], || Ok(Echo));
/// assert!(report.passed() && report.calls == 1);
/// ```
pub trait Runner {
    /// Runs `method` with `inputs` on the current state, returning its outputs.
    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>>;
}

/// The outcome of a verification.
///
/// ```
/// let r = pte_samples::Report::default();
/// assert!(r.passed());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Sets checked.
    pub sets: usize,
    /// Samples checked.
    pub samples: usize,
    /// Calls run (or, for [`check_actual`], calls whose outputs were compared).
    pub calls: usize,
    /// Outputs compared.
    pub outputs: usize,
    /// Outputs that could not be compared ([`check_actual`] only: string
    /// and none outputs have no tensor form).
    pub skipped: usize,
    /// Every failure, in execution order.
    pub failures: Vec<Failure>,
}

impl Report {
    /// Whether nothing failed.
    ///
    /// ```
    /// assert!(pte_samples::Report::default().passed());
    /// ```
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for failure in &self.failures {
            writeln!(f, "FAIL {failure}")?;
        }
        write!(
            f,
            "{} set(s), {} sample(s), {} call(s), {} output(s) compared, {} skipped: {}",
            self.sets,
            self.samples,
            self.calls,
            self.outputs,
            self.skipped,
            if self.passed() { "all passed".to_string() } else { format!("{} failure(s)", self.failures.len()) }
        )
    }
}

/// One failed check, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The set's method.
    pub method: String,
    /// The set's name.
    pub set: String,
    /// Sample index in the set.
    pub sample: usize,
    /// The sample's name, if it has one.
    pub sample_name: Option<String>,
    /// Call index in the sample (`None` when the runner could not be created).
    pub call: Option<usize>,
    /// The tolerance the call was checked with.
    pub tolerance: Tolerance,
    /// What went wrong.
    pub problem: Problem,
}

/// What went wrong in a [`Failure`].
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// A fresh runner could not be created.
    Setup(String),
    /// The runner failed the call (the rest of the sample is skipped: its
    /// state is unknown).
    Run(String),
    /// The call returned a different number of outputs.
    OutputCount {
        /// Recorded count.
        expected: usize,
        /// Returned count.
        actual: usize,
    },
    /// Output `output` does not match.
    Output {
        /// Output index.
        output: usize,
        /// How.
        mismatch: Mismatch,
    },
    /// [`check_actual`]: no actual tensor is stored for this output.
    MissingActual {
        /// Output index.
        output: usize,
        /// The keys looked up.
        key: String,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{} sample {}", self.method, self.set, self.sample)?;
        if let Some(n) = &self.sample_name {
            write!(f, " ({n:?})")?;
        }
        if let Some(c) = self.call {
            write!(f, " call {c}")?;
        }
        match &self.problem {
            Problem::Setup(e) => write!(f, ": could not create a runner: {e}"),
            Problem::Run(e) => write!(f, ": the call failed: {e}"),
            Problem::OutputCount { expected, actual } => write!(f, ": {actual} outputs returned, {expected} recorded"),
            Problem::Output { output, mismatch } => {
                write!(f, ": output {output}: {mismatch} (atol {} rtol {})", self.tolerance.atol, self.tolerance.rtol)
            }
            Problem::MissingActual { output, key } => write!(f, ": output {output}: no actual tensor under {key}"),
        }
    }
}

/// Reads a package's samples and verifies every set with runners from
/// `new_runner` (one per sample).
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// struct Never;
/// impl pte_samples::Runner for Never {
///     fn execute(&mut self, _: &str, _: &[pte_samples::Value<'_>]) -> pte_samples::RunResult<Vec<pte_samples::Value<'static>>> { Err("no".into()) }
/// }
/// assert_eq!(pte_samples::verify_samples(&ptn, || Ok(Never))?.sets, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_samples<R: Runner>(package: &PtnFile<'_>, new_runner: impl FnMut() -> RunResult<R>) -> Result<Report> {
    let sets = crate::read_samples(package)?;
    Ok(verify_sets(&sets, new_runner))
}

/// Verifies sets: each sample's calls run in order on one fresh runner, every
/// output compared with the call's resolved tolerance.
///
/// ```
/// let report = pte_samples::verify_sets::<NoRunner>(&[], || Err("unused".into()));
/// assert_eq!(report.sets, 0);
/// # struct NoRunner;
/// # impl pte_samples::Runner for NoRunner {
/// #     fn execute(&mut self, _: &str, _: &[pte_samples::Value<'_>]) -> pte_samples::RunResult<Vec<pte_samples::Value<'static>>> { Ok(vec![]) }
/// # }
/// ```
pub fn verify_sets<R: Runner>(sets: &[SampleSet<'_>], mut new_runner: impl FnMut() -> RunResult<R>) -> Report {
    let mut report = Report { sets: sets.len(), ..Report::default() };
    for set in sets {
        for (si, sample) in set.samples.iter().enumerate() {
            report.samples = report.samples.saturating_add(1);
            let fail = |call: Option<usize>, tolerance: Tolerance, problem: Problem| Failure {
                method: set.method.clone(),
                set: set.name.clone(),
                sample: si,
                sample_name: sample.name.clone(),
                call,
                tolerance,
                problem,
            };
            let mut runner = match new_runner() {
                Ok(r) => r,
                Err(e) => {
                    report.failures.push(fail(None, crate::DEFAULT_TOLERANCE, Problem::Setup(e.to_string())));
                    continue;
                }
            };
            for (ci, call) in sample.calls.iter().enumerate() {
                let (tol, _) = resolve_at(set, sample, call, si, ci);
                report.calls = report.calls.saturating_add(1);
                let actual = match runner.execute(&set.method, &call.inputs) {
                    Ok(out) => out,
                    Err(e) => {
                        report.failures.push(fail(Some(ci), tol, Problem::Run(e.to_string())));
                        break;
                    }
                };
                if actual.len() != call.outputs.len() {
                    report.failures.push(fail(
                        Some(ci),
                        tol,
                        Problem::OutputCount { expected: call.outputs.len(), actual: actual.len() },
                    ));
                    continue;
                }
                for (oi, (e, a)) in call.outputs.iter().zip(&actual).enumerate() {
                    report.outputs = report.outputs.saturating_add(1);
                    if let Err(mismatch) = compare(e, a, tol) {
                        report.failures.push(fail(Some(ci), tol, Problem::Output { output: oi, mismatch }));
                    }
                }
            }
        }
    }
    report
}

/// Compares recorded outputs with actual outputs produced elsewhere (a
/// runtime outside Rust) and stored as tensors under the recorded keys:
/// `<method>/<set>/<key>` is looked up first, then the bare `<key>`. A
/// scalar output's actual value is a 0-dimensional tensor (`I64` for an
/// int, `F64` or `F32` for a float, `BOOL` for a bool); string and none
/// outputs are counted as skipped.
///
/// ```
/// use std::collections::BTreeMap;
/// use pte_samples::*;
/// let mut set = SampleSet::new("f", "s");
/// set.samples.push(Sample { calls: vec![Call { inputs: vec![], outputs: vec![Value::Int(3)], tolerance: None }], ..Default::default() });
/// let mut actual = BTreeMap::new();
/// actual.insert("0.0.out.0".to_string(), pte_ptn::PtnTensor::new(pte_ptn::Dtype::I64, vec![], 3i64.to_le_bytes().to_vec())?);
/// assert!(check_actual(&[set.clone()], &actual).passed());
/// actual.clear();
/// assert!(!check_actual(&[set], &actual).passed());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_actual(sets: &[SampleSet<'_>], actual: &BTreeMap<String, PtnTensor<'_>>) -> Report {
    let mut report = Report { sets: sets.len(), ..Report::default() };
    for set in sets {
        for (si, sample) in set.samples.iter().enumerate() {
            report.samples = report.samples.saturating_add(1);
            for (ci, call) in sample.calls.iter().enumerate() {
                let (tol, _) = resolve_at(set, sample, call, si, ci);
                report.calls = report.calls.saturating_add(1);
                for (oi, expected) in call.outputs.iter().enumerate() {
                    let key = format!("{si}.{ci}.out.{oi}");
                    let scoped = format!("{}/{}/{key}", set.method, set.name);
                    let fail = |problem: Problem| Failure {
                        method: set.method.clone(),
                        set: set.name.clone(),
                        sample: si,
                        sample_name: sample.name.clone(),
                        call: Some(ci),
                        tolerance: tol,
                        problem,
                    };
                    if matches!(expected, Value::String(_) | Value::None) {
                        report.skipped = report.skipped.saturating_add(1);
                        continue;
                    }
                    let got = match expected {
                        Value::TensorList(items) => (0..items.len())
                            .map(|j| lookup(actual, &format!("{scoped}.{j}"), &format!("{key}.{j}")).cloned())
                            .collect::<Option<Vec<_>>>()
                            .map(Value::TensorList),
                        _ => lookup(actual, &scoped, &key).map(|t| as_value(expected, t)),
                    };
                    report.outputs = report.outputs.saturating_add(1);
                    let Some(got) = got else {
                        report
                            .failures
                            .push(fail(Problem::MissingActual { output: oi, key: format!("{scoped} or {key}") }));
                        continue;
                    };
                    if let Err(mismatch) = compare(expected, &got, tol) {
                        report.failures.push(fail(Problem::Output { output: oi, mismatch }));
                    }
                }
            }
        }
    }
    report
}

fn lookup<'m, 'a>(actual: &'m BTreeMap<String, PtnTensor<'a>>, scoped: &str, bare: &str) -> Option<&'m PtnTensor<'a>> {
    actual.get(scoped).or_else(|| actual.get(bare))
}

/// An actual tensor in the form of the expected value (a 0-d tensor becomes
/// the scalar it holds, when the expected value is one).
fn as_value<'a>(expected: &Value<'_>, t: &PtnTensor<'a>) -> Value<'a> {
    let scalar = t.shape.is_empty();
    let bytes: &[u8] = &t.data;
    let le8 = || {
        let mut b = [0u8; 8];
        for (o, x) in b.iter_mut().zip(bytes) {
            *o = *x;
        }
        b
    };
    match (expected, t.dtype) {
        (Value::Int(_), Dtype::I64) if scalar => Value::Int(i64::from_le_bytes(le8())),
        (Value::Float(_), Dtype::F64) if scalar => Value::Float(f64::from_le_bytes(le8())),
        (Value::Float(_), Dtype::F32) if scalar => {
            let b = le8();
            Value::Float(f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        }
        (Value::Bool(_), Dtype::BOOL) if scalar => Value::Bool(bytes.first().is_some_and(|b| *b != 0)),
        _ => Value::Tensor(t.clone()),
    }
}
