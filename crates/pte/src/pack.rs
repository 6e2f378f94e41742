//! Extracting a file into a folder of its blobs, and packing such a folder
//! (of any kind) back into a file: `.pte`, `.ptd` and `.ptn`.

use std::path::Path;

use pte_core::{Error, ErrorKind, FileKind, Result};
use pte_pack::{
    read_dir_from, read_folder_file, read_manifest, EntryKind, ExtractTarget, Extracted, Manifest, ManifestFormat,
    PackOptions, Packed, Verbatim,
};
use pte_ptn::{Dtype, Member, PtnFile, PtnTensor};

use crate::Identity;

/// A folder ready to be written.
///
/// ```
/// let e = pte::pack_dir(std::path::Path::new("no-such-folder"), &Default::default()).unwrap_err();
/// assert_eq!(e.kind(), pte::ErrorKind::Io);
/// ```
#[derive(Debug)]
pub struct PackedDir {
    inner: Inner,
    note: Option<String>,
}

#[derive(Debug)]
enum Inner {
    File(Packed),
    Package(PtnFile<'static>),
}

/// Reads the extract folder `dir` into a file to write.
///
/// An unedited folder gives back its source's bytes, whoever wrote the
/// source ([`PackedDir::note`] is `None`). An edited one is encoded again
/// (a program from its JSON, laid out with the recorded alignments; a
/// package rebuilt from its members) and the note says why. See
/// [`pte_pack::read_dir_with`] for the rules and the checks each
/// file of the folder gets.
///
/// ```no_run
/// // a folder written by `pte extract model.ptn folder`
/// let packed = pte::pack_dir(std::path::Path::new("folder"), &Default::default())?;
/// if let Some(why) = packed.note() {
///     println!("encoded again: {why}");
/// }
/// packed.save("model.ptn")?;
/// # Ok::<(), pte::Error>(())
/// ```
pub fn pack_dir(dir: &Path, options: &PackOptions) -> Result<PackedDir> {
    let manifest = read_manifest(dir, options)?;
    if manifest.format() != ManifestFormat::Ptn {
        let f = read_dir_from(dir, &manifest, options)?;
        return Ok(PackedDir { inner: Inner::File(f.packed), note: f.note });
    }
    match Verbatim::of_dir(dir, &manifest, options)? {
        Ok(v) => Ok(PackedDir { inner: Inner::File(Packed::Verbatim(v)), note: None }),
        Err(why) => {
            let ptn = rebuild_package(dir, &manifest, options)?;
            Ok(PackedDir { inner: Inner::Package(ptn), note: Some(why) })
        }
    }
}

fn bad(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidUse, msg)
}

/// A package from its extracted members: the program, each owner constant
/// with the dtype and shape its entry records, the other members, and the
/// manifest's aliases and metadata.
fn rebuild_package(dir: &Path, manifest: &Manifest, options: &PackOptions) -> Result<PtnFile<'static>> {
    let mut ptn = PtnFile {
        aliases: manifest.aliases.clone().unwrap_or_default(),
        metadata: manifest.metadata.clone(),
        ..Default::default()
    };
    let mut program = None;
    for e in &manifest.entries {
        let at = |err: Error| Error::new(err.kind(), format!("{}: {err}", e.file));
        match &e.kind {
            EntryKind::Program => program = Some(read_folder_file(dir, &e.file, options)?),
            EntryKind::PackageConstant { alias_of: Some(_), .. } => {}
            EntryKind::PackageConstant { key, alias_of: None } => {
                let code = e.dtype.as_deref().ok_or_else(|| bad(format!("{}: the entry has no dtype", e.file)))?;
                let dtype: Dtype = serde_json::from_value(serde_json::Value::String(code.to_string()))
                    .map_err(|_| bad(format!("{}: unknown dtype {code:?}", e.file)))?;
                let shape = e
                    .shape
                    .as_deref()
                    .ok_or_else(|| bad(format!("{}: the entry has no shape", e.file)))?
                    .iter()
                    .map(|&d| u64::try_from(d).map_err(|_| bad(format!("{}: negative dimension {d}", e.file))))
                    .collect::<Result<Vec<u64>>>()?;
                let data = read_folder_file(dir, &e.file, options)?;
                ptn.tensors.insert(key.clone(), PtnTensor::new(dtype, shape, data).map_err(at)?);
            }
            EntryKind::Member { member } => {
                let data = read_folder_file(dir, &e.file, options)?;
                ptn.members.push(Member { name: member.clone(), data: data.into() });
            }
            EntryKind::Filler => {}
            other => return Err(bad(format!("{}: a package folder has no `{}` entry", e.file, other.name()))),
        }
    }
    ptn.program = program.ok_or_else(|| bad("the manifest lists no program member"))?.into();
    Ok(ptn)
}

