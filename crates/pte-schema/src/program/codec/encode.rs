//! Encoding the owned model as an `ET12` flatbuffer.

use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, Vector, WIPOffset};

use crate::fenced::{create_aligned_bytes, et};
use crate::limits::Limits;
use crate::program::model::*;
use pte_core::{Error, ErrorKind, Result};

/// Largest alignment accepted for force-aligned byte vectors.
pub const MAX_INLINE_ALIGNMENT: u32 = 65536;

/// Largest flatbuffer the builder can produce (32-bit offsets, signed).
pub const MAX_FLATBUFFER_SIZE: u64 = (1 << 31) - 1;

/// Alignment of the two force-aligned vectors (exir's `constant_tensor_alignment`
/// and `delegate_alignment`).
///
/// ```
/// let o = pte_schema::EncodeOptions::default();
/// assert_eq!((o.tensor_alignment, o.delegate_alignment), (16, 16));
/// assert!(pte_schema::EncodeOptions { tensor_alignment: 12, ..o }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Alignment of `Buffer.storage` data (power of two, 1..=65536).
    pub tensor_alignment: u32,
    /// Alignment of `BackendDelegateInlineData.data` (power of two, 1..=65536).
    pub delegate_alignment: u32,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions { tensor_alignment: 16, delegate_alignment: 16 }
    }
}

impl EncodeOptions {
    /// Checks both alignments are powers of two within range.
    ///
    /// ```
    /// assert!(pte_schema::EncodeOptions::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<()> {
        for (name, a) in [("tensor_alignment", self.tensor_alignment), ("delegate_alignment", self.delegate_alignment)]
        {
            if !a.is_power_of_two() || a > MAX_INLINE_ALIGNMENT {
                return Err(Error::new(
                    ErrorKind::InvalidUse,
                    format!("{name} must be a power of two between 1 and {MAX_INLINE_ALIGNMENT}, got {a}"),
                ));
            }
        }
        Ok(())
    }

    /// The largest alignment any force-aligned vector may use; the extended
    /// header's padded length must be a multiple of it.
    ///
    /// ```
    /// let o = pte_schema::EncodeOptions { tensor_alignment: 64, delegate_alignment: 16 };
    /// assert_eq!(o.max_alignment(), 64);
    /// ```
    pub fn max_alignment(&self) -> u32 {
        self.tensor_alignment.max(self.delegate_alignment)
    }
}

/// Encodes `program` as a finished flatbuffer with identifier `ET12` and no
/// extended header. Deterministic: the same model always gives the same bytes.
///
/// Fails with [`ErrorKind::InvalidUse`] for bad options and
/// [`ErrorKind::LimitExceeded`] when the result would not fit in 2 GiB.
///
/// ```
/// let bytes = pte_schema::encode_program(&Default::default(), &Default::default()).unwrap();
/// assert_eq!(&bytes[4..8], b"ET12");
/// ```
pub fn encode_program(program: &Program<'_>, options: &EncodeOptions) -> Result<Vec<u8>> {
    encode_program_with(program, options, <[u8]>::to_vec)
}

/// Like [`encode_program`], but hands the finished bytes to `f` instead of
/// copying them into a new vector (the writer streams them out directly).
///
/// ```
/// let n = pte_schema::encode_program_with(&Default::default(), &Default::default(), |b| b.len()).unwrap();
/// assert!(n >= 8);
/// ```
pub fn encode_program_with<R>(program: &Program<'_>, options: &EncodeOptions, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
    options.validate()?;
    // Refused before anything is written: a file the readers' default
    // limits would refuse is no file to write.
    Limits::default().check_program(program)?;
    let estimate = size_upper_bound(program, options);
    if estimate > MAX_FLATBUFFER_SIZE {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("program flatbuffer could reach {estimate} bytes, over the 2 GiB flatbuffer limit; move inline data to segments"),
        ));
    }
    let cap = usize::try_from(estimate.min(1 << 20)).unwrap_or(1 << 20);
    let mut fbb = FlatBufferBuilder::with_capacity(cap);
    let root = Encoder { fbb: &mut fbb, options }.program(program);
    fbb.finish(root, Some("ET12"));
    Ok(f(fbb.finished_data()))
}

