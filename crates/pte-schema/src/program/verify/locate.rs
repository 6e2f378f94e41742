//! Byte offsets for field paths: the verifier reports problems on the decoded
//! model by path, and this walks the verified flatbuffer along that path to
//! find where the innermost table it names starts.

use crate::limits::Limits;
use crate::program::verify::verify_root;

/// One `name` or `name[index]` step of a path.
fn steps(path: &str) -> impl Iterator<Item = (&str, Option<usize>)> {
    path.split('.').map(|part| match part.split_once('[') {
        Some((name, rest)) => (name, rest.trim_end_matches(']').parse().ok()),
        None => (part, None),
    })
}

/// The byte offset (from the start of `buf`) of the deepest table that a path
/// such as `execution_plan[0].values[7].val.sizes` names, or `None` when the
/// buffer does not verify or the path names nothing.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let at = pte_schema::locate(&bytes, "execution_plan[0].values[1]", &Default::default());
/// assert!(at.is_some_and(|o| (o as usize) < bytes.len()));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn locate(buf: &[u8], path: &str, limits: &Limits) -> Option<u64> {
    Locator::new(buf, limits)?.locate(path)
}

/// A verified program buffer, for locating many paths with one verification.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let l = pte_schema::Locator::new(&bytes, &Default::default()).unwrap();
/// assert_ne!(l.locate("execution_plan[0]"), l.locate("execution_plan[0].values[0]"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Locator<'a> {
    root: crate::fenced::et::Program<'a>,
}

impl<'a> Locator<'a> {
    /// Verifies `buf`; `None` when it does not verify.
    ///
    /// ```
    /// assert!(pte_schema::Locator::new(b"nope", &Default::default()).is_none());
    /// ```
    pub fn new(buf: &'a [u8], limits: &Limits) -> Option<Self> {
        Some(Locator { root: verify_root(buf, limits).ok()? })
    }

    /// The offset of the deepest table `path` names (see [`locate`]).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let l = pte_schema::Locator::new(&bytes, &Default::default()).unwrap();
    /// assert!(l.locate("execution_plan[5]").is_none());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn locate(&self, path: &str) -> Option<u64> {
        let root = self.root;
        let mut at = root._tab.loc();
        let mut it = steps(path);
        let Some((first, idx)) = it.next() else { return Some(at as u64) };
        match (first, idx) {
            ("execution_plan", Some(i)) => {
                let plan = root.execution_plan()?.iter().nth(i)?;
                at = plan._tab.loc();
                let Some((field, idx)) = it.next() else { return Some(at as u64) };
                match (field, idx) {
                    ("values", Some(j)) => {
                        let v = plan.values()?.iter().nth(j)?;
                        at = v._tab.loc();
                        // The verifier only checks a union's table when its tag
                        // names a member, so a NONE tag's offset is never followed.
                        let known = v.val_type() != crate::fenced::et::KernelTypes::NONE;
                        if let (Some(("val", _)), true) = (it.next(), known)
                            && let Some(t) = v.val()
                        {
                            at = t.loc();
                        }
                    }
                    ("chains", Some(c)) => {
                        let chain = plan.chains()?.iter().nth(c)?;
                        at = chain._tab.loc();
                        if let Some(("instructions", Some(k))) = it.next() {
                            let ins = chain.instructions()?.iter().nth(k)?;
                            at = ins._tab.loc();
                            let known = ins.instr_args_type() != crate::fenced::et::InstructionArguments::NONE;
                            if let (Some(("instr_args", _)), true) = (it.next(), known)
                                && let Some(t) = ins.instr_args()
                            {
                                at = t.loc();
                            }
                        }
                    }
                    ("delegates", Some(d)) => at = plan.delegates()?.iter().nth(d)?._tab.loc(),
                    ("operators", Some(o)) => at = plan.operators()?.iter().nth(o)?._tab.loc(),
                    _ => {}
                }
            }
            ("segments", Some(i)) => at = root.segments()?.iter().nth(i)?._tab.loc(),
            ("named_data", Some(i)) => at = root.named_data()?.iter().nth(i)?._tab.loc(),
            ("mutable_data_segments", Some(i)) => at = root.mutable_data_segments()?.iter().nth(i)?._tab.loc(),
            ("backend_delegate_data", Some(i)) => at = root.backend_delegate_data()?.iter().nth(i)?._tab.loc(),
            ("constant_buffer", Some(i)) => at = root.constant_buffer()?.iter().nth(i)?._tab.loc(),
            ("constant_segment", _) => at = root.constant_segment()?._tab.loc(),
            _ => {}
        }
        Some(at as u64)
    }
}
