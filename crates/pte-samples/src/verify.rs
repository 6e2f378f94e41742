//! Replaying recorded calls through a runtime and checking its outputs.

use std::collections::BTreeMap;

use pte_ptn::{Dtype, PtnFile, PtnTensor};

use crate::compare::{compare, error_stats};
use crate::model::{Call, Sample, SampleSet, Tolerance, Value};
use crate::report::{CallResult, CheckReport, Failure, Problem};
use crate::tolerance::{resolve_at, Level};
use crate::Result;

/// What a runtime reports when it cannot run a call.
pub type RunError = Box<dyn std::error::Error + Send + Sync>;

/// What [`Runner::execute`] returns.
pub type RunResult<T> = std::result::Result<T, RunError>;

/// A runtime holding one program instance's state: the one thing
/// [`verify_sets`] needs. It asks for a fresh runner for every sample, so
/// state carries across the calls of a sample and never across samples.
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

/// A runtime that starts fresh states itself: a process serving the
/// `pte-runner` protocol ([`ProcessRunner`](crate::ProcessRunner)), a
/// binding to a runtime in another language. [`check`] calls
/// [`fresh`](Engine::fresh) before each sample.
///
/// ```
/// use pte_samples::*;
/// /// A running sum: each call adds its input to the state and returns it.
/// #[derive(Default)]
/// struct Sum(i64);
/// impl Engine for Sum {
///     fn fresh(&mut self) -> RunResult<()> { self.0 = 0; Ok(()) }
///     fn execute(&mut self, _: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
///         let Some(Value::Int(x)) = inputs.first() else { return Err("want one int".into()) };
///         self.0 += x;
///         Ok(vec![Value::Int(self.0)])
///     }
/// }
/// let call = |x, sum| Call { inputs: vec![Value::Int(x)], outputs: vec![Value::Int(sum)], tolerance: None };
/// let mut set = SampleSet::new("forward", "sums");
/// set.samples.push(Sample { calls: vec![call(1, 1), call(2, 3)], ..Default::default() });
/// set.samples.push(Sample { calls: vec![call(5, 5)], ..Default::default() });
/// assert!(check(&[set], &mut Sum::default()).passed());
/// ```
pub trait Engine {
    /// Drops all state: the next call runs on the method exactly as freshly
    /// loaded.
    fn fresh(&mut self) -> RunResult<()>;

    /// Runs `method` once with `inputs` on the current state, returning its
    /// outputs; the state it leaves is the next call's.
    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>>;

