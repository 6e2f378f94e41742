//! The JSON flatc prints for an `XNNGraph` (`flatc --json --strict-json
//! --defaults-json` with ExecuTorch's `schema.fbs`): absent tables, vectors
//! and strings are left out, scalars are written even at their default,
//! enums and union tags are their schema names (numbers when undeclared).
//! Floats are written in their shortest form that reads back to the same
//! `f32`; non-finite ones as the strings `"inf"`, `"-inf"` and `"nan"`.
//!
//! The fields only the runtime schema declares are written only when they
//! carry something (`dq_datatype` when not invalid, `constant_buffer` and
//! `mem_buffer_sizes` when present), so a payload from a current exporter
//! prints exactly as flatc prints it with the exporter's schema.

use serde_json::{json, Map, Value};

use super::model::*;

/// Renders `graph` as flatc's JSON.
///
/// ```
/// use pte_schema::xnnpack::*;
/// let g = XnnGraph { num_externs: 2, xnodes: Some(vec![]), ..Default::default() };
/// let v = xnn_graph_to_json(&g);
/// assert_eq!(v["num_externs"], 2);
/// assert!(v.get("version").is_none());
/// ```
pub fn xnn_graph_to_json(graph: &XnnGraph) -> Value {
    let mut o = Map::new();
    if let Some(v) = &graph.version {
        o.insert("version".into(), json!(v));
    }
    if let Some(n) = &graph.xnodes {
        o.insert("xnodes".into(), Value::Array(n.iter().map(node).collect()));
    }
    if let Some(v) = &graph.xvalues {
        o.insert("xvalues".into(), Value::Array(v.iter().map(value).collect()));
    }
    o.insert("num_externs".into(), json!(graph.num_externs));
    if let Some(v) = &graph.input_ids {
        o.insert("input_ids".into(), json!(v));
    }
    if let Some(v) = &graph.output_ids {
        o.insert("output_ids".into(), json!(v));
    }
    if let Some(b) = &graph.constant_buffer {
        let list =
            b.iter().map(|b| b.storage.as_ref().map_or_else(|| json!({}), |s| json!({ "storage": s }))).collect();
        o.insert("constant_buffer".into(), Value::Array(list));
    }
    if let Some(v) = &graph.mem_buffer_sizes {
        o.insert("mem_buffer_sizes".into(), json!(v));
    }
    if let Some(c) = &graph.constant_data {
        let list = c
            .iter()
            .map(|c| {
                let mut e = Map::new();
                e.insert("offset".into(), json!(c.offset));
                e.insert("size".into(), json!(c.size));
                if let Some(k) = &c.named_key {
                    e.insert("named_key".into(), json!(k));
                }
                Value::Object(e)
            })
            .collect();
        o.insert("constant_data".into(), Value::Array(list));
    }
    Value::Object(o)
}

/// An `f32` in its shortest round-tripping decimal form.
pub(crate) fn float(x: f32) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        format!("{x}").parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
    }
}

fn name_or_int(name: Option<&str>, value: Value) -> Value {
    name.map_or(value, |n| json!(n))
}

fn node(n: &XNode) -> Value {
    let mut o = Map::new();
    o.insert("xnode_union_type".into(), name_or_int(n.kind.name(), json!(n.kind.0)));
    if n.kind.0 != 0 {
        let mut body = Map::new();
        for (name, f) in &n.fields {
            let v = match f {
                Field::U32(x) => json!(x),
                Field::I32(x) => json!(x),
                Field::F32(x) => float(*x),
                Field::U32s(x) => json!(x),
            };
            body.insert((*name).into(), v);
        }
        o.insert("xnode_union".into(), Value::Object(body));
    }
    o.insert("debug_handle".into(), json!(n.debug_handle));
    if let Some(m) = &n.output_min_max {
        o.insert(
            "output_min_max".into(),
            json!({ "output_min": float(m.output_min), "output_max": float(m.output_max) }),
        );
    }
    Value::Object(o)
}

fn tensor(t: &XnnTensorValue) -> Value {
    let mut o = Map::new();
    o.insert("datatype".into(), name_or_int(t.datatype.name(), json!(t.datatype.0)));
    o.insert("num_dims".into(), json!(t.num_dims));
    if let Some(d) = &t.dims {
        o.insert("dims".into(), json!(d));
    }
    o.insert("constant_buffer_idx".into(), json!(t.constant_buffer_idx));
    o.insert("external_id".into(), json!(t.external_id));
    o.insert("flags".into(), json!(t.flags));
    o.insert("id_out".into(), json!(t.id_out));
    if t.dq_datatype.0 != 0 {
        o.insert("dq_datatype".into(), name_or_int(t.dq_datatype.name(), json!(t.dq_datatype.0)));
    }
    Value::Object(o)
}

fn floats(v: &[f32]) -> Value {
    Value::Array(v.iter().map(|x| float(*x)).collect())
}

fn quant(q: &QuantParams) -> Value {
    let mut o = Map::new();
    match q {
        QuantParams::PerChannelQuant { scale, channel_dim, scale_buffer_idx, num_scales } => {
            if let Some(s) = scale {
                o.insert("scale".into(), floats(s));
            }
            o.insert("channel_dim".into(), json!(channel_dim));
            o.insert("scale_buffer_idx".into(), json!(scale_buffer_idx));
            o.insert("num_scales".into(), json!(num_scales));
        }
        QuantParams::PerTensorQuant { scale, zero_point } => {
            o.insert("scale".into(), float(*scale));
            o.insert("zero_point".into(), json!(zero_point));
        }
        QuantParams::PerTokenDynamicQuant { num_nonbatch_dims } => {
            o.insert("num_nonbatch_dims".into(), json!(num_nonbatch_dims));
        }
        QuantParams::PerChannelGroupQuant { scale, channel_dim, group_size, scale_buffer_idx, num_scales } => {
            if let Some(s) = scale {
                o.insert("scale".into(), floats(s));
            }
            o.insert("channel_dim".into(), json!(channel_dim));
            o.insert("group_size".into(), json!(group_size));
            o.insert("scale_buffer_idx".into(), json!(scale_buffer_idx));
            o.insert("num_scales".into(), json!(num_scales));
        }
    }
    Value::Object(o)
}

fn value(v: &XValue) -> Value {
    let mut o = Map::new();
    match &v.value {
        None => {
            o.insert("xvalue_union_type".into(), json!("NONE"));
        }
        Some(u) => {
            o.insert("xvalue_union_type".into(), json!(u.type_name()));
            let body = match u {
                XValueUnion::XNNTensorValue(t) => tensor(t),
                XValueUnion::XNNQuantizedTensorValue(q) => {
                    let mut b = Map::new();
                    if let Some(t) = &q.tensor_value {
                        b.insert("tensor_value".into(), tensor(t));
                    }
                    match &q.quant_params {
                        None => {
                            b.insert("quant_params_type".into(), json!("NONE"));
                        }
                        Some(p) => {
                            b.insert("quant_params_type".into(), json!(p.type_name()));
                            b.insert("quant_params".into(), quant(p));
                        }
                    }
                    Value::Object(b)
                }
            };
            o.insert("xvalue_union".into(), body);
        }
    }
    Value::Object(o)
}
