//! Reading a sidecar: the index is parsed strictly, every tensor reference
//! is resolved against `data.safetensors` (borrowing its bytes) and each
//! rule failure is its own [`SampleRule`].

use std::collections::{BTreeMap, BTreeSet};

use pte_ptn::{dtype_code, read_safetensors_member, PtnFile, PtnTensor};

use crate::index::{
    byte_offset, CallDoc, IndexDoc, Probe, SampleDoc, TensorDoc, ToleranceDoc, ValueDoc, FORMAT_TAG, INDEX_VERSION,
};
pub use crate::location::Location;
use crate::model::{Call, Sample, SampleSet, Tolerance, Value};
use crate::{check_name, Error, Result, SampleLimits, SampleRule, DATA_FILE, INDEX_FILE, SAMPLES_DIR};

/// Reads one set from its two files. `location`, when given, is where the
/// files were found: the index's method and set must match it.
///
/// ```
/// use pte_samples::*;
/// let mut set = SampleSet::new("forward", "smoke");
/// set.samples.push(Sample { calls: vec![Call { inputs: vec![Value::Int(2)], outputs: vec![Value::Float(0.5)], tolerance: None }], ..Default::default() });
/// let enc = encode_set(&set, &SampleLimits::default())?;
/// assert_eq!(parse_set(&enc.index, &enc.data, None, &SampleLimits::default())?, set);
/// # Ok::<(), pte_samples::Error>(())
/// ```
pub fn parse_set<'a>(
    index: &[u8],
    data: &'a [u8],
    location: Option<&Location>,
    limits: &SampleLimits,
) -> Result<SampleSet<'a>> {
    let index_member = location.map_or_else(|| INDEX_FILE.to_string(), Location::index_member);
    let data_member = location.map_or_else(|| DATA_FILE.to_string(), Location::data_member);
    let doc = parse_index(index, limits).map_err(|e| e.in_member(&index_member))?;
    check_header(&doc, location).map_err(|e| e.in_member(&index_member))?;
    let tensors = read_safetensors_member(data, &data_member, &limits.safetensors).map_err(|e| {
        Error::wrap(
            if e.kind() == pte_schema::ErrorKind::LimitExceeded { SampleRule::Limit } else { SampleRule::Safetensors },
            e,
        )
    })?;
    let mut resolver = Resolver { tensors: &tensors, used: BTreeSet::new(), limits };
    let set = resolver.set(doc).map_err(|e| e.in_member(&index_member))?;
    if let Some(key) = tensors.keys().find(|k| !resolver.used.contains(k.as_str())) {
        return Err(Error::new(
            SampleRule::UnreferencedTensor,
            format!("tensor {:?} is not referenced by the index", short(key)),
        )
        .at_path(format!("{data_member}:{key}")));
    }
    Ok(set)
}

/// Every set in a package's `samples/` directory, in member order, under
/// default limits. Tensors borrow from the package (so from its file, when
/// that is memory-mapped).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// assert!(pte_samples::read_samples(&ptn)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_samples<'p>(ptn: &'p PtnFile<'_>) -> Result<Vec<SampleSet<'p>>> {
    read_samples_with(ptn, &SampleLimits::default())
}

/// [`read_samples`] under explicit limits.
///
/// ```
/// let ptn = pte_ptn::PtnFile::default();
/// assert!(pte_samples::read_samples_with(&ptn, &pte_samples::SampleLimits::unlimited())?.is_empty());
/// # Ok::<(), pte_samples::Error>(())
/// ```
pub fn read_samples_with<'p>(ptn: &'p PtnFile<'_>, limits: &SampleLimits) -> Result<Vec<SampleSet<'p>>> {
    let mut out = Vec::new();
    for (location, index, data) in stored_sets(ptn, limits)? {
        let set = parse_set(index, data, Some(&location), limits)?;
        out.push(set);
    }
    Ok(out)
}

/// The locations of the sets a package holds, in member order, checking
/// the layout rules but not parsing any index.
///
/// ```
/// assert!(pte_samples::list_sets(&pte_ptn::PtnFile::default())?.is_empty());
/// # Ok::<(), pte_samples::Error>(())
/// ```
pub fn list_sets(ptn: &PtnFile<'_>) -> Result<Vec<Location>> {
    Ok(stored_sets(ptn, &SampleLimits::default())?.into_iter().map(|(l, _, _)| l).collect())
}

type StoredSet<'p> = (Location, &'p [u8], &'p [u8]);

