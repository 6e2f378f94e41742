//! The native backend's payload: the `NPTG` program (the format of a `.ptn`
//! package's `program.ptg`), whose constants are named-data keys.

use std::collections::BTreeMap;

use pte_schema::native::{decode_native_program, native_program_to_json, NativeProgram, QuantScheme};
use pte_schema::{Limits, Result};

use pte_file::rules;

use super::{NeededKey, PayloadCheck, PayloadIssue, PayloadReader, PayloadSummary};

/// The delegate id of native-backend payloads (the exporter's backend class name).
///
/// ```
/// assert!(pte_analysis::delegate_payload::builtin_registry().get(pte_analysis::delegate_payload::NATIVE_BACKEND_ID).is_some());
/// ```
pub const NATIVE_BACKEND_ID: &str = "NativeBackend";

/// Reads `NativeBackend` payloads.
///
/// ```
/// use pte_analysis::delegate_payload::{NativeReader, PayloadReader};
/// let c = NativeReader.check(b"\x08\0\0\0XN01\0\0\0\0", &Default::default());
/// assert_eq!(c.issues[0].rule, "payload.structure");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct NativeReader;

fn keys(p: &NativeProgram) -> Vec<NeededKey> {
    let mut out = vec![];
    for (m, method) in p.methods.iter().enumerate() {
        for (c, k) in method.constants.iter().flatten().enumerate() {
            let path = format!("methods[{m}].constants[{c}]");
            out.push(NeededKey { key: k.data_key.clone(), path: format!("{path}.data_key"), min_size: None });
            if let Some(QuantScheme::AffineGroup(a)) = k.meta.quant.as_ref().and_then(|q| q.scheme.as_ref()) {
                out.push(NeededKey {
                    key: a.scale_data_key.clone(),
                    path: format!("{path}.meta.quant"),
                    min_size: None,
                });
                if let Some(z) = &a.zero_point_data_key {
                    out.push(NeededKey { key: z.clone(), path: format!("{path}.meta.quant"), min_size: None });
                }
            }
        }
    }
    out
}

impl PayloadReader for NativeReader {
    fn backend_id(&self) -> &str {
        NATIVE_BACKEND_ID
    }

    fn check(&self, payload: &[u8], limits: &Limits) -> PayloadCheck {
        match decode_native_program(payload, limits) {
            Err(e) => PayloadCheck {
                issues: vec![PayloadIssue::from_error(rules::PAYLOAD_STRUCTURE, &e)],
                named_keys: vec![],
            },
            Ok(p) => PayloadCheck { issues: vec![], named_keys: keys(&p) },
        }
    }

    fn summary(&self, payload: &[u8], limits: &Limits) -> Result<PayloadSummary> {
        let p = decode_native_program(payload, limits)?;
        let mut nodes = BTreeMap::new();
        let mut tensors = vec![];
        for m in &p.methods {
            for n in &m.graph.nodes {
                let kind = n.target.clone().unwrap_or_else(|| format!("{:?}", n.op_kind));
                let n = nodes.entry(kind).or_insert(0usize);
                *n = n.saturating_add(1);
            }
            for c in m.constants.iter().flatten() {
                tensors.push(format!("{}.{}: {:?} -> key {}", m.name, c.name, c.meta.dtype, c.data_key));
            }
        }
        Ok(PayloadSummary {
            format: format!("native NPTG version {}", p.version.as_deref().unwrap_or("?")),
            nodes,
            tensors,
            named_keys: keys(&p).into_iter().map(|k| k.key).collect(),
        })
    }

    fn to_json(&self, payload: &[u8], limits: &Limits) -> Result<serde_json::Value> {
        Ok(native_program_to_json(&decode_native_program(payload, limits)?))
    }
}
