//! Reading an extract folder: `manifest.json`, the program JSON and the
//! segment files, with edited blob files put back in place.

use std::path::Path;

use pte_schema::{Bytes, DataLocation, Error, ErrorKind, Result};

use super::folder_file::{checked, read, sha_of_file};
use super::stored::Verbatim;
use super::{check_count, Entry, EntryKind, Folder, Manifest, ManifestFormat, PackOptions, Packed, MANIFEST};
use pte_file::ptd::PtdFile;
use pte_file::{PteFile, SegmentLayout};

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// No JSON, segment or blob file can be larger than this (an edit that
/// makes one larger is refused before it is read).
const ANY: u64 = u64::MAX;
/// Inline delegate data lives in the flatbuffer, which cannot reach 2 GiB.
const INLINE_MAX: u64 = i32::MAX as u64;

fn index(i: u64) -> Result<usize> {
    usize::try_from(i).map_err(|_| bad(format!("index {i} out of range")))
}

/// Reads an extract folder (`pte extract` output) back into a file to write.
///
/// The program comes from the manifest's `program` file (`program.json`), the
/// segments from the `segment` entries. A constant, mutable buffer, named
/// blob or delegate blob file whose digest no longer matches the manifest
/// was edited: a constant or mutable buffer is written over its place in
/// the segment (same size only), a named or segment delegate blob replaces
/// its whole segment (the segments are then repacked if its size changed),
/// an inline delegate blob replaces its inline data.
///
/// A manifest of a later version than [`MANIFEST_VERSION`](super::MANIFEST_VERSION) is refused.
///
/// ```
/// let e = pte_pack::read_dir(std::path::Path::new("no-such-folder")).unwrap_err();
/// assert_eq!(e.kind(), pte_file::ErrorKind::Io);
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("manifest.json"), r#"{"manifest_version": 3, "entries": []}"#)?;
/// assert_eq!(pte_pack::read_dir(dir.path()).unwrap_err().kind(), pte_file::ErrorKind::Unsupported);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_dir(dir: &Path) -> Result<Packed> {
    read_dir_with(dir, &PackOptions::default()).map(|f| f.packed)
}

/// Reads an extract folder into a file to write, and says how.
///
/// When the manifest records the source's stored layout and the program
/// JSON is unedited, the folder packs back into exactly the source's bytes
/// ([`Packed::Verbatim`]; blobs edited in place, same size, go back where
/// they sat): the stored flatbuffer (`program.fb`) is the program then.
/// Otherwise the program is encoded from the JSON as [`read_dir`] always
/// did, laid out with the recorded alignments, and [`Folder::note`] says
/// why. The stored flatbuffer edited while the JSON is not is refused: it
/// is a copy of the source, not the place to edit.
///
/// Every file the manifest names must be a regular file inside the folder;
/// links are refused unless [`PackOptions::allow_links`]. A constant or
/// mutable buffer whose size changed is refused before it is read.
///
/// ```
/// use pte_pack::{read_dir_with, PackOptions};
/// let e = read_dir_with(std::path::Path::new("no-such-folder"), &PackOptions::default()).unwrap_err();
/// assert_eq!(e.kind(), pte_file::ErrorKind::Io);
/// ```
pub fn read_dir_with(dir: &Path, options: &PackOptions) -> Result<Folder> {
    read_dir_from(dir, &read_manifest(dir, options)?, options)
}

/// Reads and checks the manifest of the extract folder `dir` (a later
/// version than [`MANIFEST_VERSION`](super::MANIFEST_VERSION) is refused).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("manifest.json"), r#"{"format": "ptd", "entries": []}"#)?;
/// let m = pte_pack::read_manifest(dir.path(), &Default::default())?;
/// assert_eq!(m.format(), pte_pack::ManifestFormat::Ptd);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_manifest(dir: &Path, options: &PackOptions) -> Result<Manifest> {
    let manifest = Manifest::from_slice(&read(dir, MANIFEST, options, ANY)?)?;
    manifest.check_version()?;
    Ok(manifest)
}