/// A conservative bound on the encoded size, checked before building because
/// the flatbuffers builder aborts (panics) past 2 GiB.
fn size_upper_bound(p: &Program<'_>, o: &EncodeOptions) -> u64 {
    const TABLE: u64 = 128;
    fn vec_len<T>(v: &Option<Vec<T>>, elem: u64) -> u64 {
        v.as_ref().map_or(0, |v| 16u64.saturating_add((v.len() as u64).saturating_mul(elem)))
    }
    fn s(v: &Option<String>) -> u64 {
        v.as_ref().map_or(0, |v| (v.len() as u64).saturating_add(16))
    }
    let mut n: u64 = 1024;
    let mut add = |x: u64| n = n.saturating_add(x);
    for b in p.constant_buffer.iter().flatten() {
        add(TABLE);
        add(u64::from(o.tensor_alignment));
        add(b.storage.as_ref().map_or(0, |d| d.len() as u64));
    }
    for b in p.backend_delegate_data.iter().flatten() {
        add(TABLE);
        add(u64::from(o.delegate_alignment));
        add(b.data.as_ref().map_or(0, |d| d.len() as u64));
    }
    add(vec_len(&p.segments, TABLE));
    add(vec_len(&p.mutable_data_segments, TABLE));
    for m in p.mutable_data_segments.iter().flatten().chain(p.constant_segment.iter()) {
        add(vec_len(&m.offsets, 8));
    }
    for nd in p.named_data.iter().flatten() {
        add(TABLE);
        add(s(&nd.key));
    }
    for plan in p.plans() {
        add(TABLE);
        add(s(&plan.name));
        if let Some(c) = &plan.container_meta_type {
            add(TABLE);
            add(s(&c.encoded_inp_str));
            add(s(&c.encoded_out_str));
        }
        add(vec_len(&plan.inputs, 4));
        add(vec_len(&plan.outputs, 4));
        add(vec_len(&plan.non_const_buffer_sizes, 8));
        add(vec_len(&plan.non_const_buffer_device, TABLE));
        for op in plan.operators.iter().flatten() {
            add(TABLE);
            add(s(&op.name));
            add(s(&op.overload));
        }
        for d in plan.delegates.iter().flatten() {
            add(3u64.saturating_mul(TABLE));
            add(s(&d.id));
            for c in d.compile_specs.iter().flatten() {
                add(TABLE);
                add(s(&c.key));
                add(vec_len(&c.value, 1));
            }
        }
        for v in plan.value_list() {
            add(2u64.saturating_mul(TABLE));
            match &v.val {
                Some(KernelTypes::Tensor(t)) => {
                    add(3u64.saturating_mul(TABLE));
                    add(vec_len(&t.sizes, 4));
                    add(vec_len(&t.dim_order, 1));
                    if let Some(e) = &t.extra_tensor_info {
                        add(s(&e.fully_qualified_name));
                    }
                }
                Some(KernelTypes::String(x)) => add(s(x)),
                Some(KernelTypes::IntList(x)) => add(vec_len(x, 8)),
                Some(KernelTypes::DoubleList(x)) => add(vec_len(x, 8)),
                Some(KernelTypes::BoolList(x)) => add(vec_len(x, 1)),
                Some(KernelTypes::TensorList(x)) | Some(KernelTypes::OptionalTensorList(x)) => add(vec_len(x, 4)),
                _ => {}
            }
        }
        for c in plan.chains.iter().flatten() {
            add(TABLE);
            add(vec_len(&c.inputs, 4));
            add(vec_len(&c.outputs, 4));
            for i in c.instructions.iter().flatten() {
                add(2u64.saturating_mul(TABLE));
                if let Some(
                    InstructionArguments::KernelCall { args, .. } | InstructionArguments::DelegateCall { args, .. },
                ) = &i.instr_args
                {
                    add(vec_len(args, 4));
                }
            }
            for fl in c.stacktrace.iter().flatten() {
                add(TABLE);
                for f in fl.items.iter().flatten() {
                    add(TABLE);
                    add(s(&f.filename));
                    add(s(&f.name));
                    add(s(&f.context));
                }
            }
        }
    }
    n
}