    /// Told before each call what it recorded: an engine that reads outputs
    /// from elsewhere (a [`ProcessRunner`](crate::ProcessRunner)) refuses a
    /// reply declaring more than these need before reading it. Nothing by
    /// default.
    fn expect_outputs(&mut self, _recorded: &[Value<'_>]) {}

    /// The methods the engine can run, when it knows them: sets for any other
    /// method are refused before anything runs.
    fn methods(&mut self) -> RunResult<Option<Vec<String>>> {
        Ok(None)
    }

    /// The engine's name and version, for reports.
    fn name(&self) -> Option<String> {
        None
    }
}

/// An [`Engine`] made of a [`Runner`] factory: a fresh state is a new runner.
struct Factory<R, F> {
    make: F,
    current: Option<R>,
}

impl<R: Runner, F: FnMut() -> RunResult<R>> Engine for Factory<R, F> {
    fn fresh(&mut self) -> RunResult<()> {
        self.current = None;
        self.current = Some((self.make)()?);
        Ok(())
    }

    fn execute(&mut self, method: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
        match &mut self.current {
            Some(r) => r.execute(method, inputs),
            None => Err("no fresh state was started".into()),
        }
    }
}

/// Reads a package's samples and verifies every set with runners from
/// `new_runner` (one per sample).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// struct Never;
/// impl pte_samples::Runner for Never {
///     fn execute(&mut self, _: &str, _: &[pte_samples::Value<'_>]) -> pte_samples::RunResult<Vec<pte_samples::Value<'static>>> { Err("no".into()) }
/// }
/// assert_eq!(pte_samples::verify_samples(&ptn, || Ok(Never))?.sets, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_samples<R: Runner>(
    package: &PtnFile<'_>,
    new_runner: impl FnMut() -> RunResult<R>,
) -> Result<CheckReport> {
    let sets = crate::read_samples(package)?;
    Ok(verify_sets(&sets, new_runner))
}

/// Verifies sets with a new runner from `new_runner` for each sample: the
/// [`check`] of a [`Runner`] factory.
///
/// ```
/// let report = pte_samples::verify_sets::<NoRunner>(&[], || Err("unused".into()));
/// assert_eq!(report.sets, 0);
/// # struct NoRunner;
/// # impl pte_samples::Runner for NoRunner {
/// #     fn execute(&mut self, _: &str, _: &[pte_samples::Value<'_>]) -> pte_samples::RunResult<Vec<pte_samples::Value<'static>>> { Ok(vec![]) }
/// # }
/// ```
pub fn verify_sets<R: Runner>(sets: &[SampleSet<'_>], new_runner: impl FnMut() -> RunResult<R>) -> CheckReport {
    check(sets, &mut Factory { make: new_runner, current: None })
}

/// Replays every sample through `engine`: a fresh state per sample, its calls
/// in order, every output compared with the call's resolved tolerance.
///
/// The check ends at the first sign that the engine cannot be used (it lacks
/// a set's method, fails to start a fresh state or to run a call, or answers
/// with outputs of another count, kind, dtype or shape than recorded): what
/// follows would be judged on an unknown state. Numeric mismatches do not end
/// it. A 0-d tensor where an int, float or bool was recorded is taken as that
/// scalar (runtimes return scalars as tensors).
///
/// ```
/// use pte_samples::*;
/// struct Broken;
/// impl Engine for Broken {
///     fn fresh(&mut self) -> RunResult<()> { Err("cannot load".into()) }
///     fn execute(&mut self, _: &str, _: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> { unreachable!() }
/// }
/// let mut set = SampleSet::new("forward", "s");
/// set.samples.push(Sample { calls: vec![Call::default()], ..Default::default() });
/// let report = check(&[set], &mut Broken);
/// assert_eq!(report.verdict(), Outcome::RunnerFailed);
/// ```
pub fn check(sets: &[SampleSet<'_>], engine: &mut dyn Engine) -> CheckReport {
    let mut report = CheckReport { sets: sets.len(), runner: engine.name(), ..CheckReport::default() };
    let _ = run_all(sets, engine, &mut report);
    report
}

/// Where the check stands, for failures.
struct Place<'s> {
    set: &'s SampleSet<'s>,
    si: usize,
    sample: &'s Sample<'s>,
}

impl Place<'_> {
    fn failure(&self, call: Option<usize>, (tolerance, level): (Tolerance, Level), problem: Problem) -> Failure {
        Failure {
            method: self.set.method.clone(),
            set: self.set.name.clone(),
            sample: self.si,
            sample_name: self.sample.name.clone(),
            call,
            tolerance,
            level,
            problem,
        }
    }
}

/// Runs every sample; `Err(())` once the engine proved unusable (the failure
/// is in the report).
fn run_all(sets: &[SampleSet<'_>], engine: &mut dyn Engine, report: &mut CheckReport) -> std::result::Result<(), ()> {
    let known = match engine.methods() {
        Ok(m) => m,
        Err(e) => {
            let set = sets.first().map_or(("", ""), |s| (s.method.as_str(), s.name.as_str()));
            report.failures.push(setup_failure(set.0, set.1, e.to_string()));
            return Err(());
        }
    };
    if let Some(known) = known {
        for set in sets {
            if !known.contains(&set.method) {
                let why = format!("the runner has no method {:?} (it has {})", set.method, listed(&known));
                report.failures.push(setup_failure(&set.method, &set.name, why));
                return Err(());
            }
        }
    }
    for set in sets {
        for (si, sample) in set.samples.iter().enumerate() {
            report.samples = report.samples.saturating_add(1);
            let place = Place { set, si, sample };
            if let Err(e) = engine.fresh() {
                report.failures.push(place.failure(None, Default::default(), Problem::Setup(e.to_string())));
                return Err(());
            }
            for (ci, call) in sample.calls.iter().enumerate() {
                run_call(engine, &place, ci, call, report)?;
            }
        }
    }
    Ok(())
}

/// An engine's method names for a message: the first few, escaped, and how
/// many more there are.
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 16;
    let mut text: Vec<String> = names.iter().take(SHOWN).map(|n| crate::wire::escaped(n, 100)).collect();
    if names.len() > SHOWN {
        text.push(format!("and {} more", names.len().saturating_sub(SHOWN)));
    }
    text.join(", ")
}

/// A failure before any sample ran.
fn setup_failure(method: &str, set: &str, why: String) -> Failure {
    Failure {
        method: method.to_string(),
        set: set.to_string(),
        sample: 0,
        sample_name: None,
        call: None,
        tolerance: Tolerance::default(),
        level: Level::Default,
        problem: Problem::Setup(why),
    }
}

fn run_call(
    engine: &mut dyn Engine,
    place: &Place<'_>,
    ci: usize,
    call: &Call<'_>,
    report: &mut CheckReport,
) -> std::result::Result<(), ()> {
    let tol = resolve_at(place.set, place.sample, call, place.si, ci);
    report.calls = report.calls.saturating_add(1);
    engine.expect_outputs(&call.outputs);
    let actual = match engine.execute(&place.set.method, &call.inputs) {
        Ok(out) => out,
        Err(e) => {
            report.failures.push(place.failure(Some(ci), tol, Problem::Run(e.to_string())));
            return Err(());
        }
    };
    if actual.len() != call.outputs.len() {
        let problem = Problem::OutputCount { expected: call.outputs.len(), actual: actual.len() };
        report.failures.push(place.failure(Some(ci), tol, problem));
        return Err(());
    }
    let mut result = CallResult {
        method: place.set.method.clone(),
        set: place.set.name.clone(),
        sample: place.si,
        call: ci,
        tolerance: tol.0,
        level: tol.1,
        outputs: actual.len(),
        passed: true,
        ..CallResult::default()
    };
    let mut structural = false;
    for (oi, (e, a)) in call.outputs.iter().zip(&actual).enumerate() {
        report.outputs = report.outputs.saturating_add(1);
        let a = as_scalar(e, a);
        let (abs, rel) = error_stats(e, &a);
        result.max_abs_error = result.max_abs_error.max(abs);
        result.max_rel_error = result.max_rel_error.max(rel);
        if let Err(mismatch) = compare(e, &a, tol.0) {
            structural |= mismatch.is_structural();
            result.passed = false;
            report.failures.push(place.failure(Some(ci), tol, Problem::Output { output: oi, mismatch }));
        }
    }
    report.call_results.push(result);
    if structural {
        return Err(());
    }
    Ok(())
}

/// An actual 0-d tensor where a scalar was recorded, as that scalar; any
/// other value as it is (borrowed: an output may be the size of the model).
fn as_scalar<'v, 'a>(expected: &Value<'_>, actual: &'v Value<'a>) -> std::borrow::Cow<'v, Value<'a>> {
    match actual {
        Value::Tensor(t) if t.shape.is_empty() => std::borrow::Cow::Owned(as_value(expected, t)),
        other => std::borrow::Cow::Borrowed(other),
    }
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
pub fn check_actual(sets: &[SampleSet<'_>], actual: &BTreeMap<String, PtnTensor<'_>>) -> CheckReport {
    let mut report = CheckReport { sets: sets.len(), ..CheckReport::default() };
    for set in sets {
        for (si, sample) in set.samples.iter().enumerate() {
            report.samples = report.samples.saturating_add(1);
            let place = Place { set, si, sample };
            for (ci, call) in sample.calls.iter().enumerate() {
                let tol = resolve_at(set, sample, call, si, ci);
                report.calls = report.calls.saturating_add(1);
                let mut result = CallResult {
                    method: set.method.clone(),
                    set: set.name.clone(),
                    sample: si,
                    call: ci,
                    tolerance: tol.0,
                    level: tol.1,
                    passed: true,
                    ..CallResult::default()
                };
                for (oi, expected) in call.outputs.iter().enumerate() {
                    let key = format!("{si}.{ci}.out.{oi}");
                    let scoped = format!("{}/{}/{key}", set.method, set.name);
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
                    result.outputs = result.outputs.saturating_add(1);
                    let Some(got) = got else {
                        result.passed = false;
                        let problem = Problem::MissingActual { output: oi, key: format!("{scoped} or {key}") };
                        report.failures.push(place.failure(Some(ci), tol, problem));
                        continue;
                    };
                    let (abs, rel) = error_stats(expected, &got);
                    result.max_abs_error = result.max_abs_error.max(abs);
                    result.max_rel_error = result.max_rel_error.max(rel);
                    if let Err(mismatch) = compare(expected, &got, tol.0) {
                        result.passed = false;
                        report.failures.push(place.failure(Some(ci), tol, Problem::Output { output: oi, mismatch }));
                    }
                }
                report.call_results.push(result);
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