/// [`read_dir_with`] with the manifest already read ([`read_manifest`]).
/// A package folder whose members changed is refused
/// ([`ErrorKind::Unsupported`]): rebuilding it takes the package crate, and
/// [`Verbatim::of_dir`] says why it cannot be kept.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("manifest.json"), r#"{"format": "ptd", "entries": []}"#)?;
/// let o = Default::default();
/// let m = pte_pack::read_manifest(dir.path(), &o)?;
/// // no program JSON: the tables cannot be encoded
/// assert!(pte_pack::read_dir_from(dir.path(), &m, &o).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_dir_from(dir: &Path, manifest: &Manifest, options: &PackOptions) -> Result<Folder> {
    precheck(dir, manifest, options)?;
    let note = match Verbatim::of_dir(dir, manifest, options)? {
        Ok(v) => return Ok(Folder { packed: Packed::Verbatim(v), note: None }),
        Err(reason) => reason,
    };
    if manifest.format() == ManifestFormat::Ptn {
        return Err(Error::new(
            ErrorKind::Unsupported,
            format!("{note}: a package folder is rebuilt from its members by the `pte` crate (pte::pack_dir)"),
        ));
    }
    let packed = encode(dir, manifest, options)?;
    Ok(Folder { packed, note: Some(note) })
}

/// The checks that need no reading: every named file is a regular file
/// inside the folder, and a blob that must keep its size still has it.
fn precheck(dir: &Path, manifest: &Manifest, options: &PackOptions) -> Result<()> {
    for e in &manifest.entries {
        if matches!(e.kind, EntryKind::Flatbuffer | EntryKind::Filler) {
            // checked where the stored layout is read; the flatbuffer may be removed
            continue;
        }
        let (_, meta) = checked(dir, &e.file, options)?;
        let fixed = matches!(e.kind, EntryKind::Constant { .. } | EntryKind::Mutable { .. });
        if fixed && meta.len() != e.size {
            return Err(bad(format!(
                "{}: {} bytes, but a constant or mutable buffer keeps its size ({} bytes; edit the program JSON to resize)",
                e.file,
                meta.len(),
                e.size
            )));
        }
        let inline = matches!(&e.kind, EntryKind::Delegate { location, .. } if location.as_deref() == DataLocation::INLINE.name());
        if inline && meta.len() > INLINE_MAX {
            return Err(bad(format!(
                "{}: {} bytes of inline delegate data cannot fit in a flatbuffer",
                e.file,
                meta.len()
            )));
        }
    }
    Ok(())
}

/// The folder encoded from its program JSON and blobs.
fn encode(dir: &Path, manifest: &Manifest, pack: &PackOptions) -> Result<Packed> {
    let program_name = manifest.program_file();
    let text = String::from_utf8(read(dir, program_name, pack, ANY)?)
        .map_err(|_| Error::new(ErrorKind::Malformed, format!("{program_name} is not UTF-8")))?;
    let text_err = |e: Error| Error::new(e.kind(), format!("{program_name}: {e}")).at_path(e.path().to_string());
    let layout = manifest.layout.unwrap_or_default();

    let mut segments: Vec<(usize, Vec<u8>)> = vec![];
    // the file each segment was read from: a blob entry naming that same
    // file for that same segment is already in place (read once, not twice)
    let mut segment_files = std::collections::BTreeMap::new();
    for e in &manifest.entries {
        if let EntryKind::Segment { index: i, .. } = e.kind {
            segments.push((index(i)?, read(dir, &e.file, pack, ANY)?));
            segment_files.insert(index(i)?, e.file.as_str());
        }
    }
    segments.sort_by_key(|(i, _)| *i);
    if segments.iter().enumerate().any(|(k, (i, _))| k != *i) {
        return Err(bad("segment entries must be numbered 0, 1, 2, ... without gaps"));
    }
    let segments: Vec<Vec<u8>> = segments.into_iter().map(|(_, b)| b).collect();

    if manifest.format() == ManifestFormat::Ptd {
        let ft = pte_schema::flat_tensor_from_json(&text).map_err(text_err)?;
        check_count(ft.segments.as_ref().map_or(0, Vec::len), segments.len())?;
        let mut file = PtdFile { flat_tensor: ft, segments: segments.into_iter().map(Bytes::Owned).collect() };
        sync_ptd_sizes(&mut file);
        return Ok(Packed::Ptd { file, options: layout.ptd_options()? });
    }

    let program = pte_schema::program_from_json(&text).map_err(text_err)?;
    check_count(program.segment_table().len(), segments.len())?;
    let (mut options, bare) = layout.pte_options()?;
    let mut file = PteFile::new(program, segments.into_iter().map(Bytes::Owned).collect());
    for e in &manifest.entries {
        match &e.kind {
            EntryKind::Segment { .. } | EntryKind::Flatbuffer | EntryKind::Filler => continue,
            EntryKind::Other(k) if k.is_empty() => continue,
            _ => {}
        }
        if replaces_own_segment(e, &segment_files) {
            continue;
        }
        // an unedited blob is recognised by its digest, read in chunks: only
        // an edited one is read whole
        let (path, meta) = checked(dir, &e.file, pack)?;
        let id = pte_core::FileId::from_metadata(&meta);
        if e.sha256.as_deref().is_some_and(|want| sha_of_file(&path, id).is_ok_and(|got| got == want)) {
            continue;
        }
        let bytes = read(dir, &e.file, pack, ANY)?;
        put_back(&mut file, e, bytes).map_err(|err| Error::new(err.kind(), format!("{}: {err}", e.file)))?;
    }
    if super::sync_sizes(&mut file) {
        options = options.with_layout(SegmentLayout::Repack);
    }
    Ok(Packed::Pte { file, options, bare })
}

