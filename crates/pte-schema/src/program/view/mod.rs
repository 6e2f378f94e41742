//! Lazy, zero-copy views of a verified program: read the parts you need
//! (the segment table, one method's signature, one value) without decoding
//! the whole model. Everything returned borrows from the input buffer.
//!
//! `items` has the views of values, tensors, chains and delegates, `devices`
//! device placement, `raw` the one-vtable-lookup field reads they all use,
//! and `preview` the few reads a buffer allows before it is verified.

pub(crate) mod devices;
pub(crate) mod items;
pub(crate) mod preview;

use crate::fenced::et;
use crate::fenced::structure::Findings;
use crate::limits::Limits;
use crate::program::codec::decode::{evalue, outline, plan, subsegment};
use crate::program::model::{DataSegment, EValue, ExecutionPlan, Program, SubsegmentOffsets};
use crate::program::verify::verify_root_found;
use crate::ElementChecks;
use pte_core::Result;

/// A verified program buffer, read on demand.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let region = &bytes[..1616]; // the flatbuffer region (the eh00 header's program_size)
/// let view = pte_schema::ProgramView::new(region, &Default::default())?;
/// assert_eq!(view.plan_count(), 1);
/// let forward = view.plan(0).unwrap();
/// assert_eq!(forward.name(), Some("forward"));
/// assert_eq!(forward.value_count(), 11);
/// assert_eq!(view.segments().count(), 1);
/// assert_eq!(view.to_model()?, pte_schema::decode_program(region, &Default::default())?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct ProgramView<'a> {
    pub(crate) root: et::Program<'a>,
    found: Findings,
}

impl<'a> ProgramView<'a> {
    /// Checks the identifier and verifies `buf` within `limits`.
    ///
    /// ```
    /// assert!(pte_schema::ProgramView::new(b"not a program", &Default::default()).is_err());
    /// ```
    pub fn new(buf: &'a [u8], limits: &Limits) -> Result<Self> {
        let (root, found) = verify_root_found(buf, limits, None)?;
        Ok(ProgramView { root, found })
    }

    /// A view of a root verified elsewhere (`ProgramJson`).
    pub(crate) fn from_verified(root: et::Program<'a>, found: Findings) -> Self {
        ProgramView { root, found }
    }

    /// [`ProgramView::new`], running `checks` on every value and instruction
    /// as the verification passes it; also returns whether all of them
    /// passed (see [`ElementChecks`]).
    ///
    /// ```
    /// use pte_schema::{ElementChecks, InstructionRef, ProgramView, ValueRef};
    /// /// Refuses every program with a value that is an integer.
    /// struct NoInts;
    /// impl ElementChecks for NoInts {
    ///     fn value(&self, _: usize, _: usize, v: ValueRef<'_>) -> bool {
    ///         !matches!(v, ValueRef::Int(_))
    ///     }
    ///     fn instruction(&self, _: usize, _: InstructionRef<'_>) -> bool {
    ///         true
    ///     }
    /// }
    /// let b = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (view, passed) = ProgramView::with_checks(&b, &Default::default(), &NoInts)?;
    /// let ints = view.plan(0).unwrap().value_refs().any(|v| matches!(v, ValueRef::Int(_)));
    /// assert_eq!(passed, !ints);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_checks(buf: &'a [u8], limits: &Limits, checks: &dyn ElementChecks) -> Result<(Self, bool)> {
        let (root, found) = verify_root_found(buf, limits, Some(checks))?;
        Ok((ProgramView { root, found }, !found.checks_failed))
    }

    /// Bytes of the longest string anywhere in the program (names, keys,
    /// operator names, stack frames, ...), learnt while verifying: when it is
    /// within a key-length limit, no key can exceed it.
    ///
    /// ```
    /// use pte_schema::*;
    /// let p = Program { execution_plan: Some(vec![ExecutionPlan {
    ///     name: Some("forward".into()),
    ///     operators: Some(vec![Operator { name: Some("x".repeat(300)), overload: None }]),
    ///     ..Default::default() }]), ..Default::default() };
    /// let bytes = encode_program(&p, &EncodeOptions::default())?;
    /// assert_eq!(ProgramView::new(&bytes, &Limits::default())?.longest_string(), 300);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn longest_string(&self) -> usize {
        self.found.longest_string
    }

    /// Whether some value or instruction carries a union tag this schema
    /// does not declare (such a program can be viewed and copied, but not
    /// decoded into the model), learnt while verifying.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(!pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_unknown_union_tag());
    /// ```
    #[inline]
    pub fn has_unknown_union_tag(&self) -> bool {
        self.found.unknown_union_tag
    }

    /// `Program.version`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().version(), 0);
    /// ```
    #[inline]
    pub fn version(&self) -> u32 {
        self.root.version()
    }

    /// Number of execution plans.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("multi_method/model.pte")).unwrap();
    /// // with an eh00 header, the flatbuffer region ends at program_size (bytes 16..24)
    /// let program_size = u64::from_le_bytes(b[16..24].try_into().unwrap()) as usize;
    /// let view = pte_schema::ProgramView::new(&b[..program_size], &Default::default()).unwrap();
    /// assert_eq!(view.plan_count(), 2);
    /// ```
    #[inline]
    pub fn plan_count(&self) -> usize {
        self.root.execution_plan().map_or(0, |v| v.len())
    }

    /// Plan `i`, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().plan(5).is_none());
    /// ```
    #[inline]
    pub fn plan(&self, i: usize) -> Option<PlanView<'a>> {
        let plans = self.root.execution_plan()?;
        let p = (i < plans.len()).then(|| plans.get(i))?;
        Some(PlanView { index: i, plan: p })
    }

    /// The segment table.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.segments().next().map(|s| s.size), Some(0));
    /// ```
    #[inline]
    pub fn segments(&self) -> impl Iterator<Item = DataSegment> + 'a + use<'a> {
        self.root
            .segments()
            .into_iter()
            .flat_map(|v| v.iter())
            .map(|s| DataSegment { offset: s.offset(), size: s.size() })
    }

    /// The constant segment's table.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.constant_segment().unwrap().offsets, Some(vec![0]));
    /// ```
    #[inline]
    pub fn constant_segment(&self) -> Option<SubsegmentOffsets> {
        self.root.constant_segment().map(subsegment)
    }

    /// Named data as `(key, segment index)` pairs, borrowing the keys.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().named_data().count(), 0);
    /// ```
    #[inline]
    pub fn named_data(&self) -> impl Iterator<Item = (Option<&'a str>, u32)> + 'a + use<'a> {
        self.root.named_data().into_iter().flat_map(|v| v.iter()).map(|n| (n.key(), n.segment_index()))
    }

    /// Decodes the whole program into the owned model.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let p = pte_schema::ProgramView::new(&b, &Default::default()).unwrap().to_model().unwrap();
    /// assert_eq!(p.plans().len(), 1);
    /// ```
    pub fn to_model(&self) -> Result<Program<'a>> {
        crate::program::codec::decode::program(self.root)
    }
}

