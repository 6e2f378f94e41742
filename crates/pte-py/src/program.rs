//! `.pte` views and writes: the summary (`pte info --json`'s), the parts
//! with absolute offsets, layout options, externalize and internalize.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{json, Value};

use pte::{ConstantPlacement, DelegatePlacement, LayoutChange, SegmentLayout};
use pte_file::view::{PteView, SegmentTable, SubBuffer, SubBuffers};
use pte_file::PteFile;
use pte_schema::{TensorView, ValueRef};

use crate::error::{invalid, opt_int_arg, IntoPy};
use crate::handle::{offset_in, Handle};

/// Parses the program of a handle, naming the file in errors.
pub(crate) fn read<'a>(h: &Handle, bytes: &'a [u8]) -> PyResult<PteFile<'a>> {
    PteFile::from_bytes(bytes).py_err(h.name())
}

/// The summary of any kind: the object `pte info --json` prints for it
/// (`pte::FileSummary`, read in place: no model is decoded). A bundle's
/// embedded program follows the whole segment table, as the program object
/// of `pte info --json FILE.bpte` does; the `.ptd` files beside the source
/// file, when there is one, are searched for EXTERNAL tensors as `pte info`
/// searches them. Written as JSON text straight from the rows, as `pte info
/// --json` writes it: a JSON tree of a million segment entries first took
/// about 1 GB.
pub(crate) fn summary(h: &Handle, bytes: &[u8], whole: &[u8], tensors: bool) -> PyResult<String> {
    let summary = read_summary(h, bytes, whole, tensors)?;
    serde_json::to_string(&summary).map_err(|e| invalid(e.to_string()))
}

fn read_summary<'a>(h: &'a Handle, bytes: &'a [u8], whole: &[u8], tensors: bool) -> PyResult<pte::FileSummary<'a>> {
    let table = if bytes.len() == whole.len() { SegmentTable::Referenced } else { SegmentTable::Whole };
    let options = pte::SummaryOptions { table, tensors, path: h.name().map(Path::new) };
    pte::FileSummary::read(h.file_kind(), bytes, &options).py_err(h.name())
}

/// The summary as `pte info --json` prints it (pretty, a newline after),
/// streamed into `sink` as its rows are read: bounded by a piece of text,
/// not by the file's number of rows.
pub(crate) fn write_summary(
    h: &Handle,
    bytes: &[u8],
    whole: &[u8],
    sink: Bound<'_, PyAny>,
    tensors: bool,
) -> PyResult<u64> {
    if !sink.hasattr("write")? {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "write_summary takes a binary file object (with write(bytes))",
        ));
    }
    let summary = read_summary(h, bytes, whole, tensors)?;
    let mut out = crate::sink::Sink::new(sink);
    let written = serde_json::to_writer_pretty(&mut out, &summary)
        .map_err(std::io::Error::from)
        .and_then(|()| std::io::Write::write_all(&mut out, b"\n"));
    out.finish(written)
}

fn tensor_json(t: &TensorView<'_>) -> Value {
    let dtype = t.scalar_type();
    json!({
        "dtype": dtype.name().map_or_else(|| format!("ScalarType({})", dtype.0), str::to_string),
        "sizes": t.sizes().map(|l| l.iter().collect::<Vec<_>>()),
        "dim_order": t.dim_order(),
        "nbytes": t.nbytes(),
        "fqn": t.fqn(),
        "external": t.is_external(),
        "mutable": t.allocation_info().is_some(),
        "data_buffer_idx": t.data_buffer_idx(),
    })
}

/// The first tensor using each data buffer: constants (no allocation info)
/// and mutable buffers (with it) are numbered separately.
fn buffer_users(view: &PteView<'_>, mutable: bool) -> BTreeMap<u32, Value> {
    let mut users = BTreeMap::new();
    for plan in view.plans() {
        for v in plan.value_refs() {
            let ValueRef::Tensor(t) = v else { continue };
            if t.data_buffer_idx() > 0 && t.allocation_info().is_some() == mutable && !t.is_external() {
                users.entry(t.data_buffer_idx()).or_insert_with(|| tensor_json(&t));
            }
        }
    }
    users
}

/// Sub-buffer `c` of `subs` as the bytes it covers (inline ones from the
/// legacy `constant_buffer`).
fn piece<'a>(view: &PteView<'a>, subs: &SubBuffers<'a>, c: &SubBuffer) -> Option<&'a [u8]> {
    match subs.segment() {
        Some(seg) => {
            let start = usize::try_from(c.offset).ok()?;
            view.segment(seg)?.get(start..start.checked_add(usize::try_from(c.len).ok()?)?)
        }
        None => view.program().constant_buffer()?.nth(c.index).map(Option::unwrap_or_default),
    }
}

/// "No offset" in a packed row: the part does not lie in the source.
const NONE: u64 = u64::MAX;

