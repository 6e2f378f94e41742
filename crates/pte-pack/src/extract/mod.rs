//! Extraction: every stored blob of a `.pte`, `.ptd` or `.ptn` as its own
//! file (a range several entries share is written once), plus a manifest,
//! the tables as `program.json` and the stored layout, which make the
//! folder packable again ([`read_dir`](crate::read_dir)). The door's
//! `pte::extract` picks the kind and calls the function for it here.

mod out;

use std::io::Write;
use std::path::Path;

use pte_core::folder::OutputFolder;
use pte_core::{Error, ErrorKind, Result};
use pte_file::ptd::PtdFile;
use pte_ptn::PtnFile;

use crate::{file_safe, sha256_hex, Entry, EntryKind, Manifest, ManifestFormat, PtdBlobs, PteBlobs};
use out::{too_many, Count, Digesting, Extraction};

/// Files an extraction writes at most unless told otherwise.
///
/// ```
/// assert_eq!(pte_pack::DEFAULT_MAX_FILES, 10_000);
/// ```
pub const DEFAULT_MAX_FILES: usize = 10_000;

/// Where and how an extraction writes: into an empty folder (or, with
/// `force`, any folder), at most `max_files` files, the manifest included.
///
/// ```
/// let t = pte_pack::ExtractTarget::new(std::path::Path::new("out"));
/// assert!(!t.force);
/// assert_eq!(t.max_files, pte_pack::DEFAULT_MAX_FILES);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ExtractTarget<'d> {
    /// The folder written (created when missing).
    pub dir: &'d Path,
    /// Whether a folder that already holds something may be written into.
    pub force: bool,
    /// The most files written, the manifest included.
    pub max_files: usize,
}

impl<'d> ExtractTarget<'d> {
    /// An empty (or new) folder `dir`, at most [`DEFAULT_MAX_FILES`] files.
    ///
    /// ```
    /// let t = pte_pack::ExtractTarget::new("x".as_ref());
    /// assert_eq!(t.dir, std::path::Path::new("x"));
    /// ```
    pub fn new(dir: &'d Path) -> Self {
        ExtractTarget { dir, force: false, max_files: DEFAULT_MAX_FILES }
    }
}

/// What an extraction wrote.
///
/// ```
/// let e = pte_pack::Extracted::default();
/// assert_eq!((e.entries, e.files), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extracted {
    /// Entries the manifest lists.
    pub entries: usize,
    /// Files written beside the manifest and `program.json` (entries
    /// sharing a byte range share a file).
    pub files: usize,
}

/// Attaches `path` to an error, the way every message here names its file.
pub(crate) fn at(path: &Path) -> impl Fn(Error) -> Error + '_ {
    move |e| Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The source's flatbuffer region as stored, beside its JSON.
const FLATBUFFER: &str = "program.fb";

/// Extracts the `.pte` in `bytes` (read from `source`, which the manifest
/// records) into `target`.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("linear/model.pte");
/// let bytes = std::fs::read(&input)?;
/// let out = dir.path().join("x");
/// let done = pte_pack::extract_pte(&bytes, &input, &pte_pack::ExtractTarget::new(&out))?;
/// assert!(done.entries > 0 && out.join("manifest.json").is_file());
/// let packed = pte_pack::read_dir(&out)?;
/// assert_eq!(packed.to_bytes()?, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract_pte(bytes: &[u8], source: &Path, target: &ExtractTarget<'_>) -> Result<Extracted> {
    // the segment table is walked in place: a million entries cost no heap
    refuse_too_many(bytes, target.max_files)?;
    let blobs = PteBlobs::new(bytes).map_err(at(source))?;
    let (_, flatbuffer) = pte_file::program_region(bytes).map_err(at(source))?;
    let mut count = Count::default();
    count.add(flatbuffer);
    blobs.entries().map_err(at(source))?.for_each(|(_, bytes)| count.add(bytes));
    count.check(target.max_files)?;
    // the program and the layout make the folder packable
    let head = Manifest { source: Some(source.display().to_string()), ..blobs.head() };
    let mut out = Extraction::begin(target.dir, target.force, &head, bytes)?;
    let json_sha = write_program_json(out.folder(), head.program_file(), bytes).map_err(at(source))?;
    out.put(Entry::new(FLATBUFFER, flatbuffer.len() as u64, EntryKind::Flatbuffer), flatbuffer)?;
    for (entry, bytes) in blobs.entries().map_err(at(source))? {
        out.put(entry, bytes)?;
    }
    let (entries, files) = out.finish(Some(json_sha))?;
    Ok(Extracted { entries, files })
}