/// Whether `e` is a whole-segment blob (a named or segment delegate blob)
/// whose file is the very file its segment was read from: putting it back
/// would replace the segment with the bytes it already holds.
fn replaces_own_segment(e: &Entry, segment_files: &std::collections::BTreeMap<usize, &str>) -> bool {
    let segment = match &e.kind {
        EntryKind::Named { segment_index, .. } => *segment_index,
        EntryKind::Delegate { location, index: i, .. } if location.as_deref() != DataLocation::INLINE.name() => *i,
        _ => return false,
    };
    index(segment).ok().and_then(|i| segment_files.get(&i)).is_some_and(|f| *f == e.file)
}

fn overwrite(seg: &mut Bytes<'static>, at: u64, bytes: &[u8]) -> Result<()> {
    let start = usize::try_from(at).map_err(|_| bad("offset out of range"))?;
    let end = start.checked_add(bytes.len()).ok_or_else(|| bad("offset out of range"))?;
    let target = seg.to_mut().get_mut(start..end).ok_or_else(|| bad("the edited blob runs past its segment"))?;
    target.copy_from_slice(bytes);
    Ok(())
}

/// Puts one edited blob file back where the manifest says it came from.
fn put_back(file: &mut PteFile<'static>, e: &Entry, bytes: Vec<u8>) -> Result<()> {
    let same_size = || -> Result<()> {
        if e.size != bytes.len() as u64 {
            return Err(bad("a constant or mutable buffer must keep its size (edit the program JSON to resize)"));
        }
        Ok(())
    };
    match &e.kind {
        EntryKind::Constant { offset, .. } => {
            same_size()?;
            let cs =
                file.program.constant_segment.as_ref().ok_or_else(|| bad("the program has no constant segment"))?;
            let seg = usize::try_from(cs.segment_index).unwrap_or(usize::MAX);
            let s = file.segments.get_mut(seg).ok_or_else(|| bad("constant segment index out of range"))?;
            overwrite(s, *offset, &bytes)
        }
        EntryKind::Mutable { segment, offset, .. } => {
            same_size()?;
            let m = file
                .program
                .mutable_data_segments
                .as_ref()
                .and_then(|m| m.get(index(*segment).ok()?))
                .ok_or_else(|| bad("no such mutable segment"))?;
            let seg = usize::try_from(m.segment_index).unwrap_or(usize::MAX);
            let s = file.segments.get_mut(seg).ok_or_else(|| bad("mutable segment index out of range"))?;
            overwrite(s, *offset, &bytes)
        }
        EntryKind::Named { segment_index, .. } => {
            let seg = index(*segment_index)?;
            *file.segments.get_mut(seg).ok_or_else(|| bad("named data segment out of range"))? = Bytes::Owned(bytes);
            Ok(())
        }
        EntryKind::Delegate { location, index: i, .. } => {
            let i = index(*i)?;
            if location.as_deref() == DataLocation::INLINE.name() {
                let d = file
                    .program
                    .backend_delegate_data
                    .as_mut()
                    .and_then(|v| v.get_mut(i))
                    .ok_or_else(|| bad("inline delegate index out of range"))?;
                d.data = Some(Bytes::Owned(bytes));
            } else {
                *file.segments.get_mut(i).ok_or_else(|| bad("delegate segment out of range"))? = Bytes::Owned(bytes);
            }
            Ok(())
        }
        other => Err(bad(format!("unknown manifest entry kind `{}`", other.name()))),
    }
}

pub(crate) fn sync_ptd_sizes(file: &mut PtdFile<'static>) {
    if let Some(t) = file.flat_tensor.segments.as_mut() {
        for (s, b) in t.iter_mut().zip(&file.segments) {
            s.size = b.len() as u64;
        }
    }
}
