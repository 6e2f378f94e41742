//! `.bpte` support: `info`, `dump` and `verify`, and `pte bpte
//! unbundle|export-samples|bundle`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use std::io::Write;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value as Json};

use pte_file::bpte::BundledFile;
use pte_file::view::SegmentTable;
use pte_schema::bundled::{BundledValue, BundledView, CaseView, Side, SuiteView};

use pte_core::FileKind;

use crate::failure::{at, CmdResult, Failure};
use crate::input::require_kind;

pub(crate) fn read<'a>(path: &Path, bytes: &'a [u8]) -> Result<BundledFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::from_bytes(bytes).map_err(at(path))
}

/// A bundled program checked as [`read`] checks it (the same error where
/// it fails) but read in place: its cases are walked one at a time, never
/// decoded whole (a bundle of 300,000 cases took 300 MiB decoded).
fn view<'a>(path: &Path, bytes: &'a [u8]) -> Result<BundledView<'a>, Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::check(bytes).map_err(at(path))?;
    BundledView::new(bytes, &pte_file::ReadOptions::default().limits).map_err(at(path))
}

/// The embedded program of a bundled program checked as [`read`] checks
/// it, its cases not decoded.
pub(crate) fn program<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a [u8], Failure> {
    require_kind(path, bytes, FileKind::Bpte)?;
    BundledFile::program_in(bytes).map_err(at(path))
}

/// One input or expected output as `info` shows it, typed: a bundle may
/// hold hundreds of thousands of them, each written once to text or JSON.
enum ValueRow<'v> {
    Tensor {
        dtype: String,
        sizes: Option<&'v [i32]>,
        dim_order: Option<&'v [u8]>,
        nbytes: Option<usize>,
        preview: Option<String>,
    },
    Int(i64),
    Bool(bool),
    /// Shown as a string: JSON has no NaN or infinity.
    Double(String),
    None,
}

impl<'v> ValueRow<'v> {
    fn of(v: &'v BundledValue<'_>) -> ValueRow<'v> {
        match v {
            BundledValue::Tensor(t) => {
                let preview = pte_samples::dtype_of(t.scalar_type).and_then(|d| {
                    let shape = t.sizes.as_ref()?.iter().map(|&s| u64::try_from(s).ok()).collect::<Option<Vec<_>>>()?;
                    let pt = pte_ptn::PtnTensor::new(d, shape, t.data.as_deref().unwrap_or(&[])).ok()?;
                    Some(pte_samples::tensor_preview(&pt, 8))
                });
                ValueRow::Tensor {
                    dtype: t
                        .scalar_type
                        .name()
                        .map_or_else(|| format!("ScalarType({})", t.scalar_type.0), str::to_string),
                    sizes: t.sizes.as_deref(),
                    dim_order: t.dim_order.as_deref(),
                    nbytes: t.data.as_ref().map(|d| d.len()),
                    preview,
                }
            }
            BundledValue::Int(i) => ValueRow::Int(*i),
            BundledValue::Bool(b) => ValueRow::Bool(*b),
            BundledValue::Double(d) => ValueRow::Double(d.to_string()),
            BundledValue::None => ValueRow::None,
        }
    }

    /// `tensor float32 [2, 4] [1, 2, ...]`, `int 3`, `none null`.
    fn text(&self) -> String {
        let body = match self {
            ValueRow::Tensor { dtype, sizes, preview, .. } => format!(
                "tensor {} {} {}",
                crate::style::dtype(dtype),
                crate::style::shape(sizes.unwrap_or_default()),
                preview.as_deref().unwrap_or("")
            ),
            ValueRow::Int(i) => format!("int {i}"),
            ValueRow::Bool(b) => format!("bool {b}"),
            ValueRow::Double(d) => format!("double {}", Json::from(d.as_str())),
            ValueRow::None => "none null".into(),
        };
        body.trim_end().to_string()
    }
}

impl Serialize for ValueRow<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // keys in the order a JSON tree sorts them
        let mut m = s.serialize_map(None)?;
        match self {
            ValueRow::Tensor { dtype, sizes, dim_order, nbytes, preview } => {
                m.serialize_entry("dim_order", dim_order)?;
                m.serialize_entry("dtype", dtype)?;
                m.serialize_entry("kind", "tensor")?;
                m.serialize_entry("nbytes", nbytes)?;
                m.serialize_entry("preview", preview)?;
                m.serialize_entry("sizes", sizes)?;
            }
            ValueRow::Int(i) => {
                m.serialize_entry("kind", "int")?;
                m.serialize_entry("value", i)?;
            }
            ValueRow::Bool(b) => {
                m.serialize_entry("kind", "bool")?;
                m.serialize_entry("value", b)?;
            }
            ValueRow::Double(d) => {
                m.serialize_entry("kind", "double")?;
                m.serialize_entry("value", d)?;
            }
            ValueRow::None => m.serialize_entry("kind", "none")?,
        }
        m.end()
    }
}

/// One value read from the view, as `info --json` lists it.
struct ValueJson<'a>(pte_schema::Result<BundledValue<'a>>);

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Ok(v) => ValueRow::of(v).serialize(s),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

/// One case as `info --json` lists it.
struct CaseJson<'a>(CaseView<'a>);

impl Serialize for CaseJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let side = |side| move || self.0.values(side).into_iter().flatten().map(ValueJson);
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("expected_outputs", &Rows(side(Side::ExpectedOutputs)))?;
        m.serialize_entry("inputs", &Rows(side(Side::Inputs)))?;
        m.end()
    }
}

/// A list written from a fresh iterator.
struct Rows<F>(F);

