//! `pte extract`: every stored blob as its own file (a range several
//! entries share is written once), plus a manifest, `program.json` and the
//! layout that make the folder packable again (`pte pack`).

use std::path::Path;

use serde_json::{json, Value};

use pte_core::FileKind;

use crate::extract_out::{Count, Extraction};
use crate::failure::{at, CmdResult};
use crate::files::safe;
use crate::input::{require_kind, Input};

/// How `pte extract` writes: into an empty (or, forced, any) directory, at
/// most `max_files` files.
#[derive(Clone, Copy)]
pub(crate) struct Target<'d> {
    pub(crate) dir: &'d Path,
    pub(crate) force: bool,
    pub(crate) max_files: usize,
}

pub(crate) fn run(file: &Path, target: Target<'_>) -> CmdResult {
    let _progress = crate::progress::Progress::spinner("extract");
    let input = Input::open(file)?;
    input.require("extract", &[FileKind::Pte, FileKind::Ptd, FileKind::Ptn])?;
    if input.kind == FileKind::Ptn {
        return extract_ptn(file, input.bytes(), target);
    }
    if input.kind == FileKind::Ptd {
        return extract_ptd(file, input.bytes(), target);
    }
    // the segment table is walked in place: a million entries cost no heap
    require_kind(file, input.bytes(), FileKind::Pte)?;
    let pte = pte_file::SparsePte::from_bytes(input.bytes()).map_err(at(file))?;
    let mut count = Count::default();
    walk(&pte, &mut |_, bytes, _| {
        count.add(bytes);
        Ok(())
    })?;
    count.check(target.max_files)?;
    let mut header = serde_json::Map::new();
    header.insert("manifest_version".into(), json!(pte_file::pack::MANIFEST_VERSION));
    header.insert("source".into(), json!(file.display().to_string()));
    header.insert("format".into(), json!("pte"));
    // the program and the layout make the folder packable (`pte pack`)
    header.insert("program".into(), json!("program.json"));
    header.insert("layout".into(), pte_file::pack::layout_json(&pte.file, input.bytes()));
    let mut out = Extraction::begin(target.dir, target.force, &header)?;
    write_program_json(&target.dir.join("program.json"), input.bytes()).map_err(at(file))?;
    walk(&pte, &mut |name, bytes, extra| out.put(&name(), bytes, extra()))?;
    let (entries, files) = out.finish()?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// Called per blob with its file name, bytes and manifest fields; the name
/// and fields are built only when wanted (a count needs neither).
type Visit<'v> = dyn FnMut(&dyn Fn() -> String, &[u8], &dyn Fn() -> Value) -> CmdResult + 'v;

/// Every stored blob of a program, in manifest order.
fn walk(sparse: &pte_file::SparsePte<'_>, f: &mut Visit<'_>) -> CmdResult {
    for (i, (t, seg)) in sparse.segments().enumerate() {
        f(&|| format!("segment-{i}.bin"), seg, &|| json!({"kind": "segment", "index": i, "offset": t.offset}))?;
    }
    let pte = &sparse.file;
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
            &|| json!({"kind": "named", "key": n.key, "segment_index": sparse.original(n.segment_index)}),
        )?;
    }
    for d in pte.delegate_blobs()? {
        let index = if d.location == pte_schema::DataLocation::SEGMENT { sparse.original(d.index) } else { d.index };
        f(
            &|| format!("delegate-{}-{}.bin", d.plan, d.delegate),
            d.bytes,
            &|| json!({"kind": "delegate", "method": d.plan, "delegate": d.delegate, "id": d.id, "location": d.location.name(), "index": index}),
        )?;
    }
    Ok(())
}

/// `program.json`: the stored program as `pte dump` prints it (bytes as
/// integer lists), written as the buffer is walked.
fn write_program_json(path: &Path, bytes: &[u8]) -> pte_file::Result<()> {
    let (_, region) = pte_file::verify::program_region(bytes)?;
    let json = pte_schema::ProgramJson::new(region, &Default::default())?;
    pte_file::write_atomically(path, |w| {
        json.write_pretty(&mut *w)?;
        w.write_all(b"\n")?;
        Ok(())
    })
    .map(|_| ())
}

fn extract_ptn(file: &Path, bytes: &[u8], target: Target<'_>) -> CmdResult {
    let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
    let mut count = Count::default();
    count.add(&ptn.program);
    ptn.constants().for_each(|(_, t)| count.add(&t.data));
    ptn.members.iter().for_each(|m| count.add(&m.data));
    count.check(target.max_files)?;
    let mut header = serde_json::Map::new();
    header.insert("manifest_version".into(), json!(pte_file::pack::MANIFEST_VERSION));
    header.insert("format".into(), json!("ptn"));
    header.insert("aliases".into(), json!(ptn.aliases));
    let mut out = Extraction::begin(target.dir, target.force, &header)?;
    out.put(pte_ptn::PROGRAM_MEMBER, &ptn.program, json!({"kind": "program"}))?;
    for (i, (key, t)) in ptn.constants().enumerate() {
        let name = format!("constants/{i:04}-{}.bin", safe(key));
        let extra = json!({"kind": "constant", "key": key, "dtype": pte_ptn::dtype_code(t.dtype), "shape": t.shape,
            "alias_of": ptn.aliases.get(key)});
        out.put(&name, &t.data, extra)?;
    }
    for (i, m) in ptn.members.iter().enumerate() {
        let name = format!("members/{i:04}-{}", safe(&m.name));
        out.put(&name, &m.data, json!({"kind": "member", "member": m.name}))?;
    }
    let (entries, files) = out.finish()?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// A `.ptd`: each segment, an entry per key naming its segment's file (the
/// same range, so no second copy), and the tables as `program.json`, which
/// with the layout makes the folder packable.
fn extract_ptd(file: &Path, bytes: &[u8], target: Target<'_>) -> CmdResult {
    let ptd = crate::formats::ptd::read_ptd(file, bytes)?;
    let mut count = Count::default();
    ptd.segments.iter().for_each(|s| count.add(s));
    count.check(target.max_files)?;
    let mut header = serde_json::Map::new();
    header.insert("manifest_version".into(), json!(pte_file::pack::MANIFEST_VERSION));
    header.insert("source".into(), json!(file.display().to_string()));
    header.insert("format".into(), json!("ptd"));
    header.insert("program".into(), json!("program.json"));
    header.insert("layout".into(), pte_file::pack::ptd_layout_json(&ptd, bytes));
    let mut out = Extraction::begin(target.dir, target.force, &header)?;
    let tables = pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor);
    crate::files::write_text(&target.dir.join("program.json"), &serde_json::to_string_pretty(&tables)?)?;
    let table = ptd.flat_tensor.segments.as_deref().unwrap_or_default();
    for (i, s) in ptd.segments.iter().enumerate() {
        let offset = table.get(i).map(|t| t.offset);
        out.put(&format!("segment-{i}.bin"), s, json!({"kind": "segment", "index": i, "offset": offset}))?;
    }
    for (i, n) in ptd.flat_tensor.named_data.iter().flatten().enumerate() {
        let Some(blob) = usize::try_from(n.segment_index).ok().and_then(|k| ptd.segments.get(k)) else { continue };
        let extra = json!({"kind": "named", "key": n.key, "segment_index": n.segment_index});
        out.put(&format!("named-{i}-{}.bin", safe(n.key.as_deref().unwrap_or_default())), blob, extra)?;
    }
    let (entries, files) = out.finish()?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}
