//! Writing: validation first, then the zip streamed member by member with
//! fixed timestamps so the bytes depend only on the package.

use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::Path;

use pte_schema::{Error, ErrorKind, Result};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::aliases::aliases_json;
use crate::members::check_member_name;
use crate::program::check_program;
use crate::read::check_alias_map;
use crate::safetensors_io::{encoded_len, header_bytes, write_safetensors};
use crate::{PtnFile, PtnLimits, ALIASES_MEMBER, METADATA_KEY, PROGRAM_MEMBER, SAFETENSORS_MEMBER};

/// Tensor data in `program.safetensors` starts 8-aligned within the member
/// (the header is padded to 8), so aligning the member to 64 lets a memory
/// map hand out aligned tensors.
const SAFETENSORS_ALIGNMENT: u16 = 64;
/// Above this, an entry needs zip64 fields.
const ZIP64_THRESHOLD: u64 = 0xFFFF_FFFF;

fn io(what: &str, e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Io, format!("{what}: {e}"))
}

fn options(len: u64) -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .last_modified_time(DateTime::default())
        .unix_permissions(0o644)
        .large_file(len >= ZIP64_THRESHOLD)
}

impl PtnFile<'_> {
    /// Checks everything a reader with default [`PtnLimits`] would check, so
    /// a package that passes is one [`PtnFile::from_bytes`] accepts.
    ///
    /// ```
    /// let mut p = pte_ptn::PtnFile::default();
    /// p.aliases.insert("b".into(), "a".into());
    /// assert_eq!(p.validate().unwrap_err().kind(), pte_ptn::ErrorKind::InvalidUse);
    /// ```
    pub fn validate(&self) -> Result<()> {
        let limits = PtnLimits::default();
        let invalid = |e: Error| {
            let mut out = Error::new(ErrorKind::InvalidUse, e.message().to_string()).at_path(e.path().to_string());
            if let Some(o) = e.offset() {
                out = out.at_offset(o);
            }
            out
        };
        // the members the writer will emit: program, then safetensors and
        // aliases only when they hold something (a package read at the limit
        // must write back)
        let written = 1usize
            .saturating_add(usize::from(!self.tensors.is_empty() || self.metadata.is_some()))
            .saturating_add(usize::from(!self.aliases.is_empty()));
        let count = self.members.len().saturating_add(written);
        if count > limits.max_members || self.tensors.len() > limits.max_tensors {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                "too many members or tensors for a reader's default limits",
            ));
        }
        for key in self.tensors.keys().chain(self.aliases.keys()).chain(self.aliases.values()) {
            if key == METADATA_KEY {
                return Err(Error::new(ErrorKind::InvalidUse, format!("{METADATA_KEY:?} cannot be a data key")));
            }
            if key.len() > limits.max_key_len {
                return Err(Error::new(ErrorKind::LimitExceeded, "a data key is over the reader's length limit"));
            }
        }
        let mut names = std::collections::BTreeSet::from([PROGRAM_MEMBER, SAFETENSORS_MEMBER, ALIASES_MEMBER]);
        for m in &self.members {
            check_member_name(&m.name).map_err(invalid)?;
            if m.name.len() > limits.max_member_name {
                return Err(Error::new(ErrorKind::LimitExceeded, "a member name is over the reader's length limit"));
            }
            if !names.insert(m.name.as_str()) {
                return Err(Error::new(
                    ErrorKind::InvalidUse,
                    format!("member {:?} is listed twice or clashes with a fixed member", m.name),
                ));
            }
        }
        check_alias_map(&self.tensors, &self.aliases, ErrorKind::InvalidUse)?;
        header_bytes(&self.tensors, self.metadata.as_ref(), &limits)?;
        check_program(self, &limits.flatbuffer).map_err(invalid)?;
        Ok(())
    }

    /// Writes the package to a seekable sink (zip local headers carry each
    /// member's CRC and size, which are patched in after its data), streaming
    /// the constants a tensor at a time, flushes it and returns the number of
    /// bytes written. Nothing is written when
    /// [`validate`](PtnFile::validate) fails. An open [`File`] is such a sink
    /// (wrap it in a [`BufWriter`]): that is how a caller that owns the save,
    /// such as an in-place edit under a [`pte_core::EditLock`], writes one.
    ///
    /// Members: `program.ptg`, then `program.safetensors` when there are
    /// tensors (or metadata), then `aliases.json` when there are aliases, then
    /// the other members in order; all stored, dated 1980-01-01.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// let mut out = std::io::Cursor::new(Vec::new());
    /// let n = ptn.write_to(&mut out)?;
    /// assert_eq!(n, out.get_ref().len() as u64);
    /// assert_eq!(out.into_inner(), ptn.to_bytes()?);
    /// # Ok::<(), pte_ptn::Error>(())
    /// ```
    pub fn write_to<W: Write + Seek>(&self, sink: &mut W) -> Result<u64> {
        self.validate()?;
        let start = sink.stream_position().map_err(|e| io("writing", e))?;
        let mut zip = ZipWriter::new(&mut *sink);
        match self.write_members(&mut zip) {
            Ok(()) => zip.finish().map(drop).map_err(|e| io("finishing the zip", e))?,
            Err(e) => {
                // Dropping the writer would try to finish the archive into a
                // sink that just failed (and report that on stderr); the sink
                // is only borrowed, so forgetting leaks just the member list.
                std::mem::forget(zip);
                return Err(e);
            }
        }
        sink.flush().map_err(|e| io("writing", e))?;
        let end = sink.stream_position().map_err(|e| io("writing", e))?;
        Ok(end.saturating_sub(start))
    }

    fn write_members<W: Write + Seek>(&self, zip: &mut ZipWriter<W>) -> Result<()> {
        let start = |zip: &mut ZipWriter<W>, name: &str, opts: SimpleFileOptions| {
            zip.start_file(name, opts).map_err(|e| io(&format!("starting {name}"), e))
        };
        start(zip, PROGRAM_MEMBER, options(self.program.len() as u64))?;
        zip.write_all(&self.program).map_err(|e| io(PROGRAM_MEMBER, e))?;
        if !self.tensors.is_empty() || self.metadata.is_some() {
            let header = header_bytes(&self.tensors, self.metadata.as_ref(), &PtnLimits::default())?;
            let len = encoded_len(&header, &self.tensors);
            start(zip, SAFETENSORS_MEMBER, options(len).with_alignment(SAFETENSORS_ALIGNMENT))?;
            write_safetensors(zip, &header, &self.tensors).map_err(|e| io(SAFETENSORS_MEMBER, e))?;
        }
        if !self.aliases.is_empty() {
            let text = aliases_json(&self.aliases);
            start(zip, ALIASES_MEMBER, options(text.len() as u64))?;
            zip.write_all(text.as_bytes()).map_err(|e| io(ALIASES_MEMBER, e))?;
        }
        for m in &self.members {
            start(zip, &m.name, options(m.data.len() as u64))?;
            zip.write_all(&m.data).map_err(|e| io(&m.name, e))?;
        }
        Ok(())
    }

    /// The package as bytes.
    ///
    /// ```
    /// let p = pte_ptn::PtnFile { program: std::borrow::Cow::Borrowed(b"x"), ..Default::default() };
    /// assert!(p.to_bytes().is_err()); // not an NPTG program
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = std::io::Cursor::new(Vec::new());
        self.write_to(&mut out)?;
        Ok(out.into_inner())
    }

    /// Saves to `path` atomically: a temporary file beside it is written,
    /// fsynced and renamed over it, so an existing package survives any
    /// failure; returns the number of bytes written. Saving over the package
    /// this one borrows from is safe: the old file's data stays readable
    /// until its last map is dropped.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
    /// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
    /// let dir = tempfile::tempdir()?;
    /// let n = ptn.save(dir.path().join("copy.ptn"))?;
    /// assert_eq!(std::fs::read(dir.path().join("copy.ptn"))?, ptn.to_bytes()?);
    /// assert_eq!(n, ptn.to_bytes()?.len() as u64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<u64> {
        self.save_through(path.as_ref(), |w| Box::new(w))
    }

    /// [`save`](PtnFile::save) with the sink wrapped (for fault injection in tests).
    pub(crate) fn save_through(
        &self,
        path: &Path,
        wrap: impl for<'f> FnOnce(BufWriter<&'f File>) -> Box<dyn WriteSeek + 'f>,
    ) -> Result<u64> {
        self.validate()?;
        pte_core::write_atomically_file(path, |file| {
            let mut sink = wrap(BufWriter::with_capacity(1 << 20, file));
            self.write_to(&mut sink)
        })
    }
}

