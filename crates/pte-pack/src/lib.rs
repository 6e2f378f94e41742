//! Extracting and packing: a file as a folder of its blobs and back, and
//! the inverse of `pte dump`.
//!
//! [`extract_pte`], [`extract_ptd`] and [`extract_ptn`] write every stored
//! blob as its own file, with a manifest that makes the folder packable.
//! An extract folder is described by its [`Manifest`] (`manifest.json`):
//! [`PteBlobs`] and [`PtdBlobs`] decide what a folder holds, a
//! [`ManifestWriter`] writes the manifest entry by entry, and [`read_dir`]
//! reads it back.
//!
//! A program (or a `.ptd`'s tables) given as JSON plus the bytes of its
//! segments becomes a file again. Read from an extract folder
//! ([`read_dir`]) the layout the source showed is kept, so extracting then
//! packing gives the same bytes; edited blob files are put back where they
//! came from. From a dump ([`from_json`]) exir's default layout is used,
//! which is what the exporter writes. Either way every layout option of
//! [`WriteOptions`] (or [`PtdWriteOptions`]) can be changed before writing.
//!
//! ```
//! use pte_pack::{from_json, Packed};
//! use pte_schema::{program_to_json, JsonBytes};
//! let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
//! let pte = pte_file::PteFile::from_bytes(&bytes)?;
//! let json = program_to_json(&pte.program, JsonBytes::Integers).to_string();
//! let segments = pte.segments.iter().map(|s| s.to_vec()).collect();
//! let packed = from_json(&json, segments, false)?;
//! assert_eq!(packed.to_bytes()?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod blobs;
mod dir;
mod extract;
pub(crate) mod folder_file;
mod layout;
mod manifest;
mod stored;

pub use blobs::{PtdBlobs, PteBlobs};
pub use dir::{read_dir, read_dir_from, read_dir_with, read_manifest};
pub use extract::{extract_ptd, extract_pte, extract_ptn, ExtractTarget, Extracted, DEFAULT_MAX_FILES};
pub use folder_file::{read_folder_file, sha256_hex};
pub use layout::{layout_json, ptd_layout_json};
pub use manifest::{
    file_safe, Entry, EntryKind, Layout, Manifest, ManifestFormat, ManifestWriter, MANIFEST, MANIFEST_VERSION,
};
pub use stored::{Piece, Stored, StoredBuilder, Verbatim};

use pte_schema::{encode_program, Error, ErrorKind, Result};

use pte_file::ptd::{PtdFile, PtdLayout, PtdWriteOptions};
use pte_file::{PteFile, WriteOptions};

/// A file ready to be written, with its layout options.
///
/// ```
/// let p = pte_pack::Packed::Ptd {
///     file: Default::default(),
///     options: Default::default(),
/// };
/// assert!(p.to_bytes()?.len() > 8);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Packed {
    /// A `.pte` program.
    Pte {
        /// The program and its segments.
        file: PteFile<'static>,
        /// How to lay it out.
        options: WriteOptions,
        /// Write the flatbuffer alone, without an extended header (the
        /// pre-segment layout of a source that had none); ignored when the
        /// program lists segments.
        bare: bool,
    },
    /// A `.ptd` tensor-data file.
    Ptd {
        /// The tables and segments.
        file: PtdFile<'static>,
        /// How to lay it out.
        options: PtdWriteOptions,
    },
    /// An extract folder of any kind packed as its source was stored
    /// (byte for byte when nothing was edited).
    Verbatim(Verbatim),
}

/// How [`read_dir_with`] treats a folder.
///
/// ```
/// let o = pte_pack::PackOptions { allow_links: true, ..Default::default() };
/// assert!(!o.relayout);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackOptions {
    /// Follow symbolic links (and accept hard-linked files) among the
    /// folder's files; a link must still resolve inside the folder.
    pub allow_links: bool,
    /// Encode the program again even where the stored layout could be kept
    /// (the caller changes layout options).
    pub relayout: bool,
}

/// A folder read by [`read_dir_with`]: the file to write, and why it is not
/// the source's stored layout when it is not.
///
/// ```
/// let f = pte_pack::Folder { packed: pte_pack::Packed::Ptd { file: Default::default(), options: Default::default() }, note: None };
/// assert!(f.note.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Folder {
    /// The file to write.
    pub packed: Packed,
    /// `None` when the source's stored bytes are kept; else why they are not
    /// (the program JSON or a blob was edited, layout options were given,
    /// the folder records no stored layout).
    pub note: Option<String>,
}

