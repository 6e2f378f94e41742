//! `pte info` of a `.pte`, printed as the verified program is read in place
//! (`formats::pte_view`): the summary holds what is aggregated, and every
//! list that grows with the file (segments, constants, mutable buffers,
//! named data, tensors) is written one entry at a time, so memory does not
//! grow with the program.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{json, Value};

use pte_core::FileKind;
use pte_file::{tensor_label, Unnamed};
use pte_schema::{DeviceType, InstructionRef, List, PlanView, TensorView, ValueRef};

use crate::failure::{at, CmdResult, Failure};
use crate::formats::pte_view::{Kind, PteView, Subs, Table, Use};
use crate::formats::{inspect, pte};
use crate::input::require_kind;

/// `pte info FILE` (text or `--json`) for a `.pte`.
pub(crate) fn run(file: &Path, bytes: &[u8], json: bool, tensors: bool) -> CmdResult {
    require_kind(file, bytes, FileKind::Pte)?;
    let p = PteView::read(bytes, Table::Referenced).map_err(at(file))?;
    let info = Info::new(&p, file, tensors);
    write_stdout(|w| {
        if json {
            serde_json::to_writer_pretty(&mut *w, &info)?;
            return w.write_all(b"\n");
        }
        info.write_text(w)
    })
}

/// The `info --json` object of a `.pte` read whole (the batch's reading).
pub(crate) fn value(file: &Path, bytes: &[u8], tensors: bool) -> Result<Value, Failure> {
    require_kind(file, bytes, FileKind::Pte)?;
    let p = PteView::read(bytes, Table::Whole).map_err(at(file))?;
    Ok(serde_json::to_value(Info::new(&p, file, tensors))?)
}

/// Runs `write` over a buffered standard output; standard output closed
/// early (`pte info x | head`) ends the process quietly.
pub(crate) fn write_stdout(write: impl FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>) -> CmdResult {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if write(&mut out).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
    Ok(())
}

/// The summary with its `key` entry written from `rows`: the same keys in
/// the same (sorted) order, so the text is what the whole tree gives.
pub(crate) struct WithRows<'v, R> {
    pub(crate) summary: &'v Value,
    pub(crate) key: &'static str,
    pub(crate) rows: R,
}

impl<R: Serialize> Serialize for WithRows<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(fields) = self.summary.as_object() else { return self.summary.serialize(s) };
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (k, x) in fields {
            if k == self.key {
                map.serialize_entry(k, &self.rows)?;
            } else {
                map.serialize_entry(k, x)?;
            }
        }
        map.end()
    }
}

/// A list written from a fresh iterator each time it is serialized.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in (self.0)() {
            seq.serialize_element(&x)?;
        }
        seq.end()
    }
}

/// Everything `info` shows of one `.pte`.
struct Info<'v, 'a> {
    p: &'v PteView<'a>,
    /// The summary, its lists that grow with the file left null.
    summary: Value,
    constants: Option<Subs<'a>>,
    mutable: Option<Vec<Subs<'a>>>,
    named_ok: bool,
    kinds: BTreeMap<u32, Vec<String>>,
    /// The tensor table's entries (with `--tensors`).
    uses: Option<Vec<Use>>,
    methods: Vec<String>,
}

impl<'v, 'a> Info<'v, 'a> {
    fn new(p: &'v PteView<'a>, file: &Path, tensors: bool) -> Self {
        let constants = p.constants();
        let mutable = p.mutable_segments();
        let table_ok = constants.is_some() && mutable.is_some();
        let mut summary = summary_json(p);
        summary["external_data"] = inspect::external_groups(p.external_names(table_ok), file);
        let uses = tensors.then(|| if table_ok { p.tensor_uses() } else { vec![] });
        if tensors {
            summary["tensors"] = Value::Null;
        }
        let methods = (0..p.view.plan_count()).map(|i| p.method_name(u32::try_from(i).unwrap_or(u32::MAX))).collect();
        Info { p, summary, constants, mutable, named_ok: p.named_ok(), kinds: p.segment_kinds(), uses, methods }
    }

