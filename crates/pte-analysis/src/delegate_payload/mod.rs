//! Delegate payloads as their backends read them.
//!
//! A program's delegates carry opaque bytes for a backend (the "processed"
//! blob, inline or in a segment). A [`PayloadReader`] knows one backend's
//! format: it checks a payload the way that backend will parse it at load
//! time and lists the named-data keys it will ask for. Readers are looked up
//! by delegate id in a [`PayloadRegistry`]; the verifier runs whatever
//! readers the registry holds, so supporting another backend is one more
//! `register` call, not a verifier change. Payloads of unknown backends are
//! left alone.
//!
//! Violations name the delegate (`execution_plan[P].delegates[D].processed`
//! followed by the field path inside the payload) and give file offsets: the
//! byte the reader points at, else the payload's first byte.
//!
//! Rules: `payload.structure`, `payload.ids`, `payload.value`,
//! `payload.constant`, `payload.named_key` (a warning: the key may come from
//! a `.ptd` at load time) and, with linked `.ptd` files, `link.payload_key`.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
//! let pte = pte_file::PteFile::from_bytes(&bytes)?;
//! let reg = pte_analysis::delegate_payload::PayloadRegistry::builtin();
//! let blob = &pte.delegate_blobs()?[0];
//! let reader = reg.get(blob.id).unwrap();
//! let check = reader.check(blob.bytes, &Default::default());
//! assert!(check.issues.is_empty());
//! assert_eq!(check.named_keys.len(), 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod native;
mod xnnpack;

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use pte_schema::{DataLocation, Limits, Program, Result};

use pte_core::{Report, Rule, Violation};
use pte_file::ptd::PtdFile;

use pte_file::rules;

pub use native::{NativeReader, NATIVE_BACKEND_ID};
pub use xnnpack::XnnpackReader;

/// One problem a reader found in a payload.
///
/// ```
/// let i = pte_analysis::delegate_payload::PayloadIssue::new(pte_file::rules::PAYLOAD_IDS, "xnodes[0]", None, "bad id");
/// assert!(!i.warning);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadIssue {
    /// The rule broken (one of [`verify::rules`](pte_file::rules)).
    pub rule: Rule,
    /// Field path inside the payload.
    pub path: String,
    /// Byte offset inside the payload, when known.
    pub offset: Option<u64>,
    /// What is wrong.
    pub message: String,
    /// Whether this makes the file unloadable only in some setups.
    pub warning: bool,
}

impl PayloadIssue {
    /// A violation.
    ///
    /// ```
    /// let i = pte_analysis::delegate_payload::PayloadIssue::new(pte_file::rules::PAYLOAD_IDS, "", Some(4), "x");
    /// assert_eq!(i.offset, Some(4));
    /// ```
    pub fn new(rule: Rule, path: impl Into<String>, offset: Option<u64>, message: impl Into<String>) -> Self {
        PayloadIssue { rule, path: path.into(), offset, message: message.into(), warning: false }
    }

    /// The issue a typed reader error becomes.
    ///
    /// ```
    /// let e = pte_schema::Error::new(pte_schema::ErrorKind::Malformed, "bad").at_path("xh00").at_offset(8);
    /// let i = pte_analysis::delegate_payload::PayloadIssue::from_error(pte_file::rules::PAYLOAD_STRUCTURE, &e);
    /// assert_eq!((i.path.as_str(), i.offset), ("xh00", Some(8)));
    /// ```
    pub fn from_error(rule: Rule, e: &pte_schema::Error) -> Self {
        PayloadIssue::new(rule, e.path(), e.offset(), e.message())
    }
}

/// A named-data key a payload needs at load time.
///
/// ```
/// let k = pte_analysis::delegate_payload::NeededKey { key: "w".into(), path: "constant_data[1]".into(), min_size: Some(16) };
/// assert_eq!(k.min_size, Some(16));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeededKey {
    /// The key.
    pub key: String,
    /// Where the payload names it.
    pub path: String,
    /// Bytes the backend will read from the blob, when known.
    pub min_size: Option<u64>,
}

