//! One class per verifier rule the corruption classes in `catalogue.rs` do
//! not already break, named after the rule itself, so that `pte mutate
//! --rule RULE` exists for every rule of docs/verifier.md. Each edit is the
//! smallest one that breaks its rule: most add one bad entry (a value, a
//! delegate, a key) to an otherwise valid file, so they apply to any input of
//! their kind that reads.

use pte_file::verify::rules as pte_rules;
use pte_ptn::verify::rules as ptn_rules;
use pte_samples::rules as samples_rules;
use std::borrow::Cow;

use pte_file::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use pte_file::{PteFile, SegmentLayout, WriteOptions};
use pte_schema::{
    AllocationDetails, BackendDelegate, BackendDelegateDataReference, BackendDelegateInlineData, Buffer, DataLocation,
    DataSegment, EValue, ExtraTensorInfo, KernelTypes, NamedData, Program, Tensor, TensorDataLocation,
    TensorShapeDynamism,
};
use serde_json::{json, Value as Json};

use crate::catalogue::{class, Corruption};
use crate::edit::*;
use crate::judge::{Expect, FileKind};

const fn rule(r: pte_file::verify::Rule) -> Expect {
    Expect::Rule(r)
}

/// Reads a program, edits it, and writes it with the segments laid out anew.
fn repacked(bytes: &[u8], change: impl FnOnce(&mut PteFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    let mut pte = PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?;
    change(&mut pte)?;
    pte.to_bytes(&WriteOptions::default().with_layout(SegmentLayout::Repack))
        .map_err(|e| format!("the writer refused the edit: {e}"))
}

/// Appends one value to the first method.
fn push_value(bytes: &[u8], val: Option<KernelTypes>) -> Edit<Vec<u8>> {
    pte_model(bytes, |p| {
        first_plan(p)?.values.get_or_insert_with(Vec::new).push(EValue { val });
        Ok(())
    })
}

/// A scalar tensor without data, which breaks nothing by itself.
fn scalar_tensor() -> Tensor {
    Tensor {
        scalar_type: pte_schema::ScalarType(6),
        sizes: Some(vec![]),
        dim_order: Some(vec![]),
        ..Default::default()
    }
}

/// A program whose segment region is not empty (a one-byte named blob is
/// added when it is), written with an extended header.
fn with_segment_data(bytes: &[u8]) -> Edit<Vec<u8>> {
    let has_data = pte_segments::ExtendedHeader::parse(bytes).ok().flatten().is_some_and(|h| h.segment_data_size > 0);
    if has_data {
        return Ok(bytes.to_vec());
    }
    repacked(bytes, |p| {
        let table = p.program.segments.get_or_insert_with(Vec::new);
        table.push(DataSegment { offset: 0, size: 1 });
        let index = u32::try_from(table.len().saturating_sub(1)).map_err(|e| e.to_string())?;
        p.segments.push(Cow::Owned(vec![0x5A]));
        p.program
            .named_data
            .get_or_insert_with(Vec::new)
            .push(NamedData { key: Some("pte-mutate/pad".into()), segment_index: index });
        Ok(())
    })
}

/// Replaces the flatbuffer of a program file with the encoding of `program`,
/// keeping the segment bytes exactly where they were relative to the segment
/// base: the writer would repair what these classes break.
fn with_program(bytes: &[u8], program: &Program<'_>) -> Edit<Vec<u8>> {
    let fb = pte_schema::encode_program(program, &Default::default()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    pte_file::splice_flatbuffer(&mut out, bytes, &fb, &Default::default()).map_err(|e| e.to_string())?;
    Ok(out)
}

fn program_of(bytes: &[u8]) -> Edit<Program<'static>> {
    Ok(PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?.program.into_owned())
}

/// Position of the union tag of `execution_plan[0].values[0]`.
fn first_value_tag(b: &[u8]) -> Edit<usize> {
    let root = follow(b, 0)?;
    let plans = follow(b, field_slot(b, root, 6)?)?;
    let plan = follow(b, plans.checked_add(4).ok_or("overflow")?)?;
    let values = follow(b, field_slot(b, plan, 8)?)?;
    if get_u32(b, values)? == 0 {
        return Err("the first method has no values".into());
    }
    let value = follow(b, values.checked_add(4).ok_or("overflow")?)?;
    field_slot(b, value, 4)
}

/// Edits the header JSON of a safetensors blob (re-padding it to 8 bytes).
fn safetensors_header(blob: &[u8], change: impl FnOnce(&mut Json) -> Edit<()>) -> Edit<Vec<u8>> {
    let len = usize::try_from(u64::from_le_bytes(blob.get(..8).and_then(|b| b.try_into().ok()).ok_or("short")?))
        .map_err(|e| e.to_string())?;
    let end = len.checked_add(8).ok_or("overflow")?;
    let mut doc: Json =
        serde_json::from_slice(blob.get(8..end).ok_or("header past the end")?).map_err(|e| e.to_string())?;
    change(&mut doc)?;
    let mut text = doc.to_string().into_bytes();
    while !text.len().is_multiple_of(8) {
        text.push(b' ');
    }
    let mut out = Vec::with_capacity(text.len().saturating_add(blob.len()));
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(blob.get(end..).ok_or("no data")?);
    Ok(out)
}

fn ptd_model(bytes: &[u8], change: impl FnOnce(&mut PtdFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    ptd_model_as(bytes, PtdLayout::Keep { segment_alignment: 128 }, change)
}

fn ptd_model_as(bytes: &[u8], layout: PtdLayout, change: impl FnOnce(&mut PtdFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    let mut f = PtdFile::from_bytes(bytes).map_err(|e| format!("not a readable .ptd: {e}"))?;
    change(&mut f)?;
    let o = PtdWriteOptions::new(layout).map_err(|e| e.to_string())?;
    f.to_bytes(&o).map_err(|e| format!("the writer refused the edit: {e}"))
}

fn first_ptd_layout<'f>(f: &'f mut PtdFile<'_>) -> Edit<&'f mut pte_schema::ptd::TensorLayout> {
    f.flat_tensor
        .named_data
        .iter_mut()
        .flatten()
        .find_map(|n| n.tensor_layout.as_mut())
        .ok_or_else(|| "no key with a tensor layout".to_string())
}

/// The first EXTERNAL tensor of any method.
fn first_external<'p>(p: &'p mut PteFile<'_>) -> Edit<&'p mut Tensor> {
    p.program
        .execution_plan
        .iter_mut()
        .flatten()
        .flat_map(|plan| plan.values.iter_mut().flatten())
        .find_map(|v| match &mut v.val {
            Some(KernelTypes::Tensor(t)) if t.is_external() => Some(t),
            _ => None,
        })
        .ok_or_else(|| "the program has no EXTERNAL tensor".to_string())
}

/// Edits `samples/...` index JSON of the added set as a document.
fn samples_doc(bytes: &[u8], change: impl FnOnce(&mut Json) -> Edit<()>) -> Edit<Vec<u8>> {
    with_samples(bytes, |index, _| {
        let mut doc: Json = serde_json::from_str(index).map_err(|e| e.to_string())?;
        change(&mut doc)?;
        *index = doc.to_string();
        Ok(())
    })
}

fn ptn_native(
    bytes: &[u8],
    change: impl FnOnce(&mut pte_schema::native::NativeProgram, &mut Vec<(String, Vec<u8>)>) -> Edit<()>,
) -> Edit<Vec<u8>> {
    ptn_members(bytes, |m| {
        let ptg = member(m, "program.ptg")?.clone();
        let mut program =
            pte_schema::native::decode_native_program(&ptg, &Default::default()).map_err(|e| e.to_string())?;
        change(&mut program, m)?;
        *member(m, "program.ptg")? = pte_schema::native::encode_native_program(&program).map_err(|e| e.to_string())?;
        Ok(())
    })
}

fn first_referenced_key(bytes: &[u8]) -> Edit<String> {
    let m = unzip(bytes)?;
    let ptg = m.iter().find(|(n, _)| n == "program.ptg").map(|(_, d)| d).ok_or("no program.ptg")?;
    let program = pte_schema::native::decode_native_program(ptg, &Default::default()).map_err(|e| e.to_string())?;
    program
        .methods
        .iter()
        .flat_map(|m| m.constants.iter().flatten())
        .map(|c| c.data_key.clone())
        .next()
        .ok_or_else(|| "the program has no constant".to_string())
}

/// The classes, in docs/verifier.md order.
pub static RULE_CLASSES: &[Corruption] = &[
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
        "ptd.structure",
        pte_rules::PTD_STRUCTURE,
        Ptd,
        "the named_data offset is 0",
        rule(pte_rules::PTD_STRUCTURE),
        |b| {
            let mut out = b.to_vec();
            let root = follow(&out, 0)?;
            let slot = field_slot(&out, root, 8)?;
            put_u32(&mut out, slot, 0)?;
            Ok(out)
        }
    ),
    class!("ptd.fields", pte_rules::PTD_FIELDS, Ptd, "the first key is absent", rule(pte_rules::PTD_FIELDS), |b| {
        ptd_model(b, |f| {
            f.flat_tensor.named_data.iter_mut().flatten().next().ok_or("no key")?.key = None;
            Ok(())
        })
    }),
    class!(
        "ptd.version",
        pte_rules::PTD_VERSION,
        Ptd,
        "the .ptd schema version is 1",
        rule(pte_rules::PTD_VERSION),
        |b| {
            ptd_model(b, |f| {
                f.flat_tensor.version = 1;
                Ok(())
            })
        }
    ),
    class!(
        "ptd.duplicate_key",
        pte_rules::PTD_DUPLICATE_KEY,
        Ptd,
        "the first key appears a second time",
        rule(pte_rules::PTD_DUPLICATE_KEY),
        |b| {
            ptd_model(b, |f| {
                let named = f.flat_tensor.named_data.get_or_insert_with(Vec::new);
                let first = named.first().cloned().ok_or("no key")?;
                named.push(first);
                Ok(())
            })
        }
    ),
    class!(
        "ptd.layout",
        pte_rules::PTD_LAYOUT,
        Ptd,
        "a tensor layout's dim_order repeats a dimension",
        rule(pte_rules::PTD_LAYOUT),
        |b| {
            ptd_model(b, |f| {
                let layout = first_ptd_layout(f)?;
                let rank = layout.sizes.as_ref().map_or(0, Vec::len).max(1);
                layout.sizes = Some(vec![1; rank.max(2)]);
                layout.dim_order = Some(vec![0; rank.max(2)]);
                Ok(())
            })
        }
    ),
    class!(
        "ptd.size",
        pte_rules::PTD_SIZE,
        Ptd,
        "a tensor layout gains a leading dimension of 2, doubling its byte size",
        rule(pte_rules::PTD_SIZE),
        |b| {
            ptd_model(b, |f| {
                let layout = first_ptd_layout(f)?;
                layout.sizes.get_or_insert_with(Vec::new).insert(0, 2);
                let order = layout.dim_order.get_or_insert_with(Vec::new);
                for d in order.iter_mut() {
                    *d = d.saturating_add(1);
                }
                order.insert(0, 0);
                Ok(())
            })
        }
    ),
    class!(
        "link.missing",
        pte_rules::LINK_MISSING,
        Pte,
        "an EXTERNAL tensor names a key no .ptd has (verify with --ptd)",
        rule(pte_rules::LINK_MISSING),
        |b| {
            pte_model(b, |p| {
                let t = first_external(p)?;
                if let Some(e) = t.extra_tensor_info.as_mut() {
                    e.fully_qualified_name = Some("pte-mutate/missing".into());
                }
                Ok(())
            })
        }
    ),
    class!(
        "link.duplicate",
        pte_rules::LINK_DUPLICATE,
        Pte,
        "the program's own named data also holds an EXTERNAL tensor's key (verify with --ptd)",
        rule(pte_rules::LINK_DUPLICATE),
        |b| {
            repacked(b, |p| {
                let key = first_external(p)?.fqn().ok_or("the EXTERNAL tensor has no name")?.to_string();
                let table = p.program.segments.get_or_insert_with(Vec::new);
                table.push(DataSegment { offset: 0, size: 4 });
                let index = u32::try_from(table.len().saturating_sub(1)).map_err(|e| e.to_string())?;
                p.segments.push(Cow::Owned(vec![0; 4]));
                p.program
                    .named_data
                    .get_or_insert_with(Vec::new)
                    .push(NamedData { key: Some(key), segment_index: index });
                Ok(())
            })
        }
    ),
    class!(
        "link.layout",
        pte_rules::LINK_LAYOUT,
        Pte,
        "an EXTERNAL tensor's dtype no longer matches its .ptd layout (verify with --ptd)",
        rule(pte_rules::LINK_LAYOUT),
        |b| {
            pte_model(b, |p| {
                let t = first_external(p)?;
                t.scalar_type = pte_schema::ScalarType(if t.scalar_type.0 == 3 { 6 } else { 3 });
                Ok(())
            })
        }
    ),
    class!(
        "link.size",
        pte_rules::LINK_SIZE,
        Ptd,
        "a .ptd blob is 16 bytes longer than its tensor (verify the program with --ptd)",
        rule(pte_rules::LINK_SIZE),
        |b| {
            ptd_model_as(b, PtdLayout::Python { segment_alignment: 128 }, |f| {
                let seg = f.flat_tensor.named_data.iter().flatten().next().ok_or("no key")?.segment_index;
                let i = usize::try_from(seg).map_err(|e| e.to_string())?;
                let data = f.segments.get_mut(i).ok_or("no segment")?;
                data.to_mut().extend_from_slice(&[0; 16]);
                let s = f.flat_tensor.segments.as_mut().and_then(|s| s.get_mut(i)).ok_or("no segment entry")?;
                s.size = s.size.saturating_add(16);
                Ok(())
            })
        }
    ),
    class!(
        "bpte.program",
        pte_rules::BPTE_PROGRAM,
        Bpte,
        "the embedded program is removed",
        rule(pte_rules::BPTE_PROGRAM),
        |b| {
            bundle_model(b, |m| {
                m.program = None;
                Ok(())
            })
        }
    ),
    class!(
        "bpte.alignment",
        pte_rules::BPTE_ALIGNMENT,
        Bpte,
        "8 bytes after the identifier move everything, the program off the 16-byte alignment",
        rule(pte_rules::BPTE_ALIGNMENT),
        |b| {
            // Offsets inside a flatbuffer are relative, so inserting bytes
            // right after the identifier moves every object and only the root
            // offset needs adjusting; 8 keeps every scalar aligned.
            let root = get_u32(b, 0)?.checked_add(8).ok_or("root offset overflows")?;
            let mut out = Vec::with_capacity(b.len().saturating_add(8));
            out.extend_from_slice(&root.to_le_bytes());
            out.extend_from_slice(b.get(4..8).ok_or("short file")?);
            out.extend_from_slice(&[0; 8]);
            out.extend_from_slice(b.get(8..).ok_or("short file")?);
            Ok(out)
        }
    ),
    class!(
        "bpte.value_kind",
        pte_rules::BPTE_VALUE_KIND,
        Bpte,
        "a test case's first input becomes an Int where the method takes a tensor",
        rule(pte_rules::BPTE_VALUE_KIND),
        |b| {
            bundle_model(b, |m| {
                let input = m
                    .method_test_suites
                    .iter_mut()
                    .flatten()
                    .flat_map(|s| s.test_cases.iter_mut().flatten())
                    .find_map(|c| c.inputs.as_mut().and_then(|i| i.first_mut()))
                    .ok_or("no test-case input")?;
                *input = match input {
                    pte_schema::bundled::BundledValue::Tensor(_) => pte_schema::bundled::BundledValue::Int(1),
                    _ => pte_schema::bundled::BundledValue::None,
                };
                Ok(())
            })
        }
    ),
    class!(
        "ptn.data_key",
        ptn_rules::PTN_DATA_KEY,
        Ptn,
        "a constant's data key is renamed in program.safetensors",
        rule(ptn_rules::PTN_DATA_KEY),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let o = doc.as_object_mut().ok_or("not an object")?;
                    let v = o.remove(&key).ok_or("the key is not stored")?;
                    o.insert(format!("{key}.renamed"), v);
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.dtype",
        ptn_rules::PTN_DTYPE,
        Ptn,
        "a referenced tensor is stored as U8 with the same byte count",
        rule(ptn_rules::PTN_DTYPE),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let t = doc.get_mut(&key).ok_or("the key is not stored")?;
                    let offsets = t.get("data_offsets").and_then(Json::as_array).ok_or("no data_offsets")?;
                    let (a, z) = (offsets.first().and_then(Json::as_u64), offsets.get(1).and_then(Json::as_u64));
                    let n = z.zip(a).and_then(|(z, a)| z.checked_sub(a)).ok_or("bad data_offsets")?;
                    t["dtype"] = json!("U8");
                    t["shape"] = json!([n]);
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.shape",
        ptn_rules::PTN_SHAPE,
        Ptn,
        "a referenced tensor's stored shape gains a leading 1",
        rule(ptn_rules::PTN_SHAPE),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let shape = doc.get_mut(&key).and_then(|t| t.get_mut("shape")).and_then(Json::as_array_mut);
                    shape.ok_or("no shape")?.insert(0, json!(1));
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.mutable_alias",
        ptn_rules::PTN_MUTABLE_ALIAS,
        Ptn,
        "a constant is marked mutated and made the target of an alias",
        rule(ptn_rules::PTN_MUTABLE_ALIAS),
        |b| {
            ptn_native(b, |program, m| {
                let c = program
                    .methods
                    .iter_mut()
                    .flat_map(|m| m.constants.iter_mut().flatten())
                    .next()
                    .ok_or("the program has no constant")?;
                c.mutated = true;
                let key = c.data_key.clone();
                let mut aliases: serde_json::Map<String, Json> = match m.iter().find(|(n, _)| n == "aliases.json") {
                    Some((_, d)) => serde_json::from_slice(d).map_err(|e| e.to_string())?,
                    None => serde_json::Map::new(),
                };
                aliases.insert("pte-mutate.alias".into(), Json::String(key));
                let text = Json::Object(aliases).to_string().into_bytes();
                match m.iter_mut().find(|(n, _)| n == "aliases.json") {
                    Some((_, d)) => *d = text,
                    None => m.push(("aliases.json".into(), text)),
                }
                Ok(())
            })
        }
    ),
    class!(
        "ptn.unreferenced",
        ptn_rules::PTN_UNREFERENCED,
        Ptn,
        "program.safetensors gains a one-byte tensor no data key names (a warning)",
        rule(ptn_rules::PTN_UNREFERENCED),
        |b| {
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                let mut end = 0u64;
                let mut grown = safetensors_header(st, |doc| {
                    let o = doc.as_object_mut().ok_or("not an object")?;
                    end = o
                        .values()
                        .filter_map(|t| t.get("data_offsets")?.as_array()?.get(1)?.as_u64())
                        .max()
                        .unwrap_or(0);
                    o.insert(
                        "pte-mutate.unreferenced".into(),
                        json!({"dtype": "U8", "shape": [1], "data_offsets": [end, end.saturating_add(1)]}),
                    );
                    Ok(())
                })?;
                grown.push(0x5A);
                *st = grown;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.layout",
        samples_rules::PTN_SAMPLES_LAYOUT,
        Ptn,
        "a sample set's data.safetensors member is removed",
        rule(samples_rules::PTN_SAMPLES_LAYOUT),
        |b| {
            let with = with_samples(b, |_, _| Ok(()))?;
            ptn_members(&with, |m| {
                let before = m.len();
                m.retain(|(n, _)| !(n.starts_with("samples/") && n.ends_with("/data.safetensors")));
                if m.len() == before {
                    return Err("no sample data member".into());
                }
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.index",
        samples_rules::PTN_SAMPLES_INDEX,
        Ptn,
        "a sample index gains an unknown field",
        rule(samples_rules::PTN_SAMPLES_INDEX),
        |b| {
            samples_doc(b, |doc| {
                doc.as_object_mut().ok_or("not an object")?.insert("pte_mutate".into(), json!(1));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.tolerance",
        samples_rules::PTN_SAMPLES_TOLERANCE,
        Ptn,
        "a sample set's tolerance has a negative atol",
        rule(samples_rules::PTN_SAMPLES_TOLERANCE),
        |b| {
            samples_doc(b, |doc| {
                doc.as_object_mut()
                    .ok_or("not an object")?
                    .insert("tolerance".into(), json!({"atol": -1.0, "rtol": 0.0}));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.reused_tensor",
        samples_rules::PTN_SAMPLES_REUSED_TENSOR,
        Ptn,
        "a sample's output names the same tensor key as its input",
        rule(samples_rules::PTN_SAMPLES_REUSED_TENSOR),
        |b| {
            samples_doc(b, |doc| {
                // the whole input value, so dtype and shape agree and only the key is shared
                let input = doc.pointer("/samples/0/calls/0/inputs/0").cloned().ok_or("no input")?;
                *doc.pointer_mut("/samples/0/calls/0/outputs/0").ok_or("no output")? = input;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.safetensors",
        samples_rules::PTN_SAMPLES_SAFETENSORS,
        Ptn,
        "a sample set's data.safetensors is not safetensors",
        rule(samples_rules::PTN_SAMPLES_SAFETENSORS),
        |b| {
            with_samples(b, |_, data| {
                *data = [&8u64.to_le_bytes()[..], b"notjson!"].concat();
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.limit",
        samples_rules::PTN_SAMPLES_LIMIT,
        Ptn,
        "a call has 4,097 inputs, one over the default limit",
        rule(samples_rules::PTN_SAMPLES_LIMIT),
        |b| {
            samples_doc(b, |doc| {
                let inputs =
                    doc.pointer_mut("/samples/0/calls/0/inputs").and_then(Json::as_array_mut).ok_or("no inputs")?;
                inputs.resize(4097, json!({"type": "int", "value": 0}));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.unknown_method",
        samples_rules::PTN_SAMPLES_UNKNOWN_METHOD,
        Ptn,
        "a sample set records calls to a method the program lacks",
        rule(samples_rules::PTN_SAMPLES_UNKNOWN_METHOD),
        |b| {
            let mut method = String::new();
            let with = samples_doc(b, |doc| {
                method = doc.get("method").and_then(Json::as_str).ok_or("no method")?.to_string();
                doc["method"] = json!("pte_mutate_missing");
                Ok(())
            })?;
            ptn_members(&with, |m| {
                let from = format!("samples/{method}/");
                for (n, _) in m.iter_mut() {
                    if let Some(rest) = n.strip_prefix(&from) {
                        *n = format!("samples/pte_mutate_missing/{rest}");
                    }
                }
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.signature",
        samples_rules::PTN_SAMPLES_SIGNATURE,
        Ptn,
        "a call's first input has one more dimension than the method declares",
        rule(samples_rules::PTN_SAMPLES_SIGNATURE),
        |b| {
            let (bytes, _) = with_call(b, |call| {
                let Some(pte_samples::Value::Tensor(t)) = call.inputs.first_mut() else {
                    return Err("the method's first input is no tensor".into());
                };
                // a trailing dimension of 1 keeps the bytes: only the signature breaks
                t.shape.push(1);
                Ok(())
            })?;
            Ok(bytes)
        }
    ),
];
