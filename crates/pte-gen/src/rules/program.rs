//! The classes breaking the `.pte` program rules.

use std::borrow::Cow;

use pte_file::PteFile;
use pte_schema::{
    AllocationDetails, BackendDelegate, BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation,
    DataSegment, EValue, ExtraTensorInfo, KernelTypes, NamedData, Tensor, TensorDataLocation, TensorShapeDynamism,
};
use pte_verify::rules as pte_rules;

use crate::corruption::{class, Corruption};
use crate::edit::*;
use pte_core::FileKind;

use super::edits::*;

/// One class per `.pte` program rule the corruption catalogue does not break.
pub(super) static CLASSES: &[Corruption] = &[
    class!(
        "file.min_size",
        pte_rules::FILE_MIN_SIZE,
        Pte,
        "the file is cut to 60 bytes",
        rule(pte_rules::FILE_MIN_SIZE),
        |b| { Ok(b.get(..60).ok_or("the file is already shorter than 60 bytes")?.to_vec()) }
    ),
    class!(
        "header.required",
        pte_rules::HEADER_REQUIRED,
        Pte,
        "the eh00 magic is broken in a file whose segments hold data",
        rule(pte_rules::HEADER_REQUIRED),
        |b| {
            let mut out = with_segment_data(b)?;
            out.get_mut(8..12).ok_or("short file")?.copy_from_slice(b"xx00");
            Ok(out)
        }
    ),
    class!(
        "header.segment_base",
        pte_rules::HEADER_SEGMENT_BASE,
        Pte,
        "segment_base_offset points into the flatbuffer, at byte 64",
        rule(pte_rules::HEADER_SEGMENT_BASE),
        |b| {
            let mut out = with_segment_data(b)?;
            put_u64(&mut out, 24, 64)?;
            Ok(out)
        }
    ),
    class!(
        "flatbuffer.union_tag",
        pte_rules::FLATBUFFER_UNION_TAG,
        Pte,
        "the first value's union tag is 200, a member the schema lacks",
        rule(pte_rules::FLATBUFFER_UNION_TAG),
        |b| {
            let mut out = push_value(b, Some(KernelTypes::Null))?;
            let at = first_value_tag(&out)?;
            *out.get_mut(at).ok_or("tag past the end")? = 200;
            Ok(out)
        }
    ),
    class!(
        "program.version",
        pte_rules::PROGRAM_VERSION,
        Pte,
        "the schema version is 1",
        rule(pte_rules::PROGRAM_VERSION),
        |b| {
            pte_model(b, |p| {
                p.program.version = 1;
                Ok(())
            })
        }
    ),
    class!(
        "program.execution_plan",
        pte_rules::PROGRAM_EXECUTION_PLAN,
        Pte,
        "the execution_plan vector is absent",
        rule(pte_rules::PROGRAM_EXECUTION_PLAN),
        |b| {
            pte_model(b, |p| {
                p.program.execution_plan = None;
                Ok(())
            })
        }
    ),
    class!(
        "program.constant_segment",
        pte_rules::PROGRAM_CONSTANT_SEGMENT,
        Pte,
        "constants move inline into the deprecated constant_buffer (a warning)",
        rule(pte_rules::PROGRAM_CONSTANT_SEGMENT),
        |b| {
            let pte = PteFile::from_bytes(b).map_err(|e| e.to_string())?;
            let buffers: Vec<Buffer<'static>> = pte
                .constants()
                .map_err(|e| e.to_string())?
                .iter()
                .map(|c| Buffer { storage: Some(Cow::Owned(c.bytes.to_vec())) })
                .collect();
            let mut program = pte.program.clone().into_owned();
            program.constant_buffer = Some(buffers);
            program.constant_segment = None;
            with_program(b, &program)
        }
    ),
    class!(
        "program.constant_buffer",
        pte_rules::PROGRAM_CONSTANT_BUFFER,
        Pte,
        "an inline constant_buffer entry beside a constant segment that holds constants",
        rule(pte_rules::PROGRAM_CONSTANT_BUFFER),
        |b| {
            let mut program = program_of(b)?;
            let offsets =
                program.constant_segment.as_mut().and_then(|c| c.offsets.as_mut()).ok_or("no constant segment")?;
            if offsets.len() < 2 {
                let last = offsets.last().copied().unwrap_or(0);
                offsets.push(last);
                if offsets.len() < 2 {
                    offsets.push(last);
                }
            }
            program.constant_buffer = Some(vec![Buffer { storage: Some(Cow::Owned(vec![0; 4])) }]);
            with_program(b, &program)
        }
    ),
    class!(
        "program.named_data_segments",
        pte_rules::PROGRAM_NAMED_DATA_SEGMENTS,
        Pte,
        "named_data is present but the segments vector is absent",
        rule(pte_rules::PROGRAM_NAMED_DATA_SEGMENTS),
        |b| {
            let mut program = program_of(b)?;
            program.segments = None;
            program.named_data.get_or_insert_with(Vec::new);
            with_program(b, &program)
        }
    ),
    class!(
        "segment.overlap",
        pte_rules::SEGMENT_OVERLAP,
        Pte,
        "a non-empty segment is moved to start inside another",
        rule(pte_rules::SEGMENT_OVERLAP),
        |b| {
            let grown = repacked(b, |p| {
                for (i, data) in [[1u8; 24], [2u8; 24]].into_iter().enumerate() {
                    let table = p.program.segments.get_or_insert_with(Vec::new);
                    table.push(DataSegment { offset: 0, size: 24 });
                    let index = u32::try_from(table.len().saturating_sub(1)).map_err(|e| e.to_string())?;
                    p.segments.push(Cow::Owned(data.to_vec()));
                    p.program
                        .named_data
                        .get_or_insert_with(Vec::new)
                        .push(NamedData { key: Some(format!("pte-mutate/overlap{i}")), segment_index: index });
                }
                Ok(())
            })?;
            let mut program = program_of(&grown)?;
            let table = program.segments.as_mut().ok_or("no segments")?;
            let n = table.len();
            let first = table.get(n.saturating_sub(2)).copied().ok_or("fewer than two segments")?;
            // Half-way into its neighbour: an identical range would read as
            // one blob shared by two entries, which is legal.
            table.get_mut(n.saturating_sub(1)).ok_or("no segment")?.offset = first.offset.saturating_add(8);
            with_program(&grown, &program)
        }
    ),
    class!(
        "subsegment.offsets",
        pte_rules::SUBSEGMENT_OFFSETS,
        Pte,
        "a constant offset past the end of the constant segment",
        rule(pte_rules::SUBSEGMENT_OFFSETS),
        |b| {
            let mut program = program_of(b)?;
            let cs = program.constant_segment.as_ref().ok_or("no constant segment")?;
            if cs.offsets.as_ref().is_none_or(|o| o.is_empty()) {
                return Err("the constants are inline (no constant segment offsets)".into());
            }
            let size = program
                .segment_table()
                .get(usize::try_from(cs.segment_index).map_err(|e| e.to_string())?)
                .map_or(0, |s| s.size);
            program
                .constant_segment
                .as_mut()
                .and_then(|c| c.offsets.as_mut())
                .ok_or("no offsets")?
                .push(size.saturating_add(64));
            with_program(b, &program)
        }
    ),
    class!(
        "delegate.fields",
        pte_rules::DELEGATE_FIELDS,
        Pte,
        "a delegate without a backend id is added to the first method",
        rule(pte_rules::DELEGATE_FIELDS),
        |b| {
            pte_model(b, |p| {
                let inline = p.program.backend_delegate_data.get_or_insert_with(Vec::new);
                inline.push(BackendDelegateInlineData { data: Some(Cow::Owned(vec![1, 2, 3, 4])) });
                let index = u32::try_from(inline.len().saturating_sub(1)).map_err(|e| e.to_string())?;
                first_plan(p)?.delegates.get_or_insert_with(Vec::new).push(BackendDelegate {
                    id: None,
                    processed: Some(BackendDelegateDataReference { location: DataLocation::INLINE, index }),
                    compile_specs: Some(vec![]),
                });
                Ok(())
            })
        }
    ),
    class!(
        "delegate.data",
        pte_rules::DELEGATE_DATA,
        Pte,
        "a delegate whose inline data index names no entry",
        rule(pte_rules::DELEGATE_DATA),
        |b| {
            pte_model(b, |p| {
                let n = p.program.backend_delegate_data.get_or_insert_with(Vec::new).len();
                let index = u32::try_from(n).map_err(|e| e.to_string())?.saturating_add(7);
                first_plan(p)?.delegates.get_or_insert_with(Vec::new).push(BackendDelegate {
                    id: Some("PteMutateBackend".into()),
                    processed: Some(BackendDelegateDataReference { location: DataLocation::INLINE, index }),
                    compile_specs: Some(vec![]),
                });
                Ok(())
            })
        }
    ),
    class!(
        "plan.buffer_sizes",
        pte_rules::PLAN_BUFFER_SIZES,
        Pte,
        "a planned buffer of size -1 is added",
        rule(pte_rules::PLAN_BUFFER_SIZES),
        |b| {
            pte_model(b, |p| {
                let sizes = first_plan(p)?.non_const_buffer_sizes.get_or_insert_with(|| vec![0]);
                if sizes.is_empty() {
                    sizes.push(0);
                }
                sizes.push(-1);
                Ok(())
            })
        }
    ),
    class!(
        "value.null",
        pte_rules::VALUE_NULL,
        Pte,
        "a value with union tag NONE is added",
        rule(pte_rules::VALUE_NULL),
        |b| { push_value(b, None) }
    ),
    class!(
        "value.list",
        pte_rules::VALUE_LIST,
        Pte,
        "an IntList naming a value index past the table is added",
        rule(pte_rules::VALUE_LIST),
        |b| push_value(b, Some(KernelTypes::IntList(Some(vec![i64::from(i32::MAX)]))))
    ),
    class!(
        "value.tensor_list",
        pte_rules::VALUE_TENSOR_LIST,
        Pte,
        "a TensorList naming itself (not an earlier tensor) is added",
        rule(pte_rules::VALUE_TENSOR_LIST),
        |b| {
            pte_model(b, |p| {
                let values = first_plan(p)?.values.get_or_insert_with(Vec::new);
                let me = i32::try_from(values.len()).map_err(|e| e.to_string())?;
                values.push(EValue { val: Some(KernelTypes::TensorList(Some(vec![me]))) });
                Ok(())
            })
        }
    ),
    class!(
        "tensor.storage_offset",
        pte_rules::TENSOR_STORAGE_OFFSET,
        Pte,
        "a tensor with storage_offset 4 is added",
        rule(pte_rules::TENSOR_STORAGE_OFFSET),
        |b| push_value(b, Some(KernelTypes::Tensor(Tensor { storage_offset: 4, ..scalar_tensor() })))
    ),
    class!(
        "tensor.dynamism",
        pte_rules::TENSOR_DYNAMISM,
        Pte,
        "a DYNAMIC_UNBOUND tensor is added",
        rule(pte_rules::TENSOR_DYNAMISM),
        |b| {
            push_value(
                b,
                Some(KernelTypes::Tensor(Tensor {
                    shape_dynamism: TensorShapeDynamism::DYNAMIC_UNBOUND,
                    ..scalar_tensor()
                })),
            )
        }
    ),
    class!(
        "tensor.dim_order",
        pte_rules::TENSOR_DIM_ORDER,
        Pte,
        "a rank-2 tensor whose dim_order repeats dimension 1 is added",
        rule(pte_rules::TENSOR_DIM_ORDER),
        |b| {
            push_value(
                b,
                Some(KernelTypes::Tensor(Tensor {
                    sizes: Some(vec![1, 1]),
                    dim_order: Some(vec![1, 1]),
                    ..scalar_tensor()
                })),
            )
        }
    ),
    class!(
        "tensor.memory_plan",
        pte_rules::TENSOR_MEMORY_PLAN,
        Pte,
        "a tensor planned in buffer 999, which the method lacks, is added",
        rule(pte_rules::TENSOR_MEMORY_PLAN),
        |b| {
            push_value(
                b,
                Some(KernelTypes::Tensor(Tensor {
                    allocation_info: Some(AllocationDetails { memory_id: 999, ..Default::default() }),
                    ..scalar_tensor()
                })),
            )
        }
    ),
    class!(
        "tensor.external",
        pte_rules::TENSOR_EXTERNAL,
        Pte,
        "an EXTERNAL tensor without a fully qualified name is added",
        rule(pte_rules::TENSOR_EXTERNAL),
        |b| {
            push_value(
                b,
                Some(KernelTypes::Tensor(Tensor {
                    data_buffer_idx: 1,
                    extra_tensor_info: Some(ExtraTensorInfo {
                        location: TensorDataLocation::EXTERNAL,
                        ..Default::default()
                    }),
                    ..scalar_tensor()
                })),
            )
        }
    ),
    class!(
        "memory.overlap",
        pte_rules::MEMORY_OVERLAP,
        Pte,
        "two scalar tensors planned at offset 0 of a new 4-byte buffer are added as outputs of the first method, so both hold data at its end",
        rule(pte_rules::MEMORY_OVERLAP),
        |b| {
            pte_model(b, |p| {
                let plan = first_plan(p)?;
                let sizes = plan.non_const_buffer_sizes.get_or_insert_with(Vec::new);
                if sizes.is_empty() {
                    sizes.push(0);
                }
                sizes.push(4);
                let memory_id = u32::try_from(sizes.len().saturating_sub(1)).map_err(|e| e.to_string())?;
                let values = plan.values.get_or_insert_with(Vec::new);
                let first = i32::try_from(values.len()).map_err(|e| e.to_string())?;
                for _ in 0..2 {
                    values.push(EValue {
                        val: Some(KernelTypes::Tensor(Tensor {
                            allocation_info: Some(AllocationDetails { memory_id, ..Default::default() }),
                            ..scalar_tensor()
                        })),
                    });
                }
                plan.outputs.get_or_insert_with(Vec::new).extend([first, first.saturating_add(1)]);
                Ok(())
            })
        }
    ),
];
