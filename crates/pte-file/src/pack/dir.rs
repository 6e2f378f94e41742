//! Reading an extract folder: `manifest.json`, the program JSON and the
//! segment files, with edited blob files put back in place.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use pte_schema::{Bytes, DataLocation, Error, ErrorKind, Result};

use super::layout::{ptd_options, pte_options};
use super::{check_count, Packed};
use crate::ptd::PtdFile;
use crate::{PteFile, SegmentLayout};

/// Name of the manifest in an extract folder.
///
/// ```
/// assert_eq!(pte_file::pack::MANIFEST, "manifest.json");
/// ```
pub const MANIFEST: &str = "manifest.json";

/// The manifest version `pte extract` writes and [`read_dir`] reads: 2.
/// A folder without `manifest_version` is version 1, which reads the same
/// way; a later version is refused ([`ErrorKind::Unsupported`]) rather than
/// packed by rules it was not written for.
///
/// ```
/// assert_eq!(pte_file::pack::MANIFEST_VERSION, 2);
/// ```
pub const MANIFEST_VERSION: u64 = 2;

/// Refuses a manifest of a version this reader does not know.
fn check_version(manifest: &Value) -> Result<()> {
    match manifest.get("manifest_version") {
        None => Ok(()),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MANIFEST_VERSION).contains(&n) => Ok(()),
            Some(n) => Err(Error::new(
                ErrorKind::Unsupported,
                format!("{MANIFEST}: manifest_version {n} is newer than this reader's {MANIFEST_VERSION}"),
            )),
            None => Err(Error::new(ErrorKind::Malformed, format!("{MANIFEST}: manifest_version {v} is not a version"))),
        },
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    // names come from the manifest: keep them inside the folder
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(bad(format!("manifest names a file outside the folder: {name}")));
    }
    let path = dir.join(name);
    pte_core::read_input(&path)
}

fn sha(b: &[u8]) -> String {
    Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect()
}

fn index(e: &Value, key: &str) -> Result<usize> {
    e.get(key)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .ok_or_else(|| bad(format!("manifest entry {} lacks a numeric `{key}`", e.get("file").unwrap_or(&Value::Null))))
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
/// A manifest of a later version than [`MANIFEST_VERSION`] is refused.
///
/// ```
/// let e = pte_file::pack::read_dir(std::path::Path::new("no-such-folder")).unwrap_err();
/// assert_eq!(e.kind(), pte_file::ErrorKind::Io);
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("manifest.json"), r#"{"manifest_version": 3, "entries": []}"#)?;
/// assert_eq!(pte_file::pack::read_dir(dir.path()).unwrap_err().kind(), pte_file::ErrorKind::Unsupported);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_dir(dir: &Path) -> Result<Packed> {
    let manifest: Value = serde_json::from_slice(&read(dir, MANIFEST)?)
        .map_err(|e| Error::new(ErrorKind::Malformed, format!("{MANIFEST}: {e}")))?;
    check_version(&manifest)?;
    let entries = manifest.get("entries").and_then(Value::as_array).cloned().unwrap_or_default();
    let program_name = manifest.get("program").and_then(Value::as_str).unwrap_or("program.json");
    let text = String::from_utf8(read(dir, program_name)?)
        .map_err(|_| Error::new(ErrorKind::Malformed, format!("{program_name} is not UTF-8")))?;
    let text_err = |e: Error| Error::new(e.kind(), format!("{program_name}: {e}")).at_path(e.path().to_string());
    let layout = manifest.get("layout").cloned().unwrap_or(Value::Null);

    let mut segments: Vec<(usize, Vec<u8>)> = vec![];
    for e in entries.iter().filter(|e| e.get("kind").and_then(Value::as_str) == Some("segment")) {
        let name = e.get("file").and_then(Value::as_str).unwrap_or_default();
        segments.push((index(e, "index")?, read(dir, name)?));
    }
    segments.sort_by_key(|(i, _)| *i);
    if segments.iter().enumerate().any(|(k, (i, _))| k != *i) {
        return Err(bad("segment entries must be numbered 0, 1, 2, ... without gaps"));
    }
    let segments: Vec<Vec<u8>> = segments.into_iter().map(|(_, b)| b).collect();

    if manifest.get("format").and_then(Value::as_str) == Some("ptd") {
        let ft = pte_schema::flat_tensor_from_json(&text).map_err(text_err)?;
        check_count(ft.segments.as_ref().map_or(0, Vec::len), segments.len())?;
        let mut file = PtdFile { flat_tensor: ft, segments: segments.into_iter().map(Bytes::Owned).collect() };
        sync_ptd_sizes(&mut file);
        return Ok(Packed::Ptd { file, options: ptd_options(&layout)? });
    }

    let program = pte_schema::program_from_json(&text).map_err(text_err)?;
    check_count(program.segment_table().len(), segments.len())?;
    let (mut options, bare) = pte_options(&layout)?;
    let mut file = PteFile::new(program, segments.into_iter().map(Bytes::Owned).collect());
    for e in &entries {
        let name = e.get("file").and_then(Value::as_str).unwrap_or_default();
        let kind = e.get("kind").and_then(Value::as_str).unwrap_or_default();
        if kind == "segment" || kind.is_empty() {
            continue;
        }
        let bytes = read(dir, name)?;
        if Some(sha(&bytes).as_str()) == e.get("sha256").and_then(Value::as_str) {
            continue;
        }
        put_back(&mut file, kind, e, bytes).map_err(|err| Error::new(err.kind(), format!("{name}: {err}")))?;
    }
    if super::sync_sizes(&mut file) {
        options = options.with_layout(SegmentLayout::Repack);
    }
    Ok(Packed::Pte { file, options, bare })
}