impl PackedDir {
    /// What the folder packs into.
    ///
    /// ```
    /// # let _ = pte::PackedDir::kind;
    /// ```
    pub fn kind(&self) -> FileKind {
        match &self.inner {
            Inner::Package(_) => FileKind::Ptn,
            Inner::File(Packed::Ptd { .. }) => FileKind::Ptd,
            Inner::File(Packed::Verbatim(v)) => match v.format() {
                ManifestFormat::Pte => FileKind::Pte,
                ManifestFormat::Ptd => FileKind::Ptd,
                ManifestFormat::Ptn => FileKind::Ptn,
            },
            Inner::File(_) => FileKind::Pte,
        }
    }

    /// `None` when the source's bytes are given back as stored; else why
    /// the file is encoded again.
    ///
    /// ```
    /// # let _ = pte::PackedDir::note;
    /// ```
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The blob files edited in place (same size) in a folder kept as
    /// stored: they go back where their bytes sat.
    ///
    /// ```
    /// # let _ = pte::PackedDir::edited;
    /// ```
    pub fn edited(&self) -> &[String] {
        match &self.inner {
            Inner::File(Packed::Verbatim(v)) => v.edited(),
            _ => &[],
        }
    }

    /// The `.pte` or `.ptd` to write, for changing its layout options
    /// (`None` for a package, or a folder kept as stored).
    ///
    /// ```
    /// # let _ = pte::PackedDir::file_mut;
    /// ```
    pub fn file_mut(&mut self) -> Option<&mut Packed> {
        match &mut self.inner {
            Inner::File(Packed::Verbatim(_)) | Inner::Package(_) => None,
            Inner::File(p) => Some(p),
        }
    }

    /// Writes the file to `path` atomically; returns its size.
    ///
    /// ```
    /// fn write(packed: &pte::PackedDir) -> pte::Result<u64> {
    ///     packed.save("model.pte")
    /// }
    /// # let _ = write;
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<u64> {
        match &self.inner {
            Inner::File(p) => p.save(path),
            Inner::Package(p) => p.save(path),
        }
    }

    /// The file's bytes.
    ///
    /// ```
    /// # let _ = pte::PackedDir::to_bytes;
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        match &self.inner {
            Inner::File(p) => p.to_bytes(),
            Inner::Package(p) => p.to_bytes(),
        }
    }
}

/// Extracts the file in `bytes` (read from `source`, which the manifest
/// records and messages name) into the folder `target` says: every stored
/// blob of a `.pte`, `.ptd` or `.ptn` as its own file, with the manifest
/// that [`pack_dir`] reads back. A `.bpte` has no folder form (its
/// program and test cases come out with `pte bpte unbundle`); anything
/// else is refused by name.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let input = pte_testkit::corpus("native_ptn/model.ptn");
/// let bytes = std::fs::read(&input)?;
/// let out = dir.path().join("x");
/// let done = pte::extract(&bytes, &input, &pte::ExtractTarget::new(&out))?;
/// assert!(done.entries > 0);
/// assert_eq!(pte::pack_dir(&out, &Default::default())?.to_bytes()?, bytes);
///
/// let bundle = pte_testkit::corpus("bundled/model.bpte");
/// let e = pte::extract(&std::fs::read(&bundle)?, &bundle, &pte::ExtractTarget::new(&out)).unwrap_err();
/// assert!(e.to_string().contains("has no extract folder"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract(bytes: &[u8], source: &Path, target: &ExtractTarget<'_>) -> Result<Extracted> {
    match crate::identify(bytes) {
        Identity::ExecuTorch(FileKind::Pte) => pte_pack::extract_pte(bytes, source, target),
        Identity::ExecuTorch(FileKind::Ptd) => pte_pack::extract_ptd(bytes, source, target),
        Identity::ExecuTorch(FileKind::Ptn) => pte_pack::extract_ptn(bytes, source, target),
        // no folder form packs back into a bundle's bytes; say where to go
        Identity::ExecuTorch(FileKind::Bpte) => Err(Error::new(
            ErrorKind::InvalidUse,
            format!(
                "{}: {} has no extract folder; `pte bpte unbundle` takes out its program (byte for byte) and its test cases as samples, and `pte bpte bundle` makes a bundle of them",
                source.display(),
                FileKind::Bpte
            ),
        )),
        _ => Err(Error::new(
            ErrorKind::InvalidUse,
            format!(
                "{}: {}; this takes {}, {} or {}",
                source.display(),
                crate::describe(bytes),
                FileKind::Pte,
                FileKind::Ptd,
                FileKind::Ptn
            ),
        )),
    }
}
