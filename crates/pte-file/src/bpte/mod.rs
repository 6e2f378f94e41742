//! `.bpte` bundled programs: a whole `.pte` file embedded byte for byte,
//! plus recorded test cases per method.

use crate::ReadOptions;
use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

use pte_schema::bundled::{
    decode_bundled_program, encode_bundled_program, BundledProgram, BundledView, Side, TestSuite,
    BUNDLED_PROGRAM_VERSION,
};
use pte_schema::{Bytes, Error, ErrorKind, Result};

use crate::{PteFile, WriteOptions};

/// A bundled program: the embedded `.pte` (kept as its exact bytes, read as
/// a [`PteFile`] on demand, zero-copy) and the test suites.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let b = pte_file::bpte::BundledFile::from_bytes(&bytes)?;
/// assert_eq!(b.pte()?.program.execution_plan.as_ref().map(Vec::len), Some(1));
/// assert_eq!(b.suites().len(), 1);
/// let again = b.to_bytes()?;
/// assert_eq!(pte_file::bpte::BundledFile::from_bytes(&again)?, b);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BundledFile<'a> {
    /// Bundled-program schema version.
    pub version: u32,
    /// The embedded `.pte` file, byte for byte.
    pub program: Bytes<'a>,
    /// The test suites (absent and empty are kept apart).
    pub method_test_suites: Option<Vec<TestSuite<'a>>>,
}

fn no_program() -> Error {
    Error::new(ErrorKind::Malformed, "the bundle has no embedded program").at_path("program")
}

impl<'a> BundledFile<'a> {
    /// Reads a bundled program under default limits; the embedded program
    /// must itself read as a `.pte` (errors inside it have a `program:` path).
    ///
    /// ```
    /// let e = pte_file::bpte::BundledFile::from_bytes(b"\x08\0\0\0BP07").unwrap_err();
    /// assert_eq!(e.kind(), pte_file::ErrorKind::Malformed);
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self> {
        Self::from_bytes_with(bytes, &ReadOptions::default())
    }

    /// [`from_bytes`](BundledFile::from_bytes) with explicit read options, the
    /// same type every reader of this crate takes.
    ///
    /// ```
    /// assert!(pte_file::bpte::BundledFile::from_bytes_with(&[], &pte_file::ReadOptions::default()).is_err());
    /// ```
    pub fn from_bytes_with(bytes: &'a [u8], options: &ReadOptions) -> Result<Self> {
        let b = Self::from_bundled(decode_bundled_program(bytes, &options.limits)?)?;
        b.pte()?;
        Ok(b)
    }

