//! `.ptd` support in `info`, `dump` and `verify`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use pte_file::ptd::PtdFile;
use pte_segments::FlatTensorHeader;

use crate::{at, CmdResult, Failure};

pub(crate) fn read_ptd<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtdFile<'a>, Failure> {
    PtdFile::from_bytes(bytes).map_err(at(path))
}

fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

pub(crate) fn info_json(ptd: &PtdFile<'_>, bytes: &[u8]) -> Value {
    let h = FlatTensorHeader::parse(bytes).ok();
    let keys: Vec<Value> = ptd
        .flat_tensor
        .named_data
        .iter()
        .flatten()
        .map(|n| {
            let blob = usize::try_from(n.segment_index).ok().and_then(|i| ptd.segments.get(i));
            json!({
                "key": n.key,
                "segment_index": n.segment_index,
                "size": blob.map(|b| b.len()),
                "sha256": blob.map(|b| sha(b)),
                "layout": n.tensor_layout.as_ref().map(|l| json!({
                    "dtype": l.scalar_type.name().map_or_else(|| format!("ScalarType({})", l.scalar_type.0), str::to_string),
                    "sizes": l.sizes,
                    "dim_order": l.dim_order,
                    "nbytes": l.nbytes(),
                })),
            })
        })
        .collect();
    json!({
        "format": "ptd",
        "file_size": bytes.len(),
        "version": ptd.flat_tensor.version,
        "header": h.map(|h| json!({
            "length": h.length,
            "flatbuffer_offset": h.flatbuffer_offset,
            "flatbuffer_size": h.flatbuffer_size,
            "segment_base_offset": h.segment_base_offset,
            "segment_data_size": h.segment_data_size,
        })),
        "segments": ptd.flat_tensor.segments.iter().flatten().enumerate()
            .map(|(i, s)| json!({"index": i, "offset": s.offset, "size": s.size})).collect::<Vec<_>>(),
        "keys": keys,
    })
}

pub(crate) fn info(file: &Path, bytes: &[u8], json_out: bool) -> CmdResult {
    let ptd = read_ptd(file, bytes)?;
    let v = info_json(&ptd, bytes);
    if json_out {
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("format: ExecuTorch tensor data (.ptd), {} bytes, schema version {}", v["file_size"], v["version"]);
    println!("segments: {}", v["segments"].as_array().map_or(0, Vec::len));
    let keys = v["keys"].as_array().cloned().unwrap_or_default();
    println!("keys ({}):", keys.len());
    for k in keys {
        let l = &k["layout"];
        let layout = if l.is_null() {
            "opaque".to_string()
        } else {
            format!("{} {} dim_order {}", l["dtype"].as_str().unwrap_or(""), l["sizes"], l["dim_order"])
        };
        println!("  {} -> segment {} ({} bytes) {layout}", k["key"], k["segment_index"], k["size"]);
    }
    Ok(())
}

pub(crate) fn externalize(
    input: &Path,
    output: &Path,
    data: &Path,
    keys: Option<&str>,
    name_constants: Option<&str>,
) -> CmdResult {
    let pattern = match keys {
        Some(k) => Some(glob::Pattern::new(k).map_err(|e| Failure { message: format!("--keys {k:?}: {e}"), code: 2 })?),
        None => None,
    };
    let map = crate::open(input)?;
    let mut pte = crate::read_pte(input, map.bytes())?;
    if let Some(prefix) = name_constants {
        pte_file::external::name_unnamed_constants(&mut pte, prefix).map_err(at(input))?;
    }
    let matches = |k: &str| pattern.as_ref().is_none_or(|p| p.matches(k));
    let ex = pte_file::external::externalize(&pte, matches, &Default::default(), &Default::default())?;
    if ex.moved_tensors.is_empty() && ex.moved_named.is_empty() {
        return Err(Failure { message: format!("{}: {}", input.display(), nothing_to_move(&ex, keys)), code: 2 });
    }
    for u in &ex.unnamed {
        eprintln!("pte: warning: constant at {u} has no fully qualified name; it stays in the program");
    }
    ex.data.save(data, &Default::default()).map_err(at(data))?;
    ex.program.save(output, &Default::default()).map_err(at(output))?;
    println!(
        "moved {} tensors and {} named blobs into {}; wrote {}",
        ex.moved_tensors.len(),
        ex.moved_named.len(),
        data.display(),
        output.display()
    );
    Ok(())
}

/// Why externalizing moved nothing, and what would.
fn nothing_to_move(ex: &pte_file::external::Externalized<'_>, keys: Option<&str>) -> String {
    let mut why = vec![];
    if !ex.unnamed.is_empty() {
        why.push(format!(
            "{} constant(s) have no fully qualified name (--name-constants PREFIX names them)",
            ex.unnamed.len()
        ));
    }
    if let Some(k) = keys {
        why.push(format!("no named constant or named-data key matches --keys {k:?}"));
    } else if ex.unnamed.is_empty() {
        why.push("the program has no named constant and no named data".to_string());
    }
    format!("nothing to externalize: {}; nothing was written", why.join("; "))
}

pub(crate) fn internalize(files: &[std::path::PathBuf]) -> CmdResult {
    let (Some(input), Some(output)) = (files.first(), files.last()) else {
        return Err(Failure { message: "usage: pte internalize IN.pte DATA.ptd... OUT.pte".into(), code: 2 });
    };
    let data_paths = files.get(1..files.len().saturating_sub(1)).unwrap_or(&[]);
    let map = crate::open(input)?;
    let pte = crate::read_pte(input, map.bytes())?;
    let maps = data_paths.iter().map(|p| crate::open(p)).collect::<Result<Vec<_>, _>>()?;
    let ptds = data_paths.iter().zip(&maps).map(|(p, m)| read_ptd(p, m.bytes())).collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&PtdFile<'_>> = ptds.iter().collect();
    let inside = pte_file::external::internalize(&pte, &refs, &Default::default())?;
    inside.save(output, &Default::default()).map_err(at(output))?;
    println!("wrote {}", output.display());
    Ok(())
}
