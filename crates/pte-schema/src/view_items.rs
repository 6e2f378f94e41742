//! The rest of the zero-copy views: values, tensors, chains, instructions,
//! operators and delegates, read in place from a verified buffer. They let a
//! checker or a summary walk a program of any size with no heap of its own;
//! the owned model ([`crate::ProgramView::to_model`]) is for editing.

use flatbuffers::{Follow, Vector};

use crate::fenced::et;
use crate::model::{AllocationDetails, BackendDelegateDataReference, DataLocation, DataSegment};
use crate::view::{PlanView, ProgramView};
use crate::{ScalarType, TensorDataLocation, TensorShapeDynamism};

/// A vector of scalars (`i32`, `i64`, `u64`, `f64`, `bool`) in the buffer.
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
/// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let inputs = v.plan(0).unwrap().input_list().unwrap();
/// assert_eq!(inputs.len(), 2);
/// assert_eq!(inputs.iter().collect::<Vec<_>>(), v.plan(0).unwrap().inputs());
/// ```
#[derive(Clone, Copy)]
pub struct List<'a, T: 'a> {
    v: Vector<'a, T>,
}

impl<'a, T: Follow<'a> + 'a> List<'a, T> {
    /// Number of items.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().unwrap().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.v.len()
    }

    /// Whether the vector is empty.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(!v.plan(0).unwrap().output_list().unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    /// Item `i`, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let outputs = v.plan(0).unwrap().output_list().unwrap();
    /// assert!(outputs.get(0).is_some() && outputs.get(1).is_none());
    /// ```
    pub fn get(&self, i: usize) -> Option<T::Inner> {
        (i < self.v.len()).then(|| self.v.get(i))
    }

    /// The items in order.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().unwrap().iter().count(), 1);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T::Inner> + Clone + 'a {
        self.v.iter()
    }
}

fn list<'a, T: Follow<'a> + 'a>(v: Option<Vector<'a, T>>) -> Option<List<'a, T>> {
    v.map(|v| List { v })
}

/// One value's payload, read in place (the view counterpart of
/// [`crate::KernelTypes`]; `None` is an unset union, `Unknown` a tag the
/// schema does not declare).
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
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
    fn new(v: et::EValue<'a>) -> Self {
        use et::KernelTypes as K;
        let some = |x: Option<ValueRef<'a>>| x.unwrap_or(ValueRef::None);
        match v.val_type() {
            K::NONE => ValueRef::None,
            K::Null => ValueRef::Null,
            K::Int => some(v.val_as_int().map(|x| ValueRef::Int(x.int_val()))),
            K::Bool => some(v.val_as_bool().map(|x| ValueRef::Bool(x.bool_val()))),
            K::Double => some(v.val_as_double().map(|x| ValueRef::Double(x.double_val()))),
            K::Tensor => some(v.val_as_tensor().map(|t| ValueRef::Tensor(TensorView { t }))),
            K::String => some(v.val_as_string().map(|s| ValueRef::String(s.string_val()))),
            K::IntList => some(v.val_as_int_list().map(|l| ValueRef::IntList(list(l.items())))),
            K::DoubleList => some(v.val_as_double_list().map(|l| ValueRef::DoubleList(list(l.items())))),
            K::BoolList => some(v.val_as_bool_list().map(|l| ValueRef::BoolList(list(l.items())))),
            K::TensorList => some(v.val_as_tensor_list().map(|l| ValueRef::TensorList(list(l.items())))),
            K::OptionalTensorList => {
                some(v.val_as_optional_tensor_list().map(|l| ValueRef::OptionalTensorList(list(l.items()))))
            }
            other => ValueRef::Unknown(other.0),
        }
    }
}

/// A tensor's metadata, read in place.
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
/// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
/// let Some(pte_schema::ValueRef::Tensor(t)) = v.plan(0).unwrap().value_ref(0) else { panic!() };
/// assert_eq!(t.scalar_type(), pte_schema::ScalarType::FLOAT);
/// assert_eq!(t.nbytes(), Some(t.numel().unwrap() * 4));
/// ```
#[derive(Clone, Copy)]
pub struct TensorView<'a> {
    pub(crate) t: et::Tensor<'a>,
}

