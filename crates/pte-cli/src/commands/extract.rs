//! `pte extract`: every stored blob as its own file (a range several
//! entries share is written once), plus a manifest, `program.json` and the
//! layout that make the folder packable again (`pte pack`).

use std::io::Write;
use std::path::Path;

use pte_core::folder::OutputFolder;
use pte_core::FileKind;
use pte_pack::{file_safe, Entry, EntryKind, Manifest, ManifestFormat, PtdBlobs, PteBlobs};

use crate::extract_out::{Count, Extraction};
use crate::failure::{at, CmdResult};
use crate::input::{kinds_where, require_kind, Input};

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
    if input.kind.is_bpte() {
        // no folder form packs back into a bundle's bytes; say where to go
        return Err(crate::failure::Failure::bad_input(format!(
            "{}: a .bpte bundled program has no extract folder; `pte bpte unbundle` takes out its program (byte for byte) and its test cases as samples, and `pte bpte bundle` makes a bundle of them",
            file.display()
        )));
    }
    input.require("extract", &kinds_where(|k| !k.is_bpte()))?;
    if input.kind.is_ptn() {
        return extract_ptn(file, input.bytes(), target);
    }
    if input.kind.is_ptd() {
        return extract_ptd(file, input.bytes(), target);
    }
    // the segment table is walked in place: a million entries cost no heap
    require_kind(file, input.bytes(), FileKind::Pte)?;
    let bytes = input.bytes();
    refuse_too_many(bytes, target.max_files)?;
    let blobs = PteBlobs::new(bytes).map_err(at(file))?;
    let (_, flatbuffer) = pte_file::program_region(bytes).map_err(at(file))?;
    let mut count = Count::default();
    count.add(flatbuffer);
    blobs.entries().map_err(at(file))?.for_each(|(_, bytes)| count.add(bytes));
    count.check(target.max_files)?;
    // the program and the layout make the folder packable (`pte pack`)
    let head = Manifest { source: Some(file.display().to_string()), ..blobs.head() };
    let mut out = Extraction::begin(target.dir, target.force, &head, bytes)?;
    let json_sha = write_program_json(out.folder(), head.program_file(), bytes).map_err(at(file))?;
    out.put(Entry::new(FLATBUFFER, flatbuffer.len() as u64, EntryKind::Flatbuffer), flatbuffer)?;
    for (entry, bytes) in blobs.entries().map_err(at(file))? {
        out.put(entry, bytes)?;
    }
    let (entries, files) = out.finish(Some(json_sha))?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// Counts the files a `.pte` would give from views of it, before the blob
/// walk decodes its tables: a program of a million constants is refused
/// over `max` at the cost of a view, and the count stops once past `max`.
/// A file the views cannot read is left to the walk, which names its fault.
fn refuse_too_many(bytes: &[u8], max: usize) -> CmdResult {
    use pte_file::view::{PteView, SegmentTable};
    let Ok(view) = PteView::read(bytes, SegmentTable::Whole) else { return Ok(()) };
    let mut count = Count::default();
    let add = |count: &mut Count, b: &[u8]| {
        count.add(b);
        count.over(max)
    };
    let mut over = false;
    for i in 0..view.program().segment_count() {
        if let Some(seg) = u32::try_from(i).ok().and_then(|i| view.segment(i)) {
            over |= add(&mut count, seg);
        }
    }
    let mut buffers = view.mutable_segments().unwrap_or_default();
    buffers.extend(view.constants());
    for subs in &buffers {
        let seg = subs.segment().and_then(|s| view.segment(s));
        for b in subs.iter() {
            if over {
                break;
            }
            let len = usize::try_from(b.len).unwrap_or(usize::MAX);
            match (seg, usize::try_from(b.offset)) {
                (Some(seg), Ok(at)) => {
                    if let Some(piece) = at.checked_add(len).and_then(|end| seg.get(at..end)) {
                        over |= add(&mut count, piece);
                    }
                }
                _ => {
                    count.add_key(b.index, len);
                    over |= count.over(max);
                }
            }
        }
    }
    if let Some(named) = view.named_data() {
        for (_, _, b) in named {
            if over {
                break;
            }
            over |= add(&mut count, b);
        }
    }
    for d in view.delegates().unwrap_or_default() {
        over |= add(&mut count, d.bytes);
    }
    if over {
        return Err(crate::failure::Failure::bad_input(format!(
            "extracting would write more than {max} files (manifest included), over the limit of {max} (--max-files raises it)"
        )));
    }
    Ok(())
}

