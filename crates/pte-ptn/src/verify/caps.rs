//! The refusals of upstream ExecuTorch's C++ package reader, as rules: it
//! serves stored members only and caps sizes, JSON nesting, tensor shapes
//! and counts. Checked on what the package declares (the central
//! directory's sizes, the safetensors header's shapes and offsets), before
//! and beside the strict read, so a breach is named even when this
//! workspace's reader would refuse the package for another reason, or read
//! it (a deflated member: exir's Python reader reads it too).

use std::io::Cursor;

use pte_core::{Report, Rule, Violation};
use serde_json::Value as Json;
use zip::read::{ArchiveOffset, Config};
use zip::{CompressionMethod, ZipArchive};

use super::rules;
use crate::{Member, PtnCaps, ALIASES_MEMBER, METADATA_KEY, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

fn breach(report: &mut Report, rule: Rule, path: &str, offset: Option<u64>, message: String) {
    report.violations.push(Violation { rule, path: path.to_string(), offset, message });
}

/// The caps on the package and on what its central directory declares;
/// nothing when the central directory does not read (the strict read says why).
pub(super) fn declared(bytes: &[u8], caps: &PtnCaps, report: &mut Report) {
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > caps.max_package {
        let msg = format!("the package is {len} bytes, over the cap of {}", caps.max_package);
        breach(report, rules::PTN_LIMIT_PACKAGE_SIZE, "", None, msg);
    }
    let config = Config { archive_offset: ArchiveOffset::Known(0) };
    let Ok(mut archive) = ZipArchive::with_config(config, Cursor::new(bytes)) else { return };
    let count = u64::try_from(archive.len()).unwrap_or(u64::MAX);
    if count > caps.max_members {
        let msg = format!("{count} members, over the cap of {}", caps.max_members);
        breach(report, rules::PTN_LIMIT_MEMBERS, "", None, msg);
    }
    let mut total = 0u64;
    let mut total_reported = false;
    for index in 0..archive.len() {
        let Ok(entry) = archive.by_index_raw(index) else { return };
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let (size, at) = (entry.size(), Some(entry.header_start()));
        if entry.compression() != CompressionMethod::Stored {
            let msg = format!("member {name:?} is {:?}, not stored", entry.compression());
            breach(report, rules::PTN_STORED, &name, at, msg);
        }
        if name == PROGRAM_MEMBER && size > caps.max_program {
            let msg = format!("{PROGRAM_MEMBER} declares {size} bytes, over the cap of {}", caps.max_program);
            breach(report, rules::PTN_LIMIT_PROGRAM, &name, at, msg);
        }
        if name.ends_with(".json") && size > caps.max_json_member {
            let msg = format!("{name:?} declares {size} bytes, over the cap of {}", caps.max_json_member);
            breach(report, rules::PTN_LIMIT_JSON_SIZE, &name, at, msg);
        }
        total = total.saturating_add(size);
        if total > caps.max_package && !total_reported {
            total_reported = true;
            let msg = format!("the members declare {total} bytes or more in all, over the cap of {}", caps.max_package);
            breach(report, rules::PTN_LIMIT_PACKAGE_SIZE, &name, at, msg);
        }
    }
}

/// The caps on what the members hold: JSON nesting, the safetensors
/// header's tensors (count, rank, dimensions, data size) and the alias count.
pub(super) fn content(members: &[Member<'_>], caps: &PtnCaps, max_header: usize, report: &mut Report) {
    for m in members {
        if m.name.ends_with(".json") {
            json_depth(&m.data, &m.name, caps, report);
            if m.name == ALIASES_MEMBER {
                aliases(&m.data, caps, report);
            }
        } else if m.name == SAFETENSORS_MEMBER {
            safetensors(&m.data, caps, max_header, report);
        }
    }
}

/// Reports JSON nested deeper than the cap; `false` when it is.
fn json_depth(text: &[u8], path: &str, caps: &PtnCaps, report: &mut Report) -> bool {
    let depth = nesting(text);
    if depth <= caps.max_json_depth {
        return true;
    }
    let msg = format!("JSON nested {depth} deep, over the cap of {}", caps.max_json_depth);
    breach(report, rules::PTN_LIMIT_JSON_DEPTH, path, None, msg);
    false
}

/// The deepest nesting of arrays and objects in JSON text, counted on the
/// bytes (brackets inside strings do not count), so no parser recursion
/// limit is met first.
fn nesting(text: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth = depth.saturating_add(1);
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn aliases(text: &[u8], caps: &PtnCaps, report: &mut Report) {
    let Ok(Json::Object(map)) = serde_json::from_slice::<Json>(text) else { return };
    let count = u64::try_from(map.len()).unwrap_or(u64::MAX);
    if count > caps.max_aliases {
        let msg = format!("{count} aliases, over the cap of {}", caps.max_aliases);
        breach(report, rules::PTN_LIMIT_ALIASES, ALIASES_MEMBER, None, msg);
    }
}

fn safetensors(data: &[u8], caps: &PtnCaps, max_header: usize, report: &mut Report) {
    let Some(len) = data.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_le_bytes) else { return };
    let Some(header) =
        usize::try_from(len).ok().filter(|&n| n <= max_header).and_then(|n| data.get(8..n.checked_add(8)?))
    else {
        return;
    };
    if !json_depth(header, SAFETENSORS_MEMBER, caps, report) {
        return;
    }
    let Ok(Json::Object(entries)) = serde_json::from_slice::<Json>(header) else { return };
    let tensors = entries.iter().filter(|(k, _)| k.as_str() != METADATA_KEY);
    let count = u64::try_from(tensors.clone().count()).unwrap_or(u64::MAX);
    if count > caps.max_tensors {
        let msg = format!("{count} tensors, over the cap of {}", caps.max_tensors);
        breach(report, rules::PTN_LIMIT_TENSORS, SAFETENSORS_MEMBER, None, msg);
    }
    let (mut rank_seen, mut dim_seen, mut end) = (false, false, 0u64);
    for (key, t) in tensors {
        let path = format!("{SAFETENSORS_MEMBER}[{key:?}]");
        let shape = t.get("shape").and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default();
        if shape.len() > caps.max_rank && !rank_seen {
            rank_seen = true;
            let msg = format!("tensor {key:?} has rank {}, over the cap of {}", shape.len(), caps.max_rank);
            breach(report, rules::PTN_LIMIT_RANK, &path, None, msg);
        }
        let big = shape.iter().filter_map(Json::as_u64).find(|&d| d > caps.max_dim);
        if let Some(d) = big.filter(|_| !dim_seen) {
            dim_seen = true;
            let msg = format!("tensor {key:?} has a dimension of {d}, over the cap of {}", caps.max_dim);
            breach(report, rules::PTN_LIMIT_DIM, &path, None, msg);
        }
        let last = t.get("data_offsets").and_then(Json::as_array).and_then(|o| o.get(1)).and_then(Json::as_u64);
        end = end.max(last.unwrap_or(0));
    }
    if end > caps.max_constant_bytes {
        let msg =
            format!("the header declares {end} bytes of tensor data, over the cap of {}", caps.max_constant_bytes);
        breach(report, rules::PTN_LIMIT_CONSTANT_BYTES, SAFETENSORS_MEMBER, None, msg);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_brackets_outside_strings() {
        assert_eq!(nesting(b"{}"), 1);
        assert_eq!(nesting(br#"{"a": [[1], {"b": "[[[["}]}"#), 3);
        assert_eq!(nesting(br#"["\"[[", [[]]]"#), 3);
        assert_eq!(nesting(&[b'['; 70]), 70);
    }
}
