//! The output side of an extraction: each distinct byte range written once
//! (entries naming the same range share its file), no sync per file but one
//! for the whole folder before the manifest is committed by a rename, a
//! bound on the number of files, and the output-folder policy of
//! `pte_core::folder` (no writing into a folder that already holds
//! something unless asked, and never through a link or special file in it).

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use pte_core::folder::OutputFolder;
use pte_core::{Error, ErrorKind, Result};
use sha2::{Digest, Sha256};

use crate::{sha256_hex, Entry, EntryKind, Manifest, ManifestWriter, StoredBuilder, MANIFEST};

use super::at;

/// Where the manifest is streamed before its rename commits the extraction.
const MANIFEST_PARTIAL: &str = ".manifest.json.partial";

/// The file holding the source's bytes no blob holds.
const FILLER: &str = "filler.bin";

/// A byte range of the input, by address: entries borrowing the same range
/// share a file, whatever their kind.
fn region(bytes: &[u8]) -> (usize, usize) {
    (bytes.as_ptr() as usize, bytes.len())
}

/// Counts the distinct ranges a walk over the input would write.
#[derive(Default)]
pub(crate) struct Count(HashSet<(usize, usize)>);

impl Count {
    pub(crate) fn add(&mut self, bytes: &[u8]) {
        self.0.insert(region(bytes));
    }

    /// Counts a range that has no address in the input (an inline
    /// constant, named by its index): distinct from every other.
    pub(crate) fn add_key(&mut self, key: usize, len: usize) {
        self.0.insert((usize::MAX.saturating_sub(key), len));
    }

    /// More distinct files than `max` already (the manifest included).
    pub(crate) fn over(&self, max: usize) -> bool {
        self.0.len().saturating_add(1) > max
    }

    /// Refuses more distinct files than `max` before anything is written.
    pub(crate) fn check(&self, max: usize) -> Result<()> {
        let n = self.0.len().saturating_add(1);
        if n > max {
            return Err(too_many(&n.to_string(), max));
        }
        Ok(())
    }
}

/// The refusal of an extraction past `max` files (`n` of them, or "more than max").
pub(crate) fn too_many(n: &str, max: usize) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!(
            "extracting would write {n} files (manifest included), over the limit of {max} (--max-files raises it)"
        ),
    )
}

/// A writer that passes bytes on and digests them (SHA-256) on the way.
pub(crate) struct Digesting<W> {
    inner: W,
    hasher: Sha256,
}

impl<W: Write> Digesting<W> {
    pub(crate) fn new(inner: W) -> Self {
        Digesting { inner, hasher: Sha256::new() }
    }

    /// The digest of everything written, as [`sha256_hex`] spells it.
    pub(crate) fn digest(self) -> String {
        self.hasher.finalize().iter().map(|x| format!("{x:02x}")).collect()
    }
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(buf.get(..n).unwrap_or_default());
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// An extraction in progress.
pub(crate) struct Extraction<'d, 's> {
    dir: &'d Path,
    folder: OutputFolder,
    manifest: ManifestWriter<BufWriter<File>>,
    written: HashMap<(usize, usize), (String, String)>,
    files: Vec<File>,
    entries: usize,
    stored: StoredBuilder<'s>,
}

impl<'d, 's> Extraction<'d, 's> {
    /// The output folder, for the files written beside the blobs.
    pub(crate) fn folder(&self) -> &OutputFolder {
        &self.folder
    }

    /// Opens the output (the folder policy of [`OutputFolder`]: empty
    /// unless `force`, nothing in it written through): `head` holds the
    /// manifest's fields before `entries`; `source` is the file being
    /// extracted, whose stored layout the manifest records at the end.
    pub(crate) fn begin(dir: &'d Path, force: bool, head: &Manifest, source: &'s [u8]) -> Result<Self> {
        let folder = OutputFolder::open(dir, force)?;
        let path = dir.join(MANIFEST_PARTIAL);
        let file = folder.create(MANIFEST_PARTIAL)?;
        let manifest = ManifestWriter::begin(BufWriter::with_capacity(1 << 16, file), head).map_err(at(&path))?;
        Ok(Extraction {
            dir,
            folder,
            manifest,
            written: HashMap::new(),
            files: vec![],
            entries: 0,
            stored: StoredBuilder::new(source),
        })
    }

