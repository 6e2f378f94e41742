//! Writing sets: encoding one set to its two files, and adding, replacing
//! or removing sets in a package (in memory or, atomically, on disk).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use pte_core::{EditLock, LockWait};

use pte_ptn::{dtype_code, safetensors_to_bytes, Member, PtnFile, PtnTensor};

use crate::index::{
    CallDoc, FloatDoc, IndexDoc, SampleDoc, TensorDoc, ToleranceDoc, ValueDoc, FORMAT_TAG, INDEX_VERSION,
};
use crate::model::{SampleSet, Tolerance, Value};
use crate::read::{over as limit, short, Location};
use crate::tolerance::{tolerance_warnings, Warning};
use crate::{check_name, Error, Result, SampleLimits, SampleRule, SAMPLES_DIR};

/// A set encoded as its two files, with the writer's warnings.
///
/// ```
/// let enc = pte_samples::encode_set(&pte_samples::SampleSet::new("f", "s"), &Default::default())?;
/// assert!(std::str::from_utf8(&enc.index).unwrap().contains("\"pte-samples\""));
/// assert!(enc.warnings.is_empty());
/// # Ok::<(), pte_samples::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct EncodedSet {
    /// `index.json` bytes (pretty-printed JSON, deterministic).
    pub index: Vec<u8>,
    /// `data.safetensors` bytes.
    pub data: Vec<u8>,
    /// Every resolved tolerance looser than [`WARN_TOLERANCE`](crate::WARN_TOLERANCE).
    pub warnings: Vec<Warning>,
}

/// Encodes a set, refusing (before producing anything) one the reader would
/// refuse under `limits`. Tensor keys are assigned from positions:
/// `<sample>.<call>.in.<i>` and `.out.<i>`, with `.<j>` appended for the
/// items of a tensor list.
///
/// ```
/// use pte_samples::*;
/// let mut set = SampleSet::new("f", "s");
/// set.tolerance = Some(Tolerance { atol: -1.0, rtol: 0.0 });
/// assert_eq!(encode_set(&set, &SampleLimits::default()).unwrap_err().rule(), SampleRule::Tolerance);
/// ```
pub fn encode_set(set: &SampleSet<'_>, limits: &SampleLimits) -> Result<EncodedSet> {
    let at = |e: Error| e.in_member(&Location::new(set.method.clone(), set.name.clone()).index_member());
    let (doc, tensors) = to_doc(set, limits).map_err(at)?;
    let index = serde_json::to_vec_pretty(&doc)
        .map_err(|e| Error::new(SampleRule::InvalidUse, format!("encoding the index: {e}")))?;
    if index.len() > limits.max_index_size {
        return Err(Error::new(
            SampleRule::Limit,
            format!("the index would be {} bytes, over the reader's limit of {}", index.len(), limits.max_index_size),
        ));
    }
    let data = safetensors_to_bytes(&tensors, &limits.safetensors).map_err(|e| {
        Error::wrap(
            if e.kind() == pte_schema::ErrorKind::LimitExceeded { SampleRule::Limit } else { SampleRule::InvalidUse },
            e,
        )
    })?;
    Ok(EncodedSet { index, data, warnings: tolerance_warnings(set) })
}

fn invalid(rule: SampleRule, path: &str, why: impl Into<String>) -> Error {
    Error::new(rule, why).at_path(path.to_string())
}

fn tolerance_doc(t: Option<Tolerance>, path: &str) -> Result<Option<ToleranceDoc>> {
    let Some(t) = t else { return Ok(None) };
    crate::tolerance::check(&t).map_err(|why| invalid(SampleRule::Tolerance, path, why))?;
    Ok(Some(ToleranceDoc { atol: t.atol, rtol: t.rtol }))
}

