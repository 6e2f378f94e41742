//! Verifying `.ptd` files and the link from a program's EXTERNAL tensors to them.

use std::collections::HashMap;

use pte_schema::ptd::TensorLayout;
use pte_schema::{KernelTypes, Program};
use pte_segments::FlatTensorHeader;

use crate::{rules, Report, Rule, VerifyOptions, Violation};
use pte_file::ptd::PtdFile;

fn v(rule: Rule, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) -> Violation {
    Violation { rule, path: path.into(), offset, message: message.into() }
}

fn layout_problem(l: &TensorLayout) -> Option<String> {
    let (Some(sizes), Some(dims)) = (&l.sizes, &l.dim_order) else {
        return Some("layout lacks sizes or dim_order (the runtime dereferences both)".into());
    };
    if dims.len() != sizes.len() {
        return Some(format!("dim_order has {} entries for rank {}", dims.len(), sizes.len()));
    }
    if sizes.iter().any(|&s| s < 0) {
        return Some("a size is negative".into());
    }
    let mut seen = vec![false; dims.len()];
    if !dims.iter().all(|&d| seen.get_mut(usize::from(d)).is_some_and(|s| !std::mem::replace(s, true))) {
        return Some(format!("dim_order {dims:?} is not a permutation"));
    }
    if l.nbytes().is_none() {
        return Some("byte size overflows or the scalar type is invalid".into());
    }
    None
}

/// Verifies a `.ptd` held in memory.
///
/// ```
/// let b = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
/// assert!(pte_verify::verify_ptd_bytes(&b, &Default::default()).is_ok());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_ptd_bytes(bytes: &[u8], options: &VerifyOptions) -> Report {
    let mut out = vec![];
    let len = bytes.len() as u64;
    if len < 64 {
        out.push(v(rules::FILE_MIN_SIZE, "", None, format!("file is {len} bytes; loaders need at least 64")));
    }
    let h = match FlatTensorHeader::parse(bytes) {
        Ok(h) => h,
        Err(e) => {
            out.push(v(rules::PTD_HEADER, e.path(), e.offset(), e.message()));
            return Report { violations: out, warnings: vec![] };
        }
    };
    match h.segment_base_offset.checked_add(h.segment_data_size) {
        Some(end) if end <= len => {}
        _ => out.push(v(
            rules::PTD_HEADER,
            "fh01.segment_data_size",
            Some(40),
            "segment_base_offset + segment_data_size exceeds the file",
        )),
    }
    if bytes.get(4..8).is_some_and(|id| id != b"FT01") {
        out.push(v(rules::PTD_IDENTIFIER, "", Some(4), "file identifier is not FT01"));
        return Report { violations: out, warnings: vec![] };
    }
    let ptd = match PtdFile::from_bytes_with(bytes, &pte_file::ReadOptions { limits: options.limits }) {
        Ok(p) => p,
        Err(e) => {
            let rule = match (e.path().starts_with("fh01"), e.path().starts_with("segments")) {
                (true, _) => rules::PTD_HEADER,
                (_, true) => rules::PTD_SEGMENT,
                _ => rules::PTD_STRUCTURE,
            };
            out.push(v(rule, e.path(), e.offset(), e.message()));
            return Report { violations: out, warnings: vec![] };
        }
    };
    let ft = &ptd.flat_tensor;
    if ft.version != 0 {
        out.push(v(
            rules::PTD_VERSION,
            "version",
            None,
            format!("version {} is newer than the runtime supports (0)", ft.version),
        ));
    }
    if ft.named_data.is_none() {
        out.push(v(rules::PTD_FIELDS, "named_data", None, "named_data is absent"));
    }
    if ft.segments.is_none() {
        out.push(v(rules::PTD_FIELDS, "segments", None, "segments is absent"));
    }
    for (i, s) in ft.segments.iter().flatten().enumerate() {
        if s.offset.checked_add(s.size).is_none_or(|e| e > h.segment_data_size) {
            out.push(v(
                rules::PTD_SEGMENT,
                format!("segments[{i}]"),
                h.segment_base_offset.checked_add(s.offset),
                "segment ends past segment_data_size",
            ));
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, n) in ft.named_data.iter().flatten().enumerate() {
        let path = format!("named_data[{i}]");
        let Some(key) = n.key.as_deref() else {
            out.push(v(rules::PTD_FIELDS, format!("{path}.key"), None, "entry has no key"));
            continue;
        };
        if let Some(first) = seen.insert(key, i) {
            out.push(v(
                rules::PTD_DUPLICATE_KEY,
                format!("{path}.key"),
                None,
                format!("key {key:?} already at named_data[{first}]"),
            ));
        }
        let seg = usize::try_from(n.segment_index).ok().and_then(|s| ptd.segments.get(s));
        let Some(seg) = seg else {
            out.push(v(
                rules::PTD_SEGMENT,
                format!("{path}.segment_index"),
                None,
                format!("segment {} of {}", n.segment_index, ptd.segments.len()),
            ));
            continue;
        };
        if let Some(l) = &n.tensor_layout {
            match layout_problem(l) {
                Some(p) => out.push(v(rules::PTD_LAYOUT, format!("{path}.tensor_layout"), None, p)),
                None => {
                    let want = l.nbytes().unwrap_or(0);
                    if want != seg.len() as u64 {
                        out.push(v(
                            rules::PTD_SIZE,
                            &path,
                            None,
                            format!("layout needs {want} bytes, the blob has {}", seg.len()),
                        ));
                    }
                }
            }
        }
    }
    Report { violations: out, warnings: vec![] }
}

