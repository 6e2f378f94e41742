//! Reads of a program buffer before it is verified: the few facts a check
//! of its values and instructions needs (see [`crate::ElementChecks`]),
//! read in safe, bounds-checked code so that any bytes may be read.

use crate::fenced::et;
use crate::raw::{List, RawTable, RawTables};
use crate::ValueRef;

/// A program buffer that may not be verified yet, read in safe code.
///
/// On any bytes every read is bounds-checked and answers something (often
/// `None` or 0); once the buffer verifies, each answers exactly what the
/// [`ProgramView`](crate::ProgramView) method of the same name does. That
/// is what lets a caller gather what its [`ElementChecks`](crate::ElementChecks)
/// need before the verification that runs them.
///
/// ```
/// let b = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let preview = pte_schema::ProgramPreview::new(&b);
/// let view = pte_schema::ProgramView::new(&b, &Default::default())?;
/// assert_eq!(preview.plan_count(), view.plan_count());
/// assert_eq!(preview.constant_offsets().map(|(i, _)| i), view.constant_offsets().map(|(i, _)| i));
/// // garbage reads as nothing, without a panic
/// assert_eq!(pte_schema::ProgramPreview::new(&[0xff; 7]).plan_count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct ProgramPreview<'a> {
    root: Option<RawTable<'a>>,
}

type P<'a> = et::Program<'a>;
type E<'a> = et::ExecutionPlan<'a>;

impl<'a> ProgramPreview<'a> {
    /// The program whose flatbuffer starts at `buf[0]`.
    ///
    /// ```
    /// assert!(pte_schema::ProgramPreview::new(&[]).plan(0).is_none());
    /// ```
    pub fn new(buf: &'a [u8]) -> Self {
        ProgramPreview { root: RawTable::root(buf) }
    }

    fn tables(&self, slot: u16) -> Option<RawTables<'a>> {
        self.root?.tables(slot)
    }

    /// Number of execution plans.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramPreview::new(&b).plan_count(), 1);
    /// ```
    pub fn plan_count(&self) -> usize {
        self.tables(P::VT_EXECUTION_PLAN).map_or(0, |v| v.len())
    }

    /// Plan `i`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let p = pte_schema::ProgramPreview::new(&b);
    /// assert!(p.plan(0).is_some() && p.plan(1).is_none());
    /// ```
    pub fn plan(&self, i: usize) -> Option<PlanPreview<'a>> {
        self.tables(P::VT_EXECUTION_PLAN)?.get(i).map(|t| PlanPreview { t })
    }

    /// `segments[i].size`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
    /// let view = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let size = pte_schema::ProgramPreview::new(&b).segment_size(0);
    /// assert_eq!(size, view.segment(0).map(|s| s.size));
    /// ```
    pub fn segment_size(&self, i: usize) -> Option<u64> {
        let s = self.tables(P::VT_SEGMENTS)?.get(i)?;
        Some(s.u64(et::DataSegment::VT_SIZE, 0))
    }

    /// `constant_segment`: its segment index and offsets.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
    /// let (index, offsets) = pte_schema::ProgramPreview::new(&b).constant_offsets().unwrap();
    /// assert_eq!((index, offsets.map(|o| o.len())), (0, Some(3)));
    /// ```
    pub fn constant_offsets(&self) -> Option<(u32, Option<List<'a, u64>>)> {
        self.root?.table(P::VT_CONSTANT_SEGMENT).map(subsegment)
    }

    /// Number of deprecated inline constants (`constant_buffer`), `None`
    /// when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let view = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let count = pte_schema::ProgramPreview::new(&b).constant_buffer_count();
    /// assert_eq!(count, view.constant_buffer().map(|c| c.len()));
    /// ```
    pub fn constant_buffer_count(&self) -> Option<usize> {
        self.tables(P::VT_CONSTANT_BUFFER).map(|v| v.len())
    }

    /// The length of inline constant `i` (`constant_buffer[i].storage`, 0
    /// when it has none); `None` when there is no entry `i`. A tensor check
    /// reads it once per constant tensor, in place.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("legacy_inline_constants/model.pte")).unwrap();
    /// let view = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let preview = pte_schema::ProgramPreview::new(&b);
    /// let lens: Vec<u64> = view.constant_buffer().unwrap().map(|s| s.map_or(0, |s| s.len() as u64)).collect();
    /// assert!(lens.len() > 1);
    /// for (i, len) in lens.iter().enumerate() {
    ///     assert_eq!(preview.constant_buffer_len(i), Some(*len));
    /// }
    /// assert_eq!(preview.constant_buffer_len(lens.len()), None);
    /// ```
    pub fn constant_buffer_len(&self, i: usize) -> Option<u64> {
        let b = self.tables(P::VT_CONSTANT_BUFFER)?.get(i)?;
        Some(b.bytes(et::Buffer::VT_STORAGE).map_or(0, |s| s.len() as u64))
    }

    /// `mutable_data_segments[i]`: its segment index and offsets.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramPreview::new(&b).mutable_offsets(0).is_none());
    /// ```
    pub fn mutable_offsets(&self, i: usize) -> Option<(u32, Option<List<'a, u64>>)> {
        self.tables(P::VT_MUTABLE_DATA_SEGMENTS)?.get(i).map(subsegment)
    }
}

