//! What a check found: the counts, one result per call, every failure, and
//! the verdict that decides a command's exit status. The JSON form is the
//! one `pte samples check --json` prints and the Python package returns.

use std::fmt;

use pte_core::style::count;
use serde_json::{json, Value as Json};

use crate::compare::Mismatch;
use crate::model::Tolerance;
use crate::tolerance::Level;

/// The outcome of a check.
///
/// ```
/// let r = pte_samples::CheckReport::default();
/// assert!(r.passed());
/// assert_eq!(r.verdict(), pte_samples::Outcome::Passed);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckReport {
    /// Sets checked.
    pub sets: usize,
    /// Samples checked.
    pub samples: usize,
    /// Calls run (or, for [`check_actual`](crate::check_actual), calls whose
    /// outputs were compared).
    pub calls: usize,
    /// Outputs compared.
    pub outputs: usize,
    /// Outputs that could not be compared ([`check_actual`](crate::check_actual)
    /// only: string and none outputs have no tensor form).
    pub skipped: usize,
    /// The engine's own name for itself, when it gave one.
    pub runner: Option<String>,
    /// One entry per call whose outputs were compared, in execution order.
    pub call_results: Vec<CallResult>,
    /// Every failure, in execution order.
    pub failures: Vec<Failure>,
}

/// How a check ended, from best to worst.
///
/// ```
/// use pte_samples::Outcome;
/// assert_eq!(Outcome::Passed.exit_code(), 0);
/// assert_eq!(Outcome::Mismatch.exit_code(), 1);
/// assert_eq!(Outcome::RunnerFailed.exit_code(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Every output matched.
    Passed,
    /// Some output differs from what was recorded, beyond its tolerance.
    Mismatch,
    /// The runtime could not be used: it failed to start or to run a call, or
    /// it answered with outputs of another count, kind, dtype or shape than
    /// the recorded ones (it does not run the recorded method).
    RunnerFailed,
}

impl Outcome {
    /// The process exit status the CLI gives this verdict.
    ///
    /// ```
    /// assert_eq!(pte_samples::Outcome::RunnerFailed.exit_code(), 2);
    /// ```
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Passed => 0,
            Outcome::Mismatch => 1,
            Outcome::RunnerFailed => 2,
        }
    }

    /// The verdict's name in JSON: `passed`, `mismatch`, `runner_failed`.
    ///
    /// ```
    /// assert_eq!(pte_samples::Outcome::Mismatch.name(), "mismatch");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Mismatch => "mismatch",
            Outcome::RunnerFailed => "runner_failed",
        }
    }
}

/// The worst errors of one call's outputs.
///
/// ```
/// let r = pte_samples::CallResult::default();
/// assert_eq!(r.max_abs_error, 0.0);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallResult {
    /// The set's method.
    pub method: String,
    /// The set's name.
    pub set: String,
    /// Sample index in the set.
    pub sample: usize,
    /// Call index in the sample.
    pub call: usize,
    /// The tolerance the call was checked with.
    pub tolerance: Tolerance,
    /// Where that tolerance came from.
    pub level: Level,
    /// Outputs compared.
    pub outputs: usize,
    /// Largest `|a - e|` over every floating element (infinite where a NaN
    /// or an infinity met anything but itself).
    pub max_abs_error: f64,
    /// Largest `|a - e| / |e|` over every floating element with `e != 0`.
    pub max_rel_error: f64,
    /// Whether every output matched.
    pub passed: bool,
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
    /// Call index in the sample (`None` when the failure came before any
    /// call: the engine could not start a fresh state, or lacks the method).
    pub call: Option<usize>,
    /// The tolerance the call was checked with.
    pub tolerance: Tolerance,
    /// Where that tolerance came from.
    pub level: Level,
    /// What went wrong.
    pub problem: Problem,
}

/// What went wrong in a [`Failure`].
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The engine could not start a fresh state, or lacks the set's method.
    Setup(String),
    /// The engine failed the call (the check ends: the state is unknown).
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
    /// [`check_actual`](crate::check_actual): no actual tensor is stored for this output.
    MissingActual {
        /// Output index.
        output: usize,
        /// The keys looked up.
        key: String,
    },
}

impl Problem {
    /// Whether this problem says the runtime is unusable for the samples
    /// rather than numerically wrong.
    ///
    /// ```
    /// use pte_samples::Problem;
    /// assert!(Problem::Run("crashed".into()).is_runner_failure());
    /// assert!(!Problem::MissingActual { output: 0, key: "k".into() }.is_runner_failure());
    /// ```
    pub fn is_runner_failure(&self) -> bool {
        match self {
            Problem::Setup(_) | Problem::Run(_) | Problem::OutputCount { .. } => true,
            Problem::Output { mismatch, .. } => mismatch.is_structural(),
            Problem::MissingActual { .. } => false,
        }
    }
}

impl CheckReport {
    /// Whether nothing failed.
    ///
    /// ```
    /// assert!(pte_samples::CheckReport::default().passed());
    /// ```
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// The worst of its failures' verdicts.
    ///
    /// ```
    /// let mut r = pte_samples::CheckReport::default();
    /// r.failures.push(pte_samples::Failure {
    ///     method: "f".into(), set: "s".into(), sample: 0, sample_name: None, call: None,
    ///     tolerance: pte_samples::DEFAULT_TOLERANCE, level: pte_samples::Level::Default,
    ///     problem: pte_samples::Problem::Setup("no runner".into()),
    /// });
    /// assert_eq!(r.verdict(), pte_samples::Outcome::RunnerFailed);
    /// ```
    pub fn verdict(&self) -> Outcome {
        self.failures
            .iter()
            .map(|f| if f.problem.is_runner_failure() { Outcome::RunnerFailed } else { Outcome::Mismatch })
            .max()
            .unwrap_or(Outcome::Passed)
    }