fn overwrite(seg: &mut Bytes<'static>, at: u64, bytes: &[u8]) -> Result<()> {
    let start = usize::try_from(at).map_err(|_| bad("offset out of range"))?;
    let end = start.checked_add(bytes.len()).ok_or_else(|| bad("offset out of range"))?;
    let target = seg.to_mut().get_mut(start..end).ok_or_else(|| bad("the edited blob runs past its segment"))?;
    target.copy_from_slice(bytes);
    Ok(())
}

/// Puts one edited blob file back where the manifest says it came from.
fn put_back(file: &mut PteFile<'static>, kind: &str, e: &Value, bytes: Vec<u8>) -> Result<()> {
    let same_size = |e: &Value| -> Result<()> {
        if e.get("size").and_then(Value::as_u64) != Some(bytes.len() as u64) {
            return Err(bad("a constant or mutable buffer must keep its size (edit the program JSON to resize)"));
        }
        Ok(())
    };
    match kind {
        "constant" => {
            same_size(e)?;
            let cs =
                file.program.constant_segment.as_ref().ok_or_else(|| bad("the program has no constant segment"))?;
            let seg = usize::try_from(cs.segment_index).unwrap_or(usize::MAX);
            let at = index(e, "offset")? as u64;
            let s = file.segments.get_mut(seg).ok_or_else(|| bad("constant segment index out of range"))?;
            overwrite(s, at, &bytes)
        }
        "mutable" => {
            same_size(e)?;
            let k = index(e, "segment")?;
            let m = file
                .program
                .mutable_data_segments
                .as_ref()
                .and_then(|m| m.get(k))
                .ok_or_else(|| bad("no such mutable segment"))?;
            let seg = usize::try_from(m.segment_index).unwrap_or(usize::MAX);
            let at = index(e, "offset")? as u64;
            let s = file.segments.get_mut(seg).ok_or_else(|| bad("mutable segment index out of range"))?;
            overwrite(s, at, &bytes)
        }
        "named" => {
            let seg = index(e, "segment_index")?;
            *file.segments.get_mut(seg).ok_or_else(|| bad("named data segment out of range"))? = Bytes::Owned(bytes);
            Ok(())
        }
        "delegate" => {
            let i = index(e, "index")?;
            if e.get("location").and_then(Value::as_str) == DataLocation::INLINE.name() {
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
        other => Err(bad(format!("unknown manifest entry kind `{other}`"))),
    }
}

pub(crate) fn sync_ptd_sizes(file: &mut PtdFile<'static>) {
    if let Some(t) = file.flat_tensor.segments.as_mut() {
        for (s, b) in t.iter_mut().zip(&file.segments) {
            s.size = b.len() as u64;
        }
    }
}