/// Counts the files a `.pte` would give from views of it, before the blob
/// walk decodes its tables: a program of a million constants is refused
/// over `max` at the cost of a view, and the count stops once past `max`.
/// A file the views cannot read is left to the walk, which names its fault.
fn refuse_too_many(bytes: &[u8], max: usize) -> Result<()> {
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
        return Err(too_many(&format!("more than {max}"), max));
    }
    Ok(())
}

/// `program.json`: the stored program as `pte dump` prints it (bytes as
/// integer lists), written as the buffer is walked; returns its digest.
fn write_program_json(folder: &OutputFolder, name: &str, bytes: &[u8]) -> Result<String> {
    let (_, region) = pte_file::program_region(bytes)?;
    let json = pte_schema::ProgramJson::new(region, &Default::default())?;
    let mut digest = None;
    folder.write_atomically(name, |w| {
        let mut d = Digesting::new(&mut *w);
        json.write_pretty(&mut d)?;
        d.write_all(b"\n")?;
        digest = Some(d.digest());
        Ok(())
    })?;
    Ok(digest.unwrap_or_default())
}

/// Extracts the `.ptn` in `bytes` (read from `source`) into `target`: the
/// program, each stored constant (its dtype, shape and aliases in the
/// manifest) and every other member.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("native_ptn/model.ptn");
/// let bytes = std::fs::read(&input)?;
/// let out = dir.path().join("x");
/// let done = pte_pack::extract_ptn(&bytes, &input, &pte_pack::ExtractTarget::new(&out))?;
/// assert!(done.files > 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract_ptn(bytes: &[u8], source: &Path, target: &ExtractTarget<'_>) -> Result<Extracted> {
    let ptn = PtnFile::from_bytes(bytes).map_err(at(source))?;
    let mut count = Count::default();
    count.add(&ptn.program);
    ptn.constants().for_each(|(_, t)| count.add(&t.data));
    ptn.members.iter().for_each(|m| count.add(&m.data));
    count.check(target.max_files)?;
    let head = Manifest {
        aliases: Some(ptn.aliases.clone()),
        metadata: ptn.metadata.clone(),
        source: Some(source.display().to_string()),
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
    Ok(Extracted { entries, files })
}

/// Extracts the `.ptd` in `bytes` (read from `source`) into `target`: each
/// segment, an entry per key naming its segment's file (the same range, so
/// no second copy), and the tables as `program.json`, which with the
/// layout makes the folder packable.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("external/_default_external_constant.ptd");
/// let bytes = std::fs::read(&input)?;
/// let out = dir.path().join("x");
/// pte_pack::extract_ptd(&bytes, &input, &pte_pack::ExtractTarget::new(&out))?;
/// assert_eq!(pte_pack::read_dir(&out)?.to_bytes()?, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract_ptd(bytes: &[u8], source: &Path, target: &ExtractTarget<'_>) -> Result<Extracted> {
    let ptd = PtdFile::from_bytes(bytes).map_err(at(source))?;
    let blobs = PtdBlobs::new(&ptd, bytes);
    let flatbuffer = ptd_flatbuffer(bytes);
    let mut count = Count::default();
    count.add(flatbuffer);
    blobs.entries().for_each(|(_, b)| count.add(b));
    count.check(target.max_files)?;
    let head = Manifest { source: Some(source.display().to_string()), ..blobs.head() };
    let mut out = Extraction::begin(target.dir, target.force, &head, bytes)?;
    let tables = pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor);
    let pretty = serde_json::to_string_pretty(&tables).map_err(|e| Error::new(ErrorKind::Malformed, e.to_string()))?;
    let text = format!("{pretty}\n");
    out.folder().write_atomically(head.program_file(), |w| Ok(w.write_all(text.as_bytes())?))?;
    out.put(Entry::new(FLATBUFFER, flatbuffer.len() as u64, EntryKind::Flatbuffer), flatbuffer)?;
    for (entry, blob) in blobs.entries() {
        out.put(entry, blob)?;
    }
    let (entries, files) = out.finish(Some(sha256_hex(text.as_bytes())))?;
    Ok(Extracted { entries, files })
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