#[allow(missing_docs)] // each accessor reads the schema field of the same name
impl<'a> TensorView<'a> {
    pub fn scalar_type(&self) -> ScalarType {
        ScalarType(self.t.scalar_type().0)
    }
    pub fn storage_offset(&self) -> i32 {
        self.t.storage_offset()
    }
    pub fn sizes(&self) -> Option<List<'a, i32>> {
        list(self.t.sizes())
    }
    pub fn dim_order(&self) -> Option<&'a [u8]> {
        self.t.dim_order().map(|d| d.bytes())
    }
    pub fn requires_grad(&self) -> bool {
        self.t.requires_grad()
    }
    pub fn data_buffer_idx(&self) -> u32 {
        self.t.data_buffer_idx()
    }
    pub fn allocation_info(&self) -> Option<AllocationDetails> {
        self.t.allocation_info().map(|a| AllocationDetails {
            memory_id: a.memory_id(),
            memory_offset_low: a.memory_offset_low(),
            memory_offset_high: a.memory_offset_high(),
        })
    }
    pub fn shape_dynamism(&self) -> TensorShapeDynamism {
        TensorShapeDynamism(self.t.shape_dynamism().0)
    }
    /// `extra_tensor_info.location`, when the extra info is present.
    pub fn location(&self) -> Option<TensorDataLocation> {
        self.t.extra_tensor_info().map(|e| TensorDataLocation(e.location().0))
    }
    /// `extra_tensor_info.fully_qualified_name`.
    pub fn fqn(&self) -> Option<&'a str> {
        self.t.extra_tensor_info()?.fully_qualified_name()
    }
    /// Whether the data lives in external data (`.ptd`), as [`crate::Tensor::is_external`].
    pub fn is_external(&self) -> bool {
        self.location() == Some(TensorDataLocation::EXTERNAL)
    }
    /// Number of elements, as [`crate::Tensor::numel`].
    pub fn numel(&self) -> Option<u64> {
        self.sizes()?.iter().try_fold(1u64, |acc, s| acc.checked_mul(u64::try_from(s).ok()?))
    }
    /// Bytes of data, as [`crate::Tensor::nbytes`].
    pub fn nbytes(&self) -> Option<u64> {
        self.numel()?.checked_mul(self.scalar_type().element_size()?)
    }
}

/// An instruction's arguments, read in place (the view counterpart of
/// [`crate::InstructionArguments`]; `None` is an unset union).
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
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
    fn new(i: et::Instruction<'a>) -> Self {
        use et::InstructionArguments as T;
        let some = |x: Option<InstructionRef<'a>>| x.unwrap_or(InstructionRef::None);
        match i.instr_args_type() {
            T::NONE => InstructionRef::None,
            T::KernelCall => some(
                i.instr_args_as_kernel_call()
                    .map(|k| InstructionRef::KernelCall { op_index: k.op_index(), args: list(k.args()) }),
            ),
            T::DelegateCall => some(
                i.instr_args_as_delegate_call()
                    .map(|d| InstructionRef::DelegateCall { delegate_index: d.delegate_index(), args: list(d.args()) }),
            ),
            T::MoveCall => some(
                i.instr_args_as_move_call()
                    .map(|m| InstructionRef::MoveCall { move_from: m.move_from(), move_to: m.move_to() }),
            ),
            T::JumpFalseCall => some(i.instr_args_as_jump_false_call().map(|j| InstructionRef::JumpFalseCall {
                cond_value_index: j.cond_value_index(),
                destination_instruction: j.destination_instruction(),
            })),
            T::FreeCall => {
                some(i.instr_args_as_free_call().map(|f| InstructionRef::FreeCall { value_index: f.value_index() }))
            }
            other => InstructionRef::Unknown(other.0),
        }
    }
}