/// What a reader reports on one payload.
///
/// ```
/// assert!(pte_analysis::delegate_payload::PayloadCheck::default().issues.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PayloadCheck {
    /// Problems found (structural ones stop the reader).
    pub issues: Vec<PayloadIssue>,
    /// Keys the payload will look up in the named data.
    pub named_keys: Vec<NeededKey>,
}

/// A payload in brief, for `info`.
///
/// ```
/// let s = pte_analysis::delegate_payload::PayloadSummary::default();
/// assert!(s.nodes.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PayloadSummary {
    /// Format name and version.
    pub format: String,
    /// Node count per node kind.
    pub nodes: BTreeMap<String, usize>,
    /// One line per tensor.
    pub tensors: Vec<String>,
    /// Named-data keys the payload needs.
    pub named_keys: Vec<String>,
}

/// The element type and shape a delegate payload gives the blob behind a
/// named-data key (an XNNPACK weight stored as named data).
///
/// ```
/// let t = pte_analysis::delegate_payload::NamedTensor { dtype: "fp32".into(), shape: vec![32, 16] };
/// assert_eq!(t.shape.iter().product::<u64>(), 512);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedTensor {
    /// Element type, as the payload's schema names it (XNNPACK: `fp32`,
    /// `fp16`, `qcint8`, ... without the `xnn_datatype_` prefix).
    pub dtype: String,
    /// Dimension sizes.
    pub shape: Vec<u64>,
}

/// One backend's payload format.
///
/// ```
/// use pte_analysis::delegate_payload::*;
/// struct Empty;
/// impl PayloadReader for Empty {
///     fn backend_id(&self) -> &str { "EmptyBackend" }
///     fn check(&self, payload: &[u8], _: &pte_schema::Limits) -> PayloadCheck {
///         let mut c = PayloadCheck::default();
///         if !payload.is_empty() { c.issues.push(PayloadIssue::new(pte_file::rules::PAYLOAD_STRUCTURE, "", Some(0), "not empty")); }
///         c
///     }
///     fn summary(&self, _: &[u8], _: &pte_schema::Limits) -> pte_schema::Result<PayloadSummary> { Ok(Default::default()) }
///     fn to_json(&self, _: &[u8], _: &pte_schema::Limits) -> pte_schema::Result<serde_json::Value> { Ok(serde_json::json!({})) }
/// }
/// let mut reg = PayloadRegistry::builtin();
/// reg.register(Box::new(Empty));
/// assert!(reg.get("EmptyBackend").is_some());
/// ```
pub trait PayloadReader: Send + Sync {
    /// The delegate id this reader handles (`BackendDelegate.id`).
    fn backend_id(&self) -> &str;
    /// Checks `payload` as the backend will read it.
    fn check(&self, payload: &[u8], limits: &Limits) -> PayloadCheck;
    /// Summarizes `payload`; an error when it does not parse.
    fn summary(&self, payload: &[u8], limits: &Limits) -> Result<PayloadSummary>;
    /// The payload as JSON (flatc's form for flatbuffer payloads).
    fn to_json(&self, payload: &[u8], limits: &Limits) -> Result<serde_json::Value>;
    /// The tensors the payload reads from named data, each with its key, in
    /// the payload's order; nothing when the payload does not parse. By
    /// default a backend describes none.
    fn named_tensors(&self, _payload: &[u8], _limits: &Limits) -> Vec<(String, NamedTensor)> {
        Vec::new()
    }
}

/// Payload readers by backend id.
///
/// ```
/// let reg = pte_analysis::delegate_payload::PayloadRegistry::builtin();
/// assert!(reg.get("XnnpackBackend").is_some());
/// assert!(reg.get("SomethingElse").is_none());
/// ```
#[derive(Default)]
pub struct PayloadRegistry {
    readers: Vec<Box<dyn PayloadReader>>,
}

impl std::fmt::Debug for PayloadRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.readers.iter().map(|r| r.backend_id())).finish()
    }
}

