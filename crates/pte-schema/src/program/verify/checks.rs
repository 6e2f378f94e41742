//! A caller's checks of each value and instruction, run during verification.

use crate::fenced::structure::MemberChecks;
use crate::raw::RawTable;
use crate::{InstructionRef, ValueRef};

/// What a caller checks of each value and each instruction of a program,
/// run by [`ProgramView::with_checks`](crate::ProgramView::with_checks)
/// while the structural verification passes them: each element is read
/// once, by the walk that proves it well formed, instead of again by a
/// second pass over a program of perhaps a hundred thousand of them.
///
/// A check sees an element whose own tables the walk has just verified.
/// The rest of the buffer may not be verified yet, so a check that reads
/// beyond its element must do so with reads that are safe on any bytes (as
/// the views handed to it are: every one of their reads is bounds-checked).
/// Its verdict counts only when the whole buffer verifies; then it read
/// exactly what the views of the verified program read.
///
/// Calls may come from two threads at once (long vectors are walked in
/// chunks by two), each element at most once, in no set order; every
/// element is checked when all checks pass, and once one fails the walk
/// may stop calling them (the verdict is known).
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use pte_schema::{ElementChecks, InstructionRef, ProgramView, ValueRef};
///
/// /// Counts tensors, and refuses any instruction that is not a kernel call.
/// struct Tensors(AtomicUsize);
/// impl ElementChecks for Tensors {
///     fn value(&self, _plan: usize, _index: usize, v: ValueRef<'_>) -> bool {
///         if matches!(v, ValueRef::Tensor(_)) {
///             self.0.fetch_add(1, Ordering::Relaxed);
///         }
///         true
///     }
///     fn instruction(&self, _plan: usize, i: InstructionRef<'_>) -> bool {
///         matches!(i, InstructionRef::KernelCall { .. })
///     }
/// }
/// let b = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let tensors = Tensors(AtomicUsize::new(0));
/// let (view, passed) = ProgramView::with_checks(&b, &Default::default(), &tensors)?;
/// assert!(passed);
/// let plan = view.plan(0).unwrap();
/// let expected = plan.value_refs().filter(|v| matches!(v, ValueRef::Tensor(_))).count();
/// assert_eq!(tensors.0.load(Ordering::Relaxed), expected);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ElementChecks: MemberChecks {
    /// Whether value `index` of plan `plan` passes.
    fn value(&self, plan: usize, index: usize, value: ValueRef<'_>) -> bool;

    /// Whether an instruction of plan `plan` (of any of its chains) passes.
    fn instruction(&self, plan: usize, instruction: InstructionRef<'_>) -> bool;

    /// [`ElementChecks::instruction`], told where the instruction is:
    /// `[chain, index]`, its chain in the plan and its index in that
    /// chain's instructions. The walk calls this one; a check that needs
    /// the position (to order what it gathers) overrides it.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use pte_schema::{ElementChecks, InstructionRef, ProgramView, ValueRef};
    ///
    /// /// The highest instruction index seen, plus one.
    /// struct Last(AtomicUsize);
    /// impl ElementChecks for Last {
    ///     fn value(&self, _: usize, _: usize, _: ValueRef<'_>) -> bool {
    ///         true
    ///     }
    ///     fn instruction(&self, _: usize, _: InstructionRef<'_>) -> bool {
    ///         true
    ///     }
    ///     fn instruction_at(&self, _: usize, [_, index]: [usize; 2], _: InstructionRef<'_>) -> bool {
    ///         self.0.fetch_max(index + 1, Ordering::Relaxed);
    ///         true
    ///     }
    /// }
    /// let b = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let last = Last(AtomicUsize::new(0));
    /// let (view, passed) = ProgramView::with_checks(&b, &Default::default(), &last)?;
    /// assert!(passed);
    /// let chain = view.plan(0).unwrap().chains().unwrap().next().unwrap();
    /// assert_eq!(last.0.load(Ordering::Relaxed), chain.instructions().unwrap().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn instruction_at(&self, plan: usize, at: [usize; 2], instruction: InstructionRef<'_>) -> bool {
        let _ = at;
        self.instruction(plan, instruction)
    }
}

/// The walk's view of every checker: the tag and table it passes become the
/// typed element the checker reads (inlined into each checker's own code).
impl<T: ElementChecks + ?Sized> MemberChecks for T {
    #[inline(always)]
    fn value_member(&self, plan: usize, index: usize, tag: u8, table: Option<RawTable<'_>>) -> bool {
        self.value(plan, index, ValueRef::from_member(tag, table))
    }

    #[inline(always)]
    fn instruction_member(&self, plan: usize, at: [usize; 2], tag: u8, table: Option<RawTable<'_>>) -> bool {
        self.instruction_at(plan, at, InstructionRef::from_member(tag, table))
    }
}
