//! exir's schema classes and enum members, looked up once per call.
//!
//! Objects are built by calling each dataclass with positional arguments in
//! the order the 1.5.1 schema declares its fields; that order is checked
//! against `__dataclass_fields__` when the table is built, so a future exir
//! that reorders or renames a field fails loudly instead of mixing fields up.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// One enum class and its members indexed by value (values are small).
pub(crate) struct EnumTable<'py> {
    cls: Bound<'py, PyAny>,
    members: Vec<Option<Bound<'py, PyAny>>>,
}

/// Values at or above this are looked up by calling the class (slow path,
/// raising exir's own `ValueError` for an unknown value).
const DIRECT: usize = 64;

impl<'py> EnumTable<'py> {
    fn new(cls: Bound<'py, PyAny>) -> PyResult<Self> {
        let mut members: Vec<Option<Bound<'py, PyAny>>> = vec![None; DIRECT];
        for m in cls.try_iter()? {
            let m = m?;
            let v: i64 = m.extract()?;
            if let Some(slot) = usize::try_from(v).ok().and_then(|i| members.get_mut(i)) {
                *slot = Some(m);
            }
        }
        Ok(EnumTable { cls, members })
    }

    /// The member for `v`.
    pub(crate) fn get(&self, v: i64) -> PyResult<Bound<'py, PyAny>> {
        match usize::try_from(v).ok().and_then(|i| self.members.get(i)) {
            Some(Some(m)) => Ok(m.clone()),
            _ => self.cls.call1((v,)),
        }
    }
}

macro_rules! classes {
    ($( $field:ident = $name:literal [$($f:literal),*] ),* $(,)?) => {
        /// exir's dataclasses used by the program model.
        pub(crate) struct Classes<'py> {
            $( pub(crate) $field: Bound<'py, PyAny>, )*
            pub(crate) scalar_type: EnumTable<'py>,
            pub(crate) shape_dynamism: EnumTable<'py>,
            pub(crate) data_location: EnumTable<'py>,
            pub(crate) tensor_data_location: EnumTable<'py>,
            pub(crate) device_type: EnumTable<'py>,
        }

        impl<'py> Classes<'py> {
            /// Reads the classes from `executorch.exir.schema` (`schema`) and
            /// `CompileSpec` (`compile_spec`), checking their field order.
            pub(crate) fn load(schema: &Bound<'py, PyAny>, compile_spec: &Bound<'py, PyAny>) -> PyResult<Self> {
                let get = |name: &str, fields: &[&str]| -> PyResult<Bound<'py, PyAny>> {
                    let cls = if name == "CompileSpec" { compile_spec.clone() } else { schema.getattr(name)? };
                    check_fields(&cls, name, fields)?;
                    Ok(cls)
                };
                let e = |name: &str| -> PyResult<EnumTable<'py>> { EnumTable::new(schema.getattr(name)?) };
                Ok(Classes {
                    $( $field: get($name, &[$($f),*])?, )*
                    scalar_type: e("ScalarType")?,
                    shape_dynamism: e("TensorShapeDynamism")?,
                    data_location: e("DataLocation")?,
                    tensor_data_location: e("TensorDataLocation")?,
                    device_type: e("DeviceType")?,
                })
            }
        }
    };
}

classes! {
    program = "Program" ["version", "execution_plan", "constant_buffer", "backend_delegate_data", "segments",
        "constant_segment", "mutable_data_segments", "named_data"],
    execution_plan = "ExecutionPlan" ["name", "container_meta_type", "values", "inputs", "outputs", "chains",
        "operators", "delegates", "non_const_buffer_sizes", "non_const_buffer_device"],
    container_metadata = "ContainerMetadata" ["encoded_inp_str", "encoded_out_str"],
    evalue = "EValue" ["val"],
    tensor = "Tensor" ["scalar_type", "storage_offset", "sizes", "dim_order", "requires_grad", "layout",
        "data_buffer_idx", "allocation_info", "shape_dynamism", "extra_tensor_info"],
    allocation_details = "AllocationDetails" ["memory_id", "memory_offset_low", "memory_offset_high"],
    extra_tensor_info = "ExtraTensorInfo" ["mutable_data_segments_idx", "fully_qualified_name", "location",
        "device_type", "device_index"],
    null = "Null" [],
    int = "Int" ["int_val"],
    bool_ = "Bool" ["bool_val"],
    double = "Double" ["double_val"],
    string = "String" ["string_val"],
    int_list = "IntList" ["items"],
    double_list = "DoubleList" ["items"],
    bool_list = "BoolList" ["items"],
    tensor_list = "TensorList" ["items"],
    optional_tensor_list = "OptionalTensorList" ["items"],
    buffer = "Buffer" ["storage"],
    inline_data = "BackendDelegateInlineData" ["data"],
    kernel_call = "KernelCall" ["op_index", "args"],
    delegate_call = "DelegateCall" ["delegate_index", "args"],
    move_call = "MoveCall" ["move_from", "move_to"],
    jump_false_call = "JumpFalseCall" ["cond_value_index", "destination_instruction"],
    free_call = "FreeCall" ["value_index"],
    instruction = "Instruction" ["instr_args"],
    frame = "Frame" ["filename", "lineno", "name", "context"],
    frame_list = "FrameList" ["items"],
    data_reference = "BackendDelegateDataReference" ["location", "index"],
    backend_delegate = "BackendDelegate" ["id", "processed", "compile_specs"],
    compile_spec = "CompileSpec" ["key", "value"],
    chain = "Chain" ["inputs", "outputs", "instructions", "stacktrace"],
    operator = "Operator" ["name", "overload"],
    non_const_buffer_device = "NonConstBufferDevice" ["buffer_idx", "device_type", "device_index"],
    data_segment = "DataSegment" ["offset", "size"],
    subsegment_offsets = "SubsegmentOffsets" ["segment_index", "offsets"],
    named_data = "NamedData" ["key", "segment_index"],
}

/// Fails unless `cls` is a dataclass whose fields are exactly `want`, in order.
fn check_fields(cls: &Bound<'_, PyAny>, name: &str, want: &[&str]) -> PyResult<()> {
    let fields = cls.getattr("__dataclass_fields__")?;
    let have: Vec<String> = fields.try_iter()?.map(|k| k?.extract::<String>()).collect::<PyResult<_>>()?;
    if have.iter().map(String::as_str).eq(want.iter().copied()) {
        Ok(())
    } else {
        Err(PyTypeError::new_err(format!(
            "exir's {name} has fields {have:?}; pte_rs expects {want:?} (executorch 1.5.1's schema)"
        )))
    }
}
