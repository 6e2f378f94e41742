//! The XNNPACK payload rules: what the backend dereferences and looks up
//! while it builds its subgraph, checked before it does.

use std::collections::{BTreeMap, HashMap, HashSet};

use pte_schema::xnnpack::*;
use pte_schema::{Limits, Result};

use pte_file::rules;

use super::{NamedTensor, NeededKey, PayloadCheck, PayloadIssue, PayloadReader, PayloadSummary};

/// The runtime refuses more external values than this.
const MAX_EXTERNS: u32 = 4096;

/// Value flags the runtime accepts: external input and external output.
const ALLOWED_FLAGS: u32 = 0b11;

/// Node fields that may hold [`XNN_INVALID_VALUE_ID`] ("no value").
const OPTIONAL_IDS: &[&str] = &["bias_id"];

/// Reads `XnnpackBackend` payloads.
///
/// ```
/// use pte_analysis::delegate_payload::{PayloadReader, XnnpackReader};
/// let c = XnnpackReader.check(b"\0\0\0\0XH00\x1e\0", &Default::default());
/// assert_eq!(c.issues[0].rule, "payload.structure");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct XnnpackReader;

impl PayloadReader for XnnpackReader {
    fn backend_id(&self) -> &str {
        XNNPACK_BACKEND_ID
    }

    fn check(&self, payload: &[u8], limits: &Limits) -> PayloadCheck {
        let mut c = PayloadCheck::default();
        let parsed = XnnPayload::new(payload, limits).and_then(|p| Ok((p, p.decode()?)));
        match parsed {
            Err(e) => c.issues.push(PayloadIssue::from_error(rules::PAYLOAD_STRUCTURE, &e)),
            Ok((p, g)) => Checker { c: &mut c, payload: &p, graph: &g, needs: HashMap::new() }.run(),
        }
        c
    }

    fn summary(&self, payload: &[u8], limits: &Limits) -> Result<PayloadSummary> {
        let p = XnnPayload::new(payload, limits)?;
        let g = p.decode()?;
        let mut nodes = BTreeMap::new();
        for n in g.xnodes.iter().flatten() {
            let kind = n.kind.name().map_or_else(|| format!("XNodeUnion({})", n.kind.0), str::to_owned);
            let n = nodes.entry(kind).or_insert(0usize);
            *n = n.saturating_add(1);
        }
        let constants = g.constant_data.as_deref().unwrap_or(&[]);
        let tensors = g
            .xvalues
            .iter()
            .flatten()
            .filter_map(|v| v.tensor().map(|t| (v, t)))
            .map(|(v, t)| tensor_line(v, t, constants))
            .collect();
        Ok(PayloadSummary {
            format: format!(
                "XNNPACK {} ({} header)",
                String::from_utf8_lossy(p.flatbuffer().get(4..8).unwrap_or_default()),
                if p.header().is_some() { "XH00" } else { "no" }
            ),
            nodes,
            tensors,
            named_keys: g.named_keys().map(str::to_owned).collect(),
        })
    }

    fn to_json(&self, payload: &[u8], limits: &Limits) -> Result<serde_json::Value> {
        Ok(xnn_graph_to_json(&XnnPayload::new(payload, limits)?.decode()?))
    }

    fn named_tensors(&self, payload: &[u8], limits: &Limits) -> Vec<(String, NamedTensor)> {
        let Ok(p) = XnnPayload::new(payload, limits) else { return vec![] };
        // without the XH00 header constants are inline (`constant_buffer`): no keys
        if p.header().is_none() {
            return vec![];
        }
        p.decode().map(|g| key_tensors(&g)).unwrap_or_default()
    }
}

/// The `xnn_datatype` name without its prefix (the number when unknown).
fn dtype_name(d: XnnDatatype) -> String {
    d.name().map_or_else(|| d.0.to_string(), |n| n.trim_start_matches("xnn_datatype_").into())
}

