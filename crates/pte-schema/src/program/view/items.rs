//! The rest of the zero-copy views: values, tensors, chains, instructions,
//! operators and delegates, read in place from a verified buffer. They let a
//! checker or a summary walk a program of any size with no heap of its own;
//! the owned model ([`crate::ProgramView::to_model`]) is for editing.

use crate::fenced::et;
use crate::program::model::{AllocationDetails, BackendDelegateDataReference, DataLocation, DataSegment};
use crate::program::view::{PlanView, ProgramView};
use crate::raw::{List, ListItem, RawTable};
use crate::{ScalarType, TensorDataLocation, TensorShapeDynamism};

fn list<'a, T: ListItem>(v: Option<flatbuffers::Vector<'a, T>>) -> Option<List<'a, T>> {
    v.map(List::from_vector)
}

/// Elements `range` of a vector of tables (clipped to its length; none when
/// it is absent), each read by `read`.
fn clipped<'a, T: flatbuffers::Follow<'a> + 'a, R>(
    v: Option<flatbuffers::Vector<'a, T>>,
    range: std::ops::Range<usize>,
    read: fn(T::Inner) -> R,
) -> impl Iterator<Item = R> + 'a
where
    R: 'a,
{
    v.into_iter().flat_map(move |v| {
        let n = v.len();
        (range.start.min(n)..range.end.min(n)).map(move |i| read(v.get(i)))
    })
}