    /// Fails exactly where [`from_bytes`](BundledFile::from_bytes) fails,
    /// with the same error, without decoding: the cases are checked one
    /// value at a time ([`BundledView`]) and the program read in place
    /// ([`PteView`](crate::view::PteView)), so a bundle of any size costs
    /// next to no memory.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// assert!(pte_file::bpte::BundledFile::check(&bytes).is_ok());
    /// let e = pte_file::bpte::BundledFile::check(b"\x08\0\0\0BP07").unwrap_err();
    /// assert_eq!(e.kind(), pte_file::ErrorKind::Malformed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check(bytes: &[u8]) -> Result<()> {
        let b = BundledView::new(bytes, &ReadOptions::default().limits)?;
        read_every_value(&b)?;
        let program = b.program().ok_or_else(no_program)?;
        crate::view::PteView::read(program, crate::view::SegmentTable::Whole).map(drop).map_err(|e| e.within("program"))
    }

    /// The embedded program of `bytes`, after the checks
    /// [`from_bytes`](BundledFile::from_bytes) makes (the same error where
    /// it fails), without decoding the cases ([`check`](BundledFile::check)).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let program = pte_file::bpte::BundledFile::program_in(&bytes)?;
    /// assert_eq!(program, &pte_file::bpte::BundledFile::from_bytes(&bytes)?.program[..]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn program_in(bytes: &[u8]) -> Result<&[u8]> {
        Self::check(bytes)?;
        BundledView::new(bytes, &ReadOptions::default().limits)?.program().ok_or_else(no_program)
    }

    /// Wraps a decoded bundle; the program must be present.
    fn from_bundled(b: BundledProgram<'a>) -> Result<Self> {
        let program = b.program.ok_or_else(no_program)?;
        Ok(BundledFile { version: b.version, program, method_test_suites: b.method_test_suites })
    }

    /// A bundle of an already-serialized program with the current version.
    ///
    /// ```
    /// let pte = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let b = pte_file::bpte::BundledFile::new(pte, vec![]);
    /// assert_eq!(b.version, 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(program: impl Into<Bytes<'a>>, suites: Vec<TestSuite<'a>>) -> Self {
        BundledFile { version: BUNDLED_PROGRAM_VERSION, program: program.into(), method_test_suites: Some(suites) }
    }

    /// A bundle of a program aggregate, serialized with `options`.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let b = pte_file::bpte::BundledFile::from_pte(&pte, &Default::default(), vec![])?;
    /// assert_eq!(b.pte()?, pte);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn from_pte(pte: &PteFile<'_>, options: &WriteOptions, suites: Vec<TestSuite<'a>>) -> Result<Self> {
        Ok(Self::new(pte.to_bytes(options)?, suites))
    }

    /// The embedded program, read zero-copy from the bundle's bytes.
    ///
    /// ```
    /// let b = pte_file::bpte::BundledFile::new(&b"not a program"[..], vec![]);
    /// assert!(b.pte().unwrap_err().path().starts_with("program"));
    /// ```
    pub fn pte(&self) -> Result<PteFile<'_>> {
        PteFile::from_bytes(&self.program).map_err(|e| e.within("program"))
    }

    /// The suites, or an empty slice when absent.
    ///
    /// ```
    /// assert!(pte_file::bpte::BundledFile::default().suites().is_empty());
    /// ```
    pub fn suites(&self) -> &[TestSuite<'a>] {
        self.method_test_suites.as_deref().unwrap_or(&[])
    }

    /// The schema-level model of this bundle (borrowing its bytes).
    ///
    /// ```
    /// let b = pte_file::bpte::BundledFile::default();
    /// assert!(b.to_bundled().program.is_some());
    /// ```
    pub fn to_bundled(&self) -> BundledProgram<'_> {
        BundledProgram {
            version: self.version,
            method_test_suites: self.method_test_suites.clone(),
            program: Some(Cow::Borrowed(&self.program)),
        }
    }

    /// The bundle as bytes: the program's data 32-byte aligned and every
    /// tensor's data 16-byte aligned from the start. Deterministic.
    ///
    /// ```
    /// let b = pte_file::bpte::BundledFile::new(vec![0u8; 8], vec![]);
    /// assert_eq!(&b.to_bytes()?[4..8], b"BP08");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        encode_bundled_program(&self.to_bundled())
    }

    /// Writes the bundle to `w`, returning the bytes written. The flatbuffer
    /// must be built whole (the program sits inside it), then is written once.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let n = pte_file::bpte::BundledFile::new(vec![0u8; 8], vec![]).write_to(&mut out)?;
    /// assert_eq!(n as usize, out.len());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, mut w: impl Write) -> Result<u64> {
        let bytes = self.to_bytes()?;
        w.write_all(&bytes)?;
        Ok(bytes.len() as u64)
    }

    /// Saves atomically (temporary file, fsync, rename).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let b = pte_file::bpte::BundledFile::new(vec![0u8; 8], vec![]);
    /// b.save(dir.path().join("x.bpte"))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<u64> {
        let bytes = self.to_bytes()?;
        pte_core::write_atomically(path.as_ref(), |w| {
            w.write_all(&bytes)?;
            Ok(bytes.len() as u64)
        })
    }

    /// Copies every borrowed byte.
    ///
    /// ```
    /// let b: pte_file::bpte::BundledFile<'static> = pte_file::bpte::BundledFile::default().into_owned();
    /// assert!(b.program.is_empty());
    /// ```
    pub fn into_owned(self) -> BundledFile<'static> {
        let b = BundledProgram { version: self.version, method_test_suites: self.method_test_suites, program: None }
            .into_owned();
        BundledFile {
            version: b.version,
            program: Cow::Owned(self.program.into_owned()),
            method_test_suites: b.method_test_suites,
        }
    }
}

/// Reads every value of `b` once, failing where
/// [`decode_bundled_program`] fails, with the same error.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let bundle = pte_schema::bundled::BundledView::new(&bytes, &Default::default())?;
/// pte_file::bpte::read_every_value(&bundle)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_every_value(b: &BundledView<'_>) -> Result<()> {
    for case in b.suites().flat_map(|s| s.cases()) {
        for side in [Side::Inputs, Side::ExpectedOutputs] {
            for v in case.values(side).into_iter().flatten() {
                v?;
            }
        }
    }
    Ok(())
}
