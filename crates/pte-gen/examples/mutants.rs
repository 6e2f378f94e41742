//! Writes mutants of every `.pte` under a corpus directory, with this
//! workspace's verdict on each, for `scripts/conformance/et-mutants.sh`.
//!
//!     cargo run --release -p pte-gen --example mutants -- CORPUS_DIR OUT_DIR PER_FILE SEED
//!
//! OUT_DIR gets one file per mutant and `verdicts.jsonl`: one line per file,
//! `{"file", "source", "mutation", "region", "external", "valid", "warnings", "rules"}`
//! (valid = `pte verify` finds no violation; region = where a blind edit
//! landed: `header`, `flatbuffer`, `delegate-payload` (inline or segment
//! delegate data, opaque to us) or `segment-data`).

#![allow(clippy::arithmetic_side_effects, clippy::indexing_slicing, clippy::cast_possible_truncation)]

use std::io::Write;
use std::path::{Path, PathBuf};

fn programs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            out.extend(programs(&p)?);
        } else if p.extension().is_some_and(|x| x == "pte") {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

/// Byte ranges of delegate payloads (inline data and delegate segments).
fn delegate_ranges(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let Ok(pte) = pte_file::PteFile::from_bytes(bytes) else { return vec![] };
    let base = bytes.as_ptr() as usize;
    let mut out = Vec::new();
    for d in pte.program.backend_delegate_data.iter().flatten() {
        if let Some(data) = &d.data {
            let start = data.as_ptr() as usize - base;
            out.push(start..start + data.len());
        }
    }
    let header = pte_segments::ExtendedHeader::parse(bytes).ok().flatten();
    let seg_base = header.map_or(0, |h| h.segment_base_offset as usize);
    for plan in pte.program.plans() {
        for del in plan.delegates.iter().flatten() {
            if let Some(r) = del.processed.filter(|r| r.location == pte_schema::DataLocation::SEGMENT)
                && let Some(s) = pte.program.segment_table().get(r.index as usize)
            {
                out.push(seg_base + s.offset as usize..seg_base + (s.offset + s.size) as usize);
            }
        }
    }
    out
}

fn region(bytes: &[u8], mutation: &str, delegates: &[std::ops::Range<usize>]) -> &'static str {
    let Some(at) =
        mutation.split_once('@').and_then(|(_, r)| r.split(['.', '=']).next()).and_then(|o| o.parse::<usize>().ok())
    else {
        return "whole-file";
    };
    if mutation.starts_with("cut@") {
        return "truncation";
    }
    let header = pte_segments::ExtendedHeader::parse(bytes).ok().flatten();
    if (8..40).contains(&at) && header.is_some() {
        return "header";
    }
    if delegates.iter().any(|r| r.contains(&at)) {
        return "delegate-payload";
    }
    match header {
        Some(h) if at as u64 >= h.segment_base_offset => "segment-data",
        _ => "flatbuffer",
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, corpus, out, per_file, seed] = args.as_slice() else {
        return Err("usage: mutants CORPUS_DIR OUT_DIR PER_FILE SEED".into());
    };
    let (per_file, seed): (usize, u64) = (per_file.parse()?, seed.parse()?);
    let out = Path::new(out);
    std::fs::create_dir_all(out)?;
    let mut verdicts = std::io::BufWriter::new(std::fs::File::create(out.join("verdicts.jsonl"))?);
    let mut n = 0usize;
    for (k, src) in programs(Path::new(corpus))?.iter().enumerate() {
        let bytes = std::fs::read(src)?;
        let case =
            src.parent().and_then(|p| p.file_name()).map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let delegates = delegate_ranges(&bytes);
        let external = pte_file::PteFile::from_bytes(&bytes).is_ok_and(|p| {
            p.program
                .plans()
                .iter()
                .flat_map(|pl| pl.value_list())
                .any(|v| matches!(&v.val, Some(pte_schema::KernelTypes::Tensor(t)) if t.is_external()))
        });
        let mut mutants: Vec<(String, Vec<u8>)> = vec![("original".into(), bytes.clone())];
        for c in pte_gen::CATALOGUE.iter().filter(|c| c.input.is_pte()) {
            if let Ok(m) = c.apply(&bytes) {
                mutants.push((c.name.to_string(), m));
            }
        }
        mutants.extend(pte_gen::random_mutants(&bytes, seed.wrapping_add(k as u64), per_file));
        for (mutation, m) in mutants {
            let name = format!("{n:06}-{case}.pte");
            std::fs::write(out.join(&name), &m)?;
            let report = pte_verify::verify_bytes(&m, &Default::default());
            let rules: Vec<&str> = report.violations.iter().map(|v| v.rule.name()).collect();
            let warnings: Vec<&str> = report.warnings.iter().map(|v| v.rule.name()).collect();
            let line = format!(
                "{{\"file\":\"{name}\",\"source\":\"{case}\",\"mutation\":\"{mutation}\",\"region\":\"{}\",\"external\":{external},\"valid\":{},\"warnings\":{warnings:?},\"rules\":{rules:?}}}",
                region(&bytes, &mutation, &delegates),
                report.is_ok(),
            );
            writeln!(verdicts, "{line}")?;
            n += 1;
        }
    }
    verdicts.flush()?;
    println!("{n} files in {}", out.display());
    Ok(())
}