    /// The report as JSON: the counts, `verdict`, `passed`, `runner`,
    /// `call_results` and `failures`, each failure with its place, tolerance,
    /// level, message and, for a numeric mismatch, `output`, `element`,
    /// `expected`, `actual`, `error` and `allowed` (see `docs/samples.md`).
    ///
    /// ```
    /// let j = pte_samples::CheckReport::default().to_json();
    /// assert_eq!(j["verdict"], "passed");
    /// ```
    pub fn to_json(&self) -> Json {
        json!({
            "verdict": self.verdict().name(),
            "passed": self.passed(),
            "runner": self.runner,
            "sets": self.sets,
            "samples": self.samples,
            "calls": self.calls,
            "outputs": self.outputs,
            "skipped": self.skipped,
            "call_results": self.call_results.iter().map(CallResult::to_json).collect::<Vec<_>>(),
            "failures": self.failures.iter().map(Failure::to_json).collect::<Vec<_>>(),
        })
    }
}

/// A float for JSON: numbers when finite, else the index's spellings.
fn number(v: f64) -> Json {
    if v.is_finite() {
        json!(v)
    } else {
        json!(v.to_string().to_lowercase())
    }
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Default => "default",
        Level::Set => "set",
        Level::Sample(_) => "sample",
        Level::Call { .. } => "call",
    }
}

impl CallResult {
    fn to_json(&self) -> Json {
        json!({
            "method": self.method, "set": self.set, "sample": self.sample, "call": self.call,
            "outputs": self.outputs, "passed": self.passed,
            "atol": self.tolerance.atol, "rtol": self.tolerance.rtol, "level": level_name(self.level),
            "max_abs_error": number(self.max_abs_error), "max_rel_error": number(self.max_rel_error),
        })
    }
}

impl Failure {
    pub(crate) fn to_json(&self) -> Json {
        let mut j = json!({
            "method": self.method, "set": self.set, "sample": self.sample, "sample_name": self.sample_name,
            "call": self.call, "atol": self.tolerance.atol, "rtol": self.tolerance.rtol,
            "level": level_name(self.level), "runner_failure": self.problem.is_runner_failure(),
            "problem": problem_json(&self.problem), "message": self.to_string(),
        });
        if let (Problem::Output { output, mismatch }, Json::Object(map)) = (&self.problem, &mut j) {
            map.insert("output".into(), json!(output));
            match mismatch {
                Mismatch::Float { item, index, expected, actual, error, allowed, .. } => {
                    map.insert("item".into(), json!(item));
                    map.insert("element".into(), json!(index));
                    map.insert("expected".into(), number(*expected));
                    map.insert("actual".into(), number(*actual));
                    map.insert("error".into(), number(*error));
                    map.insert("allowed".into(), number(*allowed));
                }
                Mismatch::Exact { item, index, expected, actual, .. } => {
                    map.insert("item".into(), json!(item));
                    map.insert("element".into(), json!(index));
                    map.insert("expected".into(), json!(expected));
                    map.insert("actual".into(), json!(actual));
                }
                _ => {}
            }
        }
        j
    }
}

fn problem_json(p: &Problem) -> Json {
    match p {
        Problem::Setup(e) => json!({"kind": "setup", "error": e}),
        Problem::Run(e) => json!({"kind": "run", "error": e}),
        Problem::OutputCount { expected, actual } => {
            json!({"kind": "output_count", "expected": expected, "actual": actual})
        }
        Problem::MissingActual { output, key } => json!({"kind": "missing_actual", "output": output, "key": key}),
        Problem::Output { output, mismatch } => {
            let detail = match mismatch {
                Mismatch::Float { item, index, expected, actual, error, allowed, count } => json!({
                    "kind": "float", "item": item, "index": index, "expected": expected.to_string(), "actual": actual.to_string(),
                    "error": error.to_string(), "allowed": allowed, "count": count,
                }),
                Mismatch::Exact { item, index, expected, actual, count } => {
                    json!({"kind": "exact", "item": item, "index": index, "expected": expected, "actual": actual, "count": count})
                }
                other => json!({"kind": "structure", "message": other.to_string()}),
            };
            json!({"kind": "output", "output": output, "mismatch": detail})
        }
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for failure in &self.failures {
            writeln!(f, "FAIL {failure}")?;
        }
        write!(
            f,
            "{}, {}, {}, {} compared, {} skipped: {}",
            count(self.sets as u64, "set"),
            count(self.samples as u64, "sample"),
            count(self.calls as u64, "call"),
            count(self.outputs as u64, "output"),
            self.skipped,
            if self.passed() { "all passed".to_string() } else { count(self.failures.len() as u64, "failure") }
        )
    }
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
            Problem::Setup(e) => write!(f, ": could not start: {e}"),
            Problem::Run(e) => write!(f, ": the call failed: {e}"),
            Problem::OutputCount { expected, actual } => write!(f, ": {actual} outputs returned, {expected} recorded"),
            Problem::Output { output, mismatch } => write!(
                f,
                ": output {output}: {mismatch} (atol {} rtol {}, from {})",
                self.tolerance.atol, self.tolerance.rtol, self.level
            ),
            Problem::MissingActual { output, key } => write!(f, ": output {output}: no actual tensor under {key}"),
        }
    }
}
