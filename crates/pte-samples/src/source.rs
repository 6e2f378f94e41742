//! Where recorded calls come from: a `.ptn` package's sidecar, a `.bpte`'s
//! test cases (one-call samples), or a folder of sets as `pte samples
//! export` and `pte bpte export-samples` write them.

use std::path::{Path, PathBuf};

use pte_core::{FileKind, MappedFile};
use pte_file::bpte::BundledFile;
use pte_ptn::PtnFile;

use crate::model::SampleSet;
use crate::{bundled_sets, parse_set, read_samples, Error, Result, SampleLimits, SampleRule, INDEX_FILE};

/// Which sets of a source to use: all, or those of one method, or one set.
///
/// ```
/// let all = pte_samples::Selection::default();
/// assert!(all.method.is_none() && all.set.is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Only sets of this method.
    pub method: Option<String>,
    /// Only sets of this name.
    pub set: Option<String>,
}

impl Selection {
    fn admits(&self, set: &SampleSet<'_>) -> bool {
        self.method.as_ref().is_none_or(|m| *m == set.method) && self.set.as_ref().is_none_or(|s| *s == set.name)
    }
}

/// Opens the samples at `path` and hands the selected sets to `f`. `path` is
/// a `.ptn` (its `samples/` sidecar), a `.bpte` (each test case a one-call
/// sample, checked with the runtime's default tolerance), or a folder that
/// holds `index.json` + `data.safetensors` itself or in `<method>/<set>/`
/// below it. A selection that matches nothing is an error
/// ([`SampleRule::InvalidUse`]); so is a source with no sets at all.
///
/// ```
/// let path = pte_testkit::corpus("bundled/model.bpte");
/// let calls = pte_samples::with_source_sets(&path, &Default::default(), |sets| sets.iter().map(|s| s.samples.len()).sum::<usize>())?;
/// assert_eq!(calls, 3);
/// # Ok::<(), pte_samples::Error>(())
/// ```
pub fn with_source_sets<T>(path: &Path, selection: &Selection, f: impl FnOnce(&[SampleSet<'_>]) -> T) -> Result<T> {
    let shown = path.display().to_string();
    let located = |e: Error| e.in_member(&shown);
    if path.is_dir() {
        let dirs = set_dirs(path)?;
        let mut maps = Vec::with_capacity(dirs.len());
        for d in &dirs {
            maps.push(open_set_dir(d)?);
        }
        let mut sets = Vec::with_capacity(maps.len());
        for (d, (index, data)) in dirs.iter().zip(&maps) {
            let set = parse_set(index.bytes(), data.bytes(), None, &SampleLimits::default())
                .map_err(|e| e.in_member(&d.display().to_string()))?;
            sets.push(set);
        }
        return select(sets, selection, &shown).map(|s| f(&s));
    }
    let map = open(path)?;
    let bytes = map.bytes();
    if FileKind::Bpte.marks(bytes) {
        let bundle = BundledFile::from_bytes(bytes).map_err(|e| located(Error::wrap(SampleRule::Package, e)))?;
        let sets = bundled_sets(&bundle, None).map_err(located)?;
        return select(sets, selection, &shown).map(|s| f(&s));
    }
    // a program's or tensor file's identifier wins over a zip signature
    let sampleless = [FileKind::Pte, FileKind::Ptd].into_iter().find(|k| k.marks(bytes));
    if sampleless.is_none() && FileKind::Ptn.marks(bytes) {
        let ptn = PtnFile::from_bytes(bytes).map_err(|e| located(Error::wrap(SampleRule::Package, e)))?;
        let sets = read_samples(&ptn).map_err(located)?;
        return select(sets, selection, &shown).map(|s| f(&s));
    }
    let other = sampleless.unwrap_or(FileKind::Unknown);
    Err(located(Error::new(
        SampleRule::InvalidUse,
        format!("{other} holds no samples: give a .ptn, a .bpte or a folder of sets"),
    )))
}

fn open(path: &Path) -> Result<MappedFile> {
    MappedFile::open(path).map_err(|e| Error::wrap(SampleRule::Package, e))
}

/// Maps the two files of the set folder `dir` (`index.json`,
/// `data.safetensors`) under the folder policy every reader of a folder
/// shares ([`pte_core::folder::folder_file`]): a symbolic link, a file
/// with other hard links, a FIFO or a device is refused, not read.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("outside.json"), b"{}")?;
/// std::os::unix::fs::symlink(dir.path().join("outside.json"), dir.path().join("index.json"))?;
/// assert!(pte_samples::open_set_dir(dir.path()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_set_dir(dir: &Path) -> Result<(MappedFile, MappedFile)> {
    let one = |name: &str| -> Result<MappedFile> {
        let wrap = |e| Error::wrap(SampleRule::Package, e);
        let (path, meta) = pte_core::folder::folder_file(dir, name, false).map_err(wrap)?;
        // what is mapped is the file checked, not one swapped in since
        let file = pte_core::folder::open_checked(&path, pte_core::FileId::from_metadata(&meta)).map_err(wrap)?;
        MappedFile::from_file(&file, &path).map_err(wrap)
    };
    Ok((one(INDEX_FILE)?, one(crate::DATA_FILE)?))
}

fn select<'a>(sets: Vec<SampleSet<'a>>, selection: &Selection, shown: &str) -> Result<Vec<SampleSet<'a>>> {
    if sets.is_empty() {
        return Err(Error::new(SampleRule::InvalidUse, format!("{shown} holds no sample sets")));
    }
    let names: Vec<String> = sets.iter().map(|s| format!("{}/{}", s.method, s.name)).collect();
    let chosen: Vec<SampleSet<'a>> = sets.into_iter().filter(|s| selection.admits(s)).collect();
    if chosen.is_empty() {
        let wanted =
            format!("{}/{}", selection.method.as_deref().unwrap_or("*"), selection.set.as_deref().unwrap_or("*"));
        return Err(Error::new(
            SampleRule::InvalidUse,
            format!("{shown} has no sample set {wanted} (it has {})", names.join(", ")),
        ));
    }
    Ok(chosen)
}