struct Encoder<'b, 'f> {
    fbb: &'b mut FlatBufferBuilder<'f>,
    options: &'b EncodeOptions,
}

type Off<T> = WIPOffset<T>;
type TableVec<'f, T> = WIPOffset<Vector<'f, ForwardsUOffset<T>>>;

impl<'f> Encoder<'_, 'f> {
    fn str(&mut self, s: &Option<String>) -> Option<Off<&'f str>> {
        s.as_deref().map(|s| self.fbb.create_string(s))
    }

    fn scalars<T: flatbuffers::Push + Copy>(&mut self, v: &Option<Vec<T>>) -> Option<Off<Vector<'f, T::Output>>> {
        v.as_deref().map(|v| self.fbb.create_vector(v))
    }

    fn tables<T, U>(
        &mut self,
        v: &Option<Vec<T>>,
        mut f: impl FnMut(&mut Self, &T) -> Off<U>,
    ) -> Option<TableVec<'f, U>> {
        let v = v.as_deref()?;
        let offs: Vec<Off<U>> = v.iter().map(|x| f(self, x)).collect();
        Some(self.fbb.create_vector(&offs))
    }

    // Every table adds its fields in schema order, children built first in
    // the same order: that is how exir's Python object API (`ProgramT.Pack`)
    // lays a program out, so a program read from an exir file encodes back to
    // the same bytes.
    fn program(&mut self, p: &Program<'_>) -> Off<et::Program<'f>> {
        let execution_plan = self.tables(&p.execution_plan, Self::plan);
        let ta = self.options.tensor_alignment;
        let constant_buffer = self.tables(&p.constant_buffer, |e, b| {
            let storage = b.storage.as_deref().map(|d| create_aligned_bytes(e.fbb, d, ta));
            let mut t = et::BufferBuilder::new(e.fbb);
            if let Some(x) = storage {
                t.add_storage(x);
            }
            t.finish()
        });
        let da = self.options.delegate_alignment;
        let backend_delegate_data = self.tables(&p.backend_delegate_data, |e, b| {
            let data = b.data.as_deref().map(|d| create_aligned_bytes(e.fbb, d, da));
            let mut t = et::BackendDelegateInlineDataBuilder::new(e.fbb);
            if let Some(x) = data {
                t.add_data(x);
            }
            t.finish()
        });
        let segments = self.tables(&p.segments, |e, s| {
            let mut t = et::DataSegmentBuilder::new(e.fbb);
            t.add_offset(s.offset);
            t.add_size(s.size);
            t.finish()
        });
        let constant_segment = p.constant_segment.as_ref().map(|s| self.subsegment(s));
        let mutable_data_segments = self.tables(&p.mutable_data_segments, Self::subsegment);
        let named_data = self.tables(&p.named_data, |e, n| {
            let key = e.str(&n.key);
            let mut t = et::NamedDataBuilder::new(e.fbb);
            if let Some(x) = key {
                t.add_key(x);
            }
            t.add_segment_index(n.segment_index);
            t.finish()
        });
        let mut t = et::ProgramBuilder::new(self.fbb);
        t.add_version(p.version);
        if let Some(x) = execution_plan {
            t.add_execution_plan(x);
        }
        if let Some(x) = constant_buffer {
            t.add_constant_buffer(x);
        }
        if let Some(x) = backend_delegate_data {
            t.add_backend_delegate_data(x);
        }
        if let Some(x) = segments {
            t.add_segments(x);
        }
        if let Some(x) = constant_segment {
            t.add_constant_segment(x);
        }
        if let Some(x) = mutable_data_segments {
            t.add_mutable_data_segments(x);
        }
        if let Some(x) = named_data {
            t.add_named_data(x);
        }
        t.finish()
    }

    fn subsegment(&mut self, s: &SubsegmentOffsets) -> Off<et::SubsegmentOffsets<'f>> {
        let offsets = self.scalars(&s.offsets);
        let mut t = et::SubsegmentOffsetsBuilder::new(self.fbb);
        t.add_segment_index(s.segment_index);
        if let Some(x) = offsets {
            t.add_offsets(x);
        }
        t.finish()
    }

    fn plan(&mut self, p: &ExecutionPlan) -> Off<et::ExecutionPlan<'f>> {
        let name = self.str(&p.name);
        let container_meta_type = p.container_meta_type.as_ref().map(|c| {
            let encoded_inp_str = self.str(&c.encoded_inp_str);
            let encoded_out_str = self.str(&c.encoded_out_str);
            let mut t = et::ContainerMetadataBuilder::new(self.fbb);
            if let Some(x) = encoded_inp_str {
                t.add_encoded_inp_str(x);
            }
            if let Some(x) = encoded_out_str {
                t.add_encoded_out_str(x);
            }
            t.finish()
        });
        let values = self.tables(&p.values, Self::evalue);
        let inputs = self.scalars(&p.inputs);
        let outputs = self.scalars(&p.outputs);
        let chains = self.tables(&p.chains, Self::chain);
        let operators = self.tables(&p.operators, |e, o| {
            let name = e.str(&o.name);
            let overload = e.str(&o.overload);
            let mut t = et::OperatorBuilder::new(e.fbb);
            if let Some(x) = name {
                t.add_name(x);
            }
            if let Some(x) = overload {
                t.add_overload(x);
            }
            t.finish()
        });
        let delegates = self.tables(&p.delegates, Self::delegate);
        let non_const_buffer_sizes = self.scalars(&p.non_const_buffer_sizes);
        let non_const_buffer_device = self.tables(&p.non_const_buffer_device, |e, d| {
            let mut t = et::NonConstBufferDeviceBuilder::new(e.fbb);
            t.add_buffer_idx(d.buffer_idx);
            t.add_device_type(et::DeviceType(d.device_type.0));
            t.add_device_index(d.device_index);
            t.finish()
        });
        let mut t = et::ExecutionPlanBuilder::new(self.fbb);
        if let Some(x) = name {
            t.add_name(x);
        }
        if let Some(x) = container_meta_type {
            t.add_container_meta_type(x);
        }
        if let Some(x) = values {
            t.add_values(x);
        }
        if let Some(x) = inputs {
            t.add_inputs(x);
        }
        if let Some(x) = outputs {
            t.add_outputs(x);
        }
        if let Some(x) = chains {
            t.add_chains(x);
        }
        if let Some(x) = operators {
            t.add_operators(x);
        }
        if let Some(x) = delegates {
            t.add_delegates(x);
        }
        if let Some(x) = non_const_buffer_sizes {
            t.add_non_const_buffer_sizes(x);
        }
        if let Some(x) = non_const_buffer_device {
            t.add_non_const_buffer_device(x);
        }
        t.finish()
    }

    fn delegate(&mut self, d: &BackendDelegate) -> Off<et::BackendDelegate<'f>> {
        let id = self.str(&d.id);
        let processed = d.processed.map(|r| {
            let mut t = et::BackendDelegateDataReferenceBuilder::new(self.fbb);
            t.add_location(et::DataLocation(r.location.0));
            t.add_index(r.index);
            t.finish()
        });
        let compile_specs = self.tables(&d.compile_specs, |e, c| {
            let key = e.str(&c.key);
            let value = e.scalars(&c.value);
            let mut t = et::CompileSpecBuilder::new(e.fbb);
            if let Some(x) = key {
                t.add_key(x);
            }
            if let Some(x) = value {
                t.add_value(x);
            }
            t.finish()
        });
        let mut t = et::BackendDelegateBuilder::new(self.fbb);
        if let Some(x) = id {
            t.add_id(x);
        }
        if let Some(x) = processed {
            t.add_processed(x);
        }
        if let Some(x) = compile_specs {
            t.add_compile_specs(x);
        }
        t.finish()
    }

    fn evalue(&mut self, v: &EValue) -> Off<et::EValue<'f>> {
        use et::KernelTypes as T;
        let (val_type, val) = match &v.val {
            None => (T::NONE, None),
            Some(k) => {
                let (t, off) = self.kernel_value(k);
                (t, Some(off))
            }
        };
        let mut t = et::EValueBuilder::new(self.fbb);
        t.add_val_type(val_type);
        if let Some(x) = val {
            t.add_val(x);
        }
        t.finish()
    }

    fn kernel_value(&mut self, k: &KernelTypes) -> (et::KernelTypes, WIPOffset<flatbuffers::UnionWIPOffset>) {
        use et::KernelTypes as T;
        let fbb = &mut *self.fbb;
        match k {
            KernelTypes::Null => (T::Null, et::NullBuilder::new(fbb).finish().as_union_value()),
            KernelTypes::Int(x) => {
                let mut t = et::IntBuilder::new(fbb);
                t.add_int_val(*x);
                (T::Int, t.finish().as_union_value())
            }
            KernelTypes::Bool(x) => {
                let mut t = et::BoolBuilder::new(fbb);
                t.add_bool_val(*x);
                (T::Bool, t.finish().as_union_value())
            }
            KernelTypes::Double(x) => {
                // -0.0 compares equal to the default 0.0 and would be omitted, reading back as +0.0
                let keep_sign = x.to_bits() != 0f64.to_bits();
                fbb.force_defaults(keep_sign);
                let mut t = et::DoubleBuilder::new(fbb);
                t.add_double_val(*x);
                let off = t.finish().as_union_value();
                fbb.force_defaults(false);
                (T::Double, off)
            }
            KernelTypes::Tensor(t) => (T::Tensor, self.tensor(t).as_union_value()),
            KernelTypes::String(s) => {
                let string_val = self.str(s);
                let mut t = et::StringBuilder::new(self.fbb);
                if let Some(x) = string_val {
                    t.add_string_val(x);
                }
                (T::String, t.finish().as_union_value())
            }
            KernelTypes::IntList(v) => {
                let items = self.scalars(v);
                let mut t = et::IntListBuilder::new(self.fbb);
                if let Some(x) = items {
                    t.add_items(x);
                }
                (T::IntList, t.finish().as_union_value())
            }
            KernelTypes::DoubleList(v) => {
                let items = self.scalars(v);
                let mut t = et::DoubleListBuilder::new(self.fbb);
                if let Some(x) = items {
                    t.add_items(x);
                }
                (T::DoubleList, t.finish().as_union_value())
            }
            KernelTypes::BoolList(v) => {
                let items = self.scalars(v);
                let mut t = et::BoolListBuilder::new(self.fbb);
                if let Some(x) = items {
                    t.add_items(x);
                }
                (T::BoolList, t.finish().as_union_value())
            }
            KernelTypes::TensorList(v) => {
                let items = self.scalars(v);
                let mut t = et::TensorListBuilder::new(self.fbb);
                if let Some(x) = items {
                    t.add_items(x);
                }
                (T::TensorList, t.finish().as_union_value())
            }
            KernelTypes::OptionalTensorList(v) => {
                let items = self.scalars(v);
                let mut t = et::OptionalTensorListBuilder::new(self.fbb);
                if let Some(x) = items {
                    t.add_items(x);
                }
                (T::OptionalTensorList, t.finish().as_union_value())
            }
        }
    }

    fn tensor(&mut self, t: &Tensor) -> Off<et::Tensor<'f>> {
        let sizes = self.scalars(&t.sizes);
        let dim_order = self.scalars(&t.dim_order);
        let allocation_info = t.allocation_info.map(|a| {
            let mut b = et::AllocationDetailsBuilder::new(self.fbb);
            b.add_memory_id(a.memory_id);
            b.add_memory_offset_low(a.memory_offset_low);
            b.add_memory_offset_high(a.memory_offset_high);
            b.finish()
        });
        let extra_tensor_info = t.extra_tensor_info.as_ref().map(|e| {
            let fully_qualified_name = self.str(&e.fully_qualified_name);
            let mut b = et::ExtraTensorInfoBuilder::new(self.fbb);
            b.add_mutable_data_segments_idx(e.mutable_data_segments_idx);
            if let Some(x) = fully_qualified_name {
                b.add_fully_qualified_name(x);
            }
            b.add_location(et::TensorDataLocation(e.location.0));
            b.add_device_type(et::DeviceType(e.device_type.0));
            b.add_device_index(e.device_index);
            b.finish()
        });
        let mut b = et::TensorBuilder::new(self.fbb);
        b.add_scalar_type(et::ScalarType(t.scalar_type.0));
        b.add_storage_offset(t.storage_offset);
        if let Some(x) = sizes {
            b.add_sizes(x);
        }
        if let Some(x) = dim_order {
            b.add_dim_order(x);
        }
        b.add_requires_grad(t.requires_grad);
        b.add_data_buffer_idx(t.data_buffer_idx);
        if let Some(x) = allocation_info {
            b.add_allocation_info(x);
        }
        b.add_layout(t.layout);
        b.add_shape_dynamism(et::TensorShapeDynamism(t.shape_dynamism.0));
        if let Some(x) = extra_tensor_info {
            b.add_extra_tensor_info(x);
        }
        b.finish()
    }

    fn chain(&mut self, c: &Chain) -> Off<et::Chain<'f>> {
        let inputs = self.scalars(&c.inputs);
        let outputs = self.scalars(&c.outputs);
        let instructions = self.tables(&c.instructions, Self::instruction);
        let stacktrace = self.tables(&c.stacktrace, |e, fl| {
            let items = e.tables(&fl.items, |e, f| {
                let filename = e.str(&f.filename);
                let name = e.str(&f.name);
                let context = e.str(&f.context);
                let mut t = et::FrameBuilder::new(e.fbb);
                if let Some(x) = filename {
                    t.add_filename(x);
                }
                t.add_lineno(f.lineno);
                if let Some(x) = name {
                    t.add_name(x);
                }
                if let Some(x) = context {
                    t.add_context(x);
                }
                t.finish()
            });
            let mut t = et::FrameListBuilder::new(e.fbb);
            if let Some(x) = items {
                t.add_items(x);
            }
            t.finish()
        });
        let mut t = et::ChainBuilder::new(self.fbb);
        if let Some(x) = inputs {
            t.add_inputs(x);
        }
        if let Some(x) = outputs {
            t.add_outputs(x);
        }
        if let Some(x) = instructions {
            t.add_instructions(x);
        }
        if let Some(x) = stacktrace {
            t.add_stacktrace(x);
        }
        t.finish()
    }

    fn instruction(&mut self, i: &Instruction) -> Off<et::Instruction<'f>> {
        use et::InstructionArguments as T;
        let (instr_args_type, instr_args) = match &i.instr_args {
            None => (T::NONE, None),
            Some(InstructionArguments::KernelCall { op_index, args }) => {
                let args = self.scalars(args);
                let mut t = et::KernelCallBuilder::new(self.fbb);
                t.add_op_index(*op_index);
                if let Some(x) = args {
                    t.add_args(x);
                }
                (T::KernelCall, Some(t.finish().as_union_value()))
            }
            Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                let args = self.scalars(args);
                let mut t = et::DelegateCallBuilder::new(self.fbb);
                t.add_delegate_index(*delegate_index);
                if let Some(x) = args {
                    t.add_args(x);
                }
                (T::DelegateCall, Some(t.finish().as_union_value()))
            }
            Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                let mut t = et::MoveCallBuilder::new(self.fbb);
                t.add_move_from(*move_from);
                t.add_move_to(*move_to);
                (T::MoveCall, Some(t.finish().as_union_value()))
            }
            Some(InstructionArguments::JumpFalseCall { cond_value_index, destination_instruction }) => {
                let mut t = et::JumpFalseCallBuilder::new(self.fbb);
                t.add_cond_value_index(*cond_value_index);
                t.add_destination_instruction(*destination_instruction);
                (T::JumpFalseCall, Some(t.finish().as_union_value()))
            }
            Some(InstructionArguments::FreeCall { value_index }) => {
                let mut t = et::FreeCallBuilder::new(self.fbb);
                t.add_value_index(*value_index);
                (T::FreeCall, Some(t.finish().as_union_value()))
            }
        };
        let mut t = et::InstructionBuilder::new(self.fbb);
        t.add_instr_args_type(instr_args_type);
        if let Some(x) = instr_args {
            t.add_instr_args(x);
        }
        t.finish()
    }
}
