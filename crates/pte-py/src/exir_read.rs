//! The decoded program turned into exir's dataclasses in one pass.
//!
//! Each schema table maps to one positional call of its exir class; lists of
//! numbers become Python lists directly. Absent vectors and strings become
//! `None` and present ones (even empty) lists and strings, as exir's own
//! flatbuffer reader gives them.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PySlice};

use pte_schema as s;

use crate::exir_classes::Classes;

type Obj<'py> = Bound<'py, PyAny>;

/// An optional vector as `None` or a list built item by item with `f`.
fn list<'py, T>(
    py: Python<'py>,
    v: Option<&[T]>,
    mut f: impl FnMut(&T) -> PyResult<Obj<'py>>,
) -> PyResult<Option<Bound<'py, PyList>>> {
    match v {
        None => Ok(None),
        Some(items) => {
            let objs = items.iter().map(&mut f).collect::<PyResult<Vec<_>>>()?;
            Ok(Some(PyList::new(py, objs)?))
        }
    }
}

/// An optional vector of plain numbers or booleans as `None` or a list.
fn nums<'py, T>(py: Python<'py>, v: &Option<Vec<T>>) -> PyResult<Option<Bound<'py, PyList>>>
where
    T: Copy + IntoPyObject<'py>,
{
    v.as_deref().map(|v| PyList::new(py, v.iter().copied())).transpose()
}

/// An offset as the `isize` Python slices take (offsets come from a slice
/// in memory, so they always fit).
fn clamp(v: u64) -> isize {
    isize::try_from(v).unwrap_or(isize::MAX)
}

/// Builds exir objects for one program; `c` holds the classes.
pub(crate) struct Builder<'a, 'py> {
    pub(crate) py: Python<'py>,
    pub(crate) c: &'a Classes<'py>,
    /// The input bytes and a memoryview over them: constant storage lying in
    /// the input becomes a slice of the view (no copy) when set.
    pub(crate) view: Option<(&'a [u8], Bound<'py, PyAny>)>,
    /// Builds a `Buffer` from a memoryview slice that copies it into `bytes`
    /// only when `storage` is first read (the default mode); without it a
    /// slice becomes the `storage` itself (`zero_copy`).
    pub(crate) lazy: Option<Bound<'py, PyAny>>,
}