/// Little-endian `u64` words as the bytes of a Python `bytes` object, written
/// in place: a table of a million rows costs its packed size once, not a
/// Python object per field.
fn packed<'py>(py: Python<'py>, count: usize, words: impl Iterator<Item = u64>) -> PyResult<Bound<'py, PyBytes>> {
    let len = count.checked_mul(8).ok_or_else(|| invalid("table too large"))?;
    PyBytes::new_with(py, len, |buf| {
        for (chunk, w) in buf.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        Ok(())
    })
}

/// The decoded file's error where a part cannot be read through the view:
/// the model is decoded only then, to name the problem as `PteFile` does.
fn part_failed(h: &Handle, bytes: &[u8]) -> PyErr {
    let err = read(h, bytes).and_then(|pte| {
        pte.constants().py_err(h.name())?;
        pte.mutable_segments().py_err(h.name())?;
        pte.named_data().py_err(h.name())?;
        pte.delegate_blobs().py_err(h.name())?;
        Ok(())
    });
    err.err().unwrap_or_else(|| invalid("the program's parts could not be read"))
}

/// The program read in place, its whole segment table as `PteFile` reads it.
fn view<'a>(h: &Handle, bytes: &'a [u8]) -> PyResult<PteView<'a>> {
    PteView::read(bytes, SegmentTable::Whole).py_err(h.name())
}

/// The constant (or, with `mutable`, mutable) buffers, placeholder 0 left
/// out: rows of four words (index, absolute offset or [`NONE`], size, user
/// or [`NONE`]) and, as JSON text, the tensors the rows' `user` numbers
/// name (the first tensor using each buffer). Python builds a `Constant`
/// from a row only when it is asked for one.
pub(crate) fn buffers<'py>(
    py: Python<'py>,
    h: &Handle,
    bytes: &[u8],
    whole: &[u8],
    mutable: bool,
) -> PyResult<(Bound<'py, PyBytes>, String)> {
    let view = view(h, bytes)?;
    let subs: Vec<SubBuffers<'_>> = if mutable {
        view.mutable_segments().ok_or_else(|| part_failed(h, bytes))?
    } else {
        vec![view.constants().ok_or_else(|| part_failed(h, bytes))?]
    };
    let users = buffer_users(&view, mutable);
    // users by position, so a row holds a number rather than a copy
    let position: BTreeMap<u32, u64> = users.keys().zip(0u64..).map(|(&k, i)| (k, i)).collect();
    let mut words = vec![];
    for s in &subs {
        for c in s.iter().filter(|c| c.index > 0) {
            let offset = piece(&view, s, &c).and_then(|b| offset_in(whole, b)).unwrap_or(NONE);
            let user = u32::try_from(c.index).ok().and_then(|i| position.get(&i)).copied().unwrap_or(NONE);
            words.extend([c.index as u64, offset, c.len, user]);
        }
    }
    let users: Vec<&Value> = users.values().collect();
    Ok((
        packed(py, words.len(), words.into_iter())?,
        serde_json::to_string(&users).map_err(|e| invalid(e.to_string()))?,
    ))
}

/// The named blobs: their keys in table order, and rows of three words
/// (segment, absolute offset or [`NONE`], size).
pub(crate) fn named<'py>(
    py: Python<'py>,
    h: &Handle,
    bytes: &[u8],
    whole: &[u8],
) -> PyResult<(Vec<String>, Bound<'py, PyBytes>)> {
    let view = view(h, bytes)?;
    let mut keys = vec![];
    let mut words = vec![];
    for (key, i, b) in view.named_data().ok_or_else(|| part_failed(h, bytes))? {
        keys.push(key.to_string());
        words.extend([u64::from(i), offset_in(whole, b).unwrap_or(NONE), b.len() as u64]);
    }
    Ok((keys, packed(py, words.len(), words.into_iter())?))
}

/// The delegates' processed blobs with absolute offsets, as JSON text.
pub(crate) fn delegates(h: &Handle, bytes: &[u8], whole: &[u8]) -> PyResult<String> {
    let view = view(h, bytes)?;
    let rows: Vec<Value> = view
        .delegates()
        .ok_or_else(|| part_failed(h, bytes))?
        .iter()
        .map(|d| {
            json!({
                "plan": d.plan, "delegate": d.delegate, "id": d.id,
                "location": d.location.name(), "index": d.index,
                "offset": offset_in(whole, d.bytes), "size": d.bytes.len(),
            })
        })
        .collect();
    serde_json::to_string(&rows).map_err(|e| invalid(e.to_string()))
}

/// The stored segment table: two words a segment (absolute offset or
/// [`NONE`], size), written straight from the table into the `bytes` object.
pub(crate) fn segments<'py>(py: Python<'py>, h: &Handle, bytes: &[u8], whole: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let view = view(h, bytes)?;
    let n = view.program().segment_count();
    let words = (0..n).flat_map(|i| {
        let b = u32::try_from(i).ok().and_then(|i| view.segment(i));
        let offset = b.and_then(|b| offset_in(whole, b)).unwrap_or(NONE);
        [offset, b.map_or(0, |b| b.len() as u64)]
    });
    packed(py, n.saturating_mul(2), words)
}

