//! exir's dataclasses read into the Rust program model.
//!
//! Attributes are read by name (exir's field names), numbers extracted into
//! the schema's widths (an out-of-range value raises `OverflowError`, as
//! exir's flatbuffer builder would fail), and unions told apart by class.
//! Byte payloads accept `bytes`, any buffer (a `memoryview` from
//! `deserialize_pte_binary(zero_copy=True)`) or exir's `FileBackedData`.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyString};
use pyo3::PyTypeInfo;

use pte_schema as s;

use crate::exir_classes::Classes;

type Obj<'py> = Bound<'py, PyAny>;

/// The bytes of a payload object, copied out of Python.
pub(crate) fn bytes_of(o: &Obj<'_>) -> PyResult<Vec<u8>> {
    if let Ok(b) = o.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    // exir's FileBackedData (a file on disk standing for the bytes).
    if o.hasattr(intern!(o.py(), "to_bytes"))? {
        return bytes_of(&o.call_method0(intern!(o.py(), "to_bytes"))?);
    }
    // Any other buffer (memoryview, bytearray, numpy): `bytes(o)`; the
    // buffer API itself is not in the limited API this module builds for.
    let b = PyBytes::type_object(o.py()).call1((o,))?;
    Ok(b.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// The storage object of a `Buffer`: for a lazy `Buffer` from
/// `deserialize_pte_binary` not read yet, the memoryview slice it holds, so
/// writing it does not leave a `bytes` copy cached in the caller's object.
fn buffer_storage<'py>(b: &Obj<'py>) -> PyResult<Obj<'py>> {
    match b.getattr_opt(intern!(b.py(), "_pte_rs_lazy"))? {
        Some(view) => Ok(view),
        None => b.getattr(intern!(b.py(), "storage")),
    }
}

/// The bytes of a `Buffer`'s storage. A lazy `Buffer` not read yet holds a
/// memoryview slice of the deserialized input and the slice's offset: its
/// bytes are copied once, straight out of the input `bytes` (the limited
/// API has no buffer protocol, and `bytes(view)` would copy twice).
pub(crate) fn buffer_bytes(b: &Obj<'_>) -> PyResult<Option<Vec<u8>>> {
    let py = b.py();
    if let Some(at) = b.getattr_opt(intern!(py, "_pte_rs_at"))? {
        let view = b.getattr(intern!(py, "_pte_rs_lazy"))?;
        let whole = view.getattr(intern!(py, "obj"))?;
        if let (Ok(whole), Ok(at)) = (whole.cast::<PyBytes>(), at.extract::<usize>()) {
            let end = at.checked_add(view.len()?);
            if let Some(slice) = end.and_then(|end| whole.as_bytes().get(at..end)) {
                return Ok(Some(slice.to_vec()));
            }
        }
    }
    opt_bytes(&buffer_storage(b)?)
}

/// An optional payload.
fn opt_bytes(o: &Obj<'_>) -> PyResult<Option<Vec<u8>>> {
    if o.is_none() {
        Ok(None)
    } else {
        bytes_of(o).map(Some)
    }
}

/// Reads model values out of exir objects; `c` tells union members apart.
pub(crate) struct Reader<'a, 'py> {
    pub(crate) c: &'a Classes<'py>,
}

/// `o.<name>` extracted as `T`.
macro_rules! field {
    ($o:expr, $name:literal) => {
        $o.getattr(intern!($o.py(), $name))?.extract()?
    };
}

/// `o.<name>` as an object.
macro_rules! attr {
    ($o:expr, $name:literal) => {
        $o.getattr(intern!($o.py(), $name))?
    };
}

/// An optional list mapped item by item.
fn list<'py, T>(o: &Obj<'py>, mut f: impl FnMut(&Obj<'py>) -> PyResult<T>) -> PyResult<Option<Vec<T>>> {
    if o.is_none() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(o.len().unwrap_or(0));
    for item in o.try_iter()? {
        out.push(f(&item?)?);
    }
    Ok(Some(out))
}