/// Checks a program's EXTERNAL tensors against `.ptd` files (each with a name
/// for messages): every key found exactly once, layouts equal, byte sizes equal.
///
/// ```
/// let dir = pte_testkit::corpus("external");
/// let pte_bytes = std::fs::read(dir.join("model.pte"))?;
/// let ptd_bytes = std::fs::read(dir.join("_default_external_constant.ptd"))?;
/// let pte = pte_file::PteFile::from_bytes(&pte_bytes)?;
/// let ptd = pte_file::ptd::PtdFile::from_bytes(&ptd_bytes)?;
/// assert!(pte_verify::verify_link(&pte.program, &[("data.ptd", &ptd)]).is_ok());
/// assert!(pte_verify::verify_link(&pte.program, &[]).breaks("link.missing"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_link(program: &Program<'_>, ptds: &[(&str, &PtdFile<'_>)]) -> Report {
    let mut out = vec![];
    let program_keys: Vec<&str> = program.named_data.iter().flatten().filter_map(|n| n.key.as_deref()).collect();
    let mut where_: HashMap<&str, Vec<&str>> = HashMap::new();
    for (name, ptd) in ptds {
        for k in ptd.keys() {
            where_.entry(k).or_default().push(name);
        }
    }
    for (k, files) in &where_ {
        if files.len() > 1 {
            out.push(v(rules::LINK_DUPLICATE, "", None, format!("key {k:?} is in {}", files.join(" and "))));
        }
        if program_keys.contains(k) {
            out.push(v(
                rules::LINK_DUPLICATE,
                "named_data",
                None,
                format!("key {k:?} is in {} and in the program's named data", files.join(", ")),
            ));
        }
    }
    for (p, plan) in program.plans().iter().enumerate() {
        for (j, val) in plan.value_list().iter().enumerate() {
            let Some(KernelTypes::Tensor(t)) = &val.val else { continue };
            if !t.is_external() {
                continue;
            }
            let path = format!("execution_plan[{p}].values[{j}].val");
            let Some(key) = t.fqn() else { continue };
            let found = ptds.iter().find_map(|(name, ptd)| ptd.get(key).ok().flatten().map(|(l, b)| (name, l, b)));
            let Some((name, layout, blob)) = found else {
                out.push(v(
                    rules::LINK_MISSING,
                    &path,
                    None,
                    format!("external key {key:?} is in none of the given .ptd files"),
                ));
                continue;
            };
            let Some(layout) = layout else {
                out.push(v(
                    rules::LINK_LAYOUT,
                    &path,
                    None,
                    format!("{name}: key {key:?} has no tensor layout (the runtime crashes on it)"),
                ));
                continue;
            };
            let mut diffs = vec![];
            if layout.scalar_type != t.scalar_type {
                diffs.push(format!("dtype {} vs {}", layout.scalar_type, t.scalar_type));
            }
            if layout.sizes != t.sizes {
                diffs.push(format!(
                    "sizes {:?} vs {:?}",
                    layout.sizes.as_deref().unwrap_or(&[]),
                    t.sizes.as_deref().unwrap_or(&[])
                ));
            }
            if layout.dim_order != t.dim_order {
                diffs.push(format!(
                    "dim_order {:?} vs {:?}",
                    layout.dim_order.as_deref().unwrap_or(&[]),
                    t.dim_order.as_deref().unwrap_or(&[])
                ));
            }
            if !diffs.is_empty() {
                out.push(v(
                    rules::LINK_LAYOUT,
                    &path,
                    None,
                    format!("{name}: key {key:?} layout differs ({} in .ptd vs program)", diffs.join(", ")),
                ));
                continue;
            }
            if let Some(n) = t.nbytes()
                && n != blob.len() as u64
            {
                out.push(v(
                    rules::LINK_SIZE,
                    &path,
                    None,
                    format!("{name}: key {key:?} holds {} bytes, the tensor needs {n}", blob.len()),
                ));
            }
        }
    }
    out.sort_by(|a, b| (a.rule, &a.path, &a.message).cmp(&(b.rule, &b.path, &b.message)));
    Report { violations: out, warnings: vec![] }
}
