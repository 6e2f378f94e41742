//! The stored layout of an extracted file: the source as a sequence of
//! pieces (a range of one of the folder's files, a run of zeros, or bytes
//! of the filler file that holds whatever no blob holds: headers, zip
//! records, non-zero padding). An unedited folder packs back into exactly
//! the source's bytes, whoever wrote it; a blob edited in place (same size)
//! goes back where it sat.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use pte_core::FileId;
use pte_schema::{Error, ErrorKind, Result};

use super::folder_file::{checked, path_in, sha_of_file};
use super::{EntryKind, Manifest, ManifestFormat, PackOptions};

/// The manifest's `stored` object: the source's size, the digest of the
/// program JSON as extracted, and the pieces that rebuild the source.
///
/// ```
/// use pte_pack::{Piece, Stored};
/// let s: Stored = serde_json::from_str(r#"{"size": 9, "pieces": [{"file": "a.bin", "from": 0, "len": 4}, {"zeros": 5}]}"#)?;
/// assert_eq!(s.pieces[1], Piece::Zeros { zeros: 5 });
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The source's size in bytes (the pieces' lengths add up to it).
    pub size: u64,
    /// SHA-256 of the program (or tables) JSON as extracted: while the JSON
    /// has it, the stored flatbuffer is the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json_sha256: Option<String>,
    /// The file holding the bytes of every [`Piece::Filler`], in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filler: Option<String>,
    /// The source, front to back.
    #[serde(default)]
    pub pieces: Vec<Piece>,
}

/// One run of the source's bytes.
///
/// ```
/// let p: pte_pack::Piece = serde_json::from_str(r#"{"filler": 8, "len": 3}"#)?;
/// assert_eq!(p.len(), 3);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Piece {
    /// `len` bytes of a folder file, from byte `from` of it.
    File {
        /// The file (as the manifest's entries name it).
        file: String,
        /// First byte used.
        #[serde(default)]
        from: u64,
        /// Byte count.
        len: u64,
    },
    /// A run of zero bytes.
    Zeros {
        /// Byte count.
        zeros: u64,
    },
    /// `len` bytes of the filler file, from byte `filler` of it.
    Filler {
        /// First byte used.
        filler: u64,
        /// Byte count.
        len: u64,
    },
}

impl Piece {
    /// Bytes this piece contributes.
    ///
    /// ```
    /// assert_eq!(pte_pack::Piece::Zeros { zeros: 7 }.len(), 7);
    /// ```
    pub fn len(&self) -> u64 {
        match self {
            Piece::File { len, .. } | Piece::Filler { len, .. } => *len,
            Piece::Zeros { zeros } => *zeros,
        }
    }

    /// Whether the piece contributes no byte.
    ///
    /// ```
    /// assert!(pte_pack::Piece::Zeros { zeros: 0 }.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Collects where each written blob sat in the source while a folder is
/// extracted, then describes the source as [`Piece`]s.
///
/// ```
/// use pte_pack::{Piece, StoredBuilder};
/// let source = [1u8, 2, 5, 6, 0, 0, 0, 0];
/// let mut b = StoredBuilder::new(&source);
/// let at = b.offset_of(&source[2..4]).unwrap();
/// b.add(at, 2, "blob.bin");
/// let (stored, filler) = b.finish(None, "filler.bin");
/// assert_eq!(stored.pieces, vec![
///     Piece::Filler { filler: 0, len: 2 },
///     Piece::File { file: "blob.bin".into(), from: 0, len: 2 },
///     Piece::Zeros { zeros: 4 },
/// ]);
/// assert_eq!(filler, vec![&source[..2]]);
/// ```
pub struct StoredBuilder<'a> {
    source: &'a [u8],
    regions: Vec<(u64, u64, String)>,
}

impl<'a> StoredBuilder<'a> {
    /// A builder over the source's bytes.
    ///
    /// ```
    /// let b = pte_pack::StoredBuilder::new(b"abc");
    /// assert_eq!(b.finish(None, "f").0.size, 3);
    /// ```
    pub fn new(source: &'a [u8]) -> Self {
        StoredBuilder { source, regions: vec![] }
    }

    /// Where `blob` starts in the source, when it is a non-empty slice of it.
    ///
    /// ```
    /// let s = [0u8; 8];
    /// let b = pte_pack::StoredBuilder::new(&s);
    /// assert_eq!(b.offset_of(&s[3..5]), Some(3));
    /// assert_eq!(b.offset_of(&[1, 2]), None);
    /// ```
    pub fn offset_of(&self, blob: &[u8]) -> Option<u64> {
        if blob.is_empty() {
            return None;
        }
        // addresses compared as integers: no pointer is dereferenced
        let base = self.source.as_ptr() as usize;
        let at = (blob.as_ptr() as usize).checked_sub(base)?;
        let end = at.checked_add(blob.len())?;
        (end <= self.source.len()).then_some(at as u64)
    }