/// One chain, read in place.
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
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
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(v.plan(0).unwrap().chains().unwrap().next().unwrap().instructions().is_some());
    /// ```
    pub fn instructions(&self) -> Option<impl ExactSizeIterator<Item = InstructionRef<'a>> + 'a> {
        self.c.instructions().map(|v| v.iter().map(InstructionRef::new))
    }

    /// Number of instructions (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert!(v.plan(0).unwrap().chains().unwrap().next().unwrap().instruction_count() > 0);
    /// ```
    pub fn instruction_count(&self) -> usize {
        self.c.instructions().map_or(0, |v| v.len())
    }
}

/// One backend delegate entry of a plan, read in place.
///
/// ```
/// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/xnnpack_mlp/model.pte")).unwrap();
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
    pub fn id(&self) -> Option<&'a str> {
        self.d.id()
    }
    pub fn processed(&self) -> Option<BackendDelegateDataReference> {
        self.d
            .processed()
            .map(|r| BackendDelegateDataReference { location: DataLocation(r.location().0), index: r.index() })
    }
    /// `(key, value)` of each compile spec.
    pub fn compile_specs(&self) -> Option<impl ExactSizeIterator<Item = (Option<&'a str>, Option<&'a [u8]>)> + 'a> {
        self.d.compile_specs().map(|v| v.iter().map(|c| (c.key(), c.value().map(|v| v.bytes()))))
    }
}

impl<'a> ProgramView<'a> {
    /// Whether `execution_plan` is present.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_execution_plan());
    /// ```
    pub fn has_execution_plan(&self) -> bool {
        self.root.execution_plan().is_some()
    }

    /// Whether `segments` is present.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_segments());
    /// ```
    pub fn has_segments(&self) -> bool {
        self.root.segments().is_some()
    }

    /// Whether `named_data` is present.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert!(!pte_schema::ProgramView::new(&b, &Default::default()).unwrap().has_named_data());
    /// ```
    pub fn has_named_data(&self) -> bool {
        self.root.named_data().is_some()
    }

    /// Number of entries of the segment table.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().segment_count(), 1);
    /// ```
    pub fn segment_count(&self) -> usize {
        self.root.segments().map_or(0, |v| v.len())
    }

    /// Segment `i` of the table, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.segment(0).map(|s| s.size), Some(0));
    /// assert!(v.segment(1).is_none());
    /// ```
    pub fn segment(&self, i: usize) -> Option<DataSegment> {
        let v = self.root.segments()?;
        (i < v.len()).then(|| v.get(i)).map(|s| DataSegment { offset: s.offset(), size: s.size() })
    }

    /// Number of named-data entries (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().named_data_count(), 0);
    /// ```
    pub fn named_data_count(&self) -> usize {
        self.root.named_data().map_or(0, |v| v.len())
    }

    /// The constant segment as `(segment_index, offsets)`.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// let (seg, offsets) = pte_schema::ProgramView::new(&b, &Default::default()).unwrap().constant_offsets().unwrap();
    /// assert_eq!((seg, offsets.map(|o| o.len())), (0, Some(1)));
    /// ```
    pub fn constant_offsets(&self) -> Option<(u32, Option<List<'a, u64>>)> {
        self.root.constant_segment().map(|s| (s.segment_index(), list(s.offsets())))
    }

    /// Each mutable data segment as `(segment_index, offsets)`; `None` when
    /// the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().mutable_offsets().is_none());
    /// ```
    pub fn mutable_offsets(&self) -> Option<impl ExactSizeIterator<Item = (u32, Option<List<'a, u64>>)> + 'a> {
        self.root.mutable_data_segments().map(|v| v.iter().map(|s| (s.segment_index(), list(s.offsets()))))
    }

    /// The deprecated inline constants (`constant_buffer[].storage`); `None`
    /// when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().constant_buffer().map(|c| c.len()), Some(0));
    /// ```
    pub fn constant_buffer(&self) -> Option<impl ExactSizeIterator<Item = Option<&'a [u8]>> + Clone + 'a> {
        self.root.constant_buffer().map(|v| v.iter().map(|b| b.storage().map(|s| s.bytes())))
    }

    /// Inline delegate blob `i` (`backend_delegate_data[i].data`): `None`
    /// when there is no entry `i`, `Some(None)` when the entry has no data.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().inline_delegate_data(0).is_none());
    /// ```
    pub fn inline_delegate_data(&self, i: usize) -> Option<Option<&'a [u8]>> {
        let v = self.root.backend_delegate_data()?;
        (i < v.len()).then(|| v.get(i).data().map(|d| d.bytes()))
    }

