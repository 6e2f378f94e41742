//! The classes breaking the `.ptd` data file and link rules.

use std::borrow::Cow;

use pte_file::ptd::PtdLayout;
use pte_schema::{DataSegment, NamedData};
use pte_verify::rules as pte_rules;

use crate::corruption::{class, Corruption};
use crate::edit::*;
use pte_core::FileKind;

use super::edits::*;

/// One class per `.ptd` data file and link rule the corruption catalogue does not break.
pub(super) static CLASSES: &[Corruption] = &[
    class!(
        "ptd.structure",
        pte_rules::PTD_STRUCTURE,
        Ptd,
        "the named_data offset is 0",
        rule(pte_rules::PTD_STRUCTURE),
        |b| {
            let mut out = b.to_vec();
            let root = follow(&out, 0)?;
            let slot = field_slot(&out, root, 8)?;
            put_u32(&mut out, slot, 0)?;
            Ok(out)
        }
    ),
    class!("ptd.fields", pte_rules::PTD_FIELDS, Ptd, "the first key is absent", rule(pte_rules::PTD_FIELDS), |b| {
        ptd_model(b, |f| {
            f.flat_tensor.named_data.iter_mut().flatten().next().ok_or("no key")?.key = None;
            Ok(())
        })
    }),
    class!(
        "ptd.version",
        pte_rules::PTD_VERSION,
        Ptd,
        "the .ptd schema version is 1",
        rule(pte_rules::PTD_VERSION),
        |b| {
            ptd_model(b, |f| {
                f.flat_tensor.version = 1;
                Ok(())
            })
        }
    ),
    class!(
        "ptd.duplicate_key",
        pte_rules::PTD_DUPLICATE_KEY,
        Ptd,
        "the first key appears a second time",
        rule(pte_rules::PTD_DUPLICATE_KEY),
        |b| {
            ptd_model(b, |f| {
                let named = f.flat_tensor.named_data.get_or_insert_with(Vec::new);
                let first = named.first().cloned().ok_or("no key")?;
                named.push(first);
                Ok(())
            })
        }
    ),
    class!(
        "ptd.layout",
        pte_rules::PTD_LAYOUT,
        Ptd,
        "a tensor layout's dim_order repeats a dimension",
        rule(pte_rules::PTD_LAYOUT),
        |b| {
            ptd_model(b, |f| {
                let layout = first_ptd_layout(f)?;
                let rank = layout.sizes.as_ref().map_or(0, Vec::len).max(1);
                layout.sizes = Some(vec![1; rank.max(2)]);
                layout.dim_order = Some(vec![0; rank.max(2)]);
                Ok(())
            })
        }
    ),
    class!(
        "ptd.size",
        pte_rules::PTD_SIZE,
        Ptd,
        "a tensor layout gains a leading dimension of 2, doubling its byte size",
        rule(pte_rules::PTD_SIZE),
        |b| {
            ptd_model(b, |f| {
                let layout = first_ptd_layout(f)?;
                layout.sizes.get_or_insert_with(Vec::new).insert(0, 2);
                let order = layout.dim_order.get_or_insert_with(Vec::new);
                for d in order.iter_mut() {
                    *d = d.saturating_add(1);
                }
                order.insert(0, 0);
                Ok(())
            })
        }
    ),
    class!(
        "link.missing",
        pte_rules::LINK_MISSING,
        Pte,
        "an EXTERNAL tensor names a key no .ptd has (verify with --ptd)",
        rule(pte_rules::LINK_MISSING),
        |b| {
            pte_model(b, |p| {
                let t = first_external(p)?;
                if let Some(e) = t.extra_tensor_info.as_mut() {
                    e.fully_qualified_name = Some("pte-mutate/missing".into());
                }
                Ok(())
            })
        }
    ),
    class!(
        "link.duplicate",
        pte_rules::LINK_DUPLICATE,
        Pte,
        "the program's own named data also holds an EXTERNAL tensor's key (verify with --ptd)",
        rule(pte_rules::LINK_DUPLICATE),
        |b| {
            repacked(b, |p| {
                let key = first_external(p)?.fqn().ok_or("the EXTERNAL tensor has no name")?.to_string();
                let table = p.program.segments.get_or_insert_with(Vec::new);
                table.push(DataSegment { offset: 0, size: 4 });
                let index = u32::try_from(table.len().saturating_sub(1)).map_err(|e| e.to_string())?;
                p.segments.push(Cow::Owned(vec![0; 4]));
                p.program
                    .named_data
                    .get_or_insert_with(Vec::new)
                    .push(NamedData { key: Some(key), segment_index: index });
                Ok(())
            })
        }
    ),
    class!(
        "link.layout",
        pte_rules::LINK_LAYOUT,
        Pte,
        "an EXTERNAL tensor's dtype no longer matches its .ptd layout (verify with --ptd)",
        rule(pte_rules::LINK_LAYOUT),
        |b| {
            pte_model(b, |p| {
                let t = first_external(p)?;
                t.scalar_type = pte_schema::ScalarType(if t.scalar_type.0 == 3 { 6 } else { 3 });
                Ok(())
            })
        }
    ),
    class!(
        "link.size",
        pte_rules::LINK_SIZE,
        Ptd,
        "a .ptd blob is 16 bytes longer than its tensor (verify the program with --ptd)",
        rule(pte_rules::LINK_SIZE),
        |b| {
            ptd_model_as(b, PtdLayout::Python { segment_alignment: 128 }, |f| {
                let seg = f.flat_tensor.named_data.iter().flatten().next().ok_or("no key")?.segment_index;
                let i = usize::try_from(seg).map_err(|e| e.to_string())?;
                let data = f.segments.get_mut(i).ok_or("no segment")?;
                data.to_mut().extend_from_slice(&[0; 16]);
                let s = f.flat_tensor.segments.as_mut().and_then(|s| s.get_mut(i)).ok_or("no segment entry")?;
                s.size = s.size.saturating_add(16);
                Ok(())
            })
        }
    ),
];