/// Every tensor whose data the graph reads from a named-data key: a value's
/// constant, and the scales of per-channel quantization kept in constant
/// data (fp32 per channel, bf16 blockwise, as the backend reads them).
fn key_tensors(g: &XnnGraph) -> Vec<(String, NamedTensor)> {
    let table = g.constant_data.as_deref().unwrap_or(&[]);
    let key = |i: u32| -> Option<String> {
        let c = table.get(usize::try_from(i).ok().filter(|&i| i > 0)?)?;
        c.named_key.clone().filter(|k| !k.is_empty())
    };
    let mut out = vec![];
    for v in g.xvalues.iter().flatten() {
        let Some(t) = v.tensor() else { continue };
        if let Some(k) = key(t.constant_buffer_idx) {
            let shape = t.dims.iter().flatten().map(|&d| u64::from(d)).collect();
            out.push((k, NamedTensor { dtype: dtype_name(t.datatype), shape }));
        }
        let Some(XValueUnion::XNNQuantizedTensorValue(q)) = &v.value else { continue };
        let (idx, n, dtype) = match &q.quant_params {
            Some(QuantParams::PerChannelQuant { scale_buffer_idx, num_scales, .. }) => {
                (*scale_buffer_idx, *num_scales, XnnDatatype::xnn_datatype_fp32)
            }
            Some(QuantParams::PerChannelGroupQuant { scale_buffer_idx, num_scales, .. }) => {
                (*scale_buffer_idx, *num_scales, XnnDatatype::xnn_datatype_bf16)
            }
            _ => continue,
        };
        if let Some(k) = key(idx) {
            out.push((k, NamedTensor { dtype: dtype_name(dtype), shape: vec![u64::from(n)] }));
        }
    }
    out
}

fn tensor_line(v: &XValue, t: &XnnTensorValue, constants: &[ConstantDataOffset]) -> String {
    let dtype = dtype_name(t.datatype);
    let mut line = format!("id {}: {dtype} {:?}", t.id_out, t.dims.as_deref().unwrap_or(&[]));
    if let Some(XValueUnion::XNNQuantizedTensorValue(q)) = &v.value
        && let Some(p) = &q.quant_params
    {
        line.push_str(&format!(" {}", p.type_name()));
    }
    if t.flags & 1 != 0 {
        line.push_str(&format!(" input (external {})", t.external_id));
    }
    if t.flags & 2 != 0 {
        line.push_str(&format!(" output (external {})", t.external_id));
    }
    if t.constant_buffer_idx != 0 {
        match usize::try_from(t.constant_buffer_idx).ok().and_then(|i| constants.get(i)) {
            Some(ConstantDataOffset { named_key: Some(k), size, .. }) => {
                line.push_str(&format!(" constant {size} bytes, key {k}"))
            }
            Some(c) => line.push_str(&format!(" constant {} bytes at {}", c.size, c.offset)),
            None => line.push_str(&format!(" constant #{}", t.constant_buffer_idx)),
        }
    }
    line
}

struct Checker<'a> {
    c: &'a mut PayloadCheck,
    payload: &'a XnnPayload<'a>,
    graph: &'a XnnGraph,
    /// Bytes the backend reads per constant index (largest use wins).
    needs: HashMap<u32, (u64, String)>,
}