impl<'py> Builder<'_, 'py> {
    /// The storage of a constant or mutable buffer: a memoryview slice of
    /// the input when zero-copy is on, else a `bytes` copy.
    /// Also returns the slice's offset in the input when it is one.
    fn storage(&self, b: &[u8]) -> PyResult<(Obj<'py>, Option<u64>)> {
        if let Some((whole, view)) = &self.view
            && let Some(start) = crate::handle::offset_in(whole, b)
        {
            let end = start.saturating_add(b.len() as u64);
            return Ok((view.get_item(PySlice::new(self.py, clamp(start), clamp(end), 1))?, Some(start)));
        }
        Ok((PyBytes::new(self.py, b).into_any(), None))
    }

    /// `Buffer(storage)`, or the lazy `Buffer` over a slice of the input
    /// (given the slice and its offset, which lets the writer copy straight
    /// out of the input).
    pub(crate) fn buffer(&self, b: Option<&[u8]>) -> PyResult<Obj<'py>> {
        let storage = b.map(|b| self.storage(b)).transpose()?;
        match (&self.lazy, storage) {
            (Some(lazy), Some((s, Some(start)))) => lazy.call1((s, start)),
            (_, storage) => self.c.buffer.call1((storage.map(|(s, _)| s),)),
        }
    }

    /// `BackendDelegateInlineData(data)` over an existing `bytes` (or `None`).
    pub(crate) fn inline_data(&self, b: Option<Obj<'py>>) -> PyResult<Obj<'py>> {
        self.c.inline_data.call1((b,))
    }

    /// `BackendDelegateDataReference(location, index)`.
    pub(crate) fn data_reference(&self, r: &s::BackendDelegateDataReference) -> PyResult<Obj<'py>> {
        self.c.data_reference.call1((self.c.data_location.get(i64::from(r.location.0))?, r.index))
    }

    /// `SubsegmentOffsets(segment_index, offsets)`.
    pub(crate) fn subsegment(&self, o: &s::SubsegmentOffsets) -> PyResult<Obj<'py>> {
        self.c.subsegment_offsets.call1((o.segment_index, nums(self.py, &o.offsets)?))
    }

    /// The whole `Program`, byte payloads copied into `bytes` objects.
    pub(crate) fn program(&self, p: &s::Program<'_>) -> PyResult<Obj<'py>> {
        let py = self.py;
        let c = self.c;
        let plans = list(py, p.execution_plan.as_deref(), |e| self.plan(e))?;
        let constants = list(py, p.constant_buffer.as_deref(), |b| self.buffer(b.storage.as_deref()))?;
        let inline = list(py, p.backend_delegate_data.as_deref(), |d| {
            self.inline_data(d.data.as_deref().map(|b| PyBytes::new(py, b).into_any()))
        })?;
        let segments = list(py, p.segments.as_deref(), |d| c.data_segment.call1((d.offset, d.size)))?;
        let constant_segment = p.constant_segment.as_ref().map(|o| self.subsegment(o)).transpose()?;
        let mutable = list(py, p.mutable_data_segments.as_deref(), |o| self.subsegment(o))?;
        let named = list(py, p.named_data.as_deref(), |n| c.named_data.call1((n.key.as_deref(), n.segment_index)))?;
        c.program.call1((p.version, plans, constants, inline, segments, constant_segment, mutable, named))
    }

    fn plan(&self, e: &s::ExecutionPlan) -> PyResult<Obj<'py>> {
        let py = self.py;
        let c = self.c;
        let meta = e
            .container_meta_type
            .as_ref()
            .map(|m| c.container_metadata.call1((m.encoded_inp_str.as_deref(), m.encoded_out_str.as_deref())))
            .transpose()?;
        let devices = list(py, e.non_const_buffer_device.as_deref(), |d| {
            c.non_const_buffer_device.call1((
                d.buffer_idx,
                c.device_type.get(i64::from(d.device_type.0))?,
                d.device_index,
            ))
        })?;
        c.execution_plan.call1((
            e.name.as_deref(),
            meta,
            list(py, e.values.as_deref(), |v| self.evalue(v))?,
            nums(py, &e.inputs)?,
            nums(py, &e.outputs)?,
            list(py, e.chains.as_deref(), |ch| self.chain(ch))?,
            list(py, e.operators.as_deref(), |o| c.operator.call1((o.name.as_deref(), o.overload.as_deref())))?,
            list(py, e.delegates.as_deref(), |d| self.delegate(d))?,
            nums(py, &e.non_const_buffer_sizes)?,
            devices,
        ))
    }

    fn evalue(&self, v: &s::EValue) -> PyResult<Obj<'py>> {
        let val = v.val.as_ref().map(|k| self.kernel_value(k)).transpose()?;
        self.c.evalue.call1((val,))
    }

    fn kernel_value(&self, k: &s::KernelTypes) -> PyResult<Obj<'py>> {
        use s::KernelTypes as K;
        let (py, c) = (self.py, self.c);
        match k {
            K::Null => c.null.call0(),
            K::Int(i) => c.int.call1((*i,)),
            K::Bool(b) => c.bool_.call1((*b,)),
            // exir's Double turns infinities into the strings it serializes.
            K::Double(d) => c.double.call1((*d,)),
            K::Tensor(t) => self.tensor(t),
            K::String(t) => c.string.call1((t.as_deref(),)),
            K::IntList(v) => c.int_list.call1((nums(py, v)?,)),
            K::DoubleList(v) => c.double_list.call1((nums(py, v)?,)),
            K::BoolList(v) => c.bool_list.call1((nums(py, v)?,)),
            K::TensorList(v) => c.tensor_list.call1((nums(py, v)?,)),
            K::OptionalTensorList(v) => c.optional_tensor_list.call1((nums(py, v)?,)),
        }
    }

    fn tensor(&self, t: &s::Tensor) -> PyResult<Obj<'py>> {
        let (py, c) = (self.py, self.c);
        let alloc = t
            .allocation_info
            .map(|a| c.allocation_details.call1((a.memory_id, a.memory_offset_low, a.memory_offset_high)))
            .transpose()?;
        let extra = t
            .extra_tensor_info
            .as_ref()
            .map(|x| {
                c.extra_tensor_info.call1((
                    x.mutable_data_segments_idx,
                    x.fully_qualified_name.as_deref(),
                    c.tensor_data_location.get(i64::from(x.location.0))?,
                    c.device_type.get(i64::from(x.device_type.0))?,
                    x.device_index,
                ))
            })
            .transpose()?;
        c.tensor.call1((
            c.scalar_type.get(i64::from(t.scalar_type.0))?,
            t.storage_offset,
            nums(py, &t.sizes)?,
            nums(py, &t.dim_order)?,
            t.requires_grad,
            t.layout,
            t.data_buffer_idx,
            alloc,
            c.shape_dynamism.get(i64::from(t.shape_dynamism.0))?,
            extra,
        ))
    }

    fn chain(&self, ch: &s::Chain) -> PyResult<Obj<'py>> {
        let (py, c) = (self.py, self.c);
        let stack = list(py, ch.stacktrace.as_deref(), |fl| {
            let frames = list(py, fl.items.as_deref(), |f| {
                c.frame.call1((f.filename.as_deref(), f.lineno, f.name.as_deref(), f.context.as_deref()))
            })?;
            c.frame_list.call1((frames,))
        })?;
        c.chain.call1((
            nums(py, &ch.inputs)?,
            nums(py, &ch.outputs)?,
            list(py, ch.instructions.as_deref(), |i| self.instruction(i))?,
            stack,
        ))
    }

    fn instruction(&self, i: &s::Instruction) -> PyResult<Obj<'py>> {
        use s::InstructionArguments as A;
        let (py, c) = (self.py, self.c);
        let args = match &i.instr_args {
            None => None,
            Some(A::KernelCall { op_index, args }) => Some(c.kernel_call.call1((*op_index, nums(py, args)?))?),
            Some(A::DelegateCall { delegate_index, args }) => {
                Some(c.delegate_call.call1((*delegate_index, nums(py, args)?))?)
            }
            Some(A::MoveCall { move_from, move_to }) => Some(c.move_call.call1((*move_from, *move_to))?),
            Some(A::JumpFalseCall { cond_value_index, destination_instruction }) => {
                Some(c.jump_false_call.call1((*cond_value_index, *destination_instruction))?)
            }
            Some(A::FreeCall { value_index }) => Some(c.free_call.call1((*value_index,))?),
        };
        c.instruction.call1((args,))
    }

    fn delegate(&self, d: &s::BackendDelegate) -> PyResult<Obj<'py>> {
        let (py, c) = (self.py, self.c);
        let processed = d.processed.as_ref().map(|r| self.data_reference(r)).transpose()?;
        let specs = list(py, d.compile_specs.as_deref(), |cs| {
            c.compile_spec.call1((cs.key.as_deref(), cs.value.as_deref().map(|v| PyBytes::new(py, v))))
        })?;
        c.backend_delegate.call1((d.id.as_deref(), processed, specs))
    }
}