impl Packed {
    /// Writes the file to `w`; returns the number of bytes written.
    ///
    /// ```
    /// let p = pte_pack::Packed::Pte { file: Default::default(), options: Default::default(), bare: true };
    /// let mut out = vec![];
    /// assert_eq!(p.write_to(&mut out)? as usize, out.len());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, mut w: impl std::io::Write) -> Result<u64> {
        match self {
            // a file without segments stays without its header, unless the
            // options move constants or delegates into segments
            Packed::Pte { file, options, bare }
                if *bare
                    && file.program.segment_table().is_empty()
                    && options.constants() == pte_file::ConstantPlacement::Keep
                    && options.delegates() != pte_file::DelegatePlacement::Segment =>
            {
                let fb = encode_program(&file.program, &options.encode_options())?;
                w.write_all(&fb)?;
                w.flush()?;
                Ok(fb.len() as u64)
            }
            Packed::Pte { file, options, .. } => file.write_to(w, options),
            Packed::Ptd { file, options } => file.write_to(w, options),
            Packed::Verbatim(v) => v.write_to(w),
        }
    }

    /// Writes the file into a new vector.
    ///
    /// ```
    /// let p = pte_pack::Packed::Pte { file: Default::default(), options: Default::default(), bare: false };
    /// assert_eq!(&p.to_bytes()?[4..8], b"ET12");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_to(&mut out)?;
        Ok(out)
    }

    /// Writes the file to `path` atomically.
    ///
    /// ```
    /// let d = tempfile::tempdir()?;
    /// let p = pte_pack::Packed::Pte { file: Default::default(), options: Default::default(), bare: false };
    /// p.save(d.path().join("x.pte"))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<u64> {
        pte_core::write_atomically(path.as_ref(), |w| self.write_to(w))
    }
}

/// Builds a file from a JSON program (`pte dump` output or `flatc --json
/// --strict-json`) and the bytes of each segment in table order. With `ptd`
/// the JSON holds a `.ptd`'s tables instead. The layout is exir's default
/// (segment alignment 128, constant and inline delegate alignment 16,
/// segment offsets as the table gives them); change `options` to repack.
///
/// ```
/// let e = pte_pack::from_json("{}", vec![vec![1]], false).unwrap_err();
/// assert!(e.to_string().contains("segment"));
/// ```
pub fn from_json(text: &str, segments: Vec<Vec<u8>>, ptd: bool) -> Result<Packed> {
    if ptd {
        let ft = pte_schema::flat_tensor_from_json(text)?;
        let mut file = PtdFile { flat_tensor: ft, segments: segments.into_iter().map(Into::into).collect() };
        check_count(file.flat_tensor.segments.as_ref().map_or(0, Vec::len), file.segments.len())?;
        dir::sync_ptd_sizes(&mut file);
        let options = PtdWriteOptions::new(PtdLayout::Keep { segment_alignment: 128 })?;
        return Ok(Packed::Ptd { file, options });
    }
    let program = pte_schema::program_from_json(text)?;
    check_count(program.segment_table().len(), segments.len())?;
    let mut file = PteFile::new(program, segments.into_iter().map(Into::into).collect());
    let mut options = WriteOptions::default().with_constants(pte_file::ConstantPlacement::Keep);
    if sync_sizes(&mut file) {
        options = options.with_layout(pte_file::SegmentLayout::Repack);
    }
    // exir always writes the extended header; the legacy bare layout is the
    // caller's choice (`bare: true`)
    Ok(Packed::Pte { file, options, bare: false })
}

pub(crate) fn check_count(table: usize, given: usize) -> Result<()> {
    if table != given {
        return Err(Error::new(
            ErrorKind::InvalidUse,
            format!("the segment table lists {table} segments but {given} segment files were given"),
        ));
    }
    Ok(())
}

/// Makes each segment-table size match its bytes; true when one changed (the
/// stored offsets may then overlap, so the caller repacks).
pub(crate) fn sync_sizes(file: &mut PteFile<'static>) -> bool {
    let mut changed = false;
    if let Some(t) = file.program.segments.as_mut() {
        for (s, b) in t.iter_mut().zip(&file.segments) {
            if s.size != b.len() as u64 {
                s.size = b.len() as u64;
                changed = true;
            }
        }
    }
    changed
}