impl PayloadRegistry {
    /// The readers this crate ships: XNNPACK and the native backend.
    ///
    /// ```
    /// assert_eq!(pte_analysis::delegate_payload::PayloadRegistry::builtin().ids().count(), 2);
    /// ```
    pub fn builtin() -> Self {
        let mut r = PayloadRegistry::default();
        r.register(Box::new(XnnpackReader));
        r.register(Box::new(NativeReader));
        r
    }

    /// Adds `reader`, replacing any reader for the same backend id.
    ///
    /// ```
    /// let mut reg = pte_analysis::delegate_payload::PayloadRegistry::default();
    /// reg.register(Box::new(pte_analysis::delegate_payload::XnnpackReader));
    /// assert_eq!(reg.ids().collect::<Vec<_>>(), ["XnnpackBackend"]);
    /// ```
    pub fn register(&mut self, reader: Box<dyn PayloadReader>) {
        self.readers.retain(|r| r.backend_id() != reader.backend_id());
        self.readers.push(reader);
    }

    /// The reader for delegate id `id`.
    ///
    /// ```
    /// let reg = pte_analysis::delegate_payload::PayloadRegistry::builtin();
    /// assert_eq!(reg.get("NativeBackend").map(|r| r.backend_id()), Some("NativeBackend"));
    /// ```
    pub fn get(&self, id: &str) -> Option<&dyn PayloadReader> {
        self.readers.iter().find(|r| r.backend_id() == id).map(|r| r.as_ref())
    }

    /// Backend ids with a reader.
    ///
    /// ```
    /// assert!(pte_analysis::delegate_payload::PayloadRegistry::builtin().ids().any(|i| i == "XnnpackBackend"));
    /// ```
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.readers.iter().map(|r| r.backend_id())
    }
}

/// The registry the verifier uses.
///
/// ```
/// assert!(pte_analysis::delegate_payload::builtin_registry().get("XnnpackBackend").is_some());
/// ```
pub fn builtin_registry() -> &'static PayloadRegistry {
    static REG: OnceLock<PayloadRegistry> = OnceLock::new();
    REG.get_or_init(PayloadRegistry::builtin)
}

/// A delegate's payload located in the file.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("inline_delegate/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let p = pte_analysis::delegate_payload::payloads(&pte.program, &bytes);
/// assert_eq!(p[0].id, "XnnpackBackend");
/// assert!(p[0].file_offset.is_some());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Payload<'a> {
    /// Execution plan index.
    pub plan: usize,
    /// Delegate index within the plan.
    pub delegate: usize,
    /// Delegate id.
    pub id: &'a str,
    /// The payload bytes.
    pub bytes: &'a [u8],
    /// Where they start in the file, when known.
    pub file_offset: Option<u64>,
}

impl Payload<'_> {
    /// Field path of the delegate.
    ///
    /// ```
    /// let p = pte_analysis::delegate_payload::Payload { plan: 0, delegate: 1, id: "x", bytes: &[], file_offset: None };
    /// assert_eq!(p.path(), "execution_plan[0].delegates[1]");
    /// ```
    pub fn path(&self) -> String {
        format!("execution_plan[{}].delegates[{}]", self.plan, self.delegate)
    }
}

