//! The classes breaking the `.bpte` bundle rules.
use pte_verify::rules as pte_rules;

use crate::corruption::{class, Corruption};
use crate::edit::*;
use pte_core::FileKind;

use super::edits::*;

/// One class per `.bpte` bundle rule the corruption catalogue does not break.
pub(super) static CLASSES: &[Corruption] = &[
    class!(
        "bpte.program",
        pte_rules::BPTE_PROGRAM,
        Bpte,
        "the embedded program is removed",
        rule(pte_rules::BPTE_PROGRAM),
        |b| {
            bundle_model(b, |m| {
                m.program = None;
                Ok(())
            })
        }
    ),
    class!(
        "bpte.alignment",
        pte_rules::BPTE_ALIGNMENT,
        Bpte,
        "8 bytes after the identifier move everything, the program off the 16-byte alignment",
        rule(pte_rules::BPTE_ALIGNMENT),
        |b| {
            // Offsets inside a flatbuffer are relative, so inserting bytes
            // right after the identifier moves every object and only the root
            // offset needs adjusting; 8 keeps every scalar aligned.
            let root = get_u32(b, 0)?.checked_add(8).ok_or("root offset overflows")?;
            let mut out = Vec::with_capacity(b.len().saturating_add(8));
            out.extend_from_slice(&root.to_le_bytes());
            out.extend_from_slice(b.get(4..8).ok_or("short file")?);
            out.extend_from_slice(&[0; 8]);
            out.extend_from_slice(b.get(8..).ok_or("short file")?);
            Ok(out)
        }
    ),
    class!(
        "bpte.value_kind",
        pte_rules::BPTE_VALUE_KIND,
        Bpte,
        "a test case's first input becomes an Int where the method takes a tensor",
        rule(pte_rules::BPTE_VALUE_KIND),
        |b| {
            bundle_model(b, |m| {
                let input = test_cases_mut(m)
                    .find_map(|c| c.inputs.as_mut().and_then(|i| i.first_mut()))
                    .ok_or("no test-case input")?;
                *input = match input {
                    pte_schema::bundled::BundledValue::Tensor(_) => pte_schema::bundled::BundledValue::Int(1),
                    _ => pte_schema::bundled::BundledValue::None,
                };
                Ok(())
            })
        }
    ),
];