/// The sink [`PtnFile::save_through`] writes into.
pub(crate) trait WriteSeek: Write + Seek {}
impl<T: Write + Seek> WriteSeek for T {}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::arithmetic_side_effects)]
mod tests {
    use std::io::{self, Seek, SeekFrom, Write};

    use crate::PtnFile;

    /// A sink that fails once `budget` bytes have been written, like a full
    /// disk or a killed process.
    struct FailAfter<W> {
        inner: W,
        budget: u64,
    }

    impl<W: Write> Write for FailAfter<W> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.budget == 0 {
                return Err(io::Error::other("injected failure"));
            }
            let n = buf.len().min(usize::try_from(self.budget).unwrap_or(usize::MAX));
            let n = self.inner.write(&buf[..n])?;
            self.budget -= n as u64;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.inner.flush()
        }
    }

    impl<W: Seek> Seek for FailAfter<W> {
        fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
            self.inner.seek(pos)
        }
    }

    #[test]
    fn a_save_failing_at_any_byte_leaves_the_old_package() {
        let corpus = pte_testkit::corpus("native_ptn/model.ptn");
        let bytes = std::fs::read(corpus).unwrap();
        let old = PtnFile::from_bytes(&bytes).unwrap();
        let mut new = old.clone();
        new.members.push(crate::Member { name: "notes/readme.txt".into(), data: (&b"a new member"[..]).into() });
        let new_bytes = new.to_bytes().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.ptn");
        std::fs::write(&path, &bytes).unwrap();
        let len = new_bytes.len() as u64;
        let mut failures = 0;
        // The writer patches local headers after seeking back, so it writes a
        // little more than the file's length: budgets past `len` can fail too.
        for budget in (0..len + 512).step_by(61).chain([len - 1]) {
            let r = new.save_through(&path, |w| Box::new(FailAfter { inner: w, budget }));
            let now = std::fs::read(&path).unwrap();
            match r {
                Err(_) => {
                    failures += 1;
                    assert_eq!(now, bytes, "budget {budget}");
                    std::fs::write(&path, &bytes).unwrap();
                }
                Ok(_) => {
                    assert!(budget >= len, "a save with {budget} of {len} bytes succeeded");
                    assert_eq!(now, new_bytes, "budget {budget}");
                    std::fs::write(&path, &bytes).unwrap();
                }
            }
            let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
            assert_eq!(leftovers, 1, "a temporary file survived budget {budget}");
        }
        assert!(failures > 100);
        new.save_through(&path, |w| Box::new(FailAfter { inner: w, budget: u64::MAX })).unwrap();
        let saved = std::fs::read(&path).unwrap();
        assert_eq!(saved, new_bytes);
        assert_eq!(PtnFile::from_bytes(&saved).unwrap(), new);
    }
}
