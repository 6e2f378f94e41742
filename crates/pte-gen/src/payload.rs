//! Corruption classes inside XNNPACK delegate payloads: each edits one field
//! of the payload's header or flatbuffer in place, found by walking the
//! flatbuffer's tables (field slots as in `schema/xnnpack.fbs`), so the
//! program around it stays valid.

use pte_analysis::delegate_payload::payloads;
use pte_file::PteFile;
use pte_schema::xnnpack::{XnnHeader, XNNPACK_BACKEND_ID};
use pte_verify::rules as pte_rules;

use crate::corruption::{class, Corruption};
use crate::edit::*;
use crate::judge::Expect;
use pte_core::FileKind;

/// `XNNGraph` field slots.
const GRAPH_XNODES: usize = 1;
const GRAPH_XVALUES: usize = 2;
const GRAPH_CONSTANT_DATA: usize = 8;
/// `XNode` / `XValue`: the union tag and the union table.
const UNION_TYPE: usize = 0;
const UNION_VALUE: usize = 1;
/// `XNNFullyConnected.output_id`.
const FC_OUTPUT_ID: usize = 3;
/// `XNNTensorValue` slots.
const TENSOR_CONSTANT_IDX: usize = 3;
const TENSOR_FLAGS: usize = 5;
/// `ConstantDataOffset.named_key`.
const CONSTANT_NAMED_KEY: usize = 2;

/// Where the first XNNPACK payload and its flatbuffer start in the file.
fn xnn(bytes: &[u8]) -> Edit<(usize, Option<XnnHeader>, usize)> {
    let pte = PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?;
    let p = payloads(&pte.program, bytes)
        .into_iter()
        .find(|p| p.id == XNNPACK_BACKEND_ID)
        .ok_or("no XNNPACK delegate payload")?;
    let start = p.file_offset.and_then(|o| usize::try_from(o).ok()).ok_or("payload not located in the file")?;
    let header = XnnHeader::parse(p.bytes).map_err(|e| e.to_string())?;
    let fb = header.map_or(Some(start), |h| start.checked_add(h.flatbuffer_offset as usize)).ok_or("overflow")?;
    Ok((start, header, fb))
}

fn deref(b: &[u8], at: usize) -> Edit<usize> {
    at.checked_add(get_u32(b, at)? as usize).ok_or_else(|| "offset overflows".into())
}

/// Position of field `slot` of the table at `table`; an error when the
/// field is absent (default-valued scalars are not stored).
fn field(b: &[u8], table: usize, slot: usize) -> Edit<usize> {
    let soffset = get_u32(b, table)? as i32;
    let vtable = usize::try_from(i64::try_from(table).map_err(|_| "too far")?.saturating_sub(i64::from(soffset)))
        .map_err(|_| "vtable before the buffer")?;
    let vt_len = u16_at(b, vtable)? as usize;
    let entry = slot.checked_mul(2).and_then(|s| s.checked_add(4)).ok_or("slot overflows")?;
    if entry.saturating_add(2) > vt_len {
        return Err(format!("field {slot} is absent"));
    }
    match u16_at(b, vtable.saturating_add(entry))? {
        0 => Err(format!("field {slot} is absent")),
        off => table.checked_add(off as usize).ok_or_else(|| "overflow".into()),
    }
}

fn u16_at(b: &[u8], at: usize) -> Edit<u16> {
    let s = b.get(at..at.saturating_add(2)).ok_or_else(|| format!("no 2 bytes at {at}"))?;
    Ok(u16::from_le_bytes([s.first().copied().unwrap_or(0), s.get(1).copied().unwrap_or(0)]))
}

/// The tables of the vector in field `slot` of `table`.
fn tables(b: &[u8], table: usize, slot: usize) -> Edit<Vec<usize>> {
    let vec = deref(b, field(b, table, slot)?)?;
    let n = get_u32(b, vec)? as usize;
    (0..n.min(4096)).map(|i| deref(b, vec.saturating_add(4).saturating_add(i.saturating_mul(4)))).collect()
}

fn root(b: &[u8], fb: usize) -> Edit<usize> {
    deref(b, fb)
}

/// The first plain tensor value (union tag 1) with field `slot` stored.
fn tensor_field(b: &[u8], fb: usize, slot: usize) -> Edit<usize> {
    for v in tables(b, root(b, fb)?, GRAPH_XVALUES)? {
        let tag = field(b, v, UNION_TYPE).and_then(|at| b.get(at).copied().ok_or_else(|| "short".to_string()));
        if tag == Ok(1)
            && let Ok(at) = deref(b, field(b, v, UNION_VALUE)?).and_then(|t| field(b, t, slot))
        {
            return Ok(at);
        }
    }
    Err(format!("no tensor value stores field {slot}"))
}