    /// Records one entry; its bytes go to the entry's file unless the same
    /// range was already written, in which case the entry names that file.
    pub(crate) fn put(&mut self, mut entry: Entry, bytes: &[u8]) -> Result<()> {
        let key = region(bytes);
        if !self.written.contains_key(&key) {
            let path = self.dir.join(&entry.file);
            let mut f = self.folder.create(&entry.file)?;
            f.write_all(bytes).map_err(|e| at(&path)(e.into()))?;
            if cfg!(not(target_os = "linux")) {
                self.files.push(f);
            }
            self.written.insert(key, (entry.file.clone(), sha256_hex(bytes)));
            if let Some(at) = self.stored.offset_of(bytes) {
                self.stored.add(at, bytes.len() as u64, &entry.file);
            }
        }
        entry.at = self.stored.offset_of(bytes);
        let Some((file, digest)) = self.written.get(&key) else { return Ok(()) };
        entry.file.clone_from(file);
        entry.size = bytes.len() as u64;
        entry.sha256 = Some(digest.clone());
        self.manifest.entry(&entry).map_err(at(&self.dir.join(MANIFEST_PARTIAL)))?;
        self.entries = self.entries.saturating_add(1);
        Ok(())
    }

    /// Writes the filler file and the stored layout (`json_sha256`: the
    /// digest of the program JSON written), syncs everything once, then
    /// commits the manifest by renaming it. Returns (entries, files written).
    pub(crate) fn finish(mut self, json_sha256: Option<String>) -> Result<(usize, usize)> {
        let partial = self.dir.join(MANIFEST_PARTIAL);
        let (stored, filler) = self.stored.finish(json_sha256, FILLER);
        let mut written = self.written.len();
        if !filler.is_empty() {
            let path = self.dir.join(FILLER);
            let io = |e: std::io::Error| at(&path)(e.into());
            let file = self.folder.create(FILLER)?;
            let mut f = Digesting::new(BufWriter::new(&file));
            let mut size = 0u64;
            for b in &filler {
                f.write_all(b).map_err(io)?;
                size = size.saturating_add(b.len() as u64);
            }
            f.flush().map_err(io)?;
            if cfg!(not(target_os = "linux")) {
                self.files.push(file.try_clone().map_err(io)?);
            }
            let mut e = Entry::new(FILLER, size, EntryKind::Filler);
            e.sha256 = Some(f.digest());
            self.manifest.entry(&e).map_err(at(&partial))?;
            self.entries = self.entries.saturating_add(1);
            written = written.saturating_add(1);
        }
        let manifest = self.manifest.finish_stored(&stored).map_err(at(&partial))?;
        let manifest = manifest.into_inner().map_err(|e| at(&partial)(e.into_error().into()))?;
        let dir_io = |e: std::io::Error| at(self.dir)(e.into());
        sync_all_written(self.dir, &self.files, &manifest).map_err(dir_io)?;
        // a manifest being replaced keeps its mode, as every save does
        self.folder.commit(MANIFEST_PARTIAL, MANIFEST)?;
        File::open(self.dir).and_then(|d| d.sync_all()).map_err(dir_io)?;
        Ok((self.entries, written))
    }
}

/// One filesystem-wide sync where the platform has it; elsewhere each file.
#[cfg(target_os = "linux")]
fn sync_all_written(dir: &Path, _files: &[File], _manifest: &File) -> std::io::Result<()> {
    let d = File::open(dir)?;
    rustix::fs::syncfs(&d).map_err(std::io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn sync_all_written(_dir: &Path, files: &[File], manifest: &File) -> std::io::Result<()> {
    for f in files {
        f.sync_all()?;
    }
    manifest.sync_all()
}