/// Pairs each set's index and data members, enforcing the layout rules.
fn stored_sets<'p>(ptn: &'p PtnFile<'_>, limits: &SampleLimits) -> Result<Vec<StoredSet<'p>>> {
    let mut found: BTreeMap<Location, (Option<usize>, Option<usize>)> = BTreeMap::new();
    let mut order = Vec::new();
    for (i, m) in ptn.members.iter().enumerate() {
        let Some(rest) = m.name.strip_prefix(SAMPLES_DIR).and_then(|r| r.strip_prefix('/')) else {
            if m.name == SAMPLES_DIR {
                return Err(layout(&m.name, "is a file where the samples directory belongs"));
            }
            continue;
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let (method, set, file) = match parts.as_slice() {
            [""] | [_, ""] | [_, _, ""] if is_directory(&m.name, &m.data) => continue,
            [method, set, file] => (*method, *set, *file),
            _ => return Err(layout(&m.name, "is not samples/<method>/<set>/index.json or data.safetensors")),
        };
        check_name(method).map_err(|e| e.at_path(m.name.clone()))?;
        check_name(set).map_err(|e| e.at_path(m.name.clone()))?;
        let location = Location::new(method, set);
        let entry = found.entry(location.clone()).or_insert_with(|| {
            order.push(location.clone());
            (None, None)
        });
        let slot = match file {
            INDEX_FILE => &mut entry.0,
            DATA_FILE => &mut entry.1,
            _ => return Err(layout(&m.name, "is not index.json or data.safetensors")),
        };
        if slot.replace(i).is_some() {
            return Err(layout(&m.name, "is stored twice"));
        }
    }
    if order.len() > limits.max_sets {
        return Err(Error::new(
            SampleRule::Limit,
            format!("{} sample sets, over the limit of {}", order.len(), limits.max_sets),
        )
        .at_path(SAMPLES_DIR));
    }
    let mut out = Vec::with_capacity(order.len());
    for location in order {
        let member = |i: Option<usize>, path: String| {
            i.and_then(|i| ptn.members.get(i)).ok_or_else(|| layout(&path, "is missing; a set needs both files"))
        };
        let (index, data) = found.get(&location).copied().unwrap_or((None, None));
        let index = member(index, location.index_member())?;
        let data = member(data, location.data_member())?;
        out.push((location, index.data.as_ref(), data.data.as_ref()));
    }
    Ok(out)
}

fn is_directory(name: &str, data: &[u8]) -> bool {
    name.ends_with('/') && data.is_empty()
}

fn layout(member: &str, why: &str) -> Error {
    Error::new(SampleRule::Layout, format!("member {:?} {why}", short(member))).at_path(member.to_string())
}

pub(crate) fn short(s: &str) -> String {
    s.chars().take(64).collect()
}

fn parse_index(index: &[u8], limits: &SampleLimits) -> Result<IndexDoc> {
    if index.len() > limits.max_index_size {
        return Err(Error::new(
            SampleRule::Limit,
            format!("index is {} bytes, over the limit of {}", index.len(), limits.max_index_size),
        ));
    }
    let syntax = |e: serde_json::Error| {
        Error::new(SampleRule::Index, format!("not a samples index: {e}")).at_offset(byte_offset(
            index,
            e.line(),
            e.column(),
        ))
    };
    let probe: Probe = serde_json::from_slice(index).map_err(syntax)?;
    // a header field that is missing, or holds what this reader does not read
    let unknown = |found: Option<serde_json::Value>, path: &str, says: &dyn Fn(String) -> String| {
        let found = found.map_or_else(|| "missing".to_string(), |v| short(&v.to_string()));
        Err(Error::new(SampleRule::UnknownVersion, says(found)).at_path(path))
    };
    match probe.format {
        Some(serde_json::Value::String(s)) if s == FORMAT_TAG => {}
        other => return unknown(other, "format", &|f| format!("format tag is {f}, not {FORMAT_TAG:?}")),
    }
    match probe.version {
        Some(serde_json::Value::Number(n)) if n.as_u64() == Some(INDEX_VERSION) => {}
        other => {
            return unknown(other, "version", &|f| {
                format!("index version {f} is not one this reader knows (it reads {INDEX_VERSION})")
            })
        }
    }
    serde_json::from_slice(index).map_err(syntax)
}

fn check_header(doc: &IndexDoc, location: Option<&Location>) -> Result<()> {
    check_name(&doc.method).map_err(|e| e.at_path("method"))?;
    check_name(&doc.set).map_err(|e| e.at_path("set"))?;
    if let Some(loc) = location
        && (loc.method != doc.method || loc.set != doc.set)
    {
        return Err(Error::new(
            SampleRule::Layout,
            format!(
                "the index records method {:?} set {:?} but is stored under {}/{}",
                short(&doc.method),
                short(&doc.set),
                short(&loc.method),
                short(&loc.set)
            ),
        ));
    }
    Ok(())
}

/// Resolves a list of values against the tensors of one safetensors blob,
/// under the sidecar's rules: every tensor referenced once, declared dtype
/// and shape equal to the stored ones. Used by the runner protocol, whose
/// messages carry values exactly as an index does.
pub(crate) fn resolve_values<'a>(
    docs: Vec<ValueDoc>,
    tensors: &BTreeMap<String, PtnTensor<'a>>,
    limits: &SampleLimits,
    path: &str,
) -> Result<Vec<Value<'a>>> {
    let mut resolver = Resolver { tensors, used: BTreeSet::new(), limits };
    let values = resolver.values(docs, &At::Root(path))?;
    if let Some(key) = tensors.keys().find(|k| !resolver.used.contains(k.as_str())) {
        return Err(Error::new(
            SampleRule::UnreferencedTensor,
            format!("tensor {:?} is referenced by no value", short(key)),
        )
        .at_path(path.to_string()));
    }
    Ok(values)
}