/// The source's flatbuffer region as stored, beside its JSON.
const FLATBUFFER: &str = "program.fb";

/// `program.json`: the stored program as `pte dump` prints it (bytes as
/// integer lists), written as the buffer is walked; returns its digest.
fn write_program_json(folder: &OutputFolder, name: &str, bytes: &[u8]) -> pte_file::Result<String> {
    let (_, region) = pte_file::program_region(bytes)?;
    let json = pte_schema::ProgramJson::new(region, &Default::default())?;
    let mut digest = None;
    folder.write_atomically(name, |w| {
        let mut d = crate::files::Digesting::new(&mut *w);
        json.write_pretty(&mut d)?;
        d.write_all(b"\n")?;
        digest = Some(d.digest());
        Ok(())
    })?;
    Ok(digest.unwrap_or_default())
}

fn extract_ptn(file: &Path, bytes: &[u8], target: Target<'_>) -> CmdResult {
    let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
    let mut count = Count::default();
    count.add(&ptn.program);
    ptn.constants().for_each(|(_, t)| count.add(&t.data));
    ptn.members.iter().for_each(|m| count.add(&m.data));
    count.check(target.max_files)?;
    let head = Manifest {
        aliases: Some(ptn.aliases.clone()),
        metadata: ptn.metadata.clone(),
        source: Some(file.display().to_string()),
        ..Manifest::new(ManifestFormat::Ptn)
    };
    let mut out = Extraction::begin(target.dir, target.force, &head, bytes)?;
    let size = |b: &[u8]| b.len() as u64;
    out.put(Entry::new(pte_ptn::PROGRAM_MEMBER, size(&ptn.program), EntryKind::Program), &ptn.program)?;
    for (i, (key, t)) in ptn.constants().enumerate() {
        let kind = EntryKind::PackageConstant { key: key.to_string(), alias_of: ptn.aliases.get(key).cloned() };
        let mut e = Entry::new(format!("constants/{i:04}-{}.bin", file_safe(key)), size(&t.data), kind);
        e.name = Some(key.to_string());
        e.dtype = Some(pte_ptn::dtype_code(t.dtype));
        e.shape = Some(t.shape.iter().map(|&d| i64::try_from(d).unwrap_or(i64::MAX)).collect());
        out.put(e, &t.data)?;
    }
    for (i, m) in ptn.members.iter().enumerate() {
        let kind = EntryKind::Member { member: m.name.clone() };
        out.put(Entry::new(format!("members/{i:04}-{}", file_safe(&m.name)), size(&m.data), kind), &m.data)?;
    }
    let (entries, files) = out.finish(None)?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// A `.ptd`: each segment, an entry per key naming its segment's file (the
/// same range, so no second copy), and the tables as `program.json`, which
/// with the layout makes the folder packable.
fn extract_ptd(file: &Path, bytes: &[u8], target: Target<'_>) -> CmdResult {
    let ptd = crate::formats::ptd::read_ptd(file, bytes)?;
    let blobs = PtdBlobs::new(&ptd, bytes);
    let flatbuffer = ptd_flatbuffer(bytes);
    let mut count = Count::default();
    count.add(flatbuffer);
    blobs.entries().for_each(|(_, b)| count.add(b));
    count.check(target.max_files)?;
    let head = Manifest { source: Some(file.display().to_string()), ..blobs.head() };
    let mut out = Extraction::begin(target.dir, target.force, &head, bytes)?;
    let tables = pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor);
    let text = format!("{}\n", serde_json::to_string_pretty(&tables)?);
    out.folder().write_atomically(head.program_file(), |w| Ok(w.write_all(text.as_bytes())?))?;
    out.put(Entry::new(FLATBUFFER, flatbuffer.len() as u64, EntryKind::Flatbuffer), flatbuffer)?;
    for (entry, blob) in blobs.entries() {
        out.put(entry, blob)?;
    }
    let (entries, files) = out.finish(Some(crate::files::sha(text.as_bytes())))?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

/// A `.ptd`'s flatbuffer region (the header's offset plus size, within the file).
fn ptd_flatbuffer(bytes: &[u8]) -> &[u8] {
    let end = pte_segments::FlatTensorHeader::parse(bytes)
        .ok()
        .and_then(|h| h.flatbuffer_offset.checked_add(h.flatbuffer_size))
        .and_then(|e| usize::try_from(e).ok())
        .unwrap_or(bytes.len())
        .min(bytes.len());
    bytes.get(..end).unwrap_or_default()
}