    fn segment_rows(&self) -> impl Iterator<Item = Value> + '_ {
        self.p
            .segments()
            .enumerate()
            .map(|(i, s)| pte::segment_json(i, &s, u32::try_from(i).ok().and_then(|i| self.kinds.get(&i))))
    }

    fn constant_rows(&self) -> impl Iterator<Item = Value> + '_ {
        self.constants
            .iter()
            .flat_map(Subs::iter)
            .map(|c| json!({"index": c.index, "offset": c.offset, "size": c.len, "span": c.span}))
    }

    fn mutable_list(&self) -> impl Iterator<Item = &Subs<'a>> + '_ {
        self.mutable.iter().flatten()
    }

    fn named_rows(&self) -> impl Iterator<Item = Value> + '_ {
        let rows = self.named_ok.then(|| self.p.named()).into_iter().flatten();
        rows.map(|(key, i, b)| json!({"key": key, "segment_index": i, "size": b.len()}))
    }

    /// The tensor table's rows; `users` left empty where the text, which
    /// does not show them, reads the rows.
    fn tensor_rows(&self, users: bool) -> impl Iterator<Item = Value> + '_ {
        let uses = self.uses.as_deref().unwrap_or(&[]);
        let named = if self.uses.is_some() { crate::formats::named_rows::named_tensor_rows(self.p) } else { vec![] };
        uses.chunk_by(|a, b| (a.kind, a.id) == (b.kind, b.id))
            .filter_map(move |g| self.tensor_row(g, users))
            .chain(named)
    }

    fn method(&self, plan: u32) -> String {
        let name = usize::try_from(plan).ok().and_then(|p| self.methods.get(p));
        name.cloned().unwrap_or_else(|| format!("plan{plan}"))
    }

    /// One entry of the tensor table, as `PteFile::tensors` gives it.
    fn tensor_row(&self, uses: &[Use], users: bool) -> Option<Value> {
        let first = uses.first()?;
        let t = self.p.tensor(first.plan, first.value)?;
        let method = self.method(first.plan);
        let unnamed = match first.kind {
            Kind::Constant => Unnamed::Constant(first.id),
            Kind::Mutable => Unnamed::Mutable(first.id),
            Kind::External | Kind::Planned => {
                Unnamed::Value { method: &method, value: usize::try_from(first.value).unwrap_or(usize::MAX) }
            }
        };
        let name = tensor_label(t.fqn(), unnamed);
        let sizes: Vec<i32> = t.sizes().map(|l| l.iter().collect()).unwrap_or_default();
        let dtype = t.scalar_type();
        let numel = sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(u64::try_from(s).ok()?));
        let nbytes = numel.and_then(|n| n.checked_mul(dtype.element_size()?));
        let at = usize::try_from(first.id).unwrap_or(usize::MAX);
        let data = match first.kind {
            Kind::Constant => self.constants.as_ref().and_then(|c| Some((c.get(at)?, c.segment))),
            Kind::Mutable => self.mutable.as_ref().and_then(|m| m.first()).and_then(|m| Some((m.get(at)?, m.segment))),
            Kind::External | Kind::Planned => None,
        };
        let segment = data.and_then(|(_, seg)| seg);
        let range = data.and_then(|(c, seg)| {
            let start = self.p.view.segment(usize::try_from(seg?).ok()?)?.offset.checked_add(c.offset)?;
            Some((start, start.checked_add(c.len)?))
        });
        let base = self.p.base;
        let file_range = range.and_then(|(s, e)| Some([base.checked_add(s)?, base.checked_add(e)?]));
        let storage = match first.kind {
            Kind::Constant => "constant",
            Kind::External => "external",
            Kind::Mutable | Kind::Planned => "mutable",
        };
        Some(json!({
            "name": name,
            "named": t.fqn().is_some(),
            "storage": storage,
            "dtype": dtype.to_string(),
            "sizes": sizes,
            "dim_order": t.dim_order().unwrap_or(&[]),
            "dynamism": t.shape_dynamism().to_string(),
            "device": t.device_type().unwrap_or(DeviceType::CPU).to_string(),
            "data_buffer_idx": t.data_buffer_idx(),
            "nbytes": nbytes,
            "segment": segment,
            "file_range": file_range,
            "stored": data.map(|(c, _)| c.len),
            "users": uses
                .iter()
                .filter(|_| users)
                .map(|u| json!({"method": self.method(u.plan), "value": u.value}))
                .collect::<Vec<_>>(),
        }))
    }

    fn write_text(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(pte::text_head(&self.summary).as_bytes())?;
        w.write_all(pte::segments_title(self.p.view.segment_count()).as_bytes())?;
        for row in self.segment_rows() {
            w.write_all(pte::segment_line(&row).as_bytes())?;
        }
        let (n, total) = self
            .constants
            .iter()
            .flat_map(Subs::iter)
            .fold((0u64, 0u64), |(n, t), c| (n.saturating_add(1), t.saturating_add(c.len)));
        w.write_all(pte::constants_line(n, total).as_bytes())?;
        for (k, m) in self.mutable_list().enumerate() {
            w.write_all(pte::mutable_line(k, m.len() as u64).as_bytes())?;
        }
        w.write_all(pte::named_title(self.named_rows().count()).as_bytes())?;
        for row in self.named_rows() {
            w.write_all(pte::named_line(&row).as_bytes())?;
        }
        w.write_all(inspect::external_text(&self.summary["external_data"]).as_bytes())?;
        if self.uses.is_some() {
            inspect::write_tensor_table(w, || self.tensor_rows(false))?;
        }
        Ok(())
    }
}

