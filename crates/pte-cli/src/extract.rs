//! `pte extract`: every stored blob as its own file, plus a manifest.

use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::{at, open, read_pte, CmdResult};

pub(crate) fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

pub(crate) fn put(dir: &Path, name: &str, bytes: &[u8], manifest: &mut Vec<Value>, extra: Value) -> CmdResult {
    let path = dir.join(name);
    pte_file::write_atomically(&path, |w| {
        w.write_all(bytes)?;
        Ok(())
    })
    .map_err(at(&path))?;
    let mut entry = json!({"file": name, "size": bytes.len(), "sha256": sha(bytes)});
    if let (Some(e), Some(x)) = (entry.as_object_mut(), extra.as_object()) {
        e.extend(x.clone());
    }
    manifest.push(entry);
    Ok(())
}

/// Keys can hold any characters; file names get a safe rendering plus the index.
pub(crate) fn safe(key: &str) -> String {
    let s: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect();
    s.trim_start_matches('.').to_string()
}

pub(crate) fn extract(file: &Path, dir: &Path) -> CmdResult {
    let map = open(file)?;
    if crate::detect::kind(map.bytes()) == crate::detect::Kind::Ptn {
        drop(map);
        return crate::ptn::extract(file, dir);
    }
    if crate::detect::kind(map.bytes()) == crate::detect::Kind::Ptd {
        return crate::pack::extract_ptd(file, map.bytes(), dir);
    }
    let pte = read_pte(file, map.bytes())?;
    std::fs::create_dir_all(dir).map_err(at(dir))?;
    let mut m = vec![];
    for (i, s) in pte.segments.iter().enumerate() {
        let t = pte.program.segment_table().get(i).copied().unwrap_or_default();
        put(dir, &format!("segment-{i}.bin"), s, &mut m, json!({"kind": "segment", "index": i, "offset": t.offset}))?;
    }
    for c in pte.constants()? {
        put(
            dir,
            &format!("constant-{}.bin", c.index),
            c.bytes,
            &mut m,
            json!({"kind": "constant", "index": c.index, "offset": c.offset}),
        )?;
    }
    for (k, bufs) in pte.mutable_segments()?.iter().enumerate() {
        for c in bufs {
            put(
                dir,
                &format!("mutable-{k}-{}.bin", c.index),
                c.bytes,
                &mut m,
                json!({"kind": "mutable", "segment": k, "index": c.index, "offset": c.offset}),
            )?;
        }
    }
    for (i, n) in pte.named_data()?.iter().enumerate() {
        put(
            dir,
            &format!("named-{i}-{}.bin", safe(n.key)),
            n.bytes,
            &mut m,
            json!({"kind": "named", "key": n.key, "segment_index": n.segment_index}),
        )?;
    }
    for d in pte.delegate_blobs()? {
        put(
            dir,
            &format!("delegate-{}-{}.bin", d.plan, d.delegate),
            d.bytes,
            &mut m,
            json!({"kind": "delegate", "method": d.plan, "delegate": d.delegate, "id": d.id, "location": d.location.name(), "index": d.index}),
        )?;
    }
    // the program and the layout make the folder packable (`pte pack`)
    let program = pte_schema::program_to_json(&pte.program, pte_schema::JsonBytes::Integers);
    crate::pack::write_text(&dir.join("program.json"), &serde_json::to_string_pretty(&program)?)?;
    let layout = pte_file::pack::layout_json(&pte, map.bytes());
    let manifest = json!({"source": file.display().to_string(), "format": "pte", "program": "program.json", "layout": layout, "entries": m});
    let text = serde_json::to_string_pretty(&manifest)?;
    let path = dir.join("manifest.json");
    pte_file::write_atomically(&path, |w| {
        w.write_all(text.as_bytes())?;
        Ok(())
    })?;
    println!("extracted {} entries into {}", m.len(), dir.display());
    Ok(())
}