impl Checker<'_> {
    fn add(&mut self, rule: pte_core::Rule, path: String, message: String) {
        self.c.issues.push(PayloadIssue::new(rule, path, None, message));
    }

    fn run(mut self) {
        let g = self.graph;
        if g.xvalues.is_none() {
            self.add(
                rules::PAYLOAD_STRUCTURE,
                "xvalues".into(),
                "xvalues is absent (the backend dereferences it)".into(),
            );
        }
        if g.xnodes.is_none() {
            self.add(
                rules::PAYLOAD_STRUCTURE,
                "xnodes".into(),
                "xnodes is absent (the backend dereferences it)".into(),
            );
        }
        if g.num_externs > MAX_EXTERNS {
            self.add(
                rules::PAYLOAD_IDS,
                "num_externs".into(),
                format!("{} external values; the backend accepts at most {MAX_EXTERNS}", g.num_externs),
            );
        }
        let defined = self.values();
        self.nodes(&defined);
        self.constants();
    }

    /// Checks every value and returns the ids they define.
    fn values(&mut self) -> HashSet<u32> {
        let g = self.graph;
        let mut defined = HashSet::new();
        let mut externals = HashSet::new();
        for (i, v) in g.xvalues.iter().flatten().enumerate() {
            let path = format!("xvalues[{i}].xvalue_union");
            let t = match &v.value {
                None => {
                    self.add(rules::PAYLOAD_VALUE, path, "value has no tensor (union tag NONE)".into());
                    continue;
                }
                Some(XValueUnion::XNNQuantizedTensorValue(q)) => {
                    let Some(t) = &q.tensor_value else {
                        self.add(
                            rules::PAYLOAD_VALUE,
                            format!("{path}.tensor_value"),
                            "quantized value has no tensor".into(),
                        );
                        continue;
                    };
                    self.quant(q, t, &path);
                    (t, format!("{path}.tensor_value"))
                }
                Some(XValueUnion::XNNTensorValue(t)) => (t, path),
            };
            let (t, tpath) = t;
            if t.flags & !ALLOWED_FLAGS != 0 {
                self.add(
                    rules::PAYLOAD_VALUE,
                    format!("{tpath}.flags"),
                    format!("unsupported flag bits {:#x}", t.flags),
                );
            }
            let external = t.flags & ALLOWED_FLAGS != 0;
            if t.external_id != XNN_INVALID_VALUE_ID || external {
                if t.external_id >= g.num_externs {
                    self.add(
                        rules::PAYLOAD_IDS,
                        format!("{tpath}.external_id"),
                        format!("external id {} is not below num_externs {}", t.external_id, g.num_externs),
                    );
                } else if !externals.insert(t.external_id) {
                    self.add(
                        rules::PAYLOAD_IDS,
                        format!("{tpath}.external_id"),
                        format!("external id {} is defined twice", t.external_id),
                    );
                }
            }
            if !defined.insert(t.id_out) {
                self.add(
                    rules::PAYLOAD_IDS,
                    format!("{tpath}.id_out"),
                    format!("value id {} is defined twice", t.id_out),
                );
            }
            if t.constant_buffer_idx != 0 {
                let need = t.nbytes().unwrap_or(0);
                self.need(t.constant_buffer_idx, need, format!("{tpath}.constant_buffer_idx"));
            }
        }
        defined
    }

    fn quant(&mut self, q: &XnnQuantizedTensorValue, t: &XnnTensorValue, path: &str) {
        let qpath = format!("{path}.quant_params");
        match &q.quant_params {
            None => self.add(rules::PAYLOAD_VALUE, qpath, "quantized value has no parameters (tag NONE)".into()),
            Some(QuantParams::PerChannelQuant { scale, scale_buffer_idx, num_scales, .. }) => {
                if scale.is_none() {
                    // read even when the scales are in constant data
                    self.add(rules::PAYLOAD_VALUE, format!("{qpath}.scale"), "per-channel scale is absent".into());
                }
                if *scale_buffer_idx != 0 {
                    let need = u64::from(*num_scales).saturating_mul(4);
                    self.need(*scale_buffer_idx, need, format!("{qpath}.scale_buffer_idx"));
                }
            }
            Some(QuantParams::PerChannelGroupQuant { scale, scale_buffer_idx, num_scales, .. }) => {
                if t.dims.as_ref().map_or(0, Vec::len) < 2 {
                    self.add(
                        rules::PAYLOAD_VALUE,
                        format!("{path}.tensor_value.dims"),
                        "blockwise-quantized tensor has fewer than 2 dims (the backend reads dims 0 and 1)".into(),
                    );
                }
                if *scale_buffer_idx != 0 {
                    let need = u64::from(*num_scales).saturating_mul(2);
                    self.need(*scale_buffer_idx, need, format!("{qpath}.scale_buffer_idx"));
                } else if scale.is_none() {
                    self.add(rules::PAYLOAD_VALUE, format!("{qpath}.scale"), "blockwise scale is absent".into());
                }
            }
            Some(_) => {}
        }
    }

    fn need(&mut self, index: u32, bytes: u64, path: String) {
        let g = self.graph;
        let legacy = self.payload.header().is_none();
        let len =
            if legacy { g.constant_buffer.as_ref().map(Vec::len) } else { g.constant_data.as_ref().map(Vec::len) };
        let table = if legacy { "constant_buffer" } else { "constant_data" };
        if usize::try_from(index).ok().is_none_or(|i| i >= len.unwrap_or(0)) {
            self.add(
                rules::PAYLOAD_CONSTANT,
                path,
                format!("constant {index} is not in the {} entries of {table}", len.unwrap_or(0)),
            );
            return;
        }
        let e = self.needs.entry(index).or_insert((0, path));
        e.0 = e.0.max(bytes);
    }

    /// Every constant entry's range, and the bytes each referenced one must hold.
    fn constants(&mut self) {
        let g = self.graph;
        let mut needs: Vec<(u32, (u64, String))> = std::mem::take(&mut self.needs).into_iter().collect();
        needs.sort();
        if self.payload.header().is_none() {
            for (index, (need, path)) in needs {
                let b = usize::try_from(index).ok().and_then(|i| g.constant_buffer.as_ref()?.get(i));
                match b.and_then(|b| b.storage.as_ref()) {
                    None => self.add(rules::PAYLOAD_CONSTANT, path, format!("constant_buffer[{index}] has no storage")),
                    Some(s) if (s.len() as u64) < need => self.add(
                        rules::PAYLOAD_CONSTANT,
                        format!("constant_buffer[{index}].storage"),
                        format!("{} bytes; the backend reads {need}", s.len()),
                    ),
                    Some(_) => {}
                }
            }
            return;
        }
        let region = self.payload.constant_data().len() as u64;
        for (i, c) in g.constant_data.iter().flatten().enumerate() {
            if c.named_key.is_none() && i > 0 && c.offset.checked_add(c.size).is_none_or(|end| end > region) {
                self.add(
                    rules::PAYLOAD_CONSTANT,
                    format!("constant_data[{i}]"),
                    format!("{} bytes at {} run past the {region}-byte constant data", c.size, c.offset),
                );
            }
        }
        for (index, (need, _)) in needs {
            let Some(c) = usize::try_from(index).ok().and_then(|i| g.constant_data.as_ref()?.get(i)) else { continue };
            let path = format!("constant_data[{index}]");
            match &c.named_key {
                Some(k) => self.c.named_keys.push(NeededKey { key: k.clone(), path, min_size: Some(need) }),
                None if need > c.size => self.add(
                    rules::PAYLOAD_CONSTANT,
                    format!("{path}.size"),
                    format!("{} bytes; the backend reads {need}", c.size),
                ),
                None => {}
            }
        }
    }

    fn nodes(&mut self, defined: &HashSet<u32>) {
        for (i, n) in self.graph.xnodes.iter().flatten().enumerate() {
            let path = format!("xnodes[{i}].xnode_union");
            if n.kind == XNodeKind::NONE {
                self.add(rules::PAYLOAD_STRUCTURE, format!("{path}_type"), "node has no body (union tag NONE)".into());
                continue;
            }
            for (field, id) in n.value_ids() {
                if id == XNN_INVALID_VALUE_ID && OPTIONAL_IDS.contains(&field) {
                    continue;
                }
                if !defined.contains(&id) {
                    self.add(
                        rules::PAYLOAD_IDS,
                        format!("{path}.{field}"),
                        format!("{} {field} {id} names no value the payload defines", n.kind),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constant(key: &str) -> ConstantDataOffset {
        ConstantDataOffset { offset: u64::MAX, size: 0, named_key: Some(key.into()) }
    }

    #[test]
    fn quantized_weights_and_their_scales_are_described_by_key() {
        let weight = XnnTensorValue {
            datatype: XnnDatatype::xnn_datatype_qcint8,
            dims: Some(vec![8, 4]),
            constant_buffer_idx: 1,
            ..Default::default()
        };
        let q = XnnQuantizedTensorValue {
            tensor_value: Some(weight),
            quant_params: Some(QuantParams::PerChannelQuant {
                scale: Some(vec![]),
                channel_dim: 0,
                scale_buffer_idx: 2,
                num_scales: 8,
            }),
        };
        let g = XnnGraph {
            xvalues: Some(vec![
                XValue { value: Some(XValueUnion::XNNQuantizedTensorValue(q)) },
                // an index past the table and the reserved entry 0 name nothing
                XValue {
                    value: Some(XValueUnion::XNNTensorValue(XnnTensorValue {
                        constant_buffer_idx: 9,
                        ..Default::default()
                    })),
                },
                XValue { value: None },
            ]),
            constant_data: Some(vec![constant("reserved"), constant("w"), constant("s")]),
            ..Default::default()
        };
        let got = key_tensors(&g);
        assert_eq!(
            got,
            [
                ("w".to_string(), NamedTensor { dtype: "qcint8".into(), shape: vec![8, 4] }),
                ("s".to_string(), NamedTensor { dtype: "fp32".into(), shape: vec![8] }),
            ]
        );
    }
}