/// One value's payload, read in place (the view counterpart of
/// [`crate::KernelTypes`]; `None` is an unset union, `Unknown` a tag the
/// schema does not declare).
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// assert!(matches!(v.plan(0).unwrap().value_ref(0), Some(pte_schema::ValueRef::Tensor(_))));
/// ```
#[derive(Clone, Copy)]
#[allow(missing_docs)]
pub enum ValueRef<'a> {
    None,
    Null,
    Int(i64),
    Bool(bool),
    Double(f64),
    Tensor(TensorView<'a>),
    String(Option<&'a str>),
    IntList(Option<List<'a, i64>>),
    DoubleList(Option<List<'a, f64>>),
    BoolList(Option<List<'a, bool>>),
    TensorList(Option<List<'a, i32>>),
    OptionalTensorList(Option<List<'a, i32>>),
    Unknown(u8),
}

impl<'a> ValueRef<'a> {
    #[inline]
    fn new(v: et::EValue<'a>) -> Self {
        Self::of_table(RawTable::new(v._tab))
    }

    /// The value an `EValue` table holds.
    #[inline]
    pub(crate) fn of_table(v: RawTable<'a>) -> Self {
        let tag = v.u8(et::EValue::VT_VAL_TYPE, et::KernelTypes::NONE.0);
        Self::from_member(tag, if tag == 0 { None } else { v.table(et::EValue::VT_VAL) })
    }

    /// The value whose union has tag `tag` and table `val`.
    #[inline(always)]
    pub(crate) fn from_member(tag: u8, val: Option<RawTable<'a>>) -> Self {
        use et::KernelTypes as K;
        let tag = K(tag);
        match tag {
            K::NONE => return ValueRef::None,
            K::Null => return ValueRef::Null,
            K(t) if t > K::ENUM_MAX => return ValueRef::Unknown(t),
            _ => {}
        }
        // a declared tag with no value reads as unset, as the generated
        // `val_as_*` accessors read it
        let Some(val) = val else { return ValueRef::None };
        match tag {
            K::Int => ValueRef::Int(val.i64(et::Int::VT_INT_VAL, 0)),
            K::Bool => ValueRef::Bool(val.bool(et::Bool::VT_BOOL_VAL)),
            K::Double => ValueRef::Double(val.f64(et::Double::VT_DOUBLE_VAL, 0.0)),
            K::Tensor => ValueRef::Tensor(TensorView { t: val }),
            K::String => ValueRef::String(val.str(et::String::VT_STRING_VAL)),
            K::IntList => ValueRef::IntList(val.list(et::IntList::VT_ITEMS)),
            K::DoubleList => ValueRef::DoubleList(val.list(et::DoubleList::VT_ITEMS)),
            K::BoolList => ValueRef::BoolList(val.list(et::BoolList::VT_ITEMS)),
            K::TensorList => ValueRef::TensorList(val.list(et::TensorList::VT_ITEMS)),
            K::OptionalTensorList => ValueRef::OptionalTensorList(val.list(et::OptionalTensorList::VT_ITEMS)),
            other => ValueRef::Unknown(other.0),
        }
    }
}

/// A tensor's metadata, read in place.
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let Some(pte_schema::ValueRef::Tensor(t)) = v.plan(0).unwrap().value_ref(0) else { panic!() };
/// assert_eq!(t.scalar_type(), pte_schema::ScalarType::FLOAT);
/// assert_eq!(t.nbytes(), Some(t.numel().unwrap() * 4));
/// ```
#[derive(Clone, Copy)]
pub struct TensorView<'a> {
    pub(crate) t: RawTable<'a>,
}

type T<'a> = et::Tensor<'a>;
type Extra<'a> = et::ExtraTensorInfo<'a>;

#[allow(missing_docs)] // each accessor reads the schema field of the same name
impl<'a> TensorView<'a> {
    #[inline]
    pub fn scalar_type(&self) -> ScalarType {
        ScalarType(self.t.i8(T::VT_SCALAR_TYPE, et::ScalarType::BYTE.0))
    }
    #[inline]
    pub fn storage_offset(&self) -> i32 {
        self.t.i32(T::VT_STORAGE_OFFSET, 0)
    }
    #[inline]
    pub fn sizes(&self) -> Option<List<'a, i32>> {
        self.t.list(T::VT_SIZES)
    }
    #[inline]
    pub fn dim_order(&self) -> Option<&'a [u8]> {
        self.t.bytes(T::VT_DIM_ORDER)
    }
    #[inline]
    pub fn requires_grad(&self) -> bool {
        self.t.bool(T::VT_REQUIRES_GRAD)
    }
    #[inline]
    pub fn data_buffer_idx(&self) -> u32 {
        self.t.u32(T::VT_DATA_BUFFER_IDX, 0)
    }
    #[inline(always)]
    pub fn allocation_info(&self) -> Option<AllocationDetails> {
        type A<'a> = et::AllocationDetails<'a>;
        self.t.table(T::VT_ALLOCATION_INFO).map(|a| AllocationDetails {
            memory_id: a.u32(A::VT_MEMORY_ID, 0),
            memory_offset_low: a.u32(A::VT_MEMORY_OFFSET_LOW, 0),
            memory_offset_high: a.u32(A::VT_MEMORY_OFFSET_HIGH, 0),
        })
    }
    #[inline]
    pub fn shape_dynamism(&self) -> TensorShapeDynamism {
        TensorShapeDynamism(self.t.i8(T::VT_SHAPE_DYNAMISM, et::TensorShapeDynamism::STATIC.0))
    }
    /// `extra_tensor_info.location`, when the extra info is present.
    #[inline(always)]
    pub fn location(&self) -> Option<TensorDataLocation> {
        self.extra().map(|e| TensorDataLocation(e.i8(Extra::VT_LOCATION, et::TensorDataLocation::SEGMENT.0)))
    }
    /// `extra_tensor_info.fully_qualified_name`.
    #[inline]
    pub fn fqn(&self) -> Option<&'a str> {
        self.extra()?.str(Extra::VT_FULLY_QUALIFIED_NAME)
    }
    /// Whether the data lives in external data (`.ptd`), as [`crate::Tensor::is_external`].
    #[inline]
    pub fn is_external(&self) -> bool {
        self.location() == Some(TensorDataLocation::EXTERNAL)
    }
    /// Number of elements, as [`crate::Tensor::numel`].
    #[inline]
    pub fn numel(&self) -> Option<u64> {
        self.sizes()?.iter().try_fold(1u64, |acc, s| acc.checked_mul(u64::try_from(s).ok()?))
    }
    /// Bytes of data, as [`crate::Tensor::nbytes`].
    #[inline]
    pub fn nbytes(&self) -> Option<u64> {
        self.numel()?.checked_mul(self.scalar_type().element_size()?)
    }
    #[inline]
    pub(crate) fn extra(&self) -> Option<RawTable<'a>> {
        self.t.table(T::VT_EXTRA_TENSOR_INFO)
    }
}

/// An instruction's arguments, read in place (the view counterpart of
/// [`crate::InstructionArguments`]; `None` is an unset union).
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let chain = v.plan(0).unwrap().chains().unwrap().next().unwrap();
/// let first = chain.instructions().unwrap().next().unwrap();
/// assert!(matches!(first, pte_schema::InstructionRef::KernelCall { .. }));
/// ```
#[derive(Clone, Copy)]
#[allow(missing_docs)]
pub enum InstructionRef<'a> {
    None,
    KernelCall { op_index: i32, args: Option<List<'a, i32>> },
    DelegateCall { delegate_index: i32, args: Option<List<'a, i32>> },
    MoveCall { move_from: i32, move_to: i32 },
    JumpFalseCall { cond_value_index: i32, destination_instruction: i32 },
    FreeCall { value_index: i32 },
    Unknown(u8),
}

impl<'a> InstructionRef<'a> {
    #[inline]
    fn new(i: et::Instruction<'a>) -> Self {
        let i = RawTable::new(i._tab);
        let tag = i.u8(et::Instruction::VT_INSTR_ARGS_TYPE, et::InstructionArguments::NONE.0);
        Self::from_member(tag, if tag == 0 { None } else { i.table(et::Instruction::VT_INSTR_ARGS) })
    }

    /// The instruction whose union has tag `tag` and table `a`.
    #[inline(always)]
    pub(crate) fn from_member(tag: u8, a: Option<RawTable<'a>>) -> Self {
        use et::InstructionArguments as K;
        let tag = K(tag);
        match tag {
            K::NONE => return InstructionRef::None,
            K(t) if t > K::ENUM_MAX => return InstructionRef::Unknown(t),
            _ => {}
        }
        // a declared tag with no value reads as unset, as the generated
        // `instr_args_as_*` accessors read it
        let Some(a) = a else { return InstructionRef::None };
        match tag {
            K::KernelCall => InstructionRef::KernelCall {
                op_index: a.i32(et::KernelCall::VT_OP_INDEX, 0),
                args: a.list(et::KernelCall::VT_ARGS),
            },
            K::DelegateCall => InstructionRef::DelegateCall {
                delegate_index: a.i32(et::DelegateCall::VT_DELEGATE_INDEX, 0),
                args: a.list(et::DelegateCall::VT_ARGS),
            },
            K::MoveCall => InstructionRef::MoveCall {
                move_from: a.i32(et::MoveCall::VT_MOVE_FROM, 0),
                move_to: a.i32(et::MoveCall::VT_MOVE_TO, 0),
            },
            K::JumpFalseCall => InstructionRef::JumpFalseCall {
                cond_value_index: a.i32(et::JumpFalseCall::VT_COND_VALUE_INDEX, 0),
                destination_instruction: a.i32(et::JumpFalseCall::VT_DESTINATION_INSTRUCTION, 0),
            },
            K::FreeCall => InstructionRef::FreeCall { value_index: a.i32(et::FreeCall::VT_VALUE_INDEX, 0) },
            other => InstructionRef::Unknown(other.0),
        }
    }
}

/// One chain, read in place.
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let chain = v.plan(0).unwrap().chains().unwrap().next().unwrap();
/// assert_eq!(chain.instruction_count(), chain.instructions().unwrap().count());
/// ```
#[derive(Clone, Copy)]
pub struct ChainView<'a> {
    c: et::Chain<'a>,
}

impl<'a> ChainView<'a> {
    /// The instructions, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(v.plan(0).unwrap().chains().unwrap().next().unwrap().instructions().is_some());
    /// ```
    #[inline]
    pub fn instructions(&self) -> Option<impl ExactSizeIterator<Item = InstructionRef<'a>> + 'a + use<'a>> {
        self.c.instructions().map(|v| v.iter().map(InstructionRef::new))
    }

    /// Instructions `range` in order (clipped to the instructions there
    /// are; none when the vector is absent).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let chain = v.plan(0).unwrap().chains().unwrap().next().unwrap();
    /// assert_eq!(chain.instructions_in(0..1).count(), 1);
    /// ```
    #[inline]
    pub fn instructions_in(
        &self,
        range: std::ops::Range<usize>,
    ) -> impl Iterator<Item = InstructionRef<'a>> + 'a + use<'a> {
        clipped(self.c.instructions(), range, InstructionRef::new)
    }

    /// Number of instructions (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(v.plan(0).unwrap().chains().unwrap().next().unwrap().instruction_count() > 0);
    /// ```
    #[inline]
    pub fn instruction_count(&self) -> usize {
        self.c.instructions().map_or(0, |v| v.len())
    }
}

