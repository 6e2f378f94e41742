//! Tolerance resolution (call, then sample, then set, then the default) and
//! the writer's warnings about loose tolerances.

use std::fmt;

use crate::model::{Call, Sample, SampleSet, Tolerance, DEFAULT_TOLERANCE, WARN_TOLERANCE};

/// Which level a resolved tolerance came from.
///
/// ```
/// use pte_samples::*;
/// let set = SampleSet { tolerance: Some(Tolerance { atol: 0.1, rtol: 0.0 }), ..SampleSet::new("f", "s") };
/// let sample = Sample { calls: vec![Call::default()], ..Default::default() };
/// assert_eq!(resolve(&set, &sample, &sample.calls[0]).1, Level::Set);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// No level gave one: [`DEFAULT_TOLERANCE`].
    #[default]
    Default,
    /// The set's.
    Set,
    /// Sample `n`'s.
    Sample(usize),
    /// Call `call` of sample `sample`.
    Call {
        /// Sample index.
        sample: usize,
        /// Call index.
        call: usize,
    },
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Default => f.write_str("the default"),
            Level::Set => f.write_str("the set"),
            Level::Sample(s) => write!(f, "sample {s}"),
            Level::Call { sample, call } => write!(f, "sample {sample} call {call}"),
        }
    }
}

/// The tolerance a call's outputs are checked with, and where it came from.
/// Sample and call positions in the returned level are found by identity in `set`.
///
/// ```
/// use pte_samples::*;
/// let set = SampleSet::new("f", "s");
/// let sample = Sample::default();
/// assert_eq!(resolve(&set, &sample, &Call::default()), (DEFAULT_TOLERANCE, Level::Default));
/// ```
pub fn resolve(set: &SampleSet<'_>, sample: &Sample<'_>, call: &Call<'_>) -> (Tolerance, Level) {
    let si = set.samples.iter().position(|s| std::ptr::eq(s, sample)).unwrap_or(0);
    let ci = sample.calls.iter().position(|c| std::ptr::eq(c, call)).unwrap_or(0);
    resolve_at(set, sample, call, si, ci)
}

pub(crate) fn resolve_at(
    set: &SampleSet<'_>,
    sample: &Sample<'_>,
    call: &Call<'_>,
    si: usize,
    ci: usize,
) -> (Tolerance, Level) {
    if let Some(t) = call.tolerance {
        (t, Level::Call { sample: si, call: ci })
    } else if let Some(t) = sample.tolerance {
        (t, Level::Sample(si))
    } else if let Some(t) = set.tolerance {
        (t, Level::Set)
    } else {
        (DEFAULT_TOLERANCE, Level::Default)
    }
}

/// A resolved tolerance looser than [`WARN_TOLERANCE`]: it usually hides a
/// real numerical difference.
///
/// ```
/// use pte_samples::*;
/// let w = Warning { method: "f".into(), set: "s".into(), level: Level::Set, tolerance: Tolerance { atol: 0.1, rtol: 0.0 } };
/// assert!(w.to_string().contains("atol 0.1"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// Method of the set.
    pub method: String,
    /// Set name.
    pub set: String,
    /// Where the loose tolerance is given.
    pub level: Level,
    /// The tolerance.
    pub tolerance: Tolerance,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}: {} gives atol {} rtol {}, looser than {WARN_TOLERANCE}; this usually hides a real numerical difference",
            self.method, self.set, self.level, self.tolerance.atol, self.tolerance.rtol
        )
    }
}

/// One warning per level whose tolerance is the resolved one for at least one
/// call and exceeds [`WARN_TOLERANCE`] in `atol` or `rtol`, in level order.
///
/// ```
/// use pte_samples::*;
/// let mut set = SampleSet::new("f", "s");
/// set.tolerance = Some(Tolerance { atol: 0.5, rtol: 0.0 });
/// assert!(tolerance_warnings(&set).is_empty()); // no call uses it
/// set.samples.push(Sample { calls: vec![Call::default()], ..Default::default() });
/// assert_eq!(tolerance_warnings(&set)[0].level, Level::Set);
/// ```
pub fn tolerance_warnings(set: &SampleSet<'_>) -> Vec<Warning> {
    let mut levels = std::collections::BTreeMap::new();
    for (si, sample) in set.samples.iter().enumerate() {
        for (ci, call) in sample.calls.iter().enumerate() {
            let (t, level) = resolve_at(set, sample, call, si, ci);
            if t.atol > WARN_TOLERANCE || t.rtol > WARN_TOLERANCE {
                levels.entry(level).or_insert(t);
            }
        }
    }
    levels
        .into_iter()
        .map(|(level, tolerance)| Warning { method: set.method.clone(), set: set.name.clone(), level, tolerance })
        .collect()
}

/// A tolerance must be finite and not negative in both fields.
pub(crate) fn check(t: &Tolerance) -> std::result::Result<(), String> {
    for (name, v) in [("atol", t.atol), ("rtol", t.rtol)] {
        if !v.is_finite() || v < 0.0 {
            return Err(format!("{name} {v} is not a finite, non-negative number"));
        }
    }
    Ok(())
}