fn to_doc<'s>(set: &'s SampleSet<'_>, limits: &SampleLimits) -> Result<(IndexDoc, BTreeMap<String, PtnTensor<'s>>)> {
    check_name(&set.method).map_err(|e| e.at_path("method"))?;
    check_name(&set.name).map_err(|e| e.at_path("set"))?;
    limit("samples", set.samples.len(), limits.max_samples, "samples")?;
    let mut tensors = BTreeMap::new();
    let mut samples = Vec::with_capacity(set.samples.len());
    for (si, sample) in set.samples.iter().enumerate() {
        let path = format!("samples[{si}]");
        limit("calls", sample.calls.len(), limits.max_calls, format!("{path}.calls"))?;
        if let Some(n) = &sample.name {
            limit("bytes of sample name", n.len(), limits.max_string_len, format!("{path}.name"))?;
        }
        let mut calls = Vec::with_capacity(sample.calls.len());
        for (ci, call) in sample.calls.iter().enumerate() {
            let path = format!("{path}.calls[{ci}]");
            let mut side = |values: &'s [Value<'_>], dir: &str, field: &str| -> Result<Vec<ValueDoc>> {
                let path = format!("{path}.{field}");
                limit("values", values.len(), limits.max_values, &path)?;
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        value_doc(v, &format!("{si}.{ci}.{dir}.{i}"), &format!("{path}[{i}]"), limits, &mut tensors)
                    })
                    .collect()
            };
            let inputs = side(&call.inputs, "in", "inputs")?;
            let outputs = side(&call.outputs, "out", "outputs")?;
            calls.push(CallDoc {
                inputs,
                outputs,
                tolerance: tolerance_doc(call.tolerance, &format!("{path}.tolerance"))?,
            });
        }
        samples.push(SampleDoc {
            name: sample.name.clone(),
            tolerance: tolerance_doc(sample.tolerance, &format!("{path}.tolerance"))?,
            calls,
        });
    }
    let doc = IndexDoc {
        format: FORMAT_TAG.to_string(),
        version: INDEX_VERSION,
        method: set.method.clone(),
        set: set.name.clone(),
        tolerance: tolerance_doc(set.tolerance, "tolerance")?,
        samples,
    };
    Ok((doc, tensors))
}

/// Encodes a list of values as index values plus the tensors they refer to,
/// keyed `<prefix>.<i>` (`.<j>` appended for list items).
pub(crate) fn values_doc<'s>(
    values: &'s [Value<'_>],
    prefix: &str,
    limits: &SampleLimits,
) -> Result<(Vec<ValueDoc>, BTreeMap<String, PtnTensor<'s>>)> {
    limit("values", values.len(), limits.max_values, prefix)?;
    let mut tensors = BTreeMap::new();
    let docs = values
        .iter()
        .enumerate()
        .map(|(i, v)| value_doc(v, &format!("{prefix}.{i}"), &format!("{prefix}[{i}]"), limits, &mut tensors))
        .collect::<Result<_>>()?;
    Ok((docs, tensors))
}

/// The tensors a value refers to are borrowed into `tensors`, never copied:
/// the one copy of their bytes is the encoder's.
fn value_doc<'s>(
    v: &'s Value<'_>,
    key: &str,
    path: &str,
    limits: &SampleLimits,
    tensors: &mut BTreeMap<String, PtnTensor<'s>>,
) -> Result<ValueDoc> {
    let mut put = |t: &'s PtnTensor<'_>, key: String, path: &str| -> Result<TensorDoc> {
        t.check().map_err(|e| Error::wrap(SampleRule::InvalidUse, e).at_path(path.to_string()))?;
        let doc = TensorDoc { key: key.clone(), dtype: dtype_code(t.dtype), shape: t.shape.clone() };
        let data = std::borrow::Cow::Borrowed(&*t.data);
        tensors.insert(key, PtnTensor { dtype: t.dtype, shape: t.shape.clone(), data });
        Ok(doc)
    };
    Ok(match v {
        Value::Tensor(t) => {
            let d = put(t, key.to_string(), path)?;
            ValueDoc::Tensor { key: d.key, dtype: d.dtype, shape: d.shape }
        }
        Value::TensorList(list) => {
            limit("tensors in the list", list.len(), limits.max_list_len, path)?;
            let items = list
                .iter()
                .enumerate()
                .map(|(j, t)| put(t, format!("{key}.{j}"), &format!("{path}.items[{j}]")))
                .collect::<Result<_>>()?;
            ValueDoc::TensorList { items }
        }
        Value::Int(i) => ValueDoc::Int { value: *i },
        Value::Float(f) => ValueDoc::Float { value: FloatDoc(*f) },
        Value::Bool(b) => ValueDoc::Bool { value: *b },
        Value::String(s) => {
            limit("bytes of string", s.len(), limits.max_string_len, path)?;
            ValueDoc::String { value: s.clone() }
        }
        Value::None => ValueDoc::None {},
    })
}

/// Replaces a package's whole sidecar with `sets` (every existing
/// `samples/` member is dropped; other members keep their bytes and order).
/// Returns the warnings of every set.
///
/// ```
/// use pte_samples::*;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let mut ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let mut set = SampleSet::new("forward", "smoke");
/// set.samples.push(Sample { calls: vec![Call::default()], ..Default::default() });
/// assert!(write_samples(&mut ptn, &[set.clone()])?.is_empty());
/// assert_eq!(read_samples(&ptn)?, vec![set]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_samples(ptn: &mut PtnFile<'_>, sets: &[SampleSet<'_>]) -> Result<Vec<Warning>> {
    let limits = SampleLimits::default();
    limit("sample sets", sets.len(), limits.max_sets, SAMPLES_DIR)?;
    let methods = method_names(ptn)?;
    let mut seen = std::collections::BTreeSet::new();
    let mut encoded = Vec::with_capacity(sets.len());
    for set in sets {
        check_method(&methods, set)?;
        if !seen.insert((set.method.as_str(), set.name.as_str())) {
            return Err(Error::new(
                SampleRule::DuplicateSet,
                format!("two sets are named {:?} for method {:?}", short(&set.name), short(&set.method)),
            ));
        }
        encoded.push((Location::new(set.method.clone(), set.name.clone()), encode_set(set, &limits)?));
    }
    ptn.members.retain(|m| !in_samples_dir(&m.name));
    let mut warnings = Vec::new();
    for (loc, enc) in encoded {
        warnings.extend(enc.warnings);
        ptn.members.push(Member { name: loc.index_member(), data: Cow::Owned(enc.index) });
        ptn.members.push(Member { name: loc.data_member(), data: Cow::Owned(enc.data) });
    }
    Ok(warnings)
}