/// One backend delegate entry of a plan, read in place.
///
/// ```
/// # let b = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte")).unwrap();
/// # let size = u64::from_le_bytes(b[16..24].try_into().unwrap()) as usize;
/// # let v = pte_schema::ProgramView::new(&b[..size], &Default::default()).unwrap();
/// let d = v.plan(0).unwrap().delegates().unwrap().next().unwrap();
/// assert_eq!(d.id(), Some("XnnpackBackend"));
/// assert!(d.processed().is_some() && d.compile_specs().is_some());
/// ```
#[derive(Clone, Copy)]
pub struct DelegateView<'a> {
    d: et::BackendDelegate<'a>,
}

#[allow(missing_docs)] // each accessor reads the schema field of the same name
impl<'a> DelegateView<'a> {
    #[inline]
    pub fn id(&self) -> Option<&'a str> {
        self.d.id()
    }
    #[inline]
    pub fn processed(&self) -> Option<BackendDelegateDataReference> {
        self.d
            .processed()
            .map(|r| BackendDelegateDataReference { location: DataLocation(r.location().0), index: r.index() })
    }
    /// `(key, value)` of each compile spec.
    #[inline]
    pub fn compile_specs(
        &self,
    ) -> Option<impl ExactSizeIterator<Item = (Option<&'a str>, Option<&'a [u8]>)> + 'a + use<'a>> {
        self.d.compile_specs().map(|v| v.iter().map(|c| (c.key(), c.value().map(|v| v.bytes()))))
    }
}