struct Resolver<'t, 'a> {
    tensors: &'t BTreeMap<String, PtnTensor<'a>>,
    used: BTreeSet<&'t str>,
    limits: &'t SampleLimits,
}

/// Where in the index the reader is (`samples[0].calls[3].inputs[1]`),
/// spelled out only when an error names it: a set of a million calls is
/// read without formatting a path for each.
#[derive(Clone, Copy)]
enum At<'p> {
    Root(&'p str),
    Field(&'p At<'p>, &'static str),
    Item(&'p At<'p>, usize),
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Root(name) => f.write_str(name),
            At::Field(parent, name) => write!(f, "{parent}.{name}"),
            At::Item(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// The one count check the reader and the writer share.
pub(crate) fn over(what: &str, n: usize, max: usize, path: impl std::fmt::Display) -> Result<()> {
    if n > max {
        return Err(
            Error::new(SampleRule::Limit, format!("{n} {what}, over the limit of {max}")).at_path(path.to_string())
        );
    }
    Ok(())
}

impl<'t, 'a> Resolver<'t, 'a> {
    fn set(&mut self, doc: IndexDoc) -> Result<SampleSet<'a>> {
        over("samples", doc.samples.len(), self.limits.max_samples, "samples")?;
        let tolerance = tolerance(doc.tolerance, "tolerance")?;
        let mut samples = Vec::with_capacity(doc.samples.len());
        let root = At::Root("samples");
        for (si, s) in doc.samples.into_iter().enumerate() {
            samples.push(self.sample(s, &At::Item(&root, si))?);
        }
        Ok(SampleSet { method: doc.method, name: doc.set, tolerance, samples })
    }

    fn sample(&mut self, doc: SampleDoc, at: &At<'_>) -> Result<Sample<'a>> {
        let calls_at = At::Field(at, "calls");
        over("calls", doc.calls.len(), self.limits.max_calls, calls_at)?;
        if let Some(n) = &doc.name {
            over("bytes of sample name", n.len(), self.limits.max_string_len, At::Field(at, "name"))?;
        }
        let tol = tolerance(doc.tolerance, At::Field(at, "tolerance"))?;
        let mut calls = Vec::with_capacity(doc.calls.len());
        for (ci, c) in doc.calls.into_iter().enumerate() {
            calls.push(self.call(c, &At::Item(&calls_at, ci))?);
        }
        Ok(Sample { name: doc.name, tolerance: tol, calls })
    }

    fn call(&mut self, doc: CallDoc, at: &At<'_>) -> Result<Call<'a>> {
        let tol = tolerance(doc.tolerance, At::Field(at, "tolerance"))?;
        let inputs = self.values(doc.inputs, &At::Field(at, "inputs"))?;
        let outputs = self.values(doc.outputs, &At::Field(at, "outputs"))?;
        Ok(Call { inputs, outputs, tolerance: tol })
    }

    fn values(&mut self, docs: Vec<ValueDoc>, at: &At<'_>) -> Result<Vec<Value<'a>>> {
        over("values", docs.len(), self.limits.max_values, at)?;
        let mut out = Vec::with_capacity(docs.len());
        for (i, v) in docs.into_iter().enumerate() {
            out.push(self.value(v, &At::Item(at, i))?);
        }
        Ok(out)
    }

    fn value(&mut self, doc: ValueDoc, at: &At<'_>) -> Result<Value<'a>> {
        Ok(match doc {
            ValueDoc::Tensor { key, dtype, shape } => Value::Tensor(self.tensor(TensorDoc { key, dtype, shape }, at)?),
            ValueDoc::TensorList { items } => {
                let items_at = At::Field(at, "items");
                over("tensors in the list", items.len(), self.limits.max_list_len, items_at)?;
                let mut list = Vec::with_capacity(items.len());
                for (j, t) in items.into_iter().enumerate() {
                    list.push(self.tensor(t, &At::Item(&items_at, j))?);
                }
                Value::TensorList(list)
            }
            ValueDoc::Int { value } => Value::Int(value),
            ValueDoc::Float { value } => Value::Float(value.0),
            ValueDoc::Bool { value } => Value::Bool(value),
            ValueDoc::String { value } => {
                over("bytes of string", value.len(), self.limits.max_string_len, at)?;
                Value::String(value)
            }
            ValueDoc::None {} => Value::None,
        })
    }

    fn tensor(&mut self, doc: TensorDoc, at: &At<'_>) -> Result<PtnTensor<'a>> {
        let Some((key, stored)) = self.tensors.get_key_value(&doc.key) else {
            return Err(Error::new(
                SampleRule::MissingTensor,
                format!("tensor key {:?} is not in {DATA_FILE}", short(&doc.key)),
            )
            .at_path(at.to_string()));
        };
        let code = dtype_code(stored.dtype);
        if code != doc.dtype {
            return Err(Error::new(
                SampleRule::DtypeMismatch,
                format!("tensor {:?} is declared {:?} but stored as {code}", short(&doc.key), short(&doc.dtype)),
            )
            .at_path(at.to_string()));
        }
        if stored.shape != doc.shape {
            return Err(Error::new(
                SampleRule::ShapeMismatch,
                format!(
                    "tensor {:?} is declared with shape {:?} but stored with shape {:?}",
                    short(&doc.key),
                    doc.shape.iter().take(16).collect::<Vec<_>>(),
                    stored.shape
                ),
            )
            .at_path(at.to_string()));
        }
        if !self.used.insert(key.as_str()) {
            return Err(Error::new(
                SampleRule::ReusedTensor,
                format!("tensor {:?} is referenced a second time", short(&doc.key)),
            )
            .at_path(at.to_string()));
        }
        Ok(stored.clone())
    }
}

fn tolerance(doc: Option<ToleranceDoc>, path: impl std::fmt::Display) -> Result<Option<Tolerance>> {
    let Some(d) = doc else { return Ok(None) };
    let t = Tolerance { atol: d.atol, rtol: d.rtol };
    crate::tolerance::check(&t).map_err(|why| Error::new(SampleRule::Tolerance, why).at_path(path.to_string()))?;
    Ok(Some(t))
}

/// Every sidecar problem in a package: the first reading error, or else
/// each set whose method the program lacks and each call contradicting the
/// signature of the method it calls ([`check_signature`](crate::check_signature)).
/// Empty when the sidecar is sound (or absent).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let ptn = pte_ptn::PtnFile::from_bytes(&bytes)?;
/// assert!(pte_samples::check_sidecar(&ptn).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_sidecar(ptn: &PtnFile<'_>) -> Vec<Error> {
    let sets = match read_samples(ptn) {
        Ok(s) => s,
        Err(e) => return vec![e],
    };
    if sets.is_empty() {
        return Vec::new();
    }
    let program = match ptn.native_program(&Default::default()) {
        Ok(p) => p,
        // The program's own rules report an undecodable program.
        Err(_) => return Vec::new(),
    };
    let mut found: Vec<Error> = sets
        .iter()
        .filter(|s| !program.methods.iter().any(|m| m.name == s.method))
        .map(|s| {
            Error::new(
                SampleRule::UnknownMethod,
                format!("samples record calls to {:?}, a method the program lacks", short(&s.method)),
            )
            .at_path(Location::new(s.method.clone(), s.name.clone()).index_member())
        })
        .collect();
    found.extend(sets.iter().flat_map(|s| crate::signature::check_signature(&program, s)));
    found
}