impl Serialize for Info<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(fields) = self.summary.as_object() else { return self.summary.serialize(s) };
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (k, x) in fields {
            match k.as_str() {
                "segments" => map.serialize_entry(k, &Seq(|| self.segment_rows()))?,
                "constants" => map.serialize_entry(k, &Seq(|| self.constant_rows()))?,
                "mutable_segments" => map.serialize_entry(
                    k,
                    &Seq(|| {
                        self.mutable_list().map(|m| {
                            Seq(move || m.iter().map(|c| json!({"index": c.index, "offset": c.offset, "size": c.len})))
                        })
                    }),
                )?,
                "named_data" => map.serialize_entry(k, &Seq(|| self.named_rows()))?,
                "tensors" => map.serialize_entry(k, &Seq(|| self.tensor_rows(true)))?,
                _ => map.serialize_entry(k, x)?,
            }
        }
        map.end()
    }
}

/// The summary without the lists that grow with the file (left null).
fn summary_json(p: &PteView<'_>) -> Value {
    let v = &p.view;
    let methods: Vec<Value> = p.plans().map(|plan| method_json(&plan)).collect();
    let delegates: Vec<Value> = p
        .delegates()
        .unwrap_or_default()
        .iter()
        .map(|d| {
            json!({"method": d.plan, "delegate": d.delegate, "id": d.id,
            "location": d.location.name().unwrap_or("unknown"), "index": d.index, "size": d.bytes.len(),
            "payload": crate::formats::payload::summary_json(d.id, d.bytes)})
        })
        .collect();
    json!({
        "format": "pte",
        "file_size": p.bytes.len(),
        "version": v.version(),
        "extended_header": pte::header_json(p.header.as_ref()),
        "methods": methods,
        "delegates": delegates,
        "segments": null,
        "constants": null,
        "mutable_segments": null,
        "named_data": null,
        "inline_delegate_data": v.inline_delegate_count().unwrap_or(0),
        "legacy_constant_buffer": v.constant_buffer().map_or(0, |b| b.len()),
    })
}

fn method_json(plan: &PlanView<'_>) -> Value {
    let chains = || plan.chains().into_iter().flatten();
    let instructions: usize = chains().map(|c| c.instruction_count()).sum();
    let kernel_calls = chains()
        .flat_map(|c| c.instructions().into_iter().flatten())
        .filter(|i| matches!(i, InstructionRef::KernelCall { .. }))
        .count();
    let operators: Vec<String> = (0..plan.operator_count())
        .filter_map(|i| plan.operator(i))
        .map(|(name, overload)| match overload {
            Some(ov) if !ov.is_empty() => format!("{}.{ov}", name.unwrap_or("")),
            _ => name.unwrap_or("").to_string(),
        })
        .collect();
    let sizes = plan.buffer_sizes();
    let devices: Vec<Value> = plan
        .buffer_devices()
        .into_iter()
        .flatten()
        .map(|d| {
            let size = usize::try_from(d.buffer_idx).ok().and_then(|i| sizes.and_then(|s| s.get(i)));
            json!({"buffer": d.buffer_idx, "size": size, "device": d.device_type.to_string(),
                   "device_index": d.device_index, "cpu": d.device_type == DeviceType::CPU})
        })
        .collect();
    json!({
        "name": plan.name(),
        "inputs": io_json(plan, plan.input_list()),
        "outputs": io_json(plan, plan.output_list()),
        "values": plan.value_count(),
        "instructions": instructions,
        "kernel_calls": kernel_calls,
        "operators": operators,
        "planned_buffers": sizes.into_iter().flat_map(|s| s.iter().skip(1)).collect::<Vec<_>>(),
        "buffer_devices": devices,
    })
}