impl<'a> ProgramView<'a> {
    /// Whether `execution_plan` is present.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_execution_plan());
    /// ```
    #[inline]
    pub fn has_execution_plan(&self) -> bool {
        self.root.execution_plan().is_some()
    }

    /// Whether `segments` is present.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_segments());
    /// ```
    #[inline]
    pub fn has_segments(&self) -> bool {
        self.root.segments().is_some()
    }

    /// Whether `named_data` is present.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(!pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_named_data());
    /// ```
    #[inline]
    pub fn has_named_data(&self) -> bool {
        self.root.named_data().is_some()
    }

    /// Number of entries of the segment table.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().segment_count(), 1);
    /// ```
    #[inline]
    pub fn segment_count(&self) -> usize {
        self.root.segments().map_or(0, |v| v.len())
    }

    /// Segment `i` of the table, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.segment(0).map(|s| s.size), Some(0));
    /// assert!(v.segment(1).is_none());
    /// ```
    #[inline]
    pub fn segment(&self, i: usize) -> Option<DataSegment> {
        let v = self.root.segments()?;
        (i < v.len()).then(|| v.get(i)).map(|s| DataSegment { offset: s.offset(), size: s.size() })
    }

    /// Number of named-data entries (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().named_data_count(), 0);
    /// ```
    #[inline]
    pub fn named_data_count(&self) -> usize {
        self.root.named_data().map_or(0, |v| v.len())
    }

    /// The constant segment as `(segment_index, offsets)`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// let (seg, offsets) = pte_schema::ProgramView::new(&b, &Default::default()).unwrap().constant_offsets().unwrap();
    /// assert_eq!((seg, offsets.map(|o| o.len())), (0, Some(1)));
    /// ```
    #[inline]
    pub fn constant_offsets(&self) -> Option<(u32, Option<List<'a, u64>>)> {
        self.root.constant_segment().map(|s| (s.segment_index(), list(s.offsets())))
    }

    /// Each mutable data segment as `(segment_index, offsets)`; `None` when
    /// the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().mutable_offsets().is_none());
    /// ```
    #[inline]
    pub fn mutable_offsets(
        &self,
    ) -> Option<impl ExactSizeIterator<Item = (u32, Option<List<'a, u64>>)> + 'a + use<'a>> {
        self.root.mutable_data_segments().map(|v| v.iter().map(|s| (s.segment_index(), list(s.offsets()))))
    }

    /// The deprecated inline constants (`constant_buffer[].storage`); `None`
    /// when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().constant_buffer().map(|c| c.len()), Some(0));
    /// ```
    #[inline]
    pub fn constant_buffer(&self) -> Option<impl ExactSizeIterator<Item = Option<&'a [u8]>> + Clone + 'a + use<'a>> {
        self.root.constant_buffer().map(|v| v.iter().map(|b| b.storage().map(|s| s.bytes())))
    }

    /// Inline constant `i` (`constant_buffer[i].storage`): `None` when
    /// there is no entry `i`, `Some(None)` when the entry has no storage.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().constant_buffer_entry(0).is_none());
    /// ```
    #[inline]
    pub fn constant_buffer_entry(&self, i: usize) -> Option<Option<&'a [u8]>> {
        let v = self.root.constant_buffer()?;
        (i < v.len()).then(|| v.get(i).storage().map(|s| s.bytes()))
    }

    /// Inline delegate blob `i` (`backend_delegate_data[i].data`): `None`
    /// when there is no entry `i`, `Some(None)` when the entry has no data.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().inline_delegate_data(0).is_none());
    /// ```
    #[inline]
    pub fn inline_delegate_data(&self, i: usize) -> Option<Option<&'a [u8]>> {
        let v = self.root.backend_delegate_data()?;
        (i < v.len()).then(|| v.get(i).data().map(|d| d.bytes()))
    }

    /// Number of inline delegate blobs, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().inline_delegate_count(), Some(0));
    /// ```
    #[inline]
    pub fn inline_delegate_count(&self) -> Option<usize> {
        self.root.backend_delegate_data().map(|v| v.len())
    }
}