/// Adds one set to a package, or with `replace` overwrites the set of the
/// same method and name in place (keeping its position among the members).
/// Every other member is untouched.
///
/// ```
/// use pte_samples::*;
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let mut ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// let set = SampleSet::new("forward", "smoke");
/// put_set(&mut ptn, &set, false)?;
/// assert_eq!(put_set(&mut ptn, &set, false).unwrap_err().rule(), SampleRule::DuplicateSet);
/// put_set(&mut ptn, &set, true)?;
/// assert_eq!(list_sets(&ptn)?, vec![Location::new("forward", "smoke")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn put_set(ptn: &mut PtnFile<'_>, set: &SampleSet<'_>, replace: bool) -> Result<Vec<Warning>> {
    check_method(&method_names(ptn)?, set)?;
    let loc = Location::new(set.method.clone(), set.name.clone());
    let enc = encode_set(set, &SampleLimits::default())?;
    let (index_name, data_name) = (loc.index_member(), loc.data_member());
    let exists = ptn.members.iter().any(|m| m.name == index_name || m.name == data_name);
    if exists && !replace {
        return Err(Error::new(
            SampleRule::DuplicateSet,
            format!(
                "the package already has set {:?} for method {:?} (ask to replace it)",
                short(&set.name),
                short(&set.method)
            ),
        )
        .at_path(index_name));
    }
    if !exists && list_len(ptn) >= SampleLimits::default().max_sets {
        return Err(Error::new(SampleRule::Limit, "the package already holds as many sets as a reader accepts")
            .at_path(SAMPLES_DIR));
    }
    let mut index = Some(enc.index);
    let mut data = Some(enc.data);
    for m in &mut ptn.members {
        if m.name == index_name {
            m.data = Cow::Owned(index.take().unwrap_or_default());
        } else if m.name == data_name {
            m.data = Cow::Owned(data.take().unwrap_or_default());
        }
    }
    if let Some(index) = index {
        ptn.members.push(Member { name: index_name, data: Cow::Owned(index) });
    }
    if let Some(data) = data {
        ptn.members.push(Member { name: data_name, data: Cow::Owned(data) });
    }
    Ok(enc.warnings)
}

fn list_len(ptn: &PtnFile<'_>) -> usize {
    ptn.members.iter().filter(|m| in_samples_dir(&m.name) && m.name.ends_with(crate::INDEX_FILE)).count()
}

/// Removes one set (both its files). Removing a set the package lacks is an error.
///
/// ```
/// use pte_samples::*;
/// let mut ptn = pte_ptn::PtnFile::default();
/// assert_eq!(remove_set(&mut ptn, "forward", "smoke").unwrap_err().rule(), SampleRule::InvalidUse);
/// ```
pub fn remove_set(ptn: &mut PtnFile<'_>, method: &str, set: &str) -> Result<()> {
    check_name(method)?;
    check_name(set)?;
    let loc = Location::new(method, set);
    let (index_name, data_name) = (loc.index_member(), loc.data_member());
    let before = ptn.members.len();
    ptn.members.retain(|m| m.name != index_name && m.name != data_name);
    if ptn.members.len() == before {
        return Err(Error::new(
            SampleRule::InvalidUse,
            format!("the package has no set {:?} for method {:?}", short(set), short(method)),
        ));
    }
    Ok(())
}

/// [`put_set`] on a file: read (memory-mapped), change, saved atomically
/// (temporary file, fsync, rename), so the package on disk is either the old
/// one or the new one.
///
/// ```
/// use pte_samples::*;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("m.ptn");
/// std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path)?;
/// put_set_in_file(&path, &SampleSet::new("forward", "smoke"), false)?;
/// remove_set_from_file(&path, "forward", "smoke")?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn put_set_in_file(path: &Path, set: &SampleSet<'_>, replace: bool) -> Result<Vec<Warning>> {
    put_set_in_file_with(path, set, replace, LockWait::Block)
}