fn io_json(plan: &PlanView<'_>, list: Option<List<'_, i32>>) -> Vec<Value> {
    list.into_iter()
        .flat_map(|l| l.iter())
        .map(|i| match usize::try_from(i).ok().and_then(|j| plan.value_ref(j)) {
            Some(ValueRef::Tensor(t)) => json!({"index": i, "kind": "Tensor", "tensor": tensor_json(&t)}),
            Some(v) => json!({"index": i, "kind": type_name(&v)}),
            None => json!({"index": i, "kind": null}),
        })
        .collect()
}

/// The model's name of a value's kind (`KernelTypes::type_name`); null for an unset union.
fn type_name(v: &ValueRef<'_>) -> Option<&'static str> {
    Some(match v {
        ValueRef::None | ValueRef::Unknown(_) => return None,
        ValueRef::Null => "Null",
        ValueRef::Int(_) => "Int",
        ValueRef::Bool(_) => "Bool",
        ValueRef::Double(_) => "Double",
        ValueRef::Tensor(_) => "Tensor",
        ValueRef::String(_) => "String",
        ValueRef::IntList(_) => "IntList",
        ValueRef::DoubleList(_) => "DoubleList",
        ValueRef::BoolList(_) => "BoolList",
        ValueRef::TensorList(_) => "TensorList",
        ValueRef::OptionalTensorList(_) => "OptionalTensorList",
    })
}

fn tensor_json(t: &TensorView<'_>) -> Value {
    let (dtype, dynamism) = (t.scalar_type(), t.shape_dynamism());
    json!({
        "dtype": dtype.name().map_or_else(|| format!("ScalarType({})", dtype.0), str::to_string),
        "sizes": t.sizes().map(|l| l.iter().collect::<Vec<_>>()),
        "dim_order": t.dim_order(),
        "dynamism": dynamism.name().map_or_else(|| dynamism.0.to_string(), str::to_string),
        "nbytes": t.nbytes(),
        "fqn": t.fqn(),
        "external": t.is_external(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
mod tests {
    use super::*;

    /// The corpus programs and damaged copies of them (bytes of the program
    /// overwritten, a few at a time, from a fixed seed).
    fn programs() -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
        let mut out = vec![];
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let path = e.path().join("model.pte");
            if let Ok(bytes) = std::fs::read(&path) {
                out.push((path, bytes));
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let whole = out.clone();
        for (path, bytes) in &whole {
            let end = pte_file::verify::program_region(bytes).map_or(bytes.len(), |(_, r)| r.len());
            for _ in 0..40 {
                let mut b = bytes.clone();
                for _ in 0..=next() % 3 {
                    let i = 8 + (next() as usize) % (end - 8);
                    b[i] = [0, 1, 2, 0xff, 0x7f, next() as u8][(next() % 6) as usize];
                }
                out.push((path.clone(), b));
            }
        }
        out
    }

    /// The view-based object is the one the decoded model gives
    /// (`pte::info_json`), and a file the reader refuses is refused with
    /// the same error.
    #[test]
    fn agrees_with_the_decoded_model() {
        let (mut read, mut refused) = (0, 0);
        for (path, bytes) in programs() {
            let got = value(&path, &bytes, false);
            let full = match pte_file::PteFile::from_bytes(&bytes) {
                Ok(full) => full,
                Err(e) => {
                    let got = got.err().map(|f| f.to_string());
                    assert_eq!(got, Some(format!("{}: {e}", path.display())));
                    refused += 1;
                    continue;
                }
            };
            let mut got = got.unwrap();
            for m in got["methods"].as_array_mut().unwrap() {
                m.as_object_mut().unwrap().remove("buffer_devices");
            }
            let want = pte::info_json(&full, &bytes);
            for (k, x) in want.as_object().unwrap() {
                assert_eq!(&got[k], x, "{} {k}", path.display());
            }
            read += 1;
        }
        assert!(read > 100 && refused > 100, "{read} read, {refused} refused");
    }
}