impl<'a> PlanView<'a> {
    /// Which of `values`, `inputs`, `outputs`, `non_const_buffer_sizes`,
    /// `chains`, `operators` and `delegates` are present, in that order.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().present(), [true; 7]);
    /// ```
    #[inline]
    pub fn present(&self) -> [bool; 7] {
        let p = &self.plan;
        [
            p.values().is_some(),
            p.inputs().is_some(),
            p.outputs().is_some(),
            p.non_const_buffer_sizes().is_some(),
            p.chains().is_some(),
            p.operators().is_some(),
            p.delegates().is_some(),
        ]
    }

    /// `inputs`, read in place.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().input_list().map(|l| l.len()), Some(2));
    /// ```
    #[inline]
    pub fn input_list(&self) -> Option<List<'a, i32>> {
        list(self.plan.inputs())
    }

    /// `outputs`, read in place.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().map(|l| l.len()), Some(1));
    /// ```
    #[inline]
    pub fn output_list(&self) -> Option<List<'a, i32>> {
        list(self.plan.outputs())
    }

    /// `non_const_buffer_sizes`, read in place.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().buffer_sizes().and_then(|s| s.get(0)), Some(0));
    /// ```
    #[inline]
    pub fn buffer_sizes(&self) -> Option<List<'a, i64>> {
        list(self.plan.non_const_buffer_sizes())
    }

    /// Value `j`, read in place; `None` when there is no value `j`.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert!(plan.value_ref(plan.value_count()).is_none());
    /// ```
    #[inline]
    pub fn value_ref(&self, j: usize) -> Option<ValueRef<'a>> {
        let v = self.plan.values()?;
        (j < v.len()).then(|| ValueRef::new(v.get(j)))
    }

    /// Every value in order (none when `values` is absent).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert_eq!(plan.value_refs().count(), plan.value_count());
    /// ```
    #[inline]
    pub fn value_refs(&self) -> impl Iterator<Item = ValueRef<'a>> + 'a + use<'a> {
        self.plan.values().into_iter().flat_map(|v| v.iter()).map(ValueRef::new)
    }

    /// Values `range` in order (clipped to the values there are), for a
    /// checker that walks parts of a long vector separately.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert_eq!(plan.value_refs_in(1..usize::MAX).count(), plan.value_count() - 1);
    /// ```
    #[inline]
    pub fn value_refs_in(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = ValueRef<'a>> + 'a + use<'a> {
        clipped(self.plan.values(), range, ValueRef::new)
    }

    /// The chains, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().chains().map(|c| c.len()), Some(1));
    /// ```
    #[inline]
    pub fn chains(&self) -> Option<impl ExactSizeIterator<Item = ChainView<'a>> + 'a + use<'a>> {
        self.plan.chains().map(|v| v.iter().map(|c| ChainView { c }))
    }

    /// Chain `i`, if it exists (read directly, however many come before it).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert!(plan.chain(0).is_some() && plan.chain(1).is_none());
    /// ```
    #[inline]
    pub fn chain(&self, i: usize) -> Option<ChainView<'a>> {
        self.plan.chains().filter(|v| i < v.len()).map(|v| ChainView { c: v.get(i) })
    }

    /// Number of operators (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().operator_count(), 1);
    /// ```
    #[inline]
    pub fn operator_count(&self) -> usize {
        self.plan.operators().map_or(0, |v| v.len())
    }

    /// Operator `i` as `(name, overload)`, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().operator(0), Some((Some("aten::add"), Some("out"))));
    /// ```
    #[inline]
    pub fn operator(&self, i: usize) -> Option<(Option<&'a str>, Option<&'a str>)> {
        let v = self.plan.operators()?;
        (i < v.len()).then(|| v.get(i)).map(|o| (o.name(), o.overload()))
    }

    /// The delegates, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(pte_testkit::corpus("add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().delegates().map(|d| d.len()), Some(0));
    /// ```
    #[inline]
    pub fn delegates(&self) -> Option<impl ExactSizeIterator<Item = DelegateView<'a>> + 'a + use<'a>> {
        self.plan.delegates().map(|v| v.iter().map(|d| DelegateView { d }))
    }
}