impl<F, I> Serialize for Rows<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

/// The `info --json` object of a bundled program with `test_suites` null
/// (they grow with the file: [`Suites`] writes them one case at a time).
fn summary_json(file: &Path, bytes: &[u8], b: &BundledView<'_>) -> Result<Json, Failure> {
    // the embedded program's summary is the one `pte info` gives a `.pte`
    let options = ::pte::SummaryOptions { table: SegmentTable::Whole, tensors: false, path: Some(file) };
    let embedded = b.program().unwrap_or_default();
    let program = ::pte::Summary::read(embedded, &options).map_err(|e| e.within("program")).map_err(at(file))?;
    let offset = (embedded.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize);
    Ok(json!({
        "format": "bpte",
        "file_size": bytes.len(),
        "version": b.version(),
        "program_offset": offset,
        "program_size": embedded.len(),
        "program": program.to_value(),
        "test_suites": null,
    }))
}

/// The `info --json` object of a bundled program.
pub(crate) fn info_json(file: &Path, bytes: &[u8]) -> Result<Json, Failure> {
    let b = view(file, bytes)?;
    let mut v = summary_json(file, bytes, &b)?;
    v["test_suites"] = serde_json::to_value(Suites(b))?;
    Ok(v)
}

/// Every suite as `info --json` lists it, written a case at a time.
#[derive(Clone, Copy)]
struct Suites<'a>(BundledView<'a>);

/// One suite's cases, written one at a time.
struct Cases<'a>(SuiteView<'a>);

impl Serialize for Cases<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.cases().map(CaseJson))
    }
}

impl Serialize for Suites<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.suites().map(SuiteJson))
    }
}

/// One suite, its keys in the order the JSON tree sorts them.
struct SuiteJson<'a>(SuiteView<'a>);

impl Serialize for SuiteJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("cases", &Cases(self.0))?;
        m.serialize_entry("method", &self.0.method_name())?;
        m.end()
    }
}

/// `pte info` of a bundled program, written as it is walked: a bundle may
/// hold hundreds of thousands of cases, and the output grows with them.
pub(crate) fn info_streamed(file: &Path, bytes: &[u8], json: bool) -> CmdResult {
    let b = view(file, bytes)?;
    let v = summary_json(file, bytes, &b)?;
    crate::formats::pte_info::write_stdout(|w| {
        if json {
            let whole = crate::formats::pte_info::WithRows { summary: &v, key: "test_suites", rows: Suites(b) };
            serde_json::to_writer_pretty(&mut *w, &whole)?;
            return w.write_all(b"\n");
        }
        w.write_all(head_line(&v).as_bytes())?;
        for s in b.suites() {
            w.write_all(suite_line(&json!(s.method_name()), s.case_count().unwrap_or(0)).as_bytes())?;
            for (j, c) in s.cases().enumerate() {
                w.write_all(format!("  case {j}\n").as_bytes())?;
                for (side, label) in [(Side::Inputs, "in"), (Side::ExpectedOutputs, "out")] {
                    for (k, x) in c.values(side).into_iter().flatten().enumerate() {
                        let x = x.map_err(std::io::Error::other)?;
                        w.write_all(format!("    {label}[{k}] {}\n", ValueRow::of(&x).text()).as_bytes())?;
                    }
                }
            }
        }
        w.write_all(tail_text(&v).as_bytes())
    })
}

fn head_line(v: &Json) -> String {
    format!(
        "bundled program, {} bytes, version {}; embedded .pte of {} bytes at offset {}\n",
        v["file_size"], v["version"], v["program_size"], v["program_offset"]
    )
}

fn suite_line(method: &Json, cases: usize) -> String {
    format!("suite {}: {}\n", method, crate::style::count(cases as u64, "case"))
}

/// The lines of case `j` from its JSON object.
fn case_text(j: usize, c: &Json) -> String {
    let mut out = format!("  case {j}\n");
    for (side, label) in [("inputs", "in"), ("expected_outputs", "out")] {
        for (k, x) in c[side].as_array().into_iter().flatten().enumerate() {
            let body = match x["kind"].as_str() {
                Some("tensor") => format!(
                    "tensor {} {} {}",
                    crate::style::dtype_of(&x["dtype"]),
                    crate::style::shape(x["sizes"].as_array().into_iter().flatten()),
                    x["preview"].as_str().unwrap_or("")
                ),
                Some(kind) => format!("{kind} {}", x["value"]),
                None => String::new(),
            };
            out.push_str(&format!("    {label}[{k}] {}\n", body.trim_end()));
        }
    }
    out
}

fn tail_text(v: &Json) -> String {
    format!("embedded program:\n{}", crate::formats::pte::text(&v["program"]))
}

/// The `info` text of a bundled program, from its JSON object.
pub(crate) fn info_text(v: &Json) -> String {
    let mut out = head_line(v);
    for s in v["test_suites"].as_array().into_iter().flatten() {
        let cases = s["cases"].as_array().map_or(&[][..], Vec::as_slice);
        out.push_str(&suite_line(&s["method"], cases.len()));
        for (j, c) in cases.iter().enumerate() {
            out.push_str(&case_text(j, c));
        }
    }
    out.push_str(&tail_text(v));
    out
}

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    require_kind(file, bytes, FileKind::Bpte)?;
    let b = pte_schema::bundled::decode_bundled_program(bytes, &Default::default()).map_err(at(file))?;
    // written as it is walked: the document grows with the cases and tensors
    crate::formats::pte_info::write_stdout(|w| {
        pte_schema::bundled::write_bundled_program_json(&b, &mut *w).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}
