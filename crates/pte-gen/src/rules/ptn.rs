//! The classes breaking the `.ptn` package and samples sidecar rules.

use pte_ptn::verify::rules as ptn_rules;
use pte_samples::rules as samples_rules;
use serde_json::{json, Value as Json};

use crate::corruption::{class, Corruption};
use crate::edit::*;
use pte_core::FileKind;

use super::edits::*;

/// One class per `.ptn` package and samples sidecar rule the corruption catalogue does not break.
pub(super) static CLASSES: &[Corruption] = &[
    class!(
        "ptn.data_key",
        ptn_rules::PTN_DATA_KEY,
        Ptn,
        "a constant's data key is renamed in program.safetensors",
        rule(ptn_rules::PTN_DATA_KEY),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let o = doc.as_object_mut().ok_or("not an object")?;
                    let v = o.remove(&key).ok_or("the key is not stored")?;
                    o.insert(format!("{key}.renamed"), v);
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.dtype",
        ptn_rules::PTN_DTYPE,
        Ptn,
        "a referenced tensor is stored as U8 with the same byte count",
        rule(ptn_rules::PTN_DTYPE),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let t = doc.get_mut(&key).ok_or("the key is not stored")?;
                    let offsets = t.get("data_offsets").and_then(Json::as_array).ok_or("no data_offsets")?;
                    let (a, z) = (offsets.first().and_then(Json::as_u64), offsets.get(1).and_then(Json::as_u64));
                    let n = z.zip(a).and_then(|(z, a)| z.checked_sub(a)).ok_or("bad data_offsets")?;
                    t["dtype"] = json!("U8");
                    t["shape"] = json!([n]);
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.shape",
        ptn_rules::PTN_SHAPE,
        Ptn,
        "a referenced tensor's stored shape gains a leading 1",
        rule(ptn_rules::PTN_SHAPE),
        |b| {
            let key = first_referenced_key(b)?;
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                *st = safetensors_header(st, |doc| {
                    let shape = doc.get_mut(&key).and_then(|t| t.get_mut("shape")).and_then(Json::as_array_mut);
                    shape.ok_or("no shape")?.insert(0, json!(1));
                    Ok(())
                })?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.mutable_alias",
        ptn_rules::PTN_MUTABLE_ALIAS,
        Ptn,
        "a constant is marked mutated and made the target of an alias",
        rule(ptn_rules::PTN_MUTABLE_ALIAS),
        |b| {
            ptn_native(b, |program, m| {
                let c = program
                    .methods
                    .iter_mut()
                    .flat_map(|m| m.constants.iter_mut().flatten())
                    .next()
                    .ok_or("the program has no constant")?;
                c.mutated = true;
                let key = c.data_key.clone();
                let mut aliases: serde_json::Map<String, Json> = match m.iter().find(|(n, _)| n == "aliases.json") {
                    Some((_, d)) => serde_json::from_slice(d).map_err(|e| e.to_string())?,
                    None => serde_json::Map::new(),
                };
                aliases.insert("pte-mutate.alias".into(), Json::String(key));
                let text = Json::Object(aliases).to_string().into_bytes();
                match m.iter_mut().find(|(n, _)| n == "aliases.json") {
                    Some((_, d)) => *d = text,
                    None => m.push(("aliases.json".into(), text)),
                }
                Ok(())
            })
        }
    ),
    class!(
        "ptn.unreferenced",
        ptn_rules::PTN_UNREFERENCED,
        Ptn,
        "program.safetensors gains a one-byte tensor no data key names (a warning)",
        rule(ptn_rules::PTN_UNREFERENCED),
        |b| {
            ptn_members(b, |m| {
                let st = member(m, "program.safetensors")?;
                let mut end = 0u64;
                let mut grown = safetensors_header(st, |doc| {
                    let o = doc.as_object_mut().ok_or("not an object")?;
                    end = o
                        .values()
                        .filter_map(|t| t.get("data_offsets")?.as_array()?.get(1)?.as_u64())
                        .max()
                        .unwrap_or(0);
                    o.insert(
                        "pte-mutate.unreferenced".into(),
                        json!({"dtype": "U8", "shape": [1], "data_offsets": [end, end.saturating_add(1)]}),
                    );
                    Ok(())
                })?;
                grown.push(0x5A);
                *st = grown;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.layout",
        samples_rules::PTN_SAMPLES_LAYOUT,
        Ptn,
        "a sample set's data.safetensors member is removed",
        rule(samples_rules::PTN_SAMPLES_LAYOUT),
        |b| {
            let with = with_samples(b, |_, _| Ok(()))?;
            let data = |n: &str| n.starts_with("samples/") && n.ends_with("/data.safetensors");
            without_members(&with, data, "no sample data member")
        }
    ),
    class!(
        "ptn.samples.index",
        samples_rules::PTN_SAMPLES_INDEX,
        Ptn,
        "a sample index gains an unknown field",
        rule(samples_rules::PTN_SAMPLES_INDEX),
        |b| {
            samples_doc(b, |doc| {
                doc.as_object_mut().ok_or("not an object")?.insert("pte_mutate".into(), json!(1));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.tolerance",
        samples_rules::PTN_SAMPLES_TOLERANCE,
        Ptn,
        "a sample set's tolerance has a negative atol",
        rule(samples_rules::PTN_SAMPLES_TOLERANCE),
        |b| {
            samples_doc(b, |doc| {
                doc.as_object_mut()
                    .ok_or("not an object")?
                    .insert("tolerance".into(), json!({"atol": -1.0, "rtol": 0.0}));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.reused_tensor",
        samples_rules::PTN_SAMPLES_REUSED_TENSOR,
        Ptn,
        "a sample's output names the same tensor key as its input",
        rule(samples_rules::PTN_SAMPLES_REUSED_TENSOR),
        |b| {
            samples_doc(b, |doc| {
                // the whole input value, so dtype and shape agree and only the key is shared
                let input = doc.pointer("/samples/0/calls/0/inputs/0").cloned().ok_or("no input")?;
                *doc.pointer_mut("/samples/0/calls/0/outputs/0").ok_or("no output")? = input;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.safetensors",
        samples_rules::PTN_SAMPLES_SAFETENSORS,
        Ptn,
        "a sample set's data.safetensors is not safetensors",
        rule(samples_rules::PTN_SAMPLES_SAFETENSORS),
        |b| {
            with_samples(b, |_, data| {
                *data = [&8u64.to_le_bytes()[..], b"notjson!"].concat();
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.limit",
        samples_rules::PTN_SAMPLES_LIMIT,
        Ptn,
        "a call has 4,097 inputs, one over the default limit",
        rule(samples_rules::PTN_SAMPLES_LIMIT),
        |b| {
            samples_doc(b, |doc| {
                let inputs =
                    doc.pointer_mut("/samples/0/calls/0/inputs").and_then(Json::as_array_mut).ok_or("no inputs")?;
                inputs.resize(4097, json!({"type": "int", "value": 0}));
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.unknown_method",
        samples_rules::PTN_SAMPLES_UNKNOWN_METHOD,
        Ptn,
        "a sample set records calls to a method the program lacks",
        rule(samples_rules::PTN_SAMPLES_UNKNOWN_METHOD),
        |b| {
            let (mut method, mut set) = (String::new(), String::new());
            let with = samples_doc(b, |doc| {
                method = doc.get("method").and_then(Json::as_str).ok_or("no method")?.to_string();
                set = doc.get("set").and_then(Json::as_str).ok_or("no set")?.to_string();
                doc["method"] = json!("pte_mutate_missing");
                Ok(())
            })?;
            ptn_members(&with, |m| {
                // only the added set moves: the package's own sets stay valid
                let from = format!("samples/{method}/{set}/");
                for (n, _) in m.iter_mut() {
                    if let Some(rest) = n.strip_prefix(&from) {
                        *n = format!("samples/pte_mutate_missing/{set}/{rest}");
                    }
                }
                Ok(())
            })
        }
    ),
    class!(
        "ptn.samples.signature",
        samples_rules::PTN_SAMPLES_SIGNATURE,
        Ptn,
        "a call's first input has one more dimension than the method declares",
        rule(samples_rules::PTN_SAMPLES_SIGNATURE),
        |b| {
            let (bytes, _) = with_call(b, |call| {
                let Some(pte_samples::Value::Tensor(t)) = call.inputs.first_mut() else {
                    return Err("the method's first input is no tensor".into());
                };
                // a trailing dimension of 1 keeps the bytes: only the signature breaks
                t.shape.push(1);
                Ok(())
            })?;
            Ok(bytes)
        }
    ),
];
