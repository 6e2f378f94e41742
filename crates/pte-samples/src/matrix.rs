//! Several runtimes checked on the same sets: one [`CheckReport`] per
//! runner, and the table runner × set that answers "does this model still
//! compute the same on every runtime I ship". The JSON form is the one
//! `pte samples check --runner NAME=CMD ...` prints, the Python package
//! returns and `pte report` draws.

use std::fmt;

use serde_json::{json, Value as Json};

use crate::compare::Mismatch;
use crate::model::SampleSet;
use crate::report::{CheckReport, Failure, Outcome, Problem};
use crate::verify::{check, Engine};

/// One runner's name (as the caller gave it) and its report.
///
/// ```
/// let r = pte_samples::NamedReport { name: "old".into(), report: Default::default() };
/// assert!(r.report.passed());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamedReport {
    /// The name the caller gave the runner (`old` in `--runner old=CMD`).
    pub name: String,
    /// What its check found.
    pub report: CheckReport,
}

/// The reports of several runners on the same sets, in the order given.
///
/// ```
/// use pte_samples::*;
/// /// A running sum, answered with an offset (0: right, else wrong).
/// #[derive(Default)]
/// struct Sum { state: i64, offset: i64 }
/// impl Engine for Sum {
///     fn fresh(&mut self) -> RunResult<()> { self.state = 0; Ok(()) }
///     fn execute(&mut self, _: &str, inputs: &[Value<'_>]) -> RunResult<Vec<Value<'static>>> {
///         let Some(Value::Int(x)) = inputs.first() else { return Err("want one int".into()) };
///         self.state += x;
///         Ok(vec![Value::Int(self.state + self.offset)])
///     }
/// }
/// let call = |x, sum| Call { inputs: vec![Value::Int(x)], outputs: vec![Value::Int(sum)], tolerance: None };
/// let mut set = SampleSet::new("forward", "sums");
/// set.samples.push(Sample { calls: vec![call(1, 1), call(2, 3)], ..Default::default() });
/// let (mut a, mut b) = (Sum::default(), Sum { offset: 10, ..Default::default() });
/// let matrix = Matrix::check(&[set], vec![("good".into(), &mut a as &mut dyn Engine), ("bad".into(), &mut b)]);
/// assert_eq!(matrix.verdict(), Outcome::Mismatch);
/// assert_eq!(matrix.cell(0, 0), Cell::Passed);
/// assert!(matches!(matrix.cell(1, 0), Cell::Mismatch { failures: 2, .. }));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matrix {
    /// Every set checked, as `(method, set)`, in the order they ran.
    pub sets: Vec<(String, String)>,
    /// One report per runner, in the order given.
    pub runners: Vec<NamedReport>,
}

/// How one runner did on one set.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell<'r> {
    /// Every output of the set matched.
    Passed,
    /// Some outputs differ beyond tolerance: how many failures, and the
    /// worst of them (the largest excess over the allowed error; a NaN, an
    /// infinity or a differing integer counts as infinitely bad).
    Mismatch {
        /// Failures in the set.
        failures: usize,
        /// The worst one.
        worst: &'r Failure,
    },
    /// The runner could not be used on this set (the check stopped here).
    RunnerFailed(&'r Failure),
    /// The runner failed on an earlier set, so this one never ran.
    NotRun,
}

impl Cell<'_> {
    /// The cell's status in JSON and text: `passed`, `mismatch`,
    /// `runner_failed`, `not_run`.
    ///
    /// ```
    /// assert_eq!(pte_samples::Cell::NotRun.status(), "not_run");
    /// ```
    pub fn status(&self) -> &'static str {
        match self {
            Cell::Passed => Outcome::Passed.name(),
            Cell::Mismatch { .. } => Outcome::Mismatch.name(),
            Cell::RunnerFailed(_) => Outcome::RunnerFailed.name(),
            Cell::NotRun => "not_run",
        }
    }
}

/// How far a failure is from passing, to rank mismatches.
fn badness(f: &Failure) -> f64 {
    match &f.problem {
        Problem::Output { mismatch: Mismatch::Float { error, allowed, .. }, .. } => {
            let excess = error - allowed;
            if excess.is_nan() {
                f64::INFINITY
            } else {
                excess
            }
        }
        _ => f64::INFINITY,
    }
}