fn subsegment(s: RawTable<'_>) -> (u32, Option<List<'_, u64>>) {
    type S<'a> = et::SubsegmentOffsets<'a>;
    (s.u32(S::VT_SEGMENT_INDEX, 0), s.list(S::VT_OFFSETS))
}

/// One execution plan of a [`ProgramPreview`]; each read answers, once the
/// buffer verifies, what the [`PlanView`](crate::PlanView) method of the
/// same name does.
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("linear/model.pte")).unwrap();
/// let plan = pte_schema::ProgramPreview::new(&b).plan(0).unwrap();
/// assert_eq!(plan.value_count(), 11);
/// ```
#[derive(Clone, Copy)]
pub struct PlanPreview<'a> {
    t: RawTable<'a>,
}

impl<'a> PlanPreview<'a> {
    /// Number of values.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let p = pte_schema::ProgramPreview::new(&b);
    /// assert_eq!(p.plan(0).unwrap().value_count(), v.plan(0).unwrap().value_count());
    /// ```
    pub fn value_count(&self) -> usize {
        self.t.tables(E::VT_VALUES).map_or(0, |v| v.len())
    }

    /// Value `j`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let plan = pte_schema::ProgramPreview::new(&b).plan(0).unwrap();
    /// assert!(matches!(plan.value_ref(0), Some(pte_schema::ValueRef::Tensor(_))));
    /// ```
    pub fn value_ref(&self, j: usize) -> Option<ValueRef<'a>> {
        self.t.tables(E::VT_VALUES)?.get(j).map(ValueRef::of_table)
    }

    /// `non_const_buffer_sizes`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let plan = pte_schema::ProgramPreview::new(&b).plan(0).unwrap();
    /// assert_eq!(plan.buffer_sizes().map(|s| s.get(0)), Some(Some(0)));
    /// ```
    pub fn buffer_sizes(&self) -> Option<List<'a, i64>> {
        self.t.list(E::VT_NON_CONST_BUFFER_SIZES)
    }

    /// Number of operators.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramPreview::new(&b).plan(0).unwrap().operator_count(), 1);
    /// ```
    pub fn operator_count(&self) -> usize {
        self.t.tables(E::VT_OPERATORS).map_or(0, |v| v.len())
    }

    /// Operator `i`: its name and overload.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let plan = pte_schema::ProgramPreview::new(&b).plan(0).unwrap();
    /// assert_eq!(plan.operator(0).and_then(|(name, _)| name), Some("aten::add"));
    /// ```
    pub fn operator(&self, i: usize) -> Option<(Option<&'a str>, Option<&'a str>)> {
        let o = self.t.tables(E::VT_OPERATORS)?.get(i)?;
        Some((o.str(et::Operator::VT_NAME), o.str(et::Operator::VT_OVERLOAD)))
    }

    /// Number of delegates.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramPreview::new(&b).plan(0).unwrap().delegate_count(), 0);
    /// ```
    pub fn delegate_count(&self) -> usize {
        self.t.tables(E::VT_DELEGATES).map_or(0, |v| v.len())
    }
}
