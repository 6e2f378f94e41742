//! The operators each ExecuTorch release's stock runtime registers, as data:
//! what `_get_operator_names()` of the release's wheel (its Python runtime,
//! `portable_lib`) reports, extracted by `scripts/runners/operators-by-release.sh`
//! into `crates/pte-analysis/data/operators-<release>.txt` and embedded here.
//!
//! A program calling an operator a runtime does not register loads, then
//! fails at `load_method` with `OperatorMissing` (0x14). Custom kernels are
//! legitimate, so the verifier only warns (`needs.operator`, against
//! [`STOCK`]) and `pte ops --runtime VERSION` lists what a release lacks.
//!
//! ```
//! use pte_analysis::operators::runtimes;
//! let newest = runtimes::release(runtimes::STOCK).unwrap();
//! assert!(newest.registers("aten::add.out"));
//! assert!(!newest.registers("my_ops::fancy.out"));
//! assert_eq!(runtimes::registering("aten::add.out").len(), runtimes::RELEASES.len());
//! ```

use pte_schema::{InstructionRef, PlanView, ProgramView};

/// One release's registered operators.
#[derive(Clone, Copy, Debug)]
pub struct Release {
    /// The release, `1.5.1`.
    pub version: &'static str,
    /// The data file's text: `#` comment lines, then one `name.overload` a
    /// line, sorted.
    text: &'static str,
}

/// Every release with data, oldest first.
pub const RELEASES: &[Release] = &[
    Release { version: "1.0.0", text: include_str!("../../data/operators-1.0.0.txt") },
    Release { version: "1.3.1", text: include_str!("../../data/operators-1.3.1.txt") },
    Release { version: "1.5.1", text: include_str!("../../data/operators-1.5.1.txt") },
];

/// The release `pte verify` checks operators against: the newest with data.
pub const STOCK: &str = "1.5.1";

impl Release {
    /// Its operator names, sorted.
    ///
    /// ```
    /// let r = pte_analysis::operators::runtimes::release("1.5.1").unwrap();
    /// assert_eq!(r.operators().count(), 240);
    /// ```
    pub fn operators(&self) -> impl Iterator<Item = &'static str> {
        self.text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
    }

    /// Whether it registers `name` (`aten::add.out`).
    ///
    /// ```
    /// let r = pte_analysis::operators::runtimes::release("1.0.0").unwrap();
    /// assert!(r.registers("aten::mul.out"));
    /// ```
    pub fn registers(&self, name: &str) -> bool {
        self.operators().any(|o| o == name)
    }
}

/// The release of that version, if there is data for it.
///
/// ```
/// assert!(pte_analysis::operators::runtimes::release("0.1.0").is_none());
/// ```
pub fn release(version: &str) -> Option<&'static Release> {
    RELEASES.iter().find(|r| r.version == version)
}

/// The versions of the releases that register `name`, oldest first.
///
/// ```
/// assert!(pte_analysis::operators::runtimes::registering("nobody::op.out").is_empty());
/// ```
pub fn registering(name: &str) -> Vec<&'static str> {
    RELEASES.iter().filter(|r| r.registers(name)).map(|r| r.version).collect()
}

/// The operators each method calls (kernel-call instructions only, not
/// merely listed in its operator table), as `(method, names)`: what a
/// runtime must register to load that method. Indices that point nowhere
/// are skipped (the verifier reports them).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let view = pte_schema::ProgramView::new(region, &Default::default())?;
/// let called = pte_analysis::operators::runtimes::called(&view);
/// assert_eq!(called, vec![("forward".to_string(), vec!["aten::add.out".to_string()])]);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn called(view: &ProgramView<'_>) -> Vec<(String, Vec<String>)> {
    called_with(view, |_, plan| called_by(plan))
}

/// Which operators of `plan` its kernel calls name, by operator index.
#[doc(hidden)]
pub fn called_by(plan: &PlanView<'_>) -> Vec<bool> {
    let mut used = vec![false; plan.operator_count()];
    for chain in plan.chains().into_iter().flatten() {
        for instruction in chain.instructions().into_iter().flatten() {
            if let InstructionRef::KernelCall { op_index, .. } = instruction
                && let Some(u) = usize::try_from(op_index).ok().and_then(|i| used.get_mut(i))
            {
                *u = true;
            }
        }
    }
    used
}

/// [`called`], told which operators each plan calls by `used(p, plan)`
/// (by operator index), from its instructions or from what a walk over
/// them already gathered.
#[doc(hidden)]
pub fn called_with(
    view: &ProgramView<'_>,
    mut used: impl FnMut(usize, &PlanView<'_>) -> Vec<bool>,
) -> Vec<(String, Vec<String>)> {
    let mut out = vec![];
    for (p, plan) in (0..view.plan_count()).filter_map(|p| Some((p, view.plan(p)?))) {
        let mut names: Vec<String> = vec![];
        for (i, _) in used(p, &plan).iter().enumerate().filter(|(_, u)| **u) {
            let (name, overload) = plan.operator(i).unwrap_or_default();
            let full = super::full_name(name.unwrap_or(""), overload.unwrap_or(""));
            if !names.contains(&full) {
                names.push(full);
            }
        }
        out.push((plan.name().unwrap_or("").to_string(), names));
    }
    out
}

/// The operators `view` calls that release `version` does not register, as
/// `(method, name)`; `None` when there is no data for that release.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let view = pte_schema::ProgramView::new(region, &Default::default())?;
/// assert_eq!(pte_analysis::operators::runtimes::missing(&view, "1.0.0"), Some(vec![]));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn missing(view: &ProgramView<'_>, version: &str) -> Option<Vec<(String, String)>> {
    release(version)?;
    missing_of(called(view), version)
}

/// The `(method, name)` pairs of `called` (as [`called`] answers) that
/// release `version` does not register; `None` without data for it.
#[doc(hidden)]
pub fn missing_of(called: Vec<(String, Vec<String>)>, version: &str) -> Option<Vec<(String, String)>> {
    let release = release(version)?;
    let mut out = vec![];
    for (method, names) in called {
        out.extend(names.into_iter().filter(|n| !release.registers(n)).map(|n| (method.clone(), n)));
    }
    Some(out)
}