/// Layout options from Python keyword arguments; `None` keeps what the file
/// has. They become the library's `LayoutChange`, the change `pte rewrite`'s
/// options and C's `PteLayoutOptions` make: the same request writes the
/// same bytes through every door.
#[derive(Default)]
pub(crate) struct Options {
    change: LayoutChange,
}

/// A keyword's word among `allowed`, or a `ValueError` listing them.
fn word<T: Copy>(name: &str, given: Option<String>, allowed: &[(&str, T)], keep: T) -> PyResult<T> {
    let Some(given) = given else { return Ok(keep) };
    if let Some((_, v)) = allowed.iter().find(|(w, _)| *w == given) {
        return Ok(*v);
    }
    let words: Vec<String> = allowed.iter().map(|(w, _)| format!("'{w}'")).collect();
    let listed = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    };
    Err(invalid(format!("{name} must be {listed}, not {given:?}")))
}

impl Options {
    /// The options from a dict of every option name (`pte_rs._options`'s).
    /// Read by hand, not derived: a derived field wraps every error in a
    /// `TypeError`, and an alignment out of range is a `ValueError`.
    pub(crate) fn from_dict(obj: &Bound<'_, PyAny>) -> PyResult<Options> {
        let item = |name: &str| obj.get_item(name);
        let change = LayoutChange {
            segment_alignment: opt_int_arg(&item("segment_alignment")?)?,
            tensor_alignment: opt_int_arg(&item("tensor_alignment")?)?,
            delegate_alignment: opt_int_arg(&item("delegate_alignment")?)?,
            constant_alignment: opt_int_arg(&item("constant_repack")?)?,
            layout: word(
                "layout",
                item("layout")?.extract()?,
                &[("keep", SegmentLayout::Keep), ("repack", SegmentLayout::Repack)],
                SegmentLayout::Keep,
            )?,
            delegates: word(
                "delegates",
                item("delegates")?.extract()?,
                &[
                    ("keep", DelegatePlacement::Keep),
                    ("inline", DelegatePlacement::Inline),
                    ("segment", DelegatePlacement::Segment),
                ],
                DelegatePlacement::Keep,
            )?,
            constants: word(
                "constants",
                item("constants")?.extract()?,
                &[("keep", None), ("segment", Some(ConstantPlacement::Segment))],
                None,
            )?,
        };
        Ok(Options { change })
    }
}

/// A door edit's error as `PteError`, naming the file it concerns.
fn edit_err(e: pte::EditError) -> PyErr {
    let file = e.file().map(|p| p.display().to_string());
    crate::error::to_py(e.into_error(), file.as_deref())
}

/// Atomic save (temporary file, fsync, rename) through the door
/// (`pte::rewrite_bytes`, what `pte rewrite` writes): the source map stays
/// valid even when `path` is the file it maps, which is an in-place edit,
/// locked while it writes. A program inside another file (a bundle's) may
/// not be saved over that file: it would replace the bundle with the program.
pub(crate) fn save(h: &Handle, bytes: &[u8], whole_file: bool, path: &Path, options: &Options) -> PyResult<u64> {
    let source = h.name().map(Path::new);
    pte::rewrite_bytes(bytes, source, whole_file, path, &options.change, pte::LockWait::Block).map_err(edit_err)
}

/// The serialized file (`pte::program_bytes`: what `save` writes).
pub(crate) fn to_bytes(h: &Handle, bytes: &[u8], options: &Options) -> PyResult<Vec<u8>> {
    pte::program_bytes(bytes, &options.change).py_err(h.name())
}

/// Moves the selected constants and named blobs into a `.ptd` through the
/// door (`pte::externalize`), which `pte externalize` calls too: the same
/// request writes the same bytes. `keys` are glob patterns, as `--keys`.
pub(crate) fn externalize(
    h: &Handle,
    bytes: &[u8],
    pte_path: &Path,
    ptd_path: &Path,
    keys: Option<&[String]>,
    name_constants: Option<&str>,
) -> PyResult<(Vec<String>, Vec<String>)> {
    let request = pte::Externalize {
        keys: match keys {
            Some(k) => pte::KeySelection::globs(k).py_err(None)?,
            None => pte::KeySelection::all(),
        },
        name_constants,
        keys_spelled: keys.map(|k| format!("keys={k:?}")),
        naming_spelled: "name_constants=PREFIX",
    };
    let source = h.name().map(Path::new);
    let moved = pte::externalize(bytes, source, pte_path, ptd_path, &request).map_err(edit_err)?;
    Ok((moved.tensors, moved.named))
}

/// Brings EXTERNAL tensors of `pte` back from the `.ptd` files through the
/// door (`pte::internalize`, as `pte internalize`): `out` may replace `pte`
/// (an in-place edit, under the file's edit lock) but no data file, and
/// every input must be of its kind.
#[pyfunction]
pub(crate) fn internalize(pte: PathBuf, ptds: Vec<PathBuf>, out: PathBuf) -> PyResult<u64> {
    let data: Vec<&Path> = ptds.iter().map(PathBuf::as_path).collect();
    pte::internalize(&pte, &data, &out, pte::LockWait::Block).map_err(edit_err)
}