impl<'py> Reader<'_, 'py> {
    /// The whole program.
    pub(crate) fn program(&self, p: &Obj<'py>) -> PyResult<s::Program<'static>> {
        Ok(s::Program {
            version: field!(p, "version"),
            execution_plan: list(&attr!(p, "execution_plan"), |e| self.plan(e))?,
            constant_buffer: list(&attr!(p, "constant_buffer"), |b| {
                Ok(s::Buffer { storage: buffer_bytes(b)?.map(Cow::Owned) })
            })?,
            backend_delegate_data: list(&attr!(p, "backend_delegate_data"), |b| {
                Ok(s::BackendDelegateInlineData { data: opt_bytes(&attr!(b, "data"))?.map(Cow::Owned) })
            })?,
            segments: list(&attr!(p, "segments"), |d| {
                Ok(s::DataSegment { offset: field!(d, "offset"), size: field!(d, "size") })
            })?,
            constant_segment: self.subsegment_opt(&attr!(p, "constant_segment"))?,
            mutable_data_segments: list(&attr!(p, "mutable_data_segments"), |m| self.subsegment(m))?,
            named_data: list(&attr!(p, "named_data"), |n| {
                Ok(s::NamedData { key: field!(n, "key"), segment_index: field!(n, "segment_index") })
            })?,
        })
    }

    fn subsegment(&self, o: &Obj<'py>) -> PyResult<s::SubsegmentOffsets> {
        Ok(s::SubsegmentOffsets { segment_index: field!(o, "segment_index"), offsets: field!(o, "offsets") })
    }

    fn subsegment_opt(&self, o: &Obj<'py>) -> PyResult<Option<s::SubsegmentOffsets>> {
        if o.is_none() {
            Ok(None)
        } else {
            self.subsegment(o).map(Some)
        }
    }

    fn plan(&self, e: &Obj<'py>) -> PyResult<s::ExecutionPlan> {
        let meta = attr!(e, "container_meta_type");
        let container_meta_type = if meta.is_none() {
            None
        } else {
            Some(s::ContainerMetadata {
                encoded_inp_str: field!(meta, "encoded_inp_str"),
                encoded_out_str: field!(meta, "encoded_out_str"),
            })
        };
        Ok(s::ExecutionPlan {
            name: field!(e, "name"),
            container_meta_type,
            values: list(&attr!(e, "values"), |v| self.evalue(v))?,
            inputs: field!(e, "inputs"),
            outputs: field!(e, "outputs"),
            chains: list(&attr!(e, "chains"), |c| self.chain(c))?,
            operators: list(&attr!(e, "operators"), |o| {
                Ok(s::Operator { name: field!(o, "name"), overload: field!(o, "overload") })
            })?,
            delegates: list(&attr!(e, "delegates"), |d| self.delegate(d))?,
            non_const_buffer_sizes: field!(e, "non_const_buffer_sizes"),
            non_const_buffer_device: list(&attr!(e, "non_const_buffer_device"), |d| {
                Ok(s::NonConstBufferDevice {
                    buffer_idx: field!(d, "buffer_idx"),
                    device_type: s::DeviceType(field!(d, "device_type")),
                    device_index: field!(d, "device_index"),
                })
            })?,
        })
    }

    fn evalue(&self, v: &Obj<'py>) -> PyResult<s::EValue> {
        let val = attr!(v, "val");
        if val.is_none() {
            return Ok(s::EValue { val: None });
        }
        let c = self.c;
        let t = val.get_type();
        let items = || -> PyResult<Obj<'py>> { Ok(attr!(val, "items")) };
        use s::KernelTypes as K;
        let k = if t.is(&c.tensor) {
            K::Tensor(self.tensor(&val)?)
        } else if t.is(&c.int) {
            K::Int(field!(val, "int_val"))
        } else if t.is(&c.null) {
            K::Null
        } else if t.is(&c.bool_) {
            K::Bool(field!(val, "bool_val"))
        } else if t.is(&c.double) {
            K::Double(double(&attr!(val, "double_val"))?)
        } else if t.is(&c.string) {
            K::String(field!(val, "string_val"))
        } else if t.is(&c.int_list) {
            K::IntList(items()?.extract()?)
        } else if t.is(&c.double_list) {
            K::DoubleList(list(&items()?, double)?)
        } else if t.is(&c.bool_list) {
            K::BoolList(items()?.extract()?)
        } else if t.is(&c.tensor_list) {
            K::TensorList(items()?.extract()?)
        } else if t.is(&c.optional_tensor_list) {
            K::OptionalTensorList(items()?.extract()?)
        } else {
            return Err(PyTypeError::new_err(format!("EValue.val of unknown type {}", t.name()?)));
        };
        Ok(s::EValue { val: Some(k) })
    }

    fn tensor(&self, t: &Obj<'py>) -> PyResult<s::Tensor> {
        let alloc = attr!(t, "allocation_info");
        let allocation_info = if alloc.is_none() {
            None
        } else {
            Some(s::AllocationDetails {
                memory_id: field!(alloc, "memory_id"),
                memory_offset_low: field!(alloc, "memory_offset_low"),
                memory_offset_high: field!(alloc, "memory_offset_high"),
            })
        };
        let x = attr!(t, "extra_tensor_info");
        let extra_tensor_info = if x.is_none() {
            None
        } else {
            Some(s::ExtraTensorInfo {
                mutable_data_segments_idx: field!(x, "mutable_data_segments_idx"),
                fully_qualified_name: field!(x, "fully_qualified_name"),
                location: s::TensorDataLocation(field!(x, "location")),
                device_type: s::DeviceType(field!(x, "device_type")),
                device_index: field!(x, "device_index"),
            })
        };
        Ok(s::Tensor {
            scalar_type: s::ScalarType(field!(t, "scalar_type")),
            storage_offset: field!(t, "storage_offset"),
            sizes: field!(t, "sizes"),
            dim_order: field!(t, "dim_order"),
            requires_grad: field!(t, "requires_grad"),
            data_buffer_idx: field!(t, "data_buffer_idx"),
            allocation_info,
            layout: field!(t, "layout"),
            shape_dynamism: s::TensorShapeDynamism(field!(t, "shape_dynamism")),
            extra_tensor_info,
        })
    }

    fn chain(&self, ch: &Obj<'py>) -> PyResult<s::Chain> {
        Ok(s::Chain {
            inputs: field!(ch, "inputs"),
            outputs: field!(ch, "outputs"),
            instructions: list(&attr!(ch, "instructions"), |i| self.instruction(i))?,
            stacktrace: list(&attr!(ch, "stacktrace"), |fl| {
                Ok(s::FrameList {
                    items: list(&attr!(fl, "items"), |f| {
                        Ok(s::Frame {
                            filename: field!(f, "filename"),
                            lineno: field!(f, "lineno"),
                            name: field!(f, "name"),
                            context: field!(f, "context"),
                        })
                    })?,
                })
            })?,
        })
    }

    fn instruction(&self, i: &Obj<'py>) -> PyResult<s::Instruction> {
        use s::InstructionArguments as A;
        let a = attr!(i, "instr_args");
        if a.is_none() {
            return Ok(s::Instruction { instr_args: None });
        }
        let c = self.c;
        let t = a.get_type();
        let args = if t.is(&c.kernel_call) {
            A::KernelCall { op_index: field!(a, "op_index"), args: field!(a, "args") }
        } else if t.is(&c.delegate_call) {
            A::DelegateCall { delegate_index: field!(a, "delegate_index"), args: field!(a, "args") }
        } else if t.is(&c.move_call) {
            A::MoveCall { move_from: field!(a, "move_from"), move_to: field!(a, "move_to") }
        } else if t.is(&c.jump_false_call) {
            A::JumpFalseCall {
                cond_value_index: field!(a, "cond_value_index"),
                destination_instruction: field!(a, "destination_instruction"),
            }
        } else if t.is(&c.free_call) {
            A::FreeCall { value_index: field!(a, "value_index") }
        } else {
            return Err(PyTypeError::new_err(format!("Instruction.instr_args of unknown type {}", t.name()?)));
        };
        Ok(s::Instruction { instr_args: Some(args) })
    }

    fn delegate(&self, d: &Obj<'py>) -> PyResult<s::BackendDelegate> {
        let p = attr!(d, "processed");
        let processed = if p.is_none() {
            None
        } else {
            Some(s::BackendDelegateDataReference {
                location: s::DataLocation(field!(p, "location")),
                index: field!(p, "index"),
            })
        };
        Ok(s::BackendDelegate {
            id: field!(d, "id"),
            processed,
            compile_specs: list(&attr!(d, "compile_specs"), |cs| {
                Ok(s::CompileSpec { key: field!(cs, "key"), value: opt_bytes(&attr!(cs, "value"))? })
            })?,
        })
    }
}

/// A double as exir stores it: a float, or the strings `"inf"`/`"-inf"`.
fn double(o: &Obj<'_>) -> PyResult<f64> {
    if o.is_instance_of::<PyString>() {
        return PyFloat::type_object(o.py()).call1((o,))?.extract();
    }
    o.extract()
}
