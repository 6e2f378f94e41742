//! The classes breaking the `.ptn` rules taken from upstream's C++ package
//! reader: a deflated member, and each cap a small file can break (by what
//! the central directory or the safetensors header declares). The member,
//! tensor and alias counts and the package size have no class: a file past
//! them is tens of megabytes to a terabyte (their tests lower the caps).

use pte_ptn::verify::rules as ptn_rules;
use serde_json::{json, Value as Json};

use crate::corruption::{class, Corruption};
use crate::edit::*;
use crate::hostile::{ptn_with_members, Payload};
use pte_core::FileKind;

use super::edits::*;

/// A header member claims this many bytes while holding a mebibyte.
fn claiming(name: &str, declared: u64) -> (String, Payload) {
    (name.to_string(), Payload::Bomb { inflated: 1, declared, fill: b' ' })
}

/// A zero-byte U8 tensor `key` of `shape` appended to program.safetensors,
/// its data range declared as `len` bytes from the end of the data.
fn extra_tensor(b: &[u8], key: &str, shape: Json, len: u64) -> Edit<Vec<u8>> {
    ptn_members(b, |m| {
        let st = member(m, "program.safetensors")?;
        *st = safetensors_header(st, |doc| {
            let o = doc.as_object_mut().ok_or("not an object")?;
            let end = o.values().filter_map(|t| t.get("data_offsets")?.get(1)?.as_u64()).max().unwrap_or(0);
            o.insert(
                key.into(),
                json!({"dtype": "U8", "shape": shape, "data_offsets": [end, end.saturating_add(len)]}),
            );
            Ok(())
        })?;
        Ok(())
    })
}

/// One class per upstream cap a small file can break.
pub(super) static CLASSES: &[Corruption] = &[
    class!(
        "ptn.stored",
        ptn_rules::PTN_STORED,
        Ptn,
        "program.ptg is deflated (exir's Python reader reads it; upstream's C++ reader serves stored members only)",
        rule(ptn_rules::PTN_STORED),
        |b| rezip_with(&unzip(b)?, |n| n == "program.ptg")
    ),
    class!(
        "ptn.limit.program",
        ptn_rules::PTN_LIMIT_PROGRAM,
        Ptn,
        "program.ptg is deflated and its headers declare 1 GiB + 1 bytes",
        rule(ptn_rules::PTN_LIMIT_PROGRAM),
        |b| ptn_with_members(b, &[claiming("program.ptg", (1 << 30) + 1)])
    ),
    class!(
        "ptn.limit.json_size",
        ptn_rules::PTN_LIMIT_JSON_SIZE,
        Ptn,
        "a deflated extra.json member whose headers declare 64 MiB + 1 bytes",
        rule(ptn_rules::PTN_LIMIT_JSON_SIZE),
        |b| ptn_with_members(b, &[claiming("extra.json", (64 << 20) + 1)])
    ),
    class!(
        "ptn.limit.json_depth",
        ptn_rules::PTN_LIMIT_JSON_DEPTH,
        Ptn,
        "an extra.json member of arrays nested 65 deep",
        rule(ptn_rules::PTN_LIMIT_JSON_DEPTH),
        |b| {
            let deep = format!("{}{}", "[".repeat(65), "]".repeat(65)).into_bytes();
            ptn_members(b, |m| {
                m.push(("extra.json".into(), deep));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.limit.rank",
        ptn_rules::PTN_LIMIT_RANK,
        Ptn,
        "a zero-byte tensor of rank 65 is added to program.safetensors",
        rule(ptn_rules::PTN_LIMIT_RANK),
        |b| {
            let mut shape = vec![json!(1); 64];
            shape.push(json!(0));
            extra_tensor(b, "pte_mutate_rank", Json::Array(shape), 0)
        }
    ),
    class!(
        "ptn.limit.dim",
        ptn_rules::PTN_LIMIT_DIM,
        Ptn,
        "a zero-byte tensor of shape [2^31, 0] is added to program.safetensors",
        rule(ptn_rules::PTN_LIMIT_DIM),
        |b| extra_tensor(b, "pte_mutate_dim", json!([1u64 << 31, 0]), 0)
    ),
    class!(
        "ptn.limit.constant_bytes",
        ptn_rules::PTN_LIMIT_CONSTANT_BYTES,
        Ptn,
        "program.safetensors declares a U8 tensor of 2^41 bytes past its data",
        rule(ptn_rules::PTN_LIMIT_CONSTANT_BYTES),
        |b| extra_tensor(b, "pte_mutate_bytes", json!([1u64 << 20, 1u64 << 20, 2]), 1 << 41)
    ),
];