    /// Number of inline delegate blobs, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// assert_eq!(pte_schema::ProgramView::new(&b, &Default::default()).unwrap().inline_delegate_count(), Some(0));
    /// ```
    pub fn inline_delegate_count(&self) -> Option<usize> {
        self.root.backend_delegate_data().map(|v| v.len())
    }
}

impl<'a> PlanView<'a> {
    /// Which of `values`, `inputs`, `outputs`, `non_const_buffer_sizes`,
    /// `chains`, `operators` and `delegates` are present, in that order.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().present(), [true; 7]);
    /// ```
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
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().input_list().map(|l| l.len()), Some(2));
    /// ```
    pub fn input_list(&self) -> Option<List<'a, i32>> {
        list(self.plan.inputs())
    }

    /// `outputs`, read in place.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().output_list().map(|l| l.len()), Some(1));
    /// ```
    pub fn output_list(&self) -> Option<List<'a, i32>> {
        list(self.plan.outputs())
    }

    /// `non_const_buffer_sizes`, read in place.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().buffer_sizes().and_then(|s| s.get(0)), Some(0));
    /// ```
    pub fn buffer_sizes(&self) -> Option<List<'a, i64>> {
        list(self.plan.non_const_buffer_sizes())
    }

    /// Value `j`, read in place; `None` when there is no value `j`.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert!(plan.value_ref(plan.value_count()).is_none());
    /// ```
    pub fn value_ref(&self, j: usize) -> Option<ValueRef<'a>> {
        let v = self.plan.values()?;
        (j < v.len()).then(|| ValueRef::new(v.get(j)))
    }

    /// Every value in order (none when `values` is absent).
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// let plan = v.plan(0).unwrap();
    /// assert_eq!(plan.value_refs().count(), plan.value_count());
    /// ```
    pub fn value_refs(&self) -> impl Iterator<Item = ValueRef<'a>> + 'a {
        self.plan.values().into_iter().flat_map(|v| v.iter()).map(ValueRef::new)
    }

    /// The chains, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().chains().map(|c| c.len()), Some(1));
    /// ```
    pub fn chains(&self) -> Option<impl ExactSizeIterator<Item = ChainView<'a>> + 'a> {
        self.plan.chains().map(|v| v.iter().map(|c| ChainView { c }))
    }

    /// Number of operators (0 when absent).
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().operator_count(), 1);
    /// ```
    pub fn operator_count(&self) -> usize {
        self.plan.operators().map_or(0, |v| v.len())
    }

    /// Operator `i` as `(name, overload)`, if it exists.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().operator(0), Some((Some("aten::add"), Some("out"))));
    /// ```
    pub fn operator(&self, i: usize) -> Option<(Option<&'a str>, Option<&'a str>)> {
        let v = self.plan.operators()?;
        (i < v.len()).then(|| v.get(i)).map(|o| (o.name(), o.overload()))
    }

    /// The delegates, `None` when the vector is absent.
    ///
    /// ```
    /// # let b = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte")).unwrap();
    /// # let v = pte_schema::ProgramView::new(&b, &Default::default()).unwrap();
    /// assert_eq!(v.plan(0).unwrap().delegates().map(|d| d.len()), Some(0));
    /// ```
    pub fn delegates(&self) -> Option<impl ExactSizeIterator<Item = DelegateView<'a>> + 'a> {
        self.plan.delegates().map(|v| v.iter().map(|d| DelegateView { d }))
    }
}