fn with_xnn(
    bytes: &[u8],
    edit: impl FnOnce(&mut Vec<u8>, usize, Option<XnnHeader>, usize) -> Edit<()>,
) -> Edit<Vec<u8>> {
    let (start, header, fb) = xnn(bytes)?;
    let mut out = bytes.to_vec();
    edit(&mut out, start, header, fb)?;
    Ok(out)
}

/// Makes the first payload key unknown (its first byte becomes 'z': the
/// exporter's keys are hex digests).
fn rename_key(bytes: &[u8]) -> Edit<Vec<u8>> {
    with_xnn(bytes, |b, _, _, fb| {
        for c in tables(b, root(b, fb)?, GRAPH_CONSTANT_DATA)? {
            let Ok(s) = field(b, c, CONSTANT_NAMED_KEY).and_then(|at| deref(b, at)) else { continue };
            if get_u32(b, s)? > 0 {
                *b.get_mut(s.saturating_add(4)).ok_or("short")? = b'z';
                return Ok(());
            }
        }
        Err("no named constant".into())
    })
}

/// The payload classes.
pub static PAYLOAD_CLASSES: &[Corruption] = &[
    class!(
        "xnnpack.bad-identifier",
        pte_rules::PAYLOAD_STRUCTURE,
        Pte,
        "an XNNPACK payload's flatbuffer identifier (XN01) is changed",
        Expect::Rule(pte_rules::PAYLOAD_STRUCTURE),
        |b| with_xnn(b, |b, _, _, fb| {
            b.get_mut(fb.saturating_add(4)..fb.saturating_add(8)).ok_or("short")?.copy_from_slice(b"XN99");
            Ok(())
        })
    ),
    class!(
        "xnnpack.header-range",
        pte_rules::PAYLOAD_STRUCTURE,
        Pte,
        "an XNNPACK payload's XH00 header gives its flatbuffer a size past the payload",
        Expect::Rule(pte_rules::PAYLOAD_STRUCTURE),
        |b| with_xnn(b, |b, start, h, _| {
            h.ok_or("the payload has no XH00 header")?;
            put_u32(b, start.saturating_add(14), 0x7fff_fff0)
        })
    ),
    class!(
        "xnnpack.node-id",
        pte_rules::PAYLOAD_IDS,
        Pte,
        "an XNNPACK fully-connected node's output names a value id no value defines",
        Expect::Rule(pte_rules::PAYLOAD_IDS),
        |b| with_xnn(b, |b, _, _, fb| {
            for n in tables(b, root(b, fb)?, GRAPH_XNODES)? {
                let tag = field(b, n, UNION_TYPE).and_then(|at| b.get(at).copied().ok_or_else(|| "short".into()));
                if tag == Ok(2) {
                    let at = field(b, deref(b, field(b, n, UNION_VALUE)?)?, FC_OUTPUT_ID)?;
                    return put_u32(b, at, 0x7777);
                }
            }
            Err("no fully-connected node".into())
        })
    ),
    class!(
        "xnnpack.value-flags",
        pte_rules::PAYLOAD_VALUE,
        Pte,
        "an XNNPACK tensor value carries a flag bit the backend does not accept",
        Expect::Rule(pte_rules::PAYLOAD_VALUE),
        |b| with_xnn(b, |b, _, _, fb| {
            let at = tensor_field(b, fb, TENSOR_FLAGS)?;
            let v = get_u32(b, at)?;
            put_u32(b, at, v | 0x100)
        })
    ),
    class!(
        "xnnpack.constant-index",
        pte_rules::PAYLOAD_CONSTANT,
        Pte,
        "an XNNPACK tensor's constant index is past the constant table",
        Expect::Rule(pte_rules::PAYLOAD_CONSTANT),
        |b| with_xnn(b, |b, _, _, fb| {
            let at = tensor_field(b, fb, TENSOR_CONSTANT_IDX)?;
            put_u32(b, at, 9999)
        })
    ),
    class!(
        "xnnpack.named-key",
        pte_rules::PAYLOAD_NAMED_KEY,
        Pte,
        "an XNNPACK constant's named key is one the program's named data lacks",
        Expect::Rule(pte_rules::PAYLOAD_NAMED_KEY),
        rename_key
    ),
    class!(
        "xnnpack.named-key-link",
        pte_rules::LINK_PAYLOAD_KEY,
        Pte,
        "an XNNPACK constant's named key is in neither the program's named data nor the linked .ptd",
        Expect::Rule(pte_rules::LINK_PAYLOAD_KEY),
        rename_key
    ),
];