/// The set folders under `dir`: `dir` itself when it holds an index, else
/// every `dir/<method>/<set>/` that does, sorted; an error naming `dir` when
/// there is none, or when a subfolder on the way is a symbolic link (the
/// folder policy of [`pte_core::folder`]).
///
/// ```
/// let dir = std::env::temp_dir();
/// assert!(pte_samples::set_dirs(&dir.join("no-such-folder-here")).is_err());
/// ```
pub fn set_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    // an index that is there at all, even as a link, makes `dir` a set
    // folder, whose reading then refuses the link
    let holds_index = |d: &Path| std::fs::symlink_metadata(d.join(INDEX_FILE)).is_ok();
    if holds_index(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let list = |d: &Path| -> Result<Vec<PathBuf>> {
        let entries = std::fs::read_dir(d).map_err(|e| {
            Error::wrap(SampleRule::Package, pte_core::Error::from(e)).in_member(&d.display().to_string())
        })?;
        let mut v = Vec::new();
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()) {
            // a linked folder is not entered, as a linked file is not read
            pte_core::folder::check_subfolder(&p).map_err(|e| Error::wrap(SampleRule::Package, e))?;
            v.push(p);
        }
        v.sort();
        Ok(v)
    };
    let mut out = Vec::new();
    for method in list(dir)? {
        out.extend(list(&method)?.into_iter().filter(|set| holds_index(set)));
    }
    if out.is_empty() {
        return Err(Error::new(
            SampleRule::Layout,
            format!("{} is a directory with no {INDEX_FILE}, here or in <method>/<set>/ below", dir.display()),
        ));
    }
    Ok(out)
}