    /// Records that the folder's `file` holds the source's bytes
    /// `at..at + len` (a region outside the source is ignored).
    ///
    /// ```
    /// let mut b = pte_pack::StoredBuilder::new(b"abcd");
    /// b.add(1, 2, "x");
    /// assert_eq!(b.finish(None, "f").0.pieces.len(), 3);
    /// ```
    pub fn add(&mut self, at: u64, len: u64, file: &str) {
        if len > 0 && at.checked_add(len).is_some_and(|e| e <= self.source.len() as u64) {
            self.regions.push((at, len, file.to_string()));
        }
    }

    /// The stored layout, and the filler bytes to write to `filler_name`
    /// in order (none when every byte outside the blobs is zero, and the
    /// layout then names no filler file).
    ///
    /// ```
    /// let (s, filler) = pte_pack::StoredBuilder::new(&[0, 0]).finish(Some("ab".into()), "f");
    /// assert_eq!((s.filler, filler.len()), (None, 0));
    /// ```
    pub fn finish(mut self, json_sha256: Option<String>, filler_name: &str) -> (Stored, Vec<&'a [u8]>) {
        self.regions.sort_by_key(|(at, len, _)| (*at, Reverse(*len)));
        let source = self.source;
        let size = source.len() as u64;
        let mut pieces = vec![];
        let mut filler = vec![];
        let mut filler_at = 0u64;
        let mut gap = |from: u64, to: u64, pieces: &mut Vec<Piece>| {
            let bytes = usize::try_from(from)
                .ok()
                .zip(usize::try_from(to).ok())
                .and_then(|(a, b)| source.get(a..b))
                .unwrap_or_default();
            if bytes.iter().all(|&b| b == 0) {
                pieces.push(Piece::Zeros { zeros: bytes.len() as u64 });
            } else {
                pieces.push(Piece::Filler { filler: filler_at, len: bytes.len() as u64 });
                filler_at = filler_at.saturating_add(bytes.len() as u64);
                filler.push(bytes);
            }
        };
        let mut p = 0u64;
        for (at, len, file) in &self.regions {
            let end = at.saturating_add(*len);
            if end <= p {
                continue;
            }
            if *at > p {
                gap(p, *at, &mut pieces);
            }
            let start = p.max(*at);
            pieces.push(Piece::File {
                file: file.clone(),
                from: start.saturating_sub(*at),
                len: end.saturating_sub(start),
            });
            p = end;
        }
        if p < size {
            gap(p, size, &mut pieces);
        }
        let filler_file = (!filler.is_empty()).then(|| filler_name.to_string());
        (Stored { size, json_sha256, filler: filler_file, pieces }, filler)
    }
}

/// Where each output byte comes from.
#[derive(Clone, Debug)]
enum Source {
    File(PathBuf, u64),
    Zeros,
}

#[derive(Clone, Debug)]
struct Span {
    len: u64,
    source: Source,
}

/// A folder packed as the source was stored: its pieces in order, with the
/// blobs edited in place (same size) put back where they sat.
///
/// Built by [`read_dir_with`](super::read_dir_with) when the folder allows
/// it; the files are read while writing, so memory stays bounded whatever
/// their size.
#[derive(Clone, Debug, PartialEq)]
pub struct Verbatim {
    size: u64,
    plan: Vec<(u64, PathBuf, u64)>,
    format: ManifestFormat,
    edited: Vec<String>,
    /// The identity of each file read, as it was checked.
    ids: HashMap<PathBuf, FileId>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// An edited blob going back to the source's bytes `at..at + len`.
struct Overlay {
    at: u64,
    len: u64,
    path: PathBuf,
    file: String,
}

/// Why a folder cannot be packed as stored (it is then re-encoded).
type Reason = String;

impl Verbatim {
    /// What the folder was extracted from.
    ///
    /// ```
    /// # let _ = pte_pack::Verbatim::format;
    /// ```
    pub fn format(&self) -> ManifestFormat {
        self.format
    }

    /// The blob files edited in place (same size), which go back where
    /// their bytes sat; empty when the source's bytes are written unchanged.
    ///
    /// ```
    /// # let _ = pte_pack::Verbatim::edited;
    /// ```
    pub fn edited(&self) -> &[String] {
        &self.edited
    }

