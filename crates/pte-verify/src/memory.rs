//! The `memory.overlap` warning: two planned tensors of one buffer that
//! share bytes while both hold data. The runtime places tensors where the
//! plan says and never checks this, so such a plan silently corrupts data.

use pte_core::Violation;
use pte_schema::ProgramView;

use pte_analysis::memory::gather::PlanFacts;

use super::rules;

/// One warning per pair of planned tensors whose bytes and lifetimes both
/// overlap (see [`pte_analysis::memory`] for how lifetimes are read), at most
/// [`pte_analysis::memory::MAX_OVERLAPS`] per method and then one saying more
/// exist. Read through the views, so a program of any size costs no
/// decoding.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("mutable_plain/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let view = pte_schema::ProgramView::new(region, &Default::default())?;
/// assert!(pte_verify::memory_overlaps(&view).is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn memory_overlaps(program: &ProgramView<'_>) -> Vec<Violation> {
    overlaps_gathered(program, vec![])
}

/// [`memory_overlaps`], reading each plan whose facts the verifier's walk
/// gathered (`facts[p]`) from them rather than walking it again.
pub(super) fn overlaps_gathered(program: &ProgramView<'_>, mut facts: Vec<Option<PlanFacts>>) -> Vec<Violation> {
    let mut out = vec![];
    for (p, plan) in (0..program.plan_count()).filter_map(|p| Some((p, program.plan(p)?))) {
        let gathered = facts.get_mut(p).and_then(Option::take).filter(|f| f.values() == plan.value_count());
        let (found, truncated) = pte_analysis::memory::overlaps_of(&plan, p, gathered);
        let name = plan.name().unwrap_or("");
        for o in &found {
            let [a, b] = o.values;
            out.push(Violation {
                rule: rules::MEMORY_OVERLAP,
                path: format!("execution_plan[{p}].values[{b}].allocation_info"),
                offset: None,
                message: format!(
                    "method {name:?}: values[{a}] and values[{b}] share bytes {}..{} of planned buffer {} while both hold data (instructions {}..={}); writing one corrupts the other",
                    o.bytes[0], o.bytes[1], o.arena, o.instructions[0], o.instructions[1]
                ),
            });
        }
        if truncated {
            out.push(Violation {
                rule: rules::MEMORY_OVERLAP,
                path: format!("execution_plan[{p}].values"),
                offset: None,
                message: format!(
                    "method {name:?}: more overlapping tensors than the {} listed",
                    pte_analysis::memory::MAX_OVERLAPS
                ),
            });
        }
    }
    out
}