/// Every delegate payload the file holds, located as the runtime locates
/// them (segment payloads from the extended header's segment base). A
/// reference that does not resolve is skipped: the program rules report it.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let p = pte_analysis::delegate_payload::payloads(&pte.program, &bytes);
/// assert_eq!((p[0].bytes.len(), p[0].file_offset), (1184, Some(1536)));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn payloads<'a>(program: &'a Program<'_>, file: &'a [u8]) -> Vec<Payload<'a>> {
    let base = pte_segments::ExtendedHeader::parse(file).ok().flatten().map_or(0, |h| h.segment_base_offset);
    let mut out = vec![];
    for (p, plan) in program.plans().iter().enumerate() {
        for (d, del) in plan.delegates.iter().flatten().enumerate() {
            let Some(r) = del.processed else { continue };
            let Ok(index) = usize::try_from(r.index) else { continue };
            let located = match r.location {
                DataLocation::INLINE => program
                    .backend_delegate_data
                    .as_deref()
                    .and_then(|b| b.get(index))
                    .and_then(|b| b.data.as_deref())
                    .map(|data| (data, offset_in(file, data))),
                DataLocation::SEGMENT => program.segment_table().get(index).and_then(|s| {
                    let start = base.checked_add(s.offset)?;
                    let end = start.checked_add(s.size)?;
                    let bytes = file.get(usize::try_from(start).ok()?..usize::try_from(end).ok()?)?;
                    Some((bytes, Some(start)))
                }),
                _ => None,
            };
            if let Some((bytes, file_offset)) = located {
                out.push(Payload { plan: p, delegate: d, id: del.id.as_deref().unwrap_or(""), bytes, file_offset });
            }
        }
    }
    out
}

/// Where `inner` starts inside `outer`, when it is borrowed from it.
fn offset_in(outer: &[u8], inner: &[u8]) -> Option<u64> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    (start.checked_add(inner.len())? <= outer.len()).then_some(start as u64)
}

fn violation(p: &Payload<'_>, issue: PayloadIssue) -> Violation {
    let path = if issue.path.is_empty() {
        format!("{}.processed", p.path())
    } else {
        format!("{}.processed.{}", p.path(), issue.path)
    };
    // without a position inside the payload, point at the payload itself
    let offset = p.file_offset.and_then(|base| base.checked_add(issue.offset.unwrap_or(0)));
    Violation { rule: issue.rule, path, offset, message: format!("{} payload: {}", p.id, issue.message) }
}

/// The dtype and shape of every named-data key the given payloads read, as
/// `(delegate id, payload bytes)` pairs: each payload is asked of the reader
/// `registry` holds for its id ([`PayloadReader::named_tensors`]). The
/// first description of a key wins (several delegates sharing one weight
/// describe it alike). A payload that does not parse, or whose backend has
/// no reader, adds nothing; what is kept is bounded by the payloads' sizes
/// (and `limits`), never by what they claim.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let reg = pte_analysis::delegate_payload::builtin_registry();
/// let blobs = pte.delegate_blobs()?;
/// let t = pte_analysis::delegate_payload::named_tensors_of(blobs.iter().map(|d| (d.id, d.bytes)), reg, &Default::default());
/// assert_eq!(t.len(), 4);
/// assert!(t.values().all(|t| t.dtype == "fp32"));
/// let garbage = pte_analysis::delegate_payload::named_tensors_of([("XnnpackBackend", &b"junk"[..])], reg, &Default::default());
/// assert!(garbage.is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn named_tensors_of<'b>(
    payloads: impl IntoIterator<Item = (&'b str, &'b [u8])>,
    registry: &PayloadRegistry,
    limits: &Limits,
) -> BTreeMap<String, NamedTensor> {
    let mut out = BTreeMap::new();
    for (id, bytes) in payloads {
        let Some(reader) = registry.get(id) else { continue };
        for (key, t) in reader.named_tensors(bytes, limits) {
            out.entry(key).or_insert(t);
        }
    }
    out
}

/// [`named_tensors_of`] over every payload of `program` (read from `file`,
/// located as [`payloads`] locates them).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let reg = pte_analysis::delegate_payload::builtin_registry();
/// let t = pte_analysis::delegate_payload::named_tensors(&pte.program, &bytes, reg, &Default::default());
/// let key = pte.named_data()?[0].key;
/// assert_eq!(t[key].shape, [32, 16]);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn named_tensors(
    program: &Program<'_>,
    file: &[u8],
    registry: &PayloadRegistry,
    limits: &Limits,
) -> BTreeMap<String, NamedTensor> {
    named_tensors_of(payloads(program, file).iter().map(|p| (p.id, p.bytes)), registry, limits)
}