/// [`put_set_in_file`], choosing whether to wait for another editor of the
/// package or to fail at once.
///
/// ```
/// use pte_samples::*;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("m.ptn");
/// std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path)?;
/// let busy = pte_core::EditLock::acquire(&path, Default::default())?;
/// let e = put_set_in_file_with(&path, &SampleSet::new("forward", "smoke"), false, pte_core::LockWait::Fail).unwrap_err();
/// assert_eq!(e.rule(), SampleRule::Package);
/// drop(busy);
/// put_set_in_file_with(&path, &SampleSet::new("forward", "smoke"), false, pte_core::LockWait::Fail)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn put_set_in_file_with(path: &Path, set: &SampleSet<'_>, replace: bool, wait: LockWait) -> Result<Vec<Warning>> {
    edit_file(path, wait, |ptn| put_set(ptn, set, replace))
}

/// Adds sets to the package at `path` as `pte samples add` does: under the
/// edit lock, every set is first checked against the signature of the
/// method it calls ([`require_signature`](crate::require_signature)), then
/// all are put ([`put_set`]) and the package is saved once, atomically. A
/// refused set leaves the file untouched, whichever set it was.
///
/// ```
/// use pte_samples::*;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("m.ptn");
/// std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path)?;
/// let before = std::fs::read(&path)?;
/// let mut wrong = SampleSet::new("forward", "wrong");
/// wrong.samples.push(Sample { calls: vec![Call::default()], ..Default::default() });
/// let sets = [SampleSet::new("forward", "smoke"), wrong];
/// let e = add_sets_to_file(&path, &sets, false, pte_core::LockWait::Block).unwrap_err();
/// assert_eq!(e.rule(), SampleRule::Signature);
/// assert_eq!(std::fs::read(&path)?, before);
/// add_sets_to_file(&path, &sets[..1], false, pte_core::LockWait::Block)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn add_sets_to_file(path: &Path, sets: &[SampleSet<'_>], replace: bool, wait: LockWait) -> Result<Vec<Warning>> {
    edit_file(path, wait, |ptn| {
        // an undecodable program is put_set's to refuse, with its own message
        if let Ok(program) = ptn.native_program(&Default::default()) {
            for set in sets {
                crate::require_signature(&program, set)?;
            }
        }
        let mut warnings = vec![];
        for set in sets {
            warnings.extend(put_set(ptn, set, replace)?);
        }
        Ok(warnings)
    })
}

/// [`remove_set`] on a file, saved atomically.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("m.ptn");
/// std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path)?;
/// assert!(pte_samples::remove_set_from_file(&path, "forward", "none").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn remove_set_from_file(path: &Path, method: &str, set: &str) -> Result<()> {
    remove_set_from_file_with(path, method, set, LockWait::Block)
}

/// [`remove_set_from_file`], choosing whether to wait for another editor.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("m.ptn");
/// std::fs::copy(pte_testkit::corpus("native_ptn/model.ptn"), &path)?;
/// assert!(pte_samples::remove_set_from_file_with(&path, "forward", "none", pte_core::LockWait::Fail).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn remove_set_from_file_with(path: &Path, method: &str, set: &str, wait: LockWait) -> Result<()> {
    edit_file(path, wait, |ptn| remove_set(ptn, method, set))
}

/// Reads, changes and saves a package under an exclusive edit lock, so two
/// concurrent edits both land (the second reads the first's result).
fn edit_file<T>(path: &Path, wait: LockWait, change: impl FnOnce(&mut PtnFile<'_>) -> Result<T>) -> Result<T> {
    let package = |e: pte_schema::Error| Error::wrap(SampleRule::Package, e);
    let lock = EditLock::acquire(path, wait).map_err(package)?;
    let map = lock.map().map_err(package)?;
    let mut ptn = PtnFile::from_bytes(map.bytes()).map_err(package)?;
    let out = change(&mut ptn)?;
    lock.save_file(|file| ptn.write_to(&mut std::io::BufWriter::with_capacity(1 << 20, file))).map_err(package)?;
    Ok(out)
}

fn in_samples_dir(name: &str) -> bool {
    name == SAMPLES_DIR || name.strip_prefix(SAMPLES_DIR).is_some_and(|r| r.starts_with('/'))
}

fn method_names(ptn: &PtnFile<'_>) -> Result<Vec<String>> {
    let program = ptn.native_program(&Default::default()).map_err(|e| Error::wrap(SampleRule::Package, e))?;
    Ok(program.methods.into_iter().map(|m| m.name).collect())
}

fn check_method(methods: &[String], set: &SampleSet<'_>) -> Result<()> {
    if methods.contains(&set.method) {
        return Ok(());
    }
    Err(Error::new(
        SampleRule::UnknownMethod,
        format!(
            "the program has no method {:?} (it has {:?})",
            short(&set.method),
            methods.iter().take(16).collect::<Vec<_>>()
        ),
    )
    .at_path("method"))
}
