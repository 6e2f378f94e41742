//! `pte extract`: every stored blob as its own file, plus a manifest.

use std::path::Path;

use serde_json::{json, Value};

use pte_core::FileKind;

use crate::failure::{at, CmdResult};
use crate::files::{safe, sha};
use crate::input::{read_pte, Input};

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

pub(crate) fn run(file: &Path, dir: &Path) -> CmdResult {
    let _progress = crate::progress::Progress::spinner("extract");
    let input = Input::open(file)?;
    input.require("extract", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn])?;
    if input.kind == FileKind::Ptn {
        return extract_ptn(file, input.bytes(), dir);
    }
    if input.kind == FileKind::Ptd {
        return crate::commands::pack::extract_ptd(file, input.bytes(), dir);
    }
    let pte = read_pte(file, input.bytes())?;
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
    crate::commands::pack::write_text(&dir.join("program.json"), &serde_json::to_string_pretty(&program)?)?;
    let layout = pte_file::pack::layout_json(&pte, input.bytes());
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

fn extract_ptn(file: &Path, bytes: &[u8], dir: &Path) -> CmdResult {
    let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
    std::fs::create_dir_all(dir).map_err(at(dir))?;
    let mut manifest = vec![];
    put(dir, pte_ptn::PROGRAM_MEMBER, &ptn.program, &mut manifest, json!({"kind": "program"}))?;
    std::fs::create_dir_all(dir.join("constants")).map_err(at(dir))?;
    for (i, (key, t)) in ptn.constants().enumerate() {
        let name = format!("constants/{i:04}-{}.bin", safe(key));
        let extra = json!({"kind": "constant", "key": key, "dtype": pte_ptn::dtype_code(t.dtype), "shape": t.shape,
            "alias_of": ptn.aliases.get(key)});
        put(dir, &name, &t.data, &mut manifest, extra)?;
    }
    if !ptn.members.is_empty() {
        std::fs::create_dir_all(dir.join("members")).map_err(at(dir))?;
    }
    for (i, m) in ptn.members.iter().enumerate() {
        let name = format!("members/{i:04}-{}", safe(&m.name));
        put(dir, &name, &m.data, &mut manifest, json!({"kind": "member", "member": m.name}))?;
    }
    let text = serde_json::to_string_pretty(&json!({"format": "ptn", "entries": manifest, "aliases": ptn.aliases}))?;
    put(dir, "manifest.json", text.as_bytes(), &mut vec![], json!({}))?;
    println!("extracted {} entries into {}", manifest.len(), dir.display());
    Ok(())
}
