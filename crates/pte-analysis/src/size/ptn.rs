//! Where the bytes of a `.ptn` go (`pte size`): each member's local header
//! and data, the safetensors header and each tensor inside
//! `program.safetensors`, and the central directory.

use std::io::Cursor;

use super::{kinds, Claim, Partition, SizeReport};
use pte_schema::{Error, ErrorKind, Result};
use zip::read::{ArchiveOffset, Config};
use zip::{CompressionMethod, ZipArchive};

use pte_ptn::{PtnFile, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

/// Every byte of a package attributed once: `zip_header` (each member's
/// local header), `program` (`program.ptg`), `safetensors_header`, `tensor`
/// (one part per stored tensor, its aliases in `shared_with`), `zip_member`
/// (any other member's data), `zip_directory` (central directory and end
/// records), `padding` (anything else). The package must read as
/// `PtnFile::from_bytes_unchecked` reads it (the program itself is not
/// checked). A deflated member is one part; its tensors are not located.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let r = pte_analysis::size::ptn_size_report(&bytes)?;
/// assert_eq!(r.total(), bytes.len() as u64);
/// assert_eq!(r.parts.iter().find(|p| p.name == "seq.0.weight").map(|p| p.bytes), Some(2048));
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn ptn_size_report(bytes: &[u8]) -> Result<SizeReport> {
    let ptn = PtnFile::from_bytes_unchecked(bytes)?;
    let len = bytes.len() as u64;
    let mut p = Partition::new(len);
    let bad = |e: zip::result::ZipError| Error::new(ErrorKind::Malformed, format!("not a readable zip: {e}"));
    let config = Config { archive_offset: ArchiveOffset::Known(0) };
    let mut archive = ZipArchive::with_config(config, Cursor::new(bytes)).map_err(bad)?;
    p.add(Claim::new("central directory", kinds::ZIP_DIRECTORY, archive.central_directory_start()..len, 0));
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(bad)?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let header = entry.header_start();
        let Some(data) = entry.data_start() else {
            p.note(format!("{name}: where its data starts is unknown: not counted"));
            continue;
        };
        let stored = entry.compression() == CompressionMethod::Stored;
        let end = data.saturating_add(entry.compressed_size());
        drop(entry);
        p.add(Claim::new(format!("{name} (local header)"), kinds::ZIP_HEADER, header..data, 0));
        let range = data..end;
        match name.as_str() {
            PROGRAM_MEMBER => p.add(Claim::new(name, kinds::PROGRAM, range, 0)),
            SAFETENSORS_MEMBER if stored => {
                p.add(Claim::new(name.clone(), kinds::PADDING, range.clone(), 0));
                safetensors(bytes, &ptn, &name, range, &mut p);
            }
            SAFETENSORS_MEMBER => {
                p.note(format!("{name} is deflated: its tensors are not counted apart"));
                p.add(Claim::new(name, kinds::ZIP_MEMBER, range, 0));
            }
            _ => p.add(Claim::new(name, kinds::ZIP_MEMBER, range, 0)),
        }
    }
    Ok(p.finish("ptn"))
}

/// The safetensors header and tensors of the member stored at `range`.
fn safetensors(bytes: &[u8], ptn: &PtnFile<'_>, name: &str, range: std::ops::Range<u64>, p: &mut Partition) {
    let start = usize::try_from(range.start).unwrap_or(usize::MAX);
    let n = bytes.get(start..start.saturating_add(8)).and_then(|b| <[u8; 8]>::try_from(b).ok());
    if let Some(r) =
        n.map(u64::from_le_bytes).and_then(|n| Some(range.start..range.start.checked_add(8)?.checked_add(n)?))
    {
        p.add_within(name, range.clone(), Claim::new(format!("{name} header"), kinds::SAFETENSORS_HEADER, r, 1));
    }
    // owners first, so a range is named after its owner and lists its aliases
    let mut tensors = ptn.tensors();
    tensors.sort_by_key(|t| t.alias_of.is_some());
    for t in tensors {
        match t.range_in(bytes) {
            Some(r) => p.add_within(name, range.clone(), Claim::new(t.key, kinds::TENSOR, r, 1)),
            None if t.bytes.is_empty() => {}
            None => p.note(format!("{}: its bytes are not stored in the file: not counted apart", t.key)),
        }
    }
}