impl Matrix {
    /// Checks `sets` through every engine in turn ([`check`] each), naming
    /// each report as given.
    ///
    /// ```
    /// let m = pte_samples::Matrix::check(&[], vec![]);
    /// assert!(m.runners.is_empty() && m.verdict() == pte_samples::Outcome::Passed);
    /// ```
    pub fn check(sets: &[SampleSet<'_>], engines: Vec<(String, &mut dyn Engine)>) -> Matrix {
        let mut matrix = Matrix::of_sets(sets);
        for (name, engine) in engines {
            matrix.runners.push(NamedReport { name, report: check(sets, engine) });
        }
        matrix
    }

    /// A matrix of `sets` with no runner yet: push [`NamedReport`]s made
    /// elsewhere (a runner that did not even start).
    ///
    /// ```
    /// let set = pte_samples::SampleSet::new("forward", "s");
    /// assert_eq!(pte_samples::Matrix::of_sets(&[set]).sets, vec![("forward".to_string(), "s".to_string())]);
    /// ```
    pub fn of_sets(sets: &[SampleSet<'_>]) -> Matrix {
        Matrix { sets: sets.iter().map(|s| (s.method.clone(), s.name.clone())).collect(), runners: vec![] }
    }

    /// The worst verdict of every runner's report (passed when there is none).
    ///
    /// ```
    /// assert_eq!(pte_samples::Matrix::default().verdict(), pte_samples::Outcome::Passed);
    /// ```
    pub fn verdict(&self) -> Outcome {
        self.runners.iter().map(|r| r.report.verdict()).max().unwrap_or(Outcome::Passed)
    }

    /// How runner `runner` did on set `set` (indices into [`Matrix::runners`]
    /// and [`Matrix::sets`]); [`Cell::NotRun`] for indices out of range.
    ///
    /// ```
    /// assert_eq!(pte_samples::Matrix::default().cell(0, 0), pte_samples::Cell::NotRun);
    /// ```
    pub fn cell(&self, runner: usize, set: usize) -> Cell<'_> {
        let (Some(r), Some((method, name))) = (self.runners.get(runner), self.sets.get(set)) else {
            return Cell::NotRun;
        };
        let here = |f: &&Failure| &f.method == method && &f.set == name;
        let failures = &r.report.failures;
        if let Some(f) = failures.iter().filter(here).find(|f| f.problem.is_runner_failure()) {
            return Cell::RunnerFailed(f);
        }
        let mut worst: Option<&Failure> = None;
        let mut count = 0usize;
        for f in failures.iter().filter(here) {
            count = count.saturating_add(1);
            if worst.is_none_or(|w| badness(f) > badness(w)) {
                worst = Some(f);
            }
        }
        // the check stops at a runner failure: a set with nothing to show
        // after one never ran
        let ran = r.report.call_results.iter().any(|c| &c.method == method && &c.set == name);
        match worst {
            Some(worst) => Cell::Mismatch { failures: count, worst },
            None if ran || r.report.verdict() != Outcome::RunnerFailed => Cell::Passed,
            None => Cell::NotRun,
        }
    }

    /// The matrix as JSON: `verdict`, `passed`, `runners` (each runner's
    /// report, as `pte samples check --json` prints one, under its name),
    /// `order` (the runners' names in order), `sets` (`method/set` names)
    /// and `table` (one row per runner and set: `runner`, `method`, `set`,
    /// `status`, `failures` and `worst`, the worst failure or null).
    ///
    /// ```
    /// let j = pte_samples::Matrix::default().to_json();
    /// assert_eq!(j["verdict"], "passed");
    /// assert!(j["runners"].as_object().unwrap().is_empty());
    /// ```
    pub fn to_json(&self) -> Json {
        let mut runners = serde_json::Map::new();
        for r in &self.runners {
            runners.insert(r.name.clone(), r.report.to_json());
        }
        let mut table = vec![];
        for (ri, r) in self.runners.iter().enumerate() {
            for (si, (method, set)) in self.sets.iter().enumerate() {
                let cell = self.cell(ri, si);
                let (failures, worst) = match &cell {
                    Cell::Mismatch { failures, worst } => (*failures, worst.to_json()),
                    Cell::RunnerFailed(f) => (1, f.to_json()),
                    Cell::Passed | Cell::NotRun => (0, Json::Null),
                };
                table.push(json!({
                    "runner": r.name, "method": method, "set": set, "status": cell.status(),
                    "failures": failures, "worst": worst,
                }));
            }
        }
        json!({
            "verdict": self.verdict().name(),
            "passed": self.verdict() == Outcome::Passed,
            "order": self.runners.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
            "sets": self.sets.iter().map(|(m, s)| format!("{m}/{s}")).collect::<Vec<_>>(),
            "runners": runners,
            "table": table,
        })
    }
}

/// The text of a cell: the status, and for a mismatch the failure count and
/// the worst element.
impl fmt::Display for Cell<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Passed => write!(f, "passed"),
            Cell::NotRun => write!(f, "not run (the runner failed before)"),
            Cell::RunnerFailed(_) => write!(f, "runner failed"),
            Cell::Mismatch { failures, worst } => {
                write!(f, "mismatch ({}), worst: {worst}", pte_core::style::count(*failures as u64, "failure"))
            }
        }
    }
}

/// The table, runner × set, one line each, then every runner's failures
/// named by runner, then the totals.
impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = |it: &mut dyn Iterator<Item = usize>, title: usize| it.max().unwrap_or(0).max(title);
        let rw = width(&mut self.runners.iter().map(|r| r.name.chars().count()), "RUNNER".len());
        let names: Vec<String> = self.sets.iter().map(|(m, s)| format!("{m}/{s}")).collect();
        let sw = width(&mut names.iter().map(|n| n.chars().count()), "SET".len());
        writeln!(f, "{:rw$}  {:sw$}  RESULT", "RUNNER", "SET")?;
        for (ri, r) in self.runners.iter().enumerate() {
            for (si, name) in names.iter().enumerate() {
                writeln!(f, "{:rw$}  {:sw$}  {}", r.name, name, self.cell(ri, si))?;
            }
        }
        for r in &self.runners {
            for failure in &r.report.failures {
                writeln!(f, "FAIL {}: {failure}", r.name)?;
            }
        }
        let failed = |o: Outcome| self.runners.iter().filter(|r| r.report.verdict() == o).count();
        write!(
            f,
            "{}, {}: {} passed, {} mismatched, {} failed",
            pte_core::style::count(self.runners.len() as u64, "runner"),
            pte_core::style::count(self.sets.len() as u64, "set"),
            failed(Outcome::Passed),
            failed(Outcome::Mismatch),
            failed(Outcome::RunnerFailed)
        )
    }
}