/// One execution plan, read on demand.
#[derive(Clone, Copy)]
pub struct PlanView<'a> {
    index: usize,
    pub(crate) plan: et::ExecutionPlan<'a>,
}

impl<'a> PlanView<'a> {
    /// The method name.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().name(), Some("forward"));
    /// ```
    #[inline]
    pub fn name(&self) -> Option<&'a str> {
        self.plan.name()
    }

    /// Number of values.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(v.plan(0).unwrap().value_count() > 0);
    /// ```
    #[inline]
    pub fn value_count(&self) -> usize {
        self.plan.values().map_or(0, |v| v.len())
    }

    /// Value indices of the inputs.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().inputs().len(), 2);
    /// ```
    pub fn inputs(&self) -> Vec<i32> {
        self.plan.inputs().map(|v| v.iter().collect()).unwrap_or_default()
    }

    /// Value indices of the outputs.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().outputs().len(), 1);
    /// ```
    pub fn outputs(&self) -> Vec<i32> {
        self.plan.outputs().map(|v| v.iter().collect()).unwrap_or_default()
    }

    /// Value `j`, decoded alone.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(matches!(v.plan(0).unwrap().value(0).unwrap().unwrap().val, Some(pte_schema::KernelTypes::Tensor(_))));
    /// ```
    pub fn value(&self, j: usize) -> Option<Result<EValue>> {
        let values = self.plan.values()?;
        let v = (j < values.len()).then(|| values.get(j))?;
        Some(evalue(self.index, j, v))
    }

    /// The whole plan, decoded.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().to_model().unwrap().name.as_deref(), Some("forward"));
    /// ```
    pub fn to_model(&self) -> Result<ExecutionPlan> {
        plan(self.index, self.plan)
    }

    /// The plan decoded without what grows with the method: its values and
    /// its chains' instructions are `None` (read them with
    /// [`PlanView::value`] and [`ChainView::instructions`](crate::ChainView::instructions)).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let (outline, whole) = (v.plan(0).unwrap().outline().unwrap(), v.plan(0).unwrap().to_model().unwrap());
    /// assert!(outline.values.is_none() && outline.chains.as_ref().unwrap()[0].instructions.is_none());
    /// assert_eq!((outline.operators, outline.inputs), (whole.operators, whole.inputs));
    /// ```
    pub fn outline(&self) -> Result<ExecutionPlan> {
        outline(self.index, self.plan)
    }
}