    /// The size of the file this writes.
    ///
    /// ```
    /// # let _ = pte_pack::Verbatim::size;
    /// ```
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Checks the folder against its stored layout. `Ok(Err(reason))` says
    /// why it must be encoded again instead (the program JSON or a blob was
    /// edited, layout options were given, no layout was recorded); an error
    /// refuses the folder (a file outside it, a link, the stored flatbuffer
    /// edited while the JSON is not).
    ///
    /// ```
    /// use pte_pack::{Manifest, ManifestFormat, Verbatim};
    /// let m = Manifest::new(ManifestFormat::Pte);
    /// let why = Verbatim::of_dir(std::path::Path::new("."), &m, &Default::default())?.unwrap_err();
    /// assert!(why.contains("no stored layout"));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn of_dir(dir: &Path, manifest: &Manifest, options: &PackOptions) -> Result<std::result::Result<Self, Reason>> {
        let Some(stored) = &manifest.stored else {
            return Ok(Err("the folder records no stored layout (extracted by an older pte)".into()));
        };
        let format = manifest.format();
        let program_file = manifest.program_file();
        let json_edited = match (format, &stored.json_sha256) {
            (ManifestFormat::Ptn, _) => false,
            (_, None) => true,
            (_, Some(want)) => {
                let (path, meta) = checked(dir, program_file, options)?;
                sha_of_file(&path, FileId::from_metadata(&meta))? != *want
            }
        };
        // each file the pieces or the entries name, checked once
        let mut overlays = vec![];
        // what each file was when checked: a file swapped in before it is read is refused
        let mut ids = HashMap::new();
        let mut seen = std::collections::BTreeSet::new();
        let mut reason: Option<Reason> = None;
        let mut stored_binary_edited = None;
        for e in &manifest.entries {
            if !seen.insert(e.file.as_str()) {
                continue;
            }
            if e.kind == EntryKind::Flatbuffer && !path_in(dir, &e.file)?.exists() {
                return Ok(Err(format!("{} was removed: the program is encoded from {program_file}", e.file)));
            }
            let (path, meta) = checked(dir, &e.file, options)?;
            ids.insert(path.clone(), FileId::from_metadata(&meta));
            let Some(want) = &e.sha256 else {
                reason.get_or_insert_with(|| format!("{}: the manifest records no digest", e.file));
                continue;
            };
            if meta.len() == e.size && sha_of_file(&path, FileId::from_metadata(&meta))? == *want {
                continue;
            }
            if matches!(e.kind, EntryKind::Flatbuffer | EntryKind::Filler) {
                stored_binary_edited = Some(e.file.clone());
                continue;
            }
            if meta.len() != e.size {
                reason.get_or_insert_with(|| format!("{} changed size ({} bytes, was {})", e.file, meta.len(), e.size));
            } else if format == ManifestFormat::Ptn {
                reason.get_or_insert_with(|| format!("{} was edited (a package's checksums change)", e.file));
            } else if let Some(at) = e.at {
                overlays.push(Overlay { at, len: e.size, path, file: e.file.clone() });
            } else {
                reason
                    .get_or_insert_with(|| format!("{} was edited and the manifest does not say where it sat", e.file));
            }
        }
        if let Some(f) = stored_binary_edited {
            if json_edited {
                return Ok(Err(format!("{program_file} was edited: the program is encoded again from it")));
            }
            return Err(bad(format!(
                "{f} was edited: it is the stored copy of the source, used while {program_file} is unedited; edit {program_file} instead (or delete {f} to encode the program from {program_file})"
            )));
        }
        if json_edited {
            return Ok(Err(format!("{program_file} was edited: the program is encoded again from it")));
        }
        if let Some(r) = reason {
            return Ok(Err(r));
        }
        if format != ManifestFormat::Ptn && options.relayout {
            return Ok(Err("layout options were given".into()));
        }
        let plan = plan(dir, stored, options, &mut ids)?;
        let edited = overlays.iter().map(|o| o.file.clone()).collect();
        let plan = match overlay(plan, overlays) {
            Ok(p) => p,
            Err(r) => return Ok(Err(r)),
        };
        let plan = plan
            .into_iter()
            .filter(|s| s.len > 0)
            .map(|s| match s.source {
                Source::File(p, at) => (s.len, p, at),
                Source::Zeros => (s.len, PathBuf::new(), 0),
            })
            .collect();
        Ok(Ok(Verbatim { size: stored.size, plan, format, edited, ids }))
    }

    /// Writes the file to `w`, reading the folder's files as it goes;
    /// returns the bytes written.
    pub(crate) fn write_to(&self, mut w: impl Write) -> Result<u64> {
        let mut open: Option<(&Path, File)> = None;
        let zeros = [0u8; 4096];
        let mut total = 0u64;
        for (len, path, at) in &self.plan {
            if path.as_os_str().is_empty() {
                let mut left = *len;
                while left > 0 {
                    let n = left.min(zeros.len() as u64);
                    w.write_all(zeros.get(..n as usize).unwrap_or_default())?;
                    left = left.saturating_sub(n);
                }
            } else {
                let reuse = open.as_ref().is_some_and(|(p, _)| *p == path.as_path());
                if !reuse {
                    let id =
                        self.ids.get(path).copied().ok_or_else(|| bad(format!("{}: never checked", path.display())))?;
                    let f = pte_core::folder::open_checked(path, id)?;
                    open = Some((path.as_path(), f));
                }
                let Some((_, f)) = open.as_mut() else { continue };
                f.seek(SeekFrom::Start(*at)).map_err(|e| Error::io("reading", path, e))?;
                let copied = std::io::copy(&mut f.take(*len), &mut w)?;
                if copied != *len {
                    return Err(Error::new(
                        ErrorKind::Io,
                        format!(
                            "{}: shorter than when the folder was checked (changed while packing?)",
                            path.display()
                        ),
                    ));
                }
            }
            total = total.saturating_add(*len);
        }
        w.flush()?;
        Ok(total)
    }
}