/// Checks every payload `registry` has a reader for; keys missing from the
/// program's named data become `payload.named_key` warnings (a `.ptd` may
/// provide them at load time), and a named blob shorter than what the
/// backend reads is a `payload.constant` violation.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let reg = pte_analysis::delegate_payload::builtin_registry();
/// let r = pte_analysis::delegate_payload::check_payloads(&pte.program, &bytes, reg, &Default::default());
/// assert!(r.is_ok() && r.warnings.is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn check_payloads(program: &Program<'_>, file: &[u8], registry: &PayloadRegistry, limits: &Limits) -> Report {
    let mut report = Report::default();
    let named = program_named_sizes(program);
    for p in payloads(program, file) {
        let Some(reader) = registry.get(p.id) else { continue };
        let check = reader.check(p.bytes, limits);
        for issue in check.issues {
            let warning = issue.warning;
            let v = violation(&p, issue);
            if warning {
                report.warnings.push(v);
            } else {
                report.violations.push(v);
            }
        }
        for k in check.named_keys {
            match named.get(k.key.as_str()) {
                None => report.warnings.push(violation(
                    &p,
                    PayloadIssue::new(
                        rules::PAYLOAD_NAMED_KEY,
                        &k.path,
                        None,
                        format!(
                            "key {:?} is not in the program's named data: a .ptd must provide it at load time",
                            k.key
                        ),
                    ),
                )),
                Some(&len) => short_blob(&p, &k, len, "the program's named data", &mut report.violations),
            }
        }
    }
    report
}

fn short_blob(p: &Payload<'_>, k: &NeededKey, len: u64, source: &str, out: &mut Vec<Violation>) {
    if let Some(need) = k.min_size.filter(|&n| n > len) {
        out.push(violation(
            p,
            PayloadIssue::new(
                rules::PAYLOAD_CONSTANT,
                &k.path,
                None,
                format!("key {:?} in {source} holds {len} bytes; the backend reads {need}", k.key),
            ),
        ));
    }
}

/// Blob size of every key of the program's named data (first entry wins, as
/// in the runtime).
fn program_named_sizes<'p>(program: &'p Program<'_>) -> BTreeMap<&'p str, u64> {
    let table = program.segment_table();
    let mut out = BTreeMap::new();
    for n in program.named_data.iter().flatten() {
        let Some(key) = n.key.as_deref() else { continue };
        let size = usize::try_from(n.segment_index).ok().and_then(|i| table.get(i)).map_or(0, |s| s.size);
        out.entry(key).or_insert(size);
    }
    out
}

/// Checks the keys every payload needs against the program's named data and
/// the linked `.ptd` files (each with a name for messages): a key found in
/// neither is a `link.payload_key` violation naming the key and the delegate.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let reg = pte_analysis::delegate_payload::builtin_registry();
/// assert!(pte_analysis::delegate_payload::verify_payload_links(&pte.program, &bytes, reg, &Default::default(), &[]).is_ok());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn verify_payload_links(
    program: &Program<'_>,
    file: &[u8],
    registry: &PayloadRegistry,
    limits: &Limits,
    ptds: &[(&str, &PtdFile<'_>)],
) -> Report {
    let mut report = Report::default();
    let named = program_named_sizes(program);
    let mut reported = HashSet::new();
    for p in payloads(program, file) {
        let Some(reader) = registry.get(p.id) else { continue };
        for k in reader.check(p.bytes, limits).named_keys {
            if named.contains_key(k.key.as_str()) {
                continue;
            }
            let found = ptds.iter().find_map(|(name, ptd)| ptd.get(&k.key).ok().flatten().map(|(_, b)| (name, b)));
            match found {
                Some((name, blob)) => short_blob(&p, &k, blob.len() as u64, name, &mut report.violations),
                None if reported.insert((p.plan, p.delegate, k.key.clone())) => report.violations.push(violation(
                    &p,
                    PayloadIssue::new(
                        rules::LINK_PAYLOAD_KEY,
                        &k.path,
                        None,
                        format!("key {:?} is in neither the program's named data nor the given .ptd files", k.key),
                    ),
                )),
                None => {}
            }
        }
    }
    report
}
