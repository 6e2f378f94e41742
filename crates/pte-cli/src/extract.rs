//! `pte extract`: every stored blob as its own file, plus a manifest.

use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::extract_out::{Count, Extraction};
use crate::{open, read_pte, CmdResult};

pub(crate) fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

/// Keys can hold any characters; file names get a safe rendering plus the index.
pub(crate) fn safe(key: &str) -> String {
    let s: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect();
    s.trim_start_matches('.').to_string()
}

/// How `pte extract` writes: into an empty (or, forced, any) directory, at
/// most `max_files` files.
#[derive(Clone, Copy)]
pub(crate) struct Target<'d> {
    pub(crate) dir: &'d Path,
    pub(crate) force: bool,
    pub(crate) max_files: usize,
}

pub(crate) fn extract(file: &Path, target: Target<'_>) -> CmdResult {
    let map = open(file)?;
    if crate::detect::kind(map.bytes()) == crate::detect::Kind::Ptn {
        drop(map);
        return crate::ptn::extract(file, target);
    }
    let pte = read_pte(file, map.bytes())?;
    let mut count = Count::default();
    walk(&pte, &mut |_, bytes, _| {
        count.add(bytes);
        Ok(())
    })?;
    count.check(target.max_files)?;
    let mut header = serde_json::Map::new();
    header.insert("manifest_version".into(), json!(2));
    header.insert("format".into(), json!("pte"));
    header.insert("source".into(), json!(file.display().to_string()));
    let mut out = Extraction::begin(target.dir, target.force, &header)?;
    walk(&pte, &mut |name, bytes, extra| out.put(&name(), bytes, extra()))?;
    let (entries, files) = out.finish()?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// Called per blob with its file name, bytes and manifest fields; the name
/// and fields are built only when wanted (a count needs neither).
type Visit<'v> = dyn FnMut(&dyn Fn() -> String, &[u8], &dyn Fn() -> Value) -> CmdResult + 'v;

/// Every stored blob of a program, in manifest order.
fn walk(pte: &pte_file::PteFile<'_>, f: &mut Visit<'_>) -> CmdResult {
    for (i, seg) in pte.segments.iter().enumerate() {
        let t = pte.program.segment_table().get(i).copied().unwrap_or_default();
        f(&|| format!("segment-{i}.bin"), seg, &|| json!({"kind": "segment", "index": i, "offset": t.offset}))?;
    }
    for c in pte.constants()? {
        f(
            &|| format!("constant-{}.bin", c.index),
            c.bytes,
            &|| json!({"kind": "constant", "index": c.index, "offset": c.offset}),
        )?;
    }
    for (k, bufs) in pte.mutable_segments()?.iter().enumerate() {
        for c in bufs {
            f(
                &|| format!("mutable-{k}-{}.bin", c.index),
                c.bytes,
                &|| json!({"kind": "mutable", "segment": k, "index": c.index, "offset": c.offset}),
            )?;
        }
    }
    for (i, n) in pte.named_data()?.iter().enumerate() {
        f(
            &|| format!("named-{i}-{}.bin", safe(n.key)),
            n.bytes,
            &|| json!({"kind": "named", "key": n.key, "segment_index": n.segment_index}),
        )?;
    }
    for d in pte.delegate_blobs()? {
        f(
            &|| format!("delegate-{}-{}.bin", d.plan, d.delegate),
            d.bytes,
            &|| json!({"kind": "delegate", "method": d.plan, "delegate": d.delegate, "id": d.id, "location": d.location.name(), "index": d.index}),
        )?;
    }
    Ok(())
}