/// The spans the pieces describe, every file checked to hold its range.
fn plan(dir: &Path, stored: &Stored, options: &PackOptions, ids: &mut HashMap<PathBuf, FileId>) -> Result<Vec<Span>> {
    let mut spans = Vec::with_capacity(stored.pieces.len().min(1 << 20));
    let mut total = 0u64;
    let filler = match &stored.filler {
        Some(name) => Some(checked(dir, name, options)?),
        None => None,
    };
    if let Some((path, meta)) = &filler {
        ids.insert(path.clone(), FileId::from_metadata(meta));
    }
    let mut sizes = std::collections::BTreeMap::new();
    for p in &stored.pieces {
        let span = match p {
            Piece::File { file, from, len } => {
                if !sizes.contains_key(file.as_str()) {
                    let (path, meta) = checked(dir, file, options)?;
                    ids.insert(path.clone(), FileId::from_metadata(&meta));
                    sizes.insert(file.as_str(), (path, meta.len()));
                }
                let Some((path, size)) = sizes.get(file.as_str()) else { continue };
                if from.checked_add(*len).is_none_or(|end| end > *size) {
                    return Err(bad(format!("{file}: shorter than the stored layout says ({size} bytes)")));
                }
                Span { len: *len, source: Source::File(path.clone(), *from) }
            }
            Piece::Zeros { zeros } => Span { len: *zeros, source: Source::Zeros },
            Piece::Filler { filler: from, len } => {
                let Some((path, meta)) = &filler else {
                    return Err(bad("the stored layout uses filler bytes but names no filler file"));
                };
                if from.checked_add(*len).is_none_or(|end| end > meta.len()) {
                    return Err(bad(format!("{}: shorter than the stored layout says", path.display())));
                }
                Span { len: *len, source: Source::File(path.clone(), *from) }
            }
        };
        total = total.checked_add(span.len).ok_or_else(|| bad("the stored pieces overflow"))?;
        spans.push(span);
    }
    if total != stored.size {
        return Err(bad(format!("the stored pieces add up to {total} bytes, not the recorded size {}", stored.size)));
    }
    Ok(spans)
}

/// The spans with each edited blob's bytes in place of the source's.
fn overlay(plan: Vec<Span>, mut overlays: Vec<Overlay>) -> std::result::Result<Vec<Span>, Reason> {
    if overlays.is_empty() {
        return Ok(plan);
    }
    overlays.sort_by_key(|o| o.at);
    for pair in overlays.windows(2) {
        if let [a, b] = pair
            && a.at.saturating_add(a.len) > b.at
        {
            return Err("edited blobs overlap each other".into());
        }
    }
    let mut out = Vec::with_capacity(plan.len().saturating_add(overlays.len().saturating_mul(2)));
    let mut next = overlays.iter().peekable();
    let mut pos = 0u64;
    for span in plan {
        let end = pos.saturating_add(span.len);
        let mut s = pos;
        while s < end {
            while next.peek().is_some_and(|o| o.at.saturating_add(o.len) <= s) {
                next.next();
            }
            match next.peek() {
                Some(o) if o.at < end => {
                    if o.at > s {
                        out.push(sub(&span, pos, s, o.at));
                        s = o.at;
                    }
                    let stop = o.at.saturating_add(o.len).min(end);
                    out.push(Span {
                        len: stop.saturating_sub(s),
                        source: Source::File(o.path.clone(), s.saturating_sub(o.at)),
                    });
                    s = stop;
                }
                _ => {
                    out.push(sub(&span, pos, s, end));
                    s = end;
                }
            }
        }
        pos = end;
    }
    Ok(out)
}

/// The part `from..to` (output offsets) of `span`, which starts at `start`.
fn sub(span: &Span, start: u64, from: u64, to: u64) -> Span {
    let skip = from.saturating_sub(start);
    let source = match &span.source {
        Source::File(p, at) => Source::File(p.clone(), at.saturating_add(skip)),
        Source::Zeros => Source::Zeros,
    };
    Span { len: to.saturating_sub(from), source }
}
