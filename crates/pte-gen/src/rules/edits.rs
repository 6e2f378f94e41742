//! The edits the rule classes share: repacking a program, adding a value,
//! rewriting a `.ptd`, a package member or a samples index.

use std::borrow::Cow;

use pte_file::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use pte_file::{PteFile, SegmentLayout, WriteOptions};
use pte_schema::{DataSegment, EValue, KernelTypes, NamedData, Program, Tensor};
use serde_json::Value as Json;

use crate::edit::*;
use crate::judge::Expect;

pub(super) const fn rule(r: pte_verify::Rule) -> Expect {
    Expect::Rule(r)
}

/// Reads a program, edits it, and writes it with the segments laid out anew.
pub(super) fn repacked(bytes: &[u8], change: impl FnOnce(&mut PteFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    let mut pte = PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?;
    change(&mut pte)?;
    pte.to_bytes(&WriteOptions::default().with_layout(SegmentLayout::Repack))
        .map_err(|e| format!("the writer refused the edit: {e}"))
}

/// Appends one value to the first method.
pub(super) fn push_value(bytes: &[u8], val: Option<KernelTypes>) -> Edit<Vec<u8>> {
    pte_model(bytes, |p| {
        first_plan(p)?.values.get_or_insert_with(Vec::new).push(EValue { val });
        Ok(())
    })
}

/// A scalar tensor without data, which breaks nothing by itself.
pub(super) fn scalar_tensor() -> Tensor {
    Tensor {
        scalar_type: pte_schema::ScalarType(6),
        sizes: Some(vec![]),
        dim_order: Some(vec![]),
        ..Default::default()
    }
}

/// A program whose segment region is not empty (a one-byte named blob is
/// added when it is), written with an extended header.
pub(super) fn with_segment_data(bytes: &[u8]) -> Edit<Vec<u8>> {
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
pub(super) fn with_program(bytes: &[u8], program: &Program<'_>) -> Edit<Vec<u8>> {
    let fb = pte_schema::encode_program(program, &Default::default()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    pte_file::splice_flatbuffer(&mut out, bytes, &fb, &Default::default()).map_err(|e| e.to_string())?;
    Ok(out)
}

pub(super) fn program_of(bytes: &[u8]) -> Edit<Program<'static>> {
    Ok(PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?.program.into_owned())
}

/// Position of the union tag of `execution_plan[0].values[0]`.
pub(super) fn first_value_tag(b: &[u8]) -> Edit<usize> {
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
pub(super) fn safetensors_header(blob: &[u8], change: impl FnOnce(&mut Json) -> Edit<()>) -> Edit<Vec<u8>> {
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

pub(super) fn ptd_model(bytes: &[u8], change: impl FnOnce(&mut PtdFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    ptd_model_as(bytes, PtdLayout::Keep { segment_alignment: 128 }, change)
}

pub(super) fn ptd_model_as(
    bytes: &[u8],
    layout: PtdLayout,
    change: impl FnOnce(&mut PtdFile<'_>) -> Edit<()>,
) -> Edit<Vec<u8>> {
    let mut f = PtdFile::from_bytes(bytes).map_err(|e| format!("not a readable .ptd: {e}"))?;
    change(&mut f)?;
    let o = PtdWriteOptions::new(layout).map_err(|e| e.to_string())?;
    f.to_bytes(&o).map_err(|e| format!("the writer refused the edit: {e}"))
}

pub(super) fn first_ptd_layout<'f>(f: &'f mut PtdFile<'_>) -> Edit<&'f mut pte_schema::ptd::TensorLayout> {
    f.flat_tensor
        .named_data
        .iter_mut()
        .flatten()
        .find_map(|n| n.tensor_layout.as_mut())
        .ok_or_else(|| "no key with a tensor layout".to_string())
}

/// The first EXTERNAL tensor of any method.
pub(super) fn first_external<'p>(p: &'p mut PteFile<'_>) -> Edit<&'p mut Tensor> {
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
pub(super) fn samples_doc(bytes: &[u8], change: impl FnOnce(&mut Json) -> Edit<()>) -> Edit<Vec<u8>> {
    with_samples(bytes, |index, _| {
        let mut doc: Json = serde_json::from_str(index).map_err(|e| e.to_string())?;
        change(&mut doc)?;
        *index = doc.to_string();
        Ok(())
    })
}

pub(super) fn ptn_native(
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

pub(super) fn first_referenced_key(bytes: &[u8]) -> Edit<String> {
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
