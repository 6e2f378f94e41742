//! `pte dump` of every kind: the stored program (or data file's table,
//! package's native program, bundle) as JSON, read once and then written
//! to any writer, so a frontend only picks where it goes and how it is laid
//! out.

use std::io::Write;

use pte_core::{Error, ErrorKind, FileKind};
use pte_schema::bundled::BundledProgram;
use pte_schema::ProgramJson;

use crate::Result;

/// A file read for dumping; [`Dump::write`] writes its JSON.
///
/// ```
/// use pte_core::FileKind;
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let mut out = Vec::new();
/// pte::Dump::read(FileKind::Pte, &bytes)?.write(&mut out, true)?;
/// let v: serde_json::Value = serde_json::from_slice(&out)?;
/// assert_eq!(v["execution_plan"][0]["name"], "forward");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Dump<'a>(Form<'a>);

enum Form<'a> {
    /// Streamed from the program in place: a program may hold millions of values.
    Program(ProgramJson<'a>),
    /// Written as it is walked (its cases grow with the file).
    Bundle(BundledProgram<'a>),
    /// A `.ptd`'s table or a package's native program: small, a tree.
    Tree(serde_json::Value),
}

impl std::fmt::Debug for Dump<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match self.0 {
            Form::Program(_) => "program",
            Form::Bundle(_) => "bundle",
            Form::Tree(_) => "tree",
        };
        f.debug_tuple("Dump").field(&form).finish()
    }
}

impl<'a> Dump<'a> {
    /// Reads `bytes` as `kind` for dumping. A program is dumped as stored,
    /// whatever its segments say (only the flatbuffer must verify); a
    /// package needs a sound container, not sound references.
    ///
    /// ```
    /// assert!(pte::Dump::read(pte_core::FileKind::Unknown, b"x").is_err());
    /// ```
    pub fn read(kind: FileKind, bytes: &'a [u8]) -> Result<Dump<'a>> {
        Ok(Dump(match kind {
            FileKind::Pte => {
                let (_, region) = pte_file::program_region(bytes)?;
                Form::Program(ProgramJson::new(region, &Default::default())?)
            }
            FileKind::Ptd => {
                let ptd = pte_file::ptd::PtdFile::from_bytes(bytes)?;
                Form::Tree(pte_schema::ptd::flat_tensor_to_json(&ptd.flat_tensor))
            }
            FileKind::Ptn => {
                let ptn = pte_ptn::PtnFile::from_bytes_unchecked(bytes)?;
                let program = ptn.native_program(&Default::default())?;
                Form::Tree(pte_schema::native::native_program_to_json(&program))
            }
            FileKind::Bpte => Form::Bundle(pte_schema::bundled::decode_bundled_program(bytes, &Default::default())?),
            // Unknown's phrase is "not an ExecuTorch file"
            other => return Err(Error::new(ErrorKind::Unsupported, other.to_string())),
        }))
    }

    /// Writes the JSON to `w` (no final newline): indented when `pretty`,
    /// else on one line. A bundle is always indented (its writer has one
    /// layout).
    ///
    /// ```
    /// use pte_core::FileKind;
    /// let bytes = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
    /// let mut out = Vec::new();
    /// pte::Dump::read(FileKind::Ptd, &bytes)?.write(&mut out, false)?;
    /// assert!(!out.contains(&b'\n'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(&self, mut w: impl Write, pretty: bool) -> std::io::Result<()> {
        match &self.0 {
            Form::Program(json) if pretty => json.write_pretty(w),
            Form::Program(json) => json.write_compact(w),
            Form::Bundle(b) => {
                pte_schema::bundled::write_bundled_program_json(b, &mut w).map_err(std::io::Error::other)
            }
            Form::Tree(v) if pretty => serde_json::to_writer_pretty(&mut w, v).map_err(std::io::Error::from),
            Form::Tree(v) => serde_json::to_writer(&mut w, v).map_err(std::io::Error::from),
        }
    }
}
